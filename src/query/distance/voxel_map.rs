//! The distance of a voxel map to any other shape: a best-first branch and bound over
//! the map's hierarchy (Lin 1993 §4.1: bounds of a hierarchy prune what
//! cannot be closer than the best found), with the exact distance of each cube that
//! may still be closer, a cube being a solid box. A mesh is measured by its surface
//! (both hierarchies at once, [`mesh_voxel_map_distance`]); whether a cube lies wholly
//! inside a closed mesh is asked once, last.
use super::mesh_voxel_map::mesh_voxel_map_distance;
use super::shape_distance;
use crate::math::{Isometry3, Real};
use crate::query::gjk::ClosestPoints;
use crate::shape::{Shape, VoxelMap, VoxelNodeContent, placed_aabb};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The distance and closest points (world frame: `point_a` on the map, `point_b` on the
/// other shape) if it is below `cutoff`.
pub fn voxel_map_distance(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    if map.is_empty() {
        return None;
    }
    let other_in_map = pose_map.inv_mul(pose_other);
    let best = match other {
        Shape::TriMesh(mesh) => mesh_voxel_map_distance(map, pose_map, mesh, pose_other, cutoff),
        _ => return cube_by_cube(map, pose_map, other, pose_other, &other_in_map, cutoff),
    };
    // No cube meets the mesh's surface (closer than the cutoff): one may still lie
    // wholly inside a closed mesh, and then its centre does.
    if let Shape::TriMesh(mesh) = other
        && cutoff > 0.0
        && best.as_ref().is_none_or(|cp| cp.distance > 0.0)
    {
        let map_in_other = other_in_map.inverse();
        let inside = map.find_near(&other.local_obb(), &other_in_map, |v| mesh.contains_point(&(map_in_other * map.voxel_centre(v).0)));
        if let Some(v) = inside {
            let p = pose_map * map.voxel_centre(v).0;
            return Some(ClosestPoints { distance: 0.0, point_a: p, point_b: p });
        }
    }
    best
}

/// The map against a shape other than a mesh: the cubes best first by their boxes'
/// distance to the shape's box, each measured exactly.
fn cube_by_cube(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3, other_in_map: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    // The other shape's box in the map's frame (grown past the rounding of placing it).
    let other_box = placed_aabb(&other.local_obb(), other_in_map);
    // Lower bounds as the bits of non-negative floats, which order as the floats do.
    let bound = |n: u32| Reverse(map.node_aabb(n).distance(&other_box).max(0.0).to_bits());
    let mut best: Option<ClosestPoints> = None;
    let mut limit = cutoff;
    let mut heap = BinaryHeap::from([(bound(0), 0u32)]);
    while let Some((Reverse(lower), n)) = heap.pop() {
        if Real::from_bits(lower) >= limit {
            break;
        }
        match map.node_content(n) {
            VoxelNodeContent::Children(l, r) => heap.extend([(bound(l), l), (bound(r), r)]),
            VoxelNodeContent::Voxel(v) => {
                let (cube, at) = map.voxel_cuboid(v);
                if let Some(cp) = shape_distance(&Shape::Cuboid(cube), &(pose_map * at), other, pose_other, limit) {
                    limit = cp.distance;
                    best = Some(cp);
                    if limit <= 0.0 {
                        break;
                    }
                }
            }
        }
    }
    best
}
