// Reference data for tests/check/octomap_stream.rs, written and read back by octomap's own C++
// library (Debian's liboctomap-dev): usage `octomap_writer OUT_DIR`.
//
// For a few deterministic scenes it writes the four forms of a tree:
//   NAME.bt      OcTree::writeBinary (max-likelihood, pruned; a copy of the tree)
//   NAME.ot      AbstractOcTree::write (header + writeData)
//   NAME.binary  writeBinaryData, the raw stream of a binary octomap_msgs/Octomap
//   NAME.full    writeData, the raw stream of a full octomap_msgs/Octomap
// and for each form FILE two lists of occupied leaves:
//   FILE.leaves       the tree octomap reads back from FILE (readBinary, AbstractOcTree::read,
//                     readBinaryData, readData)
//   FILE.tree.leaves  the tree that was written (for .bt: the pruned max-likelihood copy)
// A leaves file starts with `res R` and `nodes N` (octomap's size()), then one line per leaf
// that isNodeOccupied: `KX KY KZ DEPTH`, the key of its lowest corner at depth 16
// (getIndexKey) and its depth. Hand-made streams (crafted_*) test how octomap reads corner
// cases; files of other tree types are listed to be rejected. manifest.txt lists everything:
//   stream binary|full FILE   a raw stream
//   file FILE                 a .bt or .ot file
//   reject FILE ID            a file of tree type ID
#include <octomap/ColorOcTree.h>
#include <octomap/OcTree.h>
#include <octomap/OcTreeStamped.h>
#include <octomap/octomap.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using octomap::OcTree;
using octomap::OcTreeKey;
using octomap::point3d;

namespace {

std::string out_dir;
std::ofstream manifest;

struct Rng {
  uint64_t s;
  uint32_t next() {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    return uint32_t(s >> 33);
  }
  double uniform(double a, double b) { return a + (b - a) * (next() / 2147483648.0); }
  int below(int n) { return int(next() % uint32_t(n)); }
};

void fail(const std::string& what) {
  std::cerr << "octomap_writer: " << what << std::endl;
  std::exit(1);
}

std::string path(const std::string& name) { return out_dir + "/" + name; }

void write_bytes(const std::string& name, const std::string& bytes) {
  std::ofstream f(path(name), std::ios::binary);
  f.write(bytes.data(), std::streamsize(bytes.size()));
  if (!f) fail("cannot write " + name);
}

void write_leaves(const OcTree& tree, const std::string& name) {
  std::ofstream f(path(name));
  f << "res " << std::setprecision(17) << tree.getResolution() << "\n";
  f << "nodes " << tree.size() << "\n";
  for (auto it = tree.begin_leafs(), end = tree.end_leafs(); it != end; ++it) {
    if (tree.isNodeOccupied(*it)) {
      OcTreeKey k = it.getIndexKey();
      f << k[0] << ' ' << k[1] << ' ' << k[2] << ' ' << it.getDepth() << '\n';
    }
  }
  if (!f) fail("cannot write " + name);
}

// A raw stream and the tree octomap reads from it, as octomap_msgs does (nothing read from
// empty data).
void stream(const std::string& name, bool binary, const std::string& bytes, double res) {
  write_bytes(name, bytes);
  OcTree back(res);
  if (!bytes.empty()) {
    std::istringstream in(bytes);
    if (binary)
      back.readBinaryData(in);
    else
      back.readData(in);
  }
  write_leaves(back, name + ".leaves");
  manifest << "stream " << (binary ? "binary " : "full ") << name << "\n";
}

void scene(const std::string& name, OcTree& tree) {
  std::ostringstream binary, full;
  tree.writeBinaryData(binary);
  tree.writeData(full);
  stream(name + ".binary", true, binary.str(), tree.getResolution());
  stream(name + ".full", false, full.str(), tree.getResolution());
  write_leaves(tree, name + ".binary.tree.leaves");
  write_leaves(tree, name + ".full.tree.leaves");

  if (!tree.write(path(name + ".ot"))) fail("write " + name + ".ot");
  octomap::AbstractOcTree* read = octomap::AbstractOcTree::read(path(name + ".ot"));
  OcTree* ot = dynamic_cast<OcTree*>(read);
  if (!ot) fail("read back " + name + ".ot");
  write_leaves(*ot, name + ".ot.leaves");
  delete read;
  write_leaves(tree, name + ".ot.tree.leaves");
  manifest << "file " << name << ".ot\n";

  OcTree copy(tree);  // writeBinary turns the tree to max-likelihood and prunes it
  if (!copy.writeBinary(path(name + ".bt"))) fail("write " + name + ".bt");
  write_leaves(copy, name + ".bt.tree.leaves");
  OcTree bt(0.1);
  if (!bt.readBinary(path(name + ".bt"))) fail("read back " + name + ".bt");
  write_leaves(bt, name + ".bt.leaves");
  manifest << "file " << name << ".bt\n";
  std::cout << name << ": " << tree.size() << " nodes, " << tree.getNumLeafNodes() << " leaves, .bt " << copy.size() << " nodes\n";
}

OcTreeKey key(int x, int y, int z) { return OcTreeKey(uint16_t(x), uint16_t(y), uint16_t(z)); }

// Random points, each hit once, some of them then missed twice (free), and the key grid's
// extreme corners.
void random_points() {
  OcTree tree(0.05);
  Rng rng{1};
  std::vector<point3d> points;
  for (int i = 0; i < 3000; ++i) points.emplace_back(rng.uniform(-3, 3), rng.uniform(-3, 3), rng.uniform(-1, 2));
  for (const auto& p : points) tree.updateNode(p, true);
  for (int i = 0; i < 500; ++i) {
    tree.updateNode(points[size_t(i) * 6], false);
    tree.updateNode(points[size_t(i) * 6], false);
  }
  for (int c = 0; c < 8; ++c) tree.updateNode(key(c & 1 ? 65535 : 0, c & 2 ? 65535 : 0, c & 4 ? 65535 : 0), true);
  scene("random_points_res005", tree);
}

// A shelf seen by a depth camera: a board and a back wall, two scans (rays mark free space,
// end points occupied; updates prune on the way).
void shelf_scan() {
  OcTree tree(0.01);
  octomap::Pointcloud cloud;
  for (double y = -0.4; y <= 0.4; y += 0.01) {
    for (double x = 0.4; x <= 0.9; x += 0.01) cloud.push_back(float(x), float(y), 0.75f);
    for (double z = 0.3; z <= 1.2; z += 0.01) cloud.push_back(0.9f, float(y), float(z));
  }
  point3d origin(0.0f, 0.0f, 1.4f);
  tree.insertPointCloud(cloud, origin);
  tree.insertPointCloud(cloud, origin);
  scene("shelf_scan_res001", tree);
}

// Solid blocks that prune into large leaves, a free block, a block with a hole, a block
// pruned and then broken up again.
void pruned_blocks() {
  OcTree tree(0.1);
  const int c = 32768;
  auto fill = [&](int x0, int y0, int z0, int n, bool occupied, int times) {
    for (int t = 0; t < times; ++t)
      for (int x = x0; x < x0 + n; ++x)
        for (int y = y0; y < y0 + n; ++y)
          for (int z = z0; z < z0 + n; ++z) tree.updateNode(key(x, y, z), occupied);
  };
  fill(c + 16, c + 16, c + 16, 16, true, 6);
  fill(c - 8, c - 8, c - 8, 8, false, 6);
  fill(c + 64, c, c, 8, true, 6);
  for (int t = 0; t < 6; ++t) tree.updateNode(key(c + 64, c, c), false);
  fill(c - 32, c + 32, c - 32, 4, true, 6);
  fill(c - 31, c + 40, c - 31, 2, true, 6);  // not aligned: no single pruned leaf
  fill(c + 128, c - 64, c + 8, 8, true, 6);
  for (int t = 0; t < 6; ++t) tree.updateNode(key(c + 131, c - 61, c + 12), false);
  tree.updateInnerOccupancy();
  tree.prune();
  scene("pruned_blocks_res01", tree);
}

// Cells with random sequences of hits and misses (lazy updates, not pruned), and cells set
// to log-odds on and around the occupancy threshold.
void mixed_updates() {
  OcTree tree(0.02);
  Rng rng{7};
  const int c = 32768;
  for (int i = 0; i < 4000; ++i) {
    OcTreeKey k = key(c + rng.below(40) - 20, c + rng.below(40) - 20, c + rng.below(24));
    int updates = 1 + rng.below(6);
    for (int u = 0; u < updates; ++u) tree.updateNode(k, rng.below(3) != 0, true);
  }
  const float values[] = {0.0f, -0.0f, 1e-7f, -1e-7f, 0.4f, -0.4f, 3.5f, -2.0f};
  for (int i = 0; i < 8; ++i) tree.setNodeValue(key(c + 100 + i, c - 100, c + 3), values[i], true);
  tree.updateInnerOccupancy();
  scene("mixed_updates_res002", tree);
}

// A coarse map with leaves near the edges of the key range.
void extremes() {
  OcTree tree(1.0);
  for (int c = 0; c < 8; ++c) {
    tree.updateNode(key(c & 1 ? 65535 : 0, c & 2 ? 65535 : 0, c & 4 ? 65535 : 0), true);
    tree.updateNode(key(c & 1 ? 32768 : 32767, c & 2 ? 32768 : 32767, c & 4 ? 32768 : 32767), c % 3 != 0);
  }
  tree.updateNode(point3d(-1000.2f, 250.7f, 12.0f), true);
  scene("extremes_res1", tree);
}

void empty() {
  OcTree tree(0.05);
  scene("empty_res005", tree);
}

// About 10^5 occupied leaves on a wavy surface (for timing as well).
void large_surface() {
  OcTree tree(0.01);
  const int c = 32768;
  for (int i = 0; i < 320; ++i)
    for (int j = 0; j < 320; ++j) {
      int z = c + int(std::lround(20 * std::sin(i / 15.0) * std::cos(j / 20.0)));
      tree.updateNode(key(c - 160 + i, c - 160 + j, z), true);
    }
  scene("large_surface_res001", tree);
}

std::string full_node(float log_odds, unsigned char children) {
  std::string s(reinterpret_cast<const char*>(&log_odds), sizeof(float));
  s.push_back(char(children));
  return s;
}

// Hand-made streams: how octomap reads corner cases.
void crafted() {
  // A binary root without children ("inner nodes default to occupied").
  stream("crafted_root_only.binary", true, std::string("\0\0", 2), 0.05);
  // Root: child 0 inner without children, child 1 occupied, child 7 free; trailing bytes.
  stream("crafted_inner_empty.binary", true, std::string("\x0b\x40\0\0\xff\xff\xff", 7), 0.05);
  // Leaves on and around the threshold, and a full root without children.
  std::string thresholds = full_node(1.0f, 0xff);
  for (float v : {0.0f, -0.0f, -1e-7f, 1e-7f, INFINITY, -INFINITY, 3.5f, -2.0f}) thresholds += full_node(v, 0);
  stream("crafted_thresholds.full", false, thresholds, 0.02);
  stream("crafted_root_leaf.full", false, full_node(0.0f, 0), 0.02);
}

// Files of other tree types.
void other_types() {
  octomap::ColorOcTree color(0.05);
  color.updateNode(point3d(0.1f, 0.2f, 0.3f), true);
  color.setNodeColor(color.coordToKey(point3d(0.1f, 0.2f, 0.3f)), 255, 0, 0);
  if (!color.write(path("color.ot")) || !color.writeBinary(path("color.bt"))) fail("write color");
  manifest << "reject color.ot ColorOcTree\nreject color.bt ColorOcTree\n";
  octomap::OcTreeStamped stamped(0.05);
  stamped.updateNode(point3d(0.1f, 0.2f, 0.3f), true);
  if (!stamped.write(path("stamped.ot"))) fail("write stamped");
  manifest << "reject stamped.ot OcTreeStamped\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: octomap_writer OUT_DIR" << std::endl;
    return 2;
  }
  out_dir = argv[1];
  std::filesystem::create_directories(out_dir);
  manifest.open(path("manifest.txt.partial"));
  random_points();
  shelf_scan();
  pruned_blocks();
  mixed_updates();
  extremes();
  empty();
  large_surface();
  crafted();
  other_types();
  manifest.close();
  if (!manifest) fail("cannot write manifest.txt");
  std::filesystem::rename(path("manifest.txt.partial"), path("manifest.txt"));
  return 0;
}
