//! Distance of a mesh and a convex shape: best-first branch and bound over the mesh's
//! OBB tree, with proven lower bounds on the node boxes' distance to the shape (in
//! closed form against a box, a ball, a capsule or a cylinder, GJK's against a cone)
//! and exact GJK distances on the triangles (against a cylinder through the capsule
//! about its axis where that is nearest at its side).
//!
//! The node bounds in closed form are looser than GJK's bound on each node box but far
//! cheaper, so the search is faster over all. Against a cylinder the box's separation
//! alone opens more nodes than GJK's bound; the axis's separation less the radius is
//! taken as well, and the capsule's distance rules a triangle out or, where the capsule
//! is nearest at its side, gives the triangle's distance. The capsule's distance is
//! taken at the triangle only: also as a triangle's bound when it is queued, it costs
//! more than it saves.
use super::{node_bound, node_cuboid};
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Point3, Real, Triangle, Vector3};
use crate::partitioning::NodeContent;
use crate::query::gjk::{self, ClosestPoints};
use crate::shape::{Capsule, Cylinder, Shape, TriMesh, TriangleShape};
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
                        NodeBound::AroundAxis { axis, radius, outline } => {
                            let around = node.separation_placed(axis) - radius;
                            let around = outline.as_ref().map_or(around, |outline| around.max(node.separation_placed(outline)));
                            Some((around.max(0.0), Vector3::zeros()))
                        }
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
                let cp = match convex {
                    Shape::Cylinder(cylinder) => triangle_cylinder(&triangle, cylinder, &convex_in_mesh, best_distance),
                    _ => Some(gjk::closest_points(&TriangleShape(&triangle), &Isometry3::identity(), support, &convex_in_mesh)),
                };
                if let Some(cp) = cp.filter(|cp| cp.distance < best_distance) {
                    best_distance = cp.distance;
                    best = Some(ClosestPoints { distance: cp.distance, point_a: pose_mesh * cp.point_a, point_b: pose_mesh * cp.point_b });
                }
            }
        }
    }
    best
}

/// The closest points of a triangle and a cylinder (both in the mesh's frame), unless the
/// capsule about the cylinder's axis, which holds the cylinder, is already `cutoff` or
/// more from the triangle. Where that capsule is nearest the triangle at a point of its
/// side (not of its round ends), the point is the cylinder's too and the distances are
/// equal: GJK on a triangle and a segment converges in a few steps, against the
/// cylinder's curved side only linearly.
fn triangle_cylinder(triangle: &Triangle, cylinder: &Cylinder, cylinder_in_mesh: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    let (shape, identity) = (TriangleShape(triangle), Isometry3::identity());
    let capsule = Capsule { half_height: cylinder.half_height, radius: cylinder.radius };
    let cp = gjk::closest_points(&shape, &identity, &capsule, cylinder_in_mesh);
    let along_axis = cylinder_in_mesh.inverse_transform_point(&cp.point_b).z;
    if cp.distance >= cutoff {
        None
    } else if cp.distance > 0.0 && along_axis.abs() < cylinder.half_height * (1.0 - 1e-9) {
        Some(cp)
    } else {
        Some(gjk::closest_points(&shape, &identity, cylinder, cylinder_in_mesh))
    }
}

/// How a node box's distance to the convex shape is bounded from below.
enum NodeBound {
    /// A box (in the mesh's frame): the boxes' separation on the separating axes.
    Separation(Obb),
    /// A ball, by its centre (in the mesh's frame) and radius: the box's distance to
    /// the centre less the radius, exact.
    FromCentre(Point3, Real),
    /// A capsule or a cylinder, by its axis (a box with no width, in the mesh's frame)
    /// and radius: the box's separation from the axis less the radius (the shape lies
    /// within the radius of its axis: exact for a capsule, and along a cylinder's side);
    /// for a cylinder, also its box's separation (near its flat ends).
    AroundAxis { axis: Obb, radius: Real, outline: Option<Obb> },
    /// Any other convex shape: GJK's proven bound on the box against it.
    Gjk,
}

impl NodeBound {
    fn of(convex: &Shape, convex_in_mesh: &Isometry3) -> Self {
        let centre = Point3::from(convex_in_mesh.translation.vector);
        let placed = |half_extents: Vector3| Obb { center: centre, axes: convex_in_mesh.rotation.to_rotation_matrix().into_inner(), half_extents };
        match convex {
            Shape::Cuboid(c) => NodeBound::Separation(placed(c.half_extents)),
            Shape::Ball(b) => NodeBound::FromCentre(centre, b.radius),
            Shape::Capsule(c) => NodeBound::AroundAxis { axis: placed(Vector3::new(0.0, 0.0, c.half_height)), radius: c.radius, outline: None },
            Shape::Cylinder(c) => NodeBound::AroundAxis {
                axis: placed(Vector3::new(0.0, 0.0, c.half_height)),
                radius: c.radius,
                outline: Some(placed(Vector3::new(c.radius, c.radius, c.half_height))),
            },
            _ => NodeBound::Gjk,
        }
    }
}
