//! A voxel map: the occupied leaves of an occupancy octree (octomap), each a solid
//! axis-aligned cube in the map's frame, with a bounding-volume hierarchy over them that
//! is built once and walked by every query and every stage of the continuous checks.
//!
//! Cubes are kept on octomap's integer key grid: at the finest depth (16) key `k` covers
//! `[(k - 32768) · res, (k - 32767) · res]` on each axis, and a leaf pruned `level`
//! depths above it covers `2^level` keys from a corner whose low `level` bits are zero.
//! Coordinates are computed from keys by one monotone map, so every node's box holds the
//! cubes below it exactly, in floating point too.
//!
//! Memory: 8 bytes per leaf and 16 per hierarchy node (2 nodes per leaf), 40 bytes per
//! occupied leaf in all.
use super::{Cuboid, SupportMap};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Point3, Real, Vector3};

/// The key of the map's centre (octomap's `tree_max_val`).
pub const KEY_CENTRE: i32 = 32768;
/// The deepest level of an octomap (16): keys have this many bits per axis.
pub const TREE_DEPTH: u8 = 16;

/// One occupied leaf: the cube of `2^level` keys per axis from key corner `min`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Voxel {
    pub min: [u16; 3],
    /// Depths above the finest (0: a cube of the map's resolution).
    pub level: u8,
}

impl Voxel {
    /// The number of finest keys along each edge.
    pub fn keys(&self) -> u32 {
        1 << self.level
    }
}

/// A hierarchy node: the key range it covers (inclusive) and what lies below.
#[derive(Clone, Copy, Debug)]
struct VoxelNode {
    min: [u16; 3],
    max: [u16; 3],
    /// `LEAF | voxel index`, or the index of the first of two adjacent children.
    content: u32,
}

const LEAF: u32 = 1 << 31;

/// What lies below a hierarchy node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VoxelNodeContent {
    /// Indices of the two children.
    Children(u32, u32),
    /// Index of the voxel in [`VoxelMap::voxels`].
    Voxel(u32),
}

/// Why a voxel map could not be made.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum VoxelMapError {
    #[error("resolution {0} must be positive and finite")]
    Resolution(Real),
    #[error("voxel at key {min:?} of level {level} is not a cube of the key grid")]
    Misaligned { min: [u16; 3], level: u8 },
    #[error("{0} voxels are more than a map can hold")]
    TooMany(usize),
}

#[derive(Clone, Debug)]
pub struct VoxelMap {
    resolution: Real,
    voxels: Vec<Voxel>,
    nodes: Vec<VoxelNode>,
}

impl VoxelMap {
    /// The map of the given occupied leaves, with its hierarchy: leaves in Morton order
    /// of their corners, split in halves.
    pub fn new(resolution: Real, mut voxels: Vec<Voxel>) -> Result<Self, VoxelMapError> {
        if !(resolution.is_finite() && resolution > 0.0) {
            return Err(VoxelMapError::Resolution(resolution));
        }
        if voxels.len() >= (LEAF as usize) / 2 {
            return Err(VoxelMapError::TooMany(voxels.len()));
        }
        if let Some(v) = voxels.iter().find(|v| v.level > TREE_DEPTH || v.min.iter().any(|&k| (k as u32) & (v.keys() - 1) != 0)) {
            return Err(VoxelMapError::Misaligned { min: v.min, level: v.level });
        }
        voxels.sort_unstable_by_key(|v| morton(v.min));
        voxels.dedup();
        let mut map = Self { resolution, voxels, nodes: Vec::new() };
        if !map.voxels.is_empty() {
            map.nodes.reserve_exact(2 * map.voxels.len() - 1);
            map.nodes.push(VoxelNode { min: [0; 3], max: [0; 3], content: 0 });
            map.fill(0, 0, map.voxels.len());
        }
        Ok(map)
    }

    /// Builds node `index` over `voxels[from..to]`.
    fn fill(&mut self, index: usize, from: usize, to: usize) {
        if to - from == 1 {
            let v = self.voxels[from];
            let last = (v.keys() - 1) as u16;
            self.nodes[index] = VoxelNode { min: v.min, max: v.min.map(|k| k + last), content: LEAF | from as u32 };
            return;
        }
        let children = self.nodes.len();
        self.nodes.push(VoxelNode { min: [0; 3], max: [0; 3], content: 0 });
        self.nodes.push(VoxelNode { min: [0; 3], max: [0; 3], content: 0 });
        let middle = from + (to - from) / 2;
        self.fill(children, from, middle);
        self.fill(children + 1, middle, to);
        let (l, r) = (self.nodes[children], self.nodes[children + 1]);
        self.nodes[index] =
            VoxelNode { min: std::array::from_fn(|k| l.min[k].min(r.min[k])), max: std::array::from_fn(|k| l.max[k].max(r.max[k])), content: children as u32 };
    }

    pub fn resolution(&self) -> Real {
        self.resolution
    }

    /// The occupied leaves.
    pub fn voxels(&self) -> &[Voxel] {
        &self.voxels
    }

    pub fn is_empty(&self) -> bool {
        self.voxels.is_empty()
    }

    /// The number of hierarchy nodes (node 0 is the root).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Bytes held by the map (leaves and hierarchy).
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Self>() + self.voxels.capacity() * std::mem::size_of::<Voxel>() + self.nodes.capacity() * std::mem::size_of::<VoxelNode>()
    }

    /// The coordinate of the key boundary `k` (the lower face of key `k`).
    fn coordinate(&self, k: u32) -> Real {
        (k as i32 - KEY_CENTRE) as Real * self.resolution
    }

    fn key_box(&self, min: [u16; 3], max: [u16; 3]) -> Aabb {
        Aabb::new(
            Point3::new(self.coordinate(min[0] as u32), self.coordinate(min[1] as u32), self.coordinate(min[2] as u32)),
            Point3::new(self.coordinate(max[0] as u32 + 1), self.coordinate(max[1] as u32 + 1), self.coordinate(max[2] as u32 + 1)),
        )
    }

    /// The cube of voxel `i` in the map's frame.
    pub fn voxel_cube(&self, i: u32) -> Aabb {
        let v = self.voxels[i as usize];
        let last = (v.keys() - 1) as u16;
        self.key_box(v.min, v.min.map(|k| k + last))
    }

    /// The box of hierarchy node `n` in the map's frame: it holds every cube below.
    pub fn node_aabb(&self, n: u32) -> Aabb {
        let node = &self.nodes[n as usize];
        self.key_box(node.min, node.max)
    }

    /// [`Self::node_aabb`] as an oriented box.
    pub fn node_obb(&self, n: u32) -> Obb {
        Obb::from_aabb(&self.node_aabb(n))
    }

    pub fn node_content(&self, n: u32) -> VoxelNodeContent {
        let c = self.nodes[n as usize].content;
        if c & LEAF != 0 { VoxelNodeContent::Voxel(c & !LEAF) } else { VoxelNodeContent::Children(c, c + 1) }
    }

    /// The box of the whole map (empty for an empty map).
    pub fn local_aabb(&self) -> Aabb {
        if self.nodes.is_empty() { Aabb::empty() } else { self.node_aabb(0) }
    }

    /// The voxels whose cubes meet the closed box `aabb` (map frame), by the hierarchy.
    pub fn voxels_meeting(&self, aabb: &Aabb) -> Vec<u32> {
        let mut found = Vec::new();
        let mut stack = if self.nodes.is_empty() { Vec::new() } else { vec![0u32] };
        while let Some(n) = stack.pop() {
            if !self.node_aabb(n).intersects(aabb) {
                continue;
            }
            match self.node_content(n) {
                VoxelNodeContent::Voxel(v) => found.push(v),
                VoxelNodeContent::Children(l, r) => stack.extend([l, r]),
            }
        }
        found
    }

    /// The voxels whose hierarchy boxes may meet the oriented box `other`, placed in the
    /// map's frame by `other_in_map` (the separating-axis test errs only towards
    /// "meet", so no voxel that meets it is left out).
    pub fn voxels_near(&self, other: &Obb, other_in_map: &Isometry3) -> Vec<u32> {
        let mut found = Vec::new();
        self.find_near(other, other_in_map, |v| {
            found.push(v);
            false
        });
        found
    }

    /// The first voxel near `other` (as in [`Self::voxels_near`]) for which `hit` holds:
    /// the hierarchy is walked lazily and stops there.
    pub fn find_near(&self, other: &Obb, other_in_map: &Isometry3, mut hit: impl FnMut(u32) -> bool) -> Option<u32> {
        // First the box around the placed box (six comparisons a node), then the
        // separating axes.
        let around = placed_aabb(other, other_in_map);
        let mut stack = if self.nodes.is_empty() { Vec::new() } else { vec![0u32] };
        while let Some(n) = stack.pop() {
            let node = self.node_aabb(n);
            if !node.intersects(&around) || !Obb::from_aabb(&node).intersects(other, other_in_map) {
                continue;
            }
            match self.node_content(n) {
                VoxelNodeContent::Voxel(v) if hit(v) => return Some(v),
                VoxelNodeContent::Voxel(_) => {}
                VoxelNodeContent::Children(l, r) => stack.extend([l, r]),
            }
        }
        None
    }

    /// Voxel `i` as a solid box centred in its own frame, and that frame's pose in the
    /// map's frame.
    pub fn voxel_cuboid(&self, i: u32) -> (Cuboid, Isometry3) {
        let (centre, half) = self.voxel_centre(i);
        (Cuboid { half_extents: half }, Isometry3::translation(centre.x, centre.y, centre.z))
    }

    /// Whether a point of the map's frame lies in an occupied cube (closed cubes).
    pub fn contains_point(&self, p: &Point3) -> bool {
        !self.voxels_meeting(&Aabb::new(*p, *p)).is_empty()
    }

    /// The centre of voxel `i` and its half edge.
    pub fn voxel_centre(&self, i: u32) -> (Point3, Vector3) {
        let cube = self.voxel_cube(i);
        (cube.center(), cube.half_extents())
    }
}

/// The axis-aligned box around `obb` placed by `pose`, grown past the rounding of
/// placing it.
pub fn placed_aabb(obb: &Obb, pose: &Isometry3) -> Aabb {
    let axes = pose.rotation.to_rotation_matrix().into_inner() * obb.axes;
    let centre = pose * obb.center;
    let half = axes.abs() * obb.half_extents;
    let scale = centre.coords.abs().max() + half.max();
    Aabb::new(centre - half, centre + half).loosened(1e-12 * (1.0 + scale))
}

/// The support function of the convex hull of the occupied cubes: a corner of a cube
/// farthest along the direction (a point of the map), found through the hierarchy.
impl SupportMap for VoxelMap {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        let value = |n: u32| -> (Real, Point3) {
            let p = self.node_aabb(n).core_support(dir);
            (p.coords.dot(dir), p)
        };
        let mut best: Option<(Real, Point3)> = None;
        let mut stack = if self.nodes.is_empty() { Vec::new() } else { vec![0u32] };
        while let Some(n) = stack.pop() {
            let (upper, corner) = value(n);
            if best.is_some_and(|(b, _)| upper <= b) {
                continue;
            }
            match self.node_content(n) {
                VoxelNodeContent::Voxel(_) => best = Some((upper, corner)),
                VoxelNodeContent::Children(l, r) => {
                    // The more promising child last, so that it is visited first.
                    if value(l).0 > value(r).0 { stack.extend([r, l]) } else { stack.extend([l, r]) }
                }
            }
        }
        best.map_or(Point3::origin(), |(_, p)| p)
    }
}

/// Interleaves the bits of a key corner (z-order), so that halves of the sorted list
/// are compact in space.
fn morton(k: [u16; 3]) -> u64 {
    fn spread(x: u16) -> u64 {
        let mut x = x as u64;
        x = (x | (x << 32)) & 0x0000_ffff_0000_ffff;
        x = (x | (x << 16)) & 0x0000_ff00_00ff_00ff;
        x = (x | (x << 8)) & 0x00f0_0f00_f00f_00ff;
        x = (x | (x << 4)) & 0x30c3_0c30_c30c_30c3;
        x = (x | (x << 2)) & 0x9249_2492_4924_9249;
        x
    }
    spread(k[0]) | (spread(k[1]) << 1) | (spread(k[2]) << 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voxel(x: u16, y: u16, z: u16, level: u8) -> Voxel {
        Voxel { min: [x, y, z], level }
    }

    #[test]
    fn cubes_sit_on_octomaps_key_grid() {
        let map = VoxelMap::new(0.05, vec![voxel(32768, 32768, 32767, 0), voxel(32768 + 4, 32768, 32768, 2)]).unwrap();
        let cubes: Vec<Aabb> = (0..2).map(|i| map.voxel_cube(i)).collect();
        assert!(cubes.contains(&Aabb::new(Point3::new(0.0, 0.0, -0.05), Point3::new(0.05, 0.05, 0.0))));
        assert!(cubes.contains(&Aabb::new(Point3::new(0.2, 0.0, 0.0), Point3::new(0.4, 0.2, 0.2))));
        assert!(map.contains_point(&Point3::new(0.3, 0.1, 0.1)));
        assert!(!map.contains_point(&Point3::new(0.1, 0.1, 0.1)));
        assert!(matches!(VoxelMap::new(0.05, vec![voxel(3, 0, 0, 1)]), Err(VoxelMapError::Misaligned { .. })));
        assert!(matches!(VoxelMap::new(0.0, vec![]), Err(VoxelMapError::Resolution(_))));
    }

    #[test]
    fn every_node_holds_the_cubes_below_it() {
        let mut voxels = Vec::new();
        let mut s = 12345u64;
        for _ in 0..500 {
            s = s.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let level = ((s >> 60) % 3) as u8;
            let k = |shift: u32| (((s >> shift) as u16) % 64 + 32700) & !((1u16 << level) - 1);
            voxels.push(voxel(k(10), k(24), k(38), level));
        }
        let map = VoxelMap::new(0.01, voxels).unwrap();
        assert_eq!(map.node_count(), 2 * map.voxels().len() - 1);
        fn check(map: &VoxelMap, n: u32) -> Vec<u32> {
            let below = match map.node_content(n) {
                VoxelNodeContent::Voxel(v) => vec![v],
                VoxelNodeContent::Children(l, r) => [check(map, l), check(map, r)].concat(),
            };
            for &v in &below {
                assert!(map.node_aabb(n).contains(&map.voxel_cube(v)));
            }
            below
        }
        let mut all = check(&map, 0);
        all.sort_unstable();
        assert_eq!(all, (0..map.voxels().len() as u32).collect::<Vec<_>>());
        assert!(map.memory_bytes() <= 64 * map.voxels().len() + 256);
        // The support point is the farthest cube corner.
        for dir in [Vector3::new(1.0, 0.3, -0.2), Vector3::new(-0.5, -1.0, 0.7), Vector3::z()] {
            let brute = (0..map.voxels().len() as u32).map(|v| map.voxel_cube(v).core_support(&dir).coords.dot(&dir)).fold(Real::NEG_INFINITY, Real::max);
            assert_eq!(map.core_support(&dir).coords.dot(&dir), brute);
        }
    }
}
