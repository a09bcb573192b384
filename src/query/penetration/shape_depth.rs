//! The translational depth of any two element shapes (meshes too): where both are
//! convex, [`penetration_depth`] of the two; where a mesh is involved, the largest depth
//! over its triangles that meet the other shape (as coal measures a mesh's
//! penetration), descending the OBB tree only where its boxes meet the other's box; where
//! a voxel map is involved, the largest depth over its cubes that meet the other shape.
use super::{penetration_depth, Penetration};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Real};
use crate::partitioning::NodeContent;
use crate::shape::{placed_aabb, Shape, TriMesh, TriangleShape, VoxelMap};

/// The depth of two placed shapes; `None` when they do not intersect.
pub fn shape_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Penetration> {
    match (a, b) {
        (Shape::VoxelMap(m), other) => deepest_over_voxels(m, pose_a, other, pose_b, true),
        (other, Shape::VoxelMap(m)) => deepest_over_voxels(m, pose_b, other, pose_a, false),
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => deepest_over_triangles(ma, pose_a, &b.local_obb(), pose_b, |tri, box_a| {
            deepest_over_triangles(mb, pose_b, &box_a, pose_a, |tri_b, _| penetration_depth(&TriangleShape(&tri), pose_a, &TriangleShape(&tri_b), pose_b))
        }),
        (Shape::TriMesh(m), convex) => {
            let sb = convex.as_support_map()?;
            deepest_over_triangles(m, pose_a, &convex.local_obb(), pose_b, |tri, _| penetration_depth(&TriangleShape(&tri), pose_a, sb, pose_b))
        }
        (convex, Shape::TriMesh(m)) => {
            let sa = convex.as_support_map()?;
            deepest_over_triangles(m, pose_b, &convex.local_obb(), pose_a, |tri, _| penetration_depth(sa, pose_a, &TriangleShape(&tri), pose_b))
        }
        (ca, cb) => penetration_depth(ca.as_support_map()?, pose_a, cb.as_support_map()?, pose_b),
    }
}

/// The deepest penetration of a voxel map's cubes with `other` (each cube a solid box):
/// the depth of a shape in a map is the largest over the voxels it touches. With
/// `map_first` the map is shape A of the result, else B. Candidates (a cube, or a cube
/// and a triangle of a mesh) are measured from the largest bound of their depth down,
/// until no bound beats the deepest found: translating along an axis by the overlap of
/// two boxes on it separates them, so the smallest overlap of the candidates' boxes
/// bounds their depth.
fn deepest_over_voxels(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3, map_first: bool) -> Option<Penetration> {
    let other_in_map = pose_map.inv_mul(pose_other);
    let local = other.local_obb();
    let overlap = |a: &Aabb, b: &Aabb| (0..3).map(|k| (a.maxs[k] - b.mins[k]).min(b.maxs[k] - a.mins[k])).fold(Real::INFINITY, Real::min) * (1.0 + 1e-9) + 1e-12;
    let mut candidates: Vec<(Real, u32, Option<u32>)> = Vec::new();
    for v in map.voxels_near(&local, &other_in_map) {
        let cube = map.voxel_cube(v);
        match other {
            Shape::TriMesh(mesh) => {
                let nodes = mesh.obb_tree().nodes();
                let cube_box = Obb::from_aabb(&cube);
                let map_in_mesh = other_in_map.inverse();
                let mut stack = if nodes.is_empty() { Vec::new() } else { vec![0u32] };
                while let Some(i) = stack.pop() {
                    let node = &nodes[i as usize];
                    if !node.obb.intersects(&cube_box, &map_in_mesh) {
                        continue;
                    }
                    match node.content {
                        NodeContent::Children(l, r) => stack.extend([l, r]),
                        NodeContent::Triangle(t) => {
                            let corners = mesh.triangle(t).map(|p| other_in_map * p);
                            let around = Aabb::from_points(corners.iter()).loosened(1e-12 * (1.0 + corners[0].coords.abs().max()));
                            candidates.push((overlap(&around, &cube), v, Some(t)));
                        }
                    }
                }
            }
            _ => candidates.push((overlap(&placed_aabb(&local, &other_in_map), &cube), v, None)),
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
                if map_first { penetration_depth(&cube, &pose_cube, &TriangleShape(&tri), pose_other) } else { penetration_depth(&TriangleShape(&tri), pose_other, &cube, &pose_cube) }
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

/// The deepest of `depth` over the mesh's triangles whose tree boxes meet `other`
/// (a box in the frame that `pose_other` places); `depth` gets the triangle in the
/// mesh frame and its box.
fn deepest_over_triangles(
    mesh: &TriMesh,
    pose: &Isometry3,
    other: &Obb,
    pose_other: &Isometry3,
    mut depth: impl FnMut(crate::math::Triangle, Obb) -> Option<Penetration>,
) -> Option<Penetration> {
    let other_in_mesh = pose.inv_mul(pose_other);
    let nodes = mesh.obb_tree().nodes();
    let mut deepest: Option<Penetration> = None;
    let mut stack = if nodes.is_empty() { Vec::new() } else { vec![0u32] };
    while let Some(i) = stack.pop() {
        let node = &nodes[i as usize];
        if !node.obb.intersects(other, &other_in_mesh) {
            continue;
        }
        match node.content {
            NodeContent::Children(l, r) => stack.extend([l, r]),
            NodeContent::Triangle(t) => {
                let triangle = mesh.triangle(t);
                let bounds = Obb::from_aabb(&Aabb::from_points(triangle.iter()).loosened(Real::EPSILON));
                if let Some(p) = depth(triangle, bounds) {
                    if deepest.is_none_or(|d| p.depth > d.depth) {
                        deepest = Some(p);
                    }
                }
            }
        }
    }
    deepest
}
