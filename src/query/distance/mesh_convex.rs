//! Distance of a mesh and a convex shape: best-first branch and bound over the mesh's
//! OBB tree, with proven lower bounds on the node boxes' distance to the shape (in
//! closed form against a box or a ball, GJK's against the others) and exact GJK
//! distances on the triangles.
//!
//! (The UR5's upper arm, 1,176 triangles, 0.5-5 cm from a box at 60 poses: 53.7 µs with
//! GJK's bounds, 13.1 µs with the boxes' separation, coal 34.9 µs; from a ball, 28.4 ->
//! 5.6 µs, coal 24.1 µs. Against a cylinder its bounding box's separation instead of
//! GJK's bound opens more nodes: 106 -> 120 µs, so GJK stays.)
use super::{node_bound, node_cuboid};
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Point3, Real, Vector3};
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
    let bound_of = NodeBound::of(convex, &convex_in_mesh);
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
                    let node = &nodes[child as usize].obb;
                    let bounded = match &bound_of {
                        NodeBound::Separation(obstacle) => Some((node.separation_placed(obstacle).max(0.0), Vector3::zeros())),
                        NodeBound::FromCentre(centre, radius) => Some(((node.point_separation(centre) - radius).max(0.0), Vector3::zeros())),
                        NodeBound::Gjk => {
                            let (cuboid, frame) = node_cuboid(node);
                            node_bound(&cuboid, &frame, support, &convex_in_mesh, &normal, best_distance)
                        }
                    };
                    if let Some((bound, plane)) = bounded.filter(|(bound, _)| *bound < best_distance) {
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

/// How a node box's distance to the convex shape is bounded from below.
enum NodeBound {
    /// A box (in the mesh's frame): the boxes' separation on the separating axes.
    Separation(Obb),
    /// A ball, by its centre (in the mesh's frame) and radius: the box's distance to
    /// the centre less the radius, exact.
    FromCentre(Point3, Real),
    /// Any other convex shape: GJK's proven bound on the box against it.
    Gjk,
}

impl NodeBound {
    fn of(convex: &Shape, convex_in_mesh: &Isometry3) -> Self {
        let centre = Point3::from(convex_in_mesh.translation.vector);
        match convex {
            Shape::Cuboid(c) => {
                NodeBound::Separation(Obb { center: centre, axes: convex_in_mesh.rotation.to_rotation_matrix().into_inner(), half_extents: c.half_extents })
            }
            Shape::Ball(b) => NodeBound::FromCentre(centre, b.radius),
            _ => NodeBound::Gjk,
        }
    }
}
