//! The depth of a shape in a voxel map: the largest translational depth (MTD) over the
//! map's cubes it touches, each cube a solid box; for a mesh, over the (triangle, cube)
//! pairs that meet, as coal measures a mesh's penetration.
//!
//! The (cube, triangle) pairs whose boxes meet come from a walk of both hierarchies (the
//! map's, and a mesh's OBB tree with its boxes placed in the map's frame once). Each candidate is bounded: translating along an axis by the
//! overlap of two boxes on it separates them, and so does moving a cube along a
//! triangle's normal until the triangle's plane leaves it. Candidates are measured from
//! the largest bound down, until no bound beats the deepest depth found.
use super::{penetration_depth, shape_penetration, Penetration};
use crate::bounding_volume::Aabb;
use crate::math::{Isometry3, Real, Triangle};
use crate::partitioning::NodeContent;
use crate::shape::{placed_aabb, Shape, TriangleShape, VoxelMap, VoxelNodeContent};

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
    if map.is_empty() {
        return None;
    }
    let other_in_map = pose_map.inv_mul(pose_other);
    // The other shape's hierarchy as boxes of the map's frame (a mesh's OBB tree, its
    // leaves by their triangles' boxes; a primitive as one leaf), computed once.
    let mesh = match other {
        Shape::TriMesh(m) => Some(m.as_ref()),
        _ => None,
    };
    let other_boxes: Vec<(Aabb, Option<(u32, u32)>)> = match mesh {
        Some(m) => m
            .obb_tree()
            .nodes()
            .iter()
            .map(|node| match node.content {
                NodeContent::Children(l, r) => (placed_aabb(&node.obb, &other_in_map), Some((l, r))),
                NodeContent::Triangle(t) => {
                    let tri = m.triangle(t).map(|p| other_in_map * p);
                    let scale = tri.iter().map(|p| p.coords.abs().max()).fold(0.0, Real::max);
                    (Aabb::from_points(tri.iter()).loosened(1e-12 * (1.0 + scale)), None)
                }
            })
            .collect(),
        None => vec![(placed_aabb(&other.local_obb(), &other_in_map), None)],
    };
    // Candidates: a cube, with a triangle for a mesh, and the bound of their depth, from
    // a walk of both hierarchies down the pairs of boxes that meet.
    let mut candidates: Vec<(Real, u32, Option<u32>)> = Vec::new();
    let mut stack: Vec<(u32, u32)> = if other_boxes.is_empty() { Vec::new() } else { vec![(0, 0)] };
    while let Some((map_node, other_node)) = stack.pop() {
        let map_box = map.node_aabb(map_node);
        let (other_box, other_children) = &other_boxes[other_node as usize];
        if !map_box.intersects(other_box) {
            continue;
        }
        match (map.node_content(map_node), other_children) {
            (VoxelNodeContent::Voxel(v), None) => {
                let boxes = overlap_bound(other_box, &map_box);
                match mesh.map(|m| (m, m.obb_tree().nodes()[other_node as usize].content)) {
                    Some((m, NodeContent::Triangle(t))) => {
                        let tri = m.triangle(t).map(|p| other_in_map * p);
                        candidates.push((boxes.min(plane_bound(&map_box, &tri)), v, Some(t)));
                    }
                    _ => candidates.push((boxes, v, None)),
                }
            }
            (VoxelNodeContent::Children(l, r), children) if children.is_none() || map_box.extents().norm_squared() >= other_box.extents().norm_squared() => {
                stack.extend([(l, other_node), (r, other_node)]);
            }
            (_, Some((l, r))) => stack.extend([(map_node, *l), (map_node, *r)]),
            (VoxelNodeContent::Children(..), None) => unreachable!("opened above"),
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
