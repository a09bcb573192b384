//! Mesh against convex primitive: OBB-tree descent, exact triangle tests at the
//! leaves, then solid containment either way.
use super::triangle_convex_intersection;
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Point3};
use crate::partitioning::NodeContent;
use crate::shape::{Shape, TriMesh, support_aabb};

/// A common world point of the mesh and the primitive, if they intersect.
pub fn mesh_convex_intersection(mesh: &TriMesh, pose_mesh: &Isometry3, convex: &Shape, pose_convex: &Isometry3) -> Option<Point3> {
    mesh_convex_touch(mesh, pose_mesh, convex, pose_convex).map(|(p, _)| p)
}

/// As [`mesh_convex_intersection`], with the mesh's triangle that touches (none where
/// one solid holds the other).
pub(super) fn mesh_convex_touch(mesh: &TriMesh, pose_mesh: &Isometry3, convex: &Shape, pose_convex: &Isometry3) -> Option<(Point3, Option<u32>)> {
    let convex_in_mesh = pose_mesh.inv_mul(pose_convex);
    // The convex shape's box in the mesh's frame, placed once for every node.
    let convex_obb =
        Obb::from_aabb(&convex.local_aabb()).placed_by(&convex_in_mesh.rotation.to_rotation_matrix().into_inner(), &convex_in_mesh.translation.vector);
    let nodes = mesh.obb_tree().nodes();
    let mut stack = vec![0u32];
    if nodes.is_empty() {
        stack.clear();
    }
    while let Some(i) = stack.pop() {
        let node = &nodes[i as usize];
        if !node.obb.intersects_placed(&convex_obb) {
            continue;
        }
        match node.content {
            NodeContent::Children(l, r) => {
                stack.push(r);
                stack.push(l);
            }
            NodeContent::Triangle(t) => {
                if let Some(p) = triangle_convex_intersection(&mesh.triangle(t), convex, &convex_in_mesh) {
                    return Some((pose_mesh * p, Some(t)));
                }
            }
        }
    }
    mesh_convex_containment(mesh, pose_mesh, convex, pose_convex).map(|p| (p, None))
}

/// A common world point of the mesh and the primitive if one lies entirely inside the
/// other (which needs its box inside the other's box); the surfaces are not tested.
pub fn mesh_convex_containment(mesh: &TriMesh, pose_mesh: &Isometry3, convex: &Shape, pose_convex: &Isometry3) -> Option<Point3> {
    let convex_in_mesh = pose_mesh.inv_mul(pose_convex);
    let convex_box = Obb::from_aabb(&convex.local_aabb()).transformed_aabb(&convex_in_mesh);
    if convex_box.contains(&mesh.local_aabb()) {
        for rep in mesh.component_representatives() {
            if convex.contains_local_point(&convex_in_mesh.inverse_transform_point(&rep)) {
                return Some(pose_mesh * rep);
            }
        }
    }
    let convex_center = convex_in_mesh * Point3::origin();
    if mesh.local_aabb().contains(&support_aabb(convex.as_support_map()?, &convex_in_mesh)) && mesh.contains_point(&convex_center) {
        return Some(pose_mesh * convex_center);
    }
    None
}
