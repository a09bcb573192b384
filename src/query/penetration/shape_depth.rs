//! The translational depth of any two element shapes (meshes too): where both are
//! convex, [`penetration_depth`] of the two; where a mesh is involved, the largest depth
//! over its triangles that meet the other shape (as coal measures a mesh's
//! penetration), descending the OBB tree only where its boxes meet the other's box; where
//! a voxel map is involved, the largest depth over its cubes that meet the other shape.
use super::{penetration_depth, Penetration};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Real};
use crate::partitioning::NodeContent;
use crate::shape::{Shape, TriMesh, TriangleShape, VoxelMap};

/// The depth of two placed shapes; `None` when they do not intersect.
pub fn shape_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Penetration> {
    match (a, b) {
        (Shape::VoxelMap(m), other) => deepest_over_voxels(m, pose_a, other, pose_b, |cube, pose_cube| shape_penetration(cube, pose_cube, other, pose_b)),
        (other, Shape::VoxelMap(m)) => deepest_over_voxels(m, pose_b, other, pose_a, |cube, pose_cube| shape_penetration(other, pose_a, cube, pose_cube)),
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

/// The deepest of `depth` over the cubes of a voxel map that may meet `other` (each cube
/// as a solid box with its world pose): the depth of a shape in a map is the largest
/// over the voxels it touches.
fn deepest_over_voxels(
    map: &VoxelMap,
    pose_map: &Isometry3,
    other: &Shape,
    pose_other: &Isometry3,
    depth: impl Fn(&Shape, &Isometry3) -> Option<Penetration>,
) -> Option<Penetration> {
    let near = map.voxels_near(&other.local_obb(), &pose_map.inv_mul(pose_other));
    near.into_iter()
        .filter_map(|v| {
            let (cube, at) = map.voxel_cuboid(v);
            depth(&Shape::Cuboid(cube), &(pose_map * at))
        })
        .max_by(|p, q| p.depth.total_cmp(&q.depth))
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
