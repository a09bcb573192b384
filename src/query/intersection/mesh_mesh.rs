//! Mesh against mesh: simultaneous descent of both OBB trees with the triangle-triangle
//! test of Šinjur 2001 §5 at leaf pairs, then solid containment of closed meshes.
use crate::math::{Isometry3, Point3};
use crate::partitioning::NodeContent;
use crate::query::triangle_triangle::triangles_intersect;
use crate::shape::TriMesh;

/// A common world point of the two meshes, if they intersect.
pub fn mesh_mesh_intersection(a: &TriMesh, pose_a: &Isometry3, b: &TriMesh, pose_b: &Isometry3) -> Option<Point3> {
    mesh_mesh_touch(a, pose_a, b, pose_b).map(|(p, _)| p)
}

/// As [`mesh_mesh_intersection`], with the triangles (of `a`, of `b`) that touch (none
/// where one solid holds the other).
pub(super) fn mesh_mesh_touch(a: &TriMesh, pose_a: &Isometry3, b: &TriMesh, pose_b: &Isometry3) -> Option<(Point3, Option<(u32, u32)>)> {
    let b_in_a = pose_a.inv_mul(pose_b);
    let (rotation, translation) = (b_in_a.rotation.to_rotation_matrix().into_inner(), b_in_a.translation.vector);
    let (na, nb) = (a.obb_tree().nodes(), b.obb_tree().nodes());
    if na.is_empty() || nb.is_empty() {
        return None;
    }
    let mut stack = vec![(0u32, 0u32)];
    while let Some((ia, ib)) = stack.pop() {
        let (node_a, node_b) = (&na[ia as usize], &nb[ib as usize]);
        if !node_a.obb.intersects_placed(&node_b.obb.placed_by(&rotation, &translation)) {
            continue;
        }
        match (node_a.content, node_b.content) {
            (NodeContent::Triangle(ta), NodeContent::Triangle(tb)) => {
                let tri_b = b.triangle(tb).map(|p| b_in_a * p);
                if let Some(p) = triangles_intersect(&a.triangle(ta), &tri_b) {
                    return Some((pose_a * p, Some((ta, tb))));
                }
            }
            (NodeContent::Children(l, r), NodeContent::Triangle(_)) => {
                stack.push((r, ib));
                stack.push((l, ib));
            }
            (NodeContent::Triangle(_), NodeContent::Children(l, r)) => {
                stack.push((ia, r));
                stack.push((ia, l));
            }
            (NodeContent::Children(la, ra), NodeContent::Children(lb, rb)) => {
                // Descend the larger box first, as in RAPID.
                if node_a.obb.half_extents.norm_squared() >= node_b.obb.half_extents.norm_squared() {
                    stack.push((ra, ib));
                    stack.push((la, ib));
                } else {
                    stack.push((ia, rb));
                    stack.push((ia, lb));
                }
            }
        }
    }
    mesh_mesh_containment(a, pose_a, b, pose_b).map(|p| (p, None))
}

/// A common world point of the two meshes if a closed one holds the other entirely;
/// the surfaces are not tested.
pub fn mesh_mesh_containment(a: &TriMesh, pose_a: &Isometry3, b: &TriMesh, pose_b: &Isometry3) -> Option<Point3> {
    let b_in_a = pose_a.inv_mul(pose_b);
    for rep in b.component_representatives() {
        let p = b_in_a * rep;
        if a.contains_point(&p) {
            return Some(pose_a * p);
        }
    }
    for rep in a.component_representatives() {
        if b.contains_point(&b_in_a.inverse_transform_point(&rep)) {
            return Some(pose_a * rep);
        }
    }
    None
}
