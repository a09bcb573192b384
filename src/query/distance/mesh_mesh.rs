//! Distance of two meshes: best-first branch and bound over pairs of OBB-tree nodes,
//! splitting the longer box, with the boxes' separation on the separating axes as the
//! proven lower bound of a node pair ([`Obb::separation_placed`]) and exact GJK
//! distances on triangle pairs.
//!
//! The separation is looser than GJK's bound on the node boxes (a few more node pairs
//! are taken) and far cheaper, so the distance is faster over all.
use super::mesh_convex::Queued;
use crate::math::{Isometry3, Real};
use crate::partitioning::{NodeContent, ObbNode};
use crate::query::gjk::{self, ClosestPoints};
use crate::shape::{TriMesh, TriangleShape};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The closest points (world frame) of the two meshes' triangles, if closer than `cutoff`.
pub fn mesh_mesh_distance(a: &TriMesh, pose_a: &Isometry3, b: &TriMesh, pose_b: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    let b_in_a = pose_a.inv_mul(pose_b);
    let (rotation, translation) = (b_in_a.rotation.to_rotation_matrix().into_inner(), b_in_a.translation.vector);
    let (na, nb) = (a.obb_tree().nodes(), b.obb_tree().nodes());
    let mut best: Option<ClosestPoints> = None;
    let mut best_distance = cutoff;
    let mut queue = BinaryHeap::new();
    if !na.is_empty() && !nb.is_empty() {
        queue.push(Reverse(Queued { bound: 0.0, item: (0u32, 0u32) }));
    }
    // A node's size: its box's longest half extent. (By volume a flat box, however wide,
    // is never split while the other is, and far more node pairs are taken; by the
    // diagonal, about as many as by the longest half extent.)
    let size = |n: &ObbNode| n.obb.half_extents.amax();
    while let Some(Reverse(Queued { bound, item: (i, j) })) = queue.pop() {
        if bound >= best_distance {
            break;
        }
        let (node_a, node_b) = (&na[i as usize], &nb[j as usize]);
        let children = match (node_a.content, node_b.content) {
            (NodeContent::Triangle(ta), NodeContent::Triangle(tb)) => {
                let (tri_a, tri_b) = (a.triangle(ta), b.triangle(tb));
                let cp = gjk::closest_points(&TriangleShape(&tri_a), &Isometry3::identity(), &TriangleShape(&tri_b), &b_in_a);
                if cp.distance < best_distance {
                    best_distance = cp.distance;
                    best = Some(ClosestPoints { distance: cp.distance, point_a: pose_a * cp.point_a, point_b: pose_a * cp.point_b });
                }
                continue;
            }
            (NodeContent::Children(l, r), NodeContent::Triangle(_)) => [(l, j), (r, j)],
            (NodeContent::Triangle(_), NodeContent::Children(l, r)) => [(i, l), (i, r)],
            (NodeContent::Children(al, ar), NodeContent::Children(bl, br)) => {
                if size(node_a) >= size(node_b) {
                    [(al, j), (ar, j)]
                } else {
                    [(i, bl), (i, br)]
                }
            }
        };
        for (ci, cj) in children {
            let box_b = nb[cj as usize].obb.placed_by(&rotation, &translation);
            let bound = na[ci as usize].obb.separation_placed(&box_b).max(0.0);
            if bound < best_distance {
                queue.push(Reverse(Queued { bound, item: (ci, cj) }));
            }
        }
    }
    best
}
