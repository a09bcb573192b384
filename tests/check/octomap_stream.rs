//! The octomap reader (`scene::octomap_stream`) against octomap's own C++ library, on
//! hand-built trees, and on damaged streams.
//!
//! Reference data: `interop/octomap_writer/octomap_writer.cpp`, built and run by
//! `scripts/test.sh` before `cargo test`, writes `.bt`/`.ot` files and raw streams with
//! octomap and lists the occupied leaves octomap reads back from each (directory in
//! `CCD_GUARD_OCTOMAP_REFERENCE`, else `target/octomap_reference/files` if present). Without
//! it the comparison is skipped with a loud message.
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::scene::load_scene;
use ccd_guard::scene::octomap_stream::{
    BINARY_FILE_HEADER, FULL_FILE_HEADER, OctomapError, decode_stream, voxel_map_from_bytes, voxel_map_from_file, voxel_map_from_message,
};
use ccd_guard::shape::{TREE_DEPTH, Voxel};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common::cli::ccd_guard;
use crate::common::mutate::{TRIP_BYTES, mutate_with};
use crate::common::rng::{Lcg64, Words};

const REFERENCE_ENV: &str = "CCD_GUARD_OCTOMAP_REFERENCE";

fn reference_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(REFERENCE_ENV) {
        let dir = PathBuf::from(dir);
        assert!(dir.join("manifest.txt").is_file(), "{REFERENCE_ENV}={} holds no manifest.txt (see interop/octomap_writer/build.sh)", dir.display());
        return Some(dir);
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/octomap_reference/files");
    if dir.join("manifest.txt").is_file() {
        return Some(dir);
    }
    // Straight to stderr, past the test harness's capture: seen without --nocapture.
    let bar = "!".repeat(78);
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\nSKIPPED: octomap reference data absent ({REFERENCE_ENV} unset, no {}).\n\
         Run scripts/test.sh, which builds interop/octomap_writer with liboctomap-dev and writes it.\n{bar}",
        dir.display()
    );
    None
}

/// A leaves file of the writer: resolution, octomap's node count, occupied leaves.
struct Leaves {
    resolution: f64,
    nodes: usize,
    voxels: Vec<Voxel>,
}

fn read_leaves(path: &Path) -> Leaves {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines();
    let mut field = |name: &str| lines.next().and_then(|l| l.strip_prefix(name)).unwrap_or_else(|| panic!("{}: no '{name}'", path.display())).to_string();
    let resolution = field("res ").parse().unwrap();
    let nodes = field("nodes ").parse().unwrap();
    let voxels = lines
        .map(|line| {
            let v: Vec<u32> = line.split(' ').map(|w| w.parse().unwrap()).collect();
            assert!(v.len() == 4 && v[3] <= 16, "{}: bad line {line}", path.display());
            Voxel { min: [v[0] as u16, v[1] as u16, v[2] as u16], level: TREE_DEPTH - v[3] as u8 }
        })
        .collect();
    Leaves { resolution, nodes, voxels }
}

fn assert_same_leaves(ours: &[Voxel], theirs: &[Voxel], what: &str) {
    let (mut a, mut b) = (ours.to_vec(), theirs.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        let first = a.iter().zip(&b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
        panic!(
            "{what}: {} leaves read, octomap has {}; first difference at sorted index {first}: ours {:?}, octomap {:?}",
            a.len(),
            b.len(),
            a.get(first),
            b.get(first)
        );
    }
}

#[test]
fn octomap_reference_files_and_streams_read_exactly_as_octomap_reads_them() {
    let Some(dir) = reference_dir() else { return };
    let manifest = fs::read_to_string(dir.join("manifest.txt")).unwrap();
    let (mut compared, mut leaves_total, mut rejected) = (0, 0, 0);
    let mut kinds = std::collections::BTreeSet::new();
    for line in manifest.lines() {
        let words: Vec<&str> = line.split(' ').collect();
        let file = dir.join(words.last().unwrap());
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        match words[..] {
            ["reject", _, id] => {
                let error = voxel_map_from_file(&dir.join(words[1])).unwrap_err();
                assert_eq!(error, OctomapError::UnknownId(id.to_string()), "{}", words[1]);
                assert!(error.to_string().contains(id));
                rejected += 1;
                continue;
            }
            ["stream", kind, _] | ["file", kind] => kinds.insert(kind.rsplit('.').next().unwrap().to_string()),
            _ => panic!("manifest line {line}"),
        };
        let expected = read_leaves(&dir.join(format!("{name}.leaves")));
        let voxels = if words[0] == "stream" {
            let binary = words[1] == "binary";
            let bytes = fs::read(&file).unwrap();
            let tree = decode_stream(binary, &bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(tree.nodes, expected.nodes, "{name}: nodes");
            let map = voxel_map_from_message(binary, "OcTree", expected.resolution, &bytes).unwrap();
            assert_eq!(map.voxels().len(), tree.voxels.len(), "{name}: no duplicates");
            map.voxels().to_vec()
        } else {
            let map = voxel_map_from_file(&file).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(map.resolution(), expected.resolution, "{name}: resolution");
            map.voxels().to_vec()
        };
        assert_same_leaves(&voxels, &expected.voxels, &name);
        // The tree that was written holds the same occupied leaves (scenes, not crafted streams).
        let written = dir.join(format!("{name}.tree.leaves"));
        if written.is_file() {
            assert_same_leaves(&voxels, &read_leaves(&written).voxels, &format!("{name} (as written)"));
        }
        compared += 1;
        leaves_total += voxels.len();
    }
    eprintln!("octomap reference: {compared} files and streams compared ({leaves_total} occupied leaves), {rejected} other tree types rejected");
    assert!(compared >= 30 && rejected >= 3, "the manifest lists too little");
    assert_eq!(kinds.into_iter().collect::<Vec<_>>(), ["binary", "bt", "full", "ot"]);

    // Timing on octomap's own 10^5-leaf map.
    for (file, binary) in [("large_surface_res001.binary", true), ("large_surface_res001.full", false)] {
        let bytes = fs::read(dir.join(file)).unwrap();
        let (decode, build, leaves) = time_decoding(binary, 0.01, &bytes);
        eprintln!("octomap's {file}: {} bytes, {leaves} occupied leaves: decode {decode:.2?}, decode + VoxelMap {build:.2?}", bytes.len());
    }
}

// ---------------------------------------------------------------------------------------
// Hand-built trees and our own writer of both streams (pre-order, children in index order).

#[derive(Clone, Debug)]
enum Node {
    Leaf(f32),
    /// Log-odds (ignored for occupancy) and the existing children by index, ascending.
    Inner(f32, Vec<(u8, Node)>),
}

/// A random tree below depth `depth`: inner nodes with 1-8 children down to `max_depth`.
fn random_tree(rng: &mut Lcg64, depth: u8, max_depth: u8, fan: usize) -> Node {
    let leaf_value = |rng: &mut Lcg64| [-2.0, -0.4, 0.0, -0.0, 0.4, 0.85, 3.5, -1e-7][rng.below(8)];
    if depth > 0 && (depth == max_depth || rng.below(4) == 0) {
        return Node::Leaf(leaf_value(rng));
    }
    let mut children = Vec::new();
    for i in 0..8u8 {
        if rng.below(8) < fan || (i == 7 && children.is_empty()) {
            children.push((i, random_tree(rng, depth + 1, max_depth, fan)));
        }
    }
    Node::Inner(leaf_value(rng), children)
}

fn insert(node: &mut Node, key: [u16; 3], depth: u8, value: f32) {
    if depth == TREE_DEPTH {
        *node = Node::Leaf(value);
        return;
    }
    if let Node::Leaf(_) = node {
        *node = Node::Inner(value, Vec::new());
    }
    let Node::Inner(_, children) = node else { unreachable!() };
    let bit = TREE_DEPTH - 1 - depth;
    let i = (0..3).map(|k| (((key[k] >> bit) & 1) as u8) << k).sum::<u8>();
    let at = match children.binary_search_by_key(&i, |c| c.0) {
        Ok(at) => at,
        Err(at) => {
            children.insert(at, (i, Node::Leaf(value)));
            at
        }
    };
    insert(&mut children[at].1, key, depth + 1, value);
}

fn occupied_leaves(node: &Node, min: [u16; 3], depth: u8, out: &mut Vec<Voxel>) {
    match node {
        Node::Leaf(v) if *v >= 0.0 => out.push(Voxel { min, level: TREE_DEPTH - depth }),
        Node::Leaf(_) => {}
        Node::Inner(_, children) => {
            let size = 1u32 << (TREE_DEPTH - depth - 1);
            for (i, c) in children {
                let m = std::array::from_fn(|k| (min[k] as u32 + ((*i as u32 >> k) & 1) * size) as u16);
                occupied_leaves(c, m, depth + 1, out);
            }
        }
    }
}

fn write_binary(node: &Node, out: &mut Vec<u8>) {
    let Node::Inner(_, children) = node else { panic!("a binary stream starts at an inner node") };
    let mut bits = 0u16;
    for (i, c) in children {
        let pair = match c {
            Node::Inner(..) => 0b11,
            Node::Leaf(v) if *v >= 0.0 => 0b10, // bit 2i + 1: occupied
            Node::Leaf(_) => 0b01,              // bit 2i: free
        };
        bits |= pair << (2 * i);
    }
    out.extend([bits as u8, (bits >> 8) as u8]);
    for (_, c) in children {
        if let Node::Inner(..) = c {
            write_binary(c, out);
        }
    }
}

fn write_full(node: &Node, out: &mut Vec<u8>) {
    match node {
        Node::Leaf(v) => {
            out.extend(v.to_le_bytes());
            out.push(0);
        }
        Node::Inner(v, children) => {
            out.extend(v.to_le_bytes());
            out.push(children.iter().map(|(i, _)| 1u8 << i).sum());
            for (_, c) in children {
                write_full(c, out);
            }
        }
    }
}

fn count_nodes(node: &Node) -> usize {
    match node {
        Node::Leaf(_) => 1,
        Node::Inner(_, children) => 1 + children.iter().map(|(_, c)| count_nodes(c)).sum::<usize>(),
    }
}

fn file_bytes(binary: bool, resolution: f64, tree: &Node) -> Vec<u8> {
    let mut stream = Vec::new();
    if binary {
        write_binary(tree, &mut stream)
    } else {
        write_full(tree, &mut stream)
    };
    let first = if binary { BINARY_FILE_HEADER } else { FULL_FILE_HEADER };
    let header = format!(
        "{first}\n# (feel free to add / change comments, but leave the first line as it is!)\n#\nid OcTree\nsize {}\nres {resolution}\ndata\n",
        count_nodes(tree)
    );
    [header.into_bytes(), stream].concat()
}

fn seed_trees() -> Vec<Node> {
    let mut rng = Lcg64::new(2024);
    let mut trees = vec![
        random_tree(&mut rng, 0, 4, 3),
        random_tree(&mut rng, 0, 16, 2),
        random_tree(&mut rng, 0, 7, 6),
        random_tree(&mut rng, 0, 2, 8),
        Node::Inner(0.0, vec![(5, Node::Leaf(1.0))]),
    ];
    let mut surface = Node::Inner(0.0, Vec::new());
    for i in 0..12u16 {
        for j in 0..12u16 {
            insert(&mut surface, [32760 + i, 32760 + j, 32768 + (i * j) % 3], 0, if (i + j) % 5 == 0 { -1.0 } else { 2.0 });
        }
    }
    trees.push(surface);
    trees
}

#[test]
fn hand_built_trees_read_back_in_both_streams_and_files() {
    for (t, tree) in seed_trees().iter().enumerate() {
        let mut expected = Vec::new();
        occupied_leaves(tree, [0; 3], 0, &mut expected);
        for binary in [true, false] {
            let mut stream = Vec::new();
            if binary {
                write_binary(tree, &mut stream)
            } else {
                write_full(tree, &mut stream)
            };
            let decoded = decode_stream(binary, &stream).unwrap();
            assert_eq!((decoded.nodes, decoded.bytes), (count_nodes(tree), stream.len()), "tree {t}, binary {binary}");
            assert_same_leaves(&decoded.voxels, &expected, &format!("tree {t}, binary {binary}"));
            let map = voxel_map_from_bytes(&file_bytes(binary, 0.025, tree)).unwrap();
            assert_eq!(map.resolution(), 0.025);
            assert_same_leaves(map.voxels(), &expected, &format!("file of tree {t}, binary {binary}"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Damaged streams: no panic, no hang, a clean error or a map within the data's bounds.

fn check_clean(result: Result<Vec<Voxel>, OctomapError>, len: usize, bytes_per_voxel_bound: usize, what: &str) {
    match result {
        Ok(voxels) => assert!(voxels.len() <= len * bytes_per_voxel_bound + 1, "{what}: {} voxels from {len} bytes", voxels.len()),
        Err(e) => {
            assert!(!e.to_string().is_empty(), "{what}");
            if let OctomapError::Truncated { at, needed, left } = e {
                assert!(at + left <= len && left < needed, "{what}: {e}");
            }
            if let OctomapError::TooDeep { at } | OctomapError::NanLogOdds { at } = e {
                assert!(at < len, "{what}: {e}");
            }
        }
    }
}

#[test]
fn mutated_streams_and_files_fail_cleanly() {
    let trees = seed_trees();
    let mut seeds: Vec<(u8, Vec<u8>)> = Vec::new();
    for tree in &trees {
        let (mut binary, mut full) = (Vec::new(), Vec::new());
        write_binary(tree, &mut binary);
        write_full(tree, &mut full);
        seeds.extend([(0, binary), (1, full), (2, file_bytes(true, 0.05, tree)), (3, file_bytes(false, 0.01, tree))]);
    }
    let all: Vec<Vec<u8>> = seeds.iter().map(|s| s.1.clone()).collect();
    let mut rng = Lcg64::new(7);
    let (mut ok, mut errors) = (0, std::collections::BTreeMap::<String, usize>::new());
    let start = Instant::now();
    for case in 0..2000 {
        let (kind, seed) = &seeds[case % seeds.len()];
        let mut bytes = seed.clone();
        mutate_with(&mut rng, &all, &mut bytes, &TRIP_BYTES[..7]);
        let what = format!("case {case} (kind {kind}, {} bytes)", bytes.len());
        let result = match kind {
            0 => decode_stream(true, &bytes).map(|t| t.voxels),
            1 => decode_stream(false, &bytes).map(|t| t.voxels),
            _ => voxel_map_from_bytes(&bytes).map(|m| m.voxels().to_vec()),
        };
        // Either stream reader on any bytes, too.
        check_clean(decode_stream(true, &bytes).map(|t| t.voxels), bytes.len(), 4, &what);
        check_clean(decode_stream(false, &bytes).map(|t| t.voxels), bytes.len(), 1, &what);
        check_clean(voxel_map_from_message(case % 2 == 0, "OcTree", 0.05, &bytes).map(|m| m.voxels().to_vec()), bytes.len(), 4, &what);
        match &result {
            Ok(_) => ok += 1,
            Err(e) => *errors.entry(format!("{e:?}").split([' ', '(']).next().unwrap().to_string()).or_default() += 1,
        }
        check_clean(result, bytes.len(), 4, &what);
    }
    let elapsed = start.elapsed();
    eprintln!("2000 damaged streams in {elapsed:.2?}: {ok} still read, errors {errors:?}");
    assert!(errors.len() >= 4, "the mutations reach several errors: {errors:?}");
    assert!(elapsed < Duration::from_secs(60));
}

// ---------------------------------------------------------------------------------------
// Timing: a 10^5-leaf map.

/// Best of a few runs: (decode, decode + VoxelMap::new, occupied leaves).
fn time_decoding(binary: bool, resolution: f64, bytes: &[u8]) -> (Duration, Duration, usize) {
    let (mut decode, mut build, mut leaves) = (Duration::MAX, Duration::MAX, 0);
    for _ in 0..7 {
        let start = Instant::now();
        let tree = decode_stream(binary, bytes).unwrap();
        decode = decode.min(start.elapsed());
        leaves = tree.voxels.len();
        let start = Instant::now();
        let map = voxel_map_from_message(binary, "OcTree", resolution, bytes).unwrap();
        build = build.min(start.elapsed());
        assert_eq!(map.voxels().len(), leaves);
    }
    (decode, build, leaves)
}

#[test]
fn decoding_a_map_of_100000_leaves() {
    let mut tree = Node::Inner(0.0, Vec::new());
    let mut rng = Lcg64::new(99);
    for i in 0..320u16 {
        for j in 0..320u16 {
            let z = 32768 + ((i / 7 + j / 11) % 9) + (rng.below(2) as u16);
            insert(&mut tree, [32608 + i, 32608 + j, z], 0, 2.0);
        }
    }
    let mut expected = Vec::new();
    occupied_leaves(&tree, [0; 3], 0, &mut expected);
    assert!(expected.len() >= 100_000);
    for binary in [true, false] {
        let mut stream = Vec::new();
        if binary {
            write_binary(&tree, &mut stream)
        } else {
            write_full(&tree, &mut stream)
        };
        let (decode, build, leaves) = time_decoding(binary, 0.01, &stream);
        assert_eq!(leaves, expected.len());
        let kind = if binary { "binary" } else { "full" };
        eprintln!("{kind} stream, {} bytes, {leaves} occupied leaves: decode {decode:.2?}, decode + VoxelMap {build:.2?}", stream.len());
        if !cfg!(debug_assertions) {
            assert!(build < Duration::from_millis(200), "{kind}: {build:?} (target 20 ms)");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scene files.

const ROBOT: &str = r#"<robot name="two">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <link name="arm"><collision><origin xyz="0.25 0 0"/><geometry><box size="0.4 0.04 0.04"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>"#;

fn small_bt() -> Vec<u8> {
    file_bytes(true, 0.05, &Node::Inner(0.0, vec![(1, Node::Leaf(1.0)), (6, Node::Inner(0.0, vec![(0, Node::Leaf(2.0)), (3, Node::Leaf(-2.0))]))]))
}

#[test]
fn a_scene_octomap_that_cannot_be_read_is_an_error_naming_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let scene = dir.path().join("scene.yaml");
    let resolver = ResourceResolver::default();
    let mut bytes = small_bt();
    bytes.truncate(bytes.len() - 1);
    fs::write(dir.path().join("cell.bt"), &bytes).unwrap();
    let cases = [
        ("type: octomap\n    file: cell.bt", "cell.bt", "truncated"),
        ("type: octomap\n    file: missing.bt", "missing.bt", "cannot read"),
        ("type: octomap", "scene.yaml", "needs 'file'"),
        ("type: octomap\n    file: cell.bt\n    scale: [1, 1, 1]", "scene.yaml", "no 'scale'"),
        ("type: box\n    dimensions: [1, 1, 1]\n    file: cell.bt", "scene.yaml", "'file' is for octomap objects"),
    ];
    for (object, file, words) in cases {
        fs::write(&scene, format!("objects:\n  - id: map\n    {object}\n")).unwrap();
        let error = load_scene(&scene, &resolver).unwrap_err();
        assert!(error.file.as_ref().unwrap().ends_with(file), "{object}: {error}");
        assert!(error.to_string().contains(words), "{object}: {error}");
    }
    // At the CLI: exit status 2, one line naming the octomap.
    fs::write(&scene, "objects:\n  - id: map\n    type: octomap\n    file: cell.bt\n").unwrap();
    let urdf = dir.path().join("robot.urdf");
    fs::write(&urdf, ROBOT).unwrap();
    let trajectory = dir.path().join("traj.yaml");
    fs::write(&trajectory, "joint_names: [j1]\npoints:\n  - positions: [0.0]\n    time_from_start: 0.0\n  - positions: [1.0]\n    time_from_start: 1.0\n")
        .unwrap();
    let out = ccd_guard()
        .args(["check", "--method", "sampled", "--urdf"])
        .arg(&urdf)
        .arg("--scene")
        .arg(&scene)
        .arg("--trajectory")
        .arg(&trajectory)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cell.bt") && stderr.contains("cannot read octomap") && !stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_scene_octomap_becomes_a_voxel_map_object() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("maps")).unwrap();
    fs::write(dir.path().join("maps/cell.bt"), small_bt()).unwrap();
    let scene = dir.path().join("scene.yaml");
    fs::write(&scene, "objects:\n  - id: camera_map\n    type: octomap\n    file: maps/cell.bt\n    pose: {position: [1, 0, 0]}\n").unwrap();
    let loaded = load_scene(&scene, &ResourceResolver::default()).unwrap();
    let map = voxel_map_from_file(&dir.path().join("maps/cell.bt")).unwrap();
    assert_eq!(loaded.objects.len(), 1);
    assert_eq!(loaded.objects[0].id, "camera_map");
    assert_eq!(loaded.objects[0].pose.translation.vector.x, 1.0);
    assert_eq!(loaded.objects[0].shape.local_aabb(), map.local_aabb());
}
