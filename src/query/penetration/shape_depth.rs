//! The translational depth of any two element shapes (meshes too): where both are
//! convex, [`penetration_depth`] of the two; where a mesh is involved, the largest depth
//! over its triangles that meet the other shape (as coal measures a mesh's
//! penetration), descending the OBB tree only where its boxes meet the other's box; where
//! a voxel map is involved, the largest depth over its cubes that meet the other shape
//! ([`super::voxel_map_depth`]).
use super::voxel_map_depth::voxel_map_penetration;
use super::{penetration_depth, Penetration};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Real};
use crate::partitioning::NodeContent;
use crate::shape::{Shape, TriMesh, TriangleShape};

/// The depth of two placed shapes; `None` when they do not intersect.
pub fn shape_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Penetration> {
    match (a, b) {
        (Shape::VoxelMap(m), other) => voxel_map_penetration(m, pose_a, other, pose_b, true),
        (other, Shape::VoxelMap(m)) => voxel_map_penetration(m, pose_b, other, pose_a, false),
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
