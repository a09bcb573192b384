//! The depth of a shape in a voxel map: the largest translational depth (MTD) over the
//! map's cubes it touches, each cube a solid box; for a mesh, over the (triangle, cube)
//! pairs that meet, as coal measures a mesh's penetration.
//!
//! The (cube, triangle) pairs whose boxes meet come from a walk of both hierarchies
//! ([`DepthCandidates`], which a search over time reuses while the shape moves less
//! than their margin). Each candidate is bounded at the shape's pose: translating along
//! an axis by the overlap of two boxes on it separates them, and so does moving a cube
//! along a triangle's normal until the triangle's plane leaves it. Candidates are
//! measured from the largest bound down, until no bound beats the deepest depth found.
use super::{Penetration, penetration_depth, shape_penetration};
use crate::bounding_volume::Aabb;
use crate::math::{Isometry3, Real, Triangle};
use crate::partitioning::NodeContent;
use crate::shape::{Shape, TriangleShape, VoxelMap, VoxelNodeContent, placed_aabb};

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

/// The (cube, triangle) pairs of a map and a shape whose boxes meet, gathered with the
/// shape's boxes grown by `margin`: they hold every pair that meets while the shape
/// stays within `margin` of where it was (a depth search over time reuses them).
pub struct DepthCandidates {
    pairs: Vec<(u32, Option<u32>)>,
    /// The shape in the map's frame when gathered.
    other_in_map: Isometry3,
    margin: Real,
    /// Radius of a ball about the shape's origin that holds it.
    radius: Real,
}

impl DepthCandidates {
    /// Gathers the pairs by a walk of both hierarchies (the map's, and a mesh's OBB tree
    /// with its boxes placed in the map's frame once).
    pub fn gather(map: &VoxelMap, other: &Shape, other_in_map: &Isometry3, margin: Real) -> Self {
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
                    NodeContent::Children(l, r) => (placed_aabb(&node.obb, other_in_map).loosened(margin), Some((l, r))),
                    NodeContent::Triangle(t) => {
                        let tri = m.triangle(t).map(|p| other_in_map * p);
                        let scale = tri.iter().map(|p| p.coords.abs().max()).fold(0.0, Real::max);
                        (Aabb::from_points(tri.iter()).loosened(margin + 1e-12 * (1.0 + scale)), None)
                    }
                })
                .collect(),
            None => vec![(placed_aabb(&other.local_obb(), other_in_map).loosened(margin), None)],
        };
        let mut pairs = Vec::new();
        let mut stack: Vec<(u32, u32)> = if other_boxes.is_empty() || map.is_empty() { Vec::new() } else { vec![(0, 0)] };
        while let Some((map_node, other_node)) = stack.pop() {
            let map_box = map.node_aabb(map_node);
            let (other_box, other_children) = &other_boxes[other_node as usize];
            if !map_box.intersects(other_box) {
                continue;
            }
            match (map.node_content(map_node), other_children) {
                (VoxelNodeContent::Voxel(v), None) => pairs.push((v, mesh.map(|m| leaf_triangle_index(m, other_node)))),
                (VoxelNodeContent::Children(l, r), children)
                    if children.is_none() || map_box.extents().norm_squared() >= other_box.extents().norm_squared() =>
                {
                    stack.extend([(l, other_node), (r, other_node)]);
                }
                (_, Some((l, r))) => stack.extend([(map_node, *l), (map_node, *r)]),
                (VoxelNodeContent::Children(..), None) => unreachable!("opened above"),
            }
        }
        let local = other.local_aabb();
        let radius = local.mins.coords.abs().sup(&local.maxs.coords.abs()).norm();
        Self { pairs, other_in_map: *other_in_map, margin, radius }
    }

    /// Whether the pairs still hold every pair that meets with the shape at
    /// `other_in_map`: no point of it has moved more than the margin since.
    pub fn still_hold(&self, other_in_map: &Isometry3) -> bool {
        let rotation = (other_in_map.rotation.to_rotation_matrix().into_inner() - self.other_in_map.rotation.to_rotation_matrix().into_inner()).norm();
        let moved = (other_in_map.translation.vector - self.other_in_map.translation.vector).norm() + rotation * self.radius;
        moved * (1.0 + 1e-9) + 1e-12 * (1.0 + self.radius) < self.margin
    }
}

/// The triangle of a mesh's leaf node.
fn leaf_triangle_index(mesh: &crate::shape::TriMesh, node: u32) -> u32 {
    match mesh.obb_tree().nodes()[node as usize].content {
        NodeContent::Triangle(t) => t,
        NodeContent::Children(..) => unreachable!("a leaf"),
    }
}

/// The deepest penetration of the map's cubes with `other`. With `map_first` the map is
/// shape A of the result, else B. `None` when no cube touches it.
pub fn voxel_map_penetration(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3, map_first: bool) -> Option<Penetration> {
    let other_in_map = pose_map.inv_mul(pose_other);
    let candidates = DepthCandidates::gather(map, other, &other_in_map, 0.0);
    deepest_of(map, pose_map, other, pose_other, map_first, &candidates)
}

/// [`voxel_map_penetration`] with the candidates of an earlier call while they still
/// hold (else gathered anew, with a margin of half the map's resolution).
pub fn voxel_map_penetration_cached(
    map: &VoxelMap,
    pose_map: &Isometry3,
    other: &Shape,
    pose_other: &Isometry3,
    map_first: bool,
    cache: &mut Option<DepthCandidates>,
) -> Option<Penetration> {
    let other_in_map = pose_map.inv_mul(pose_other);
    if !cache.as_ref().is_some_and(|c| c.still_hold(&other_in_map)) {
        *cache = Some(DepthCandidates::gather(map, other, &other_in_map, 0.5 * map.resolution()));
    }
    deepest_of(map, pose_map, other, pose_other, map_first, cache.as_ref().expect("gathered"))
}

/// The candidates bounded at the shape's pose, measured from the largest bound down.
fn deepest_of(
    map: &VoxelMap,
    pose_map: &Isometry3,
    other: &Shape,
    pose_other: &Isometry3,
    map_first: bool,
    candidates: &DepthCandidates,
) -> Option<Penetration> {
    let other_in_map = pose_map.inv_mul(pose_other);
    let around = placed_aabb(&other.local_obb(), &other_in_map);
    let mesh = match other {
        Shape::TriMesh(m) => Some(m.as_ref()),
        _ => None,
    };
    let mut bounded: Vec<(Real, u32, Option<u32>)> = candidates
        .pairs
        .iter()
        .filter_map(|&(v, triangle)| {
            let cube = map.voxel_cube(v);
            let bound = match (mesh, triangle) {
                (Some(m), Some(t)) => {
                    let tri = m.triangle(t).map(|p| other_in_map * p);
                    let scale = tri.iter().map(|p| p.coords.abs().max()).fold(0.0, Real::max);
                    let around_tri = Aabb::from_points(tri.iter()).loosened(1e-12 * (1.0 + scale));
                    overlap_bound(&around_tri, &cube).min(plane_bound(&cube, &tri))
                }
                _ => overlap_bound(&around, &cube),
            };
            (bound > 0.0).then_some((bound, v, triangle))
        })
        .collect();
    bounded.sort_unstable_by(|a, b| b.0.total_cmp(&a.0));
    let mut deepest: Option<Penetration> = None;
    for (bound, v, triangle) in bounded {
        if deepest.is_some_and(|d| d.depth >= bound) {
            break;
        }
        let (cube, at) = map.voxel_cuboid(v);
        let pose_cube = pose_map * at;
        let found = match (triangle, mesh) {
            (Some(t), Some(m)) => {
                let tri = m.triangle(t);
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
