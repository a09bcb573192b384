//! Distance of a mesh and a convex shape: best-first branch and bound over the mesh's
//! OBB tree, with GJK's proven lower bounds on the node boxes and exact GJK distances
//! on the triangles.
use super::{node_bound, node_cuboid};
use crate::math::{Isometry3, Real, Vector3};
use crate::partitioning::NodeContent;
use crate::query::gjk::{self, ClosestPoints};
use crate::shape::{Shape, TriMesh, TriangleShape};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A node waiting in the queue, ordered by the lower bound of its distance.
#[derive(PartialEq)]
pub(super) struct Queued<T> {
    pub bound: Real,
    pub item: T,
}

impl<T: PartialEq> Eq for Queued<T> {}
impl<T: PartialEq> PartialOrd for Queued<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T: PartialEq> Ord for Queued<T> {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.bound.total_cmp(&other.bound)
    }
}

/// The closest points (world frame) of the mesh's triangles and the convex shape, if
/// closer than `cutoff`.
pub fn mesh_convex_distance(mesh: &TriMesh, pose_mesh: &Isometry3, convex: &Shape, pose_convex: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    let support = convex.as_support_map()?;
    let convex_in_mesh = pose_mesh.inv_mul(pose_convex);
    let nodes = mesh.obb_tree().nodes();
    let mut best: Option<ClosestPoints> = None;
    let mut best_distance = cutoff;
    let mut queue = BinaryHeap::new();
    if !nodes.is_empty() {
        queue.push(Reverse(Queued { bound: 0.0, item: (0u32, Vector3::zeros()) }));
    }
    while let Some(Reverse(Queued { bound, item: (item, normal) })) = queue.pop() {
        if bound >= best_distance {
            break;
        }
        match nodes[item as usize].content {
            NodeContent::Children(l, r) => {
                for child in [l, r] {
                    let (cuboid, frame) = node_cuboid(&nodes[child as usize].obb);
                    if let Some((bound, plane)) = node_bound(&cuboid, &frame, support, &convex_in_mesh, &normal, best_distance) {
                        queue.push(Reverse(Queued { bound, item: (child, plane) }));
                    }
                }
            }
            NodeContent::Triangle(t) => {
                let triangle = mesh.triangle(t);
                let cp = gjk::closest_points(&TriangleShape(&triangle), &Isometry3::identity(), support, &convex_in_mesh);
                if cp.distance < best_distance {
                    best_distance = cp.distance;
                    best = Some(ClosestPoints { distance: cp.distance, point_a: pose_mesh * cp.point_a, point_b: pose_mesh * cp.point_b });
                }
            }
        }
    }
    best
}
