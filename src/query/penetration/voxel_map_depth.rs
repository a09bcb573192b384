//! The depth of a shape in a voxel map: the largest translational depth (MTD) over the
//! map's cubes it touches, each cube a solid box; for a mesh, over the (triangle, cube)
//! pairs that meet, as coal measures a mesh's penetration.
//!
//! The cubes near the shape come from the map's hierarchy, a mesh's triangles near each
//! cube from its OBB tree. Each candidate is bounded: translating along an axis by the
//! overlap of two boxes on it separates them, and so does moving a cube along a
//! triangle's normal until the triangle's plane leaves it. Candidates are measured from
//! the largest bound down, until no bound beats the deepest depth found.
use super::{penetration_depth, shape_penetration, Penetration};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Real, Triangle};
use crate::partitioning::NodeContent;
use crate::shape::{placed_aabb, Shape, TriangleShape, VoxelMap};

/// The smallest overlap of two boxes on the three axes (a bound of the depth of any
/// two shapes they hold), grown past rounding; at most 0 when they are apart.
fn overlap_bound(a: &Aabb, b: &Aabb) -> Real {
    let overlap = (0..3).map(|k| (a.maxs[k] - b.mins[k]).min(b.maxs[k] - a.mins[k])).fold(Real::INFINITY, Real::min);
    overlap * (1.0 + 1e-9) + 1e-12
}

/// The overlap of a cube and a triangle (both in the map's frame) along the
/// triangle's normal: the cube moved along it that far leaves the triangle's plane.
fn plane_bound(cube: &Aabb, tri: &Triangle) -> Real {
    let Some(n) = (tri[1] - tri[0]).cross(&(tri[2] - tri[0])).try_normalize(0.0) else { return Real::INFINITY };
    let (centre, half) = (cube.center().coords.dot(&n), cube.half_extents().dot(&n.abs()));
    let offset = tri[0].coords.dot(&n);
    let overlap = (offset - (centre - half)).min(centre + half - offset);
    overlap * (1.0 + 1e-9) + 1e-12 * (1.0 + offset.abs() + centre.abs() + half)
}

/// The deepest penetration of the map's cubes with `other`. With `map_first` the map is
/// shape A of the result, else B. `None` when no cube touches it.
pub fn voxel_map_penetration(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3, map_first: bool) -> Option<Penetration> {
    let other_in_map = pose_map.inv_mul(pose_other);
    let local = other.local_obb();
    // Candidates: a cube, with a triangle for a mesh, and the bound of their depth.
    let mut candidates: Vec<(Real, u32, Option<u32>)> = Vec::new();
    let map_in_other = other_in_map.inverse();
    let around = placed_aabb(&local, &other_in_map);
    for v in map.voxels_near(&local, &other_in_map) {
        let cube = map.voxel_cube(v);
        match other {
            Shape::TriMesh(mesh) => {
                let nodes = mesh.obb_tree().nodes();
                let cube_box = Obb::from_aabb(&cube);
                let mut stack = if nodes.is_empty() { Vec::new() } else { vec![0u32] };
                while let Some(i) = stack.pop() {
                    let node = &nodes[i as usize];
                    if !node.obb.intersects(&cube_box, &map_in_other) {
                        continue;
                    }
                    match node.content {
                        NodeContent::Children(l, r) => stack.extend([l, r]),
                        NodeContent::Triangle(t) => {
                            let tri = mesh.triangle(t).map(|p| other_in_map * p);
                            let scale = tri.iter().map(|p| p.coords.abs().max()).fold(0.0, Real::max);
                            let around_tri = Aabb::from_points(tri.iter()).loosened(1e-12 * (1.0 + scale));
                            let bound = overlap_bound(&around_tri, &cube).min(plane_bound(&cube, &tri));
                            if bound > 0.0 {
                                candidates.push((bound, v, Some(t)));
                            }
                        }
                    }
                }
            }
            _ => candidates.push((overlap_bound(&around, &cube), v, None)),
        }
    }
    candidates.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    let mut deepest: Option<Penetration> = None;
    for (bound, v, triangle) in candidates {
        if bound <= 0.0 || deepest.is_some_and(|d| d.depth >= bound) {
            break;
        }
        let (cube, at) = map.voxel_cuboid(v);
        let pose_cube = pose_map * at;
        let found = match (triangle, other) {
            (Some(t), Shape::TriMesh(mesh)) => {
                let tri = mesh.triangle(t);
                match map_first {
                    true => penetration_depth(&cube, &pose_cube, &TriangleShape(&tri), pose_other),
                    false => penetration_depth(&TriangleShape(&tri), pose_other, &cube, &pose_cube),
                }
            }
            _ if map_first => shape_penetration(&Shape::Cuboid(cube), &pose_cube, other, pose_other),
            _ => shape_penetration(other, pose_other, &Shape::Cuboid(cube), &pose_cube),
        };
        if let Some(p) = found
            && deepest.is_none_or(|d| p.depth > d.depth)
        {
            deepest = Some(p);
        }
    }
    deepest
}
