//! A cell's bound for a mesh against a convex shape, node by node down the mesh's OBB
//! tree (Lin 1993 §4.1's hierarchy of convex pieces, over a time cell): where the
//! mesh's hull comes closer to the other shape than the mesh does (a forearm's hull
//! across the concave wrist, near a small box on the hand), every bound the search
//! takes from the hull stays below the distance, and only the exact distance less the
//! whole element's motion settles a cell, so the cells near the minimum would be cut to
//! the tolerance over the element's speed. Here each node of the tree gets the larger
//! of its box's distance at the middle less its own ball's motion and its box's gap
//! to second order ([`gap_over`]); a node that settles the cell is not opened, and
//! near the closest point the small nodes are nearly convex, so the second-order gap
//! reaches the distance there.
use super::ClearanceSearch;
use super::cell_bound::{CellData, Reach};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::motion::Segment;
use crate::motion_bounds::conservative_advancement::{BoundingBall, motion_bound};
use crate::motion_bounds::second_order::{MovingShape, gap_over};
use crate::partitioning::NodeContent;
use crate::query::gjk;
use crate::shape::{Cuboid, Shape, SupportMap, TriangleShape};

/// How close to a node box's distance GJK's plane must come before the walk takes it
/// (a share of the distance), as the exact distance's branch and bound does.
const NODE_PLANE_PRECISION: Real = 0.05;

/// A node's box as a support map in its mesh's frame.
struct NodeBox {
    cuboid: Cuboid,
    frame: Isometry3,
}

impl SupportMap for NodeBox {
    fn core_support(&self, d: &Vector3) -> Point3 {
        self.frame * self.cuboid.core_support(&self.frame.rotation.inverse_transform_vector(d))
    }
}

impl ClearanceSearch<'_> {
    /// For pair `p` of a mesh and a convex shape, over local times `[lo, hi]` of
    /// `segment` (with `reach` its motion bounds there): a lower bound of its distance
    /// over the cell that is at least `floor`, or `None` where some triangle's bound is
    /// below it (or the pair is not a mesh and a convex shape).
    ///
    /// The walk bounds the distance to the mesh's surface, which is the distance of the
    /// solids only while neither lies inside the other. So it answers only where the
    /// pair's distance at the middle, `at_middle`, is positive (neither inside the other
    /// there) and `floor` is: then over the cell the surfaces never meet, and neither
    /// can get inside the other without crossing them. (A cylinder held inside a closed
    /// mesh cube had its surface 9 mm away, and was proven that far from the cube.)
    pub(super) fn mesh_cell_bound(
        &self,
        p: usize,
        segment: &Segment,
        (lo, hi): (Real, Real),
        data: &mut CellData,
        reach: &Reach,
        (at_middle, floor): (Real, Real),
    ) -> Option<Real> {
        if !(at_middle > 0.0 && floor > 0.0) {
            return None;
        }
        let world = self.world;
        let (a, b) = self.pairs[p];
        // The mesh, the convex shape, and which of the pair each is.
        let (mesh_side, convex_side) = match (&world.elements[a].shape, &world.elements[b].shape) {
            (Shape::TriMesh(_), other) if other.as_support_map().is_some() => (0, 1),
            (other, Shape::TriMesh(_)) if other.as_support_map().is_some() => (1, 0),
            _ => return None,
        };
        let elements = [a, b];
        let (m, c) = (elements[mesh_side], elements[convex_side]);
        let Shape::TriMesh(mesh) = &world.elements[m].shape else { return None };
        let convex = world.elements[c].shape.as_support_map()?;
        let frame = self.gap_frame(p, segment, lo, hi, data)?;
        let tiny = self.rounding(p, &data.poses);
        let half = 0.5 * (hi - lo);
        // The convex shape in the mesh's frame at the middle, for the static bounds.
        let (pose_m, pose_c) = (frame.poses[mesh_side], frame.poses[convex_side]);
        let convex_in_mesh = pose_m.inv_mul(&pose_c);
        let convex_moving = MovingShape { shape: convex, ball: self.balls[c], pose: pose_c, rates: frame.rates[convex_side] };
        // How far a ball on the mesh moves relative to the convex shape over the cell:
        // in a frame where the mesh moves, that ball's motion; where the convex shape
        // moves, its own (the same for every ball).
        let node_reach = |ball: &BoundingBall| {
            let frames = reach.frames.iter().flatten();
            match reach.frames.iter().any(Option::is_some) {
                true => frames
                    .map(|(start, over, own, _, _, moving)| motion_bound(start, over, if *moving == m { ball } else { own }))
                    .fold(Real::INFINITY, Real::min),
                // No joint between them moves.
                false => reach.any,
            }
        };
        let nodes = mesh.obb_tree().nodes();
        let mut least = Real::INFINITY;
        let mut stack = vec![(0u32, Vector3::zeros())];
        while let Some((i, hint)) = stack.pop() {
            let node = &nodes[i as usize];
            let ball = BoundingBall { center: node.obb.center, radius: node.obb.half_extents.norm() * (1.0 + 1e-12) };
            let moved = node_reach(&ball);
            let (bound, normal) = match node.content {
                NodeContent::Children(..) => {
                    let boxed = NodeBox { cuboid: Cuboid { half_extents: node.obb.half_extents }, frame: node.obb.frame() };
                    let enough = floor + moved + tiny;
                    let plane = gjk::separating_plane_enough(&boxed, &Isometry3::identity(), convex, &convex_in_mesh, enough, NODE_PLANE_PRECISION, &hint);
                    let mut bound = plane.gap - moved - tiny;
                    if bound < floor && plane.normal != Vector3::zeros() {
                        let side = MovingShape { shape: &boxed, ball, pose: pose_m, rates: frame.rates[mesh_side] };
                        bound = bound.max(gap_over(&side, &convex_moving, &(pose_m.rotation * plane.normal), -half, half) - tiny);
                    }
                    (bound, plane.normal)
                }
                NodeContent::Triangle(t) => {
                    let triangle = mesh.triangle(t);
                    let shape = TriangleShape(&triangle);
                    let closest = gjk::closest_points(&shape, &Isometry3::identity(), convex, &convex_in_mesh);
                    let mut bound = closest.distance - moved - tiny;
                    let towards = closest.point_a - closest.point_b;
                    if bound < floor && closest.distance > 0.0 && towards.norm() > 0.0 {
                        let side = MovingShape { shape: &shape, ball, pose: pose_m, rates: frame.rates[mesh_side] };
                        let n = pose_m.rotation * (towards / towards.norm());
                        bound = bound.max(gap_over(&side, &convex_moving, &n, -half, half) - tiny);
                    }
                    if bound < floor {
                        return None;
                    }
                    (bound, Vector3::zeros())
                }
            };
            if bound >= floor {
                least = least.min(bound);
            } else if let NodeContent::Children(l, r) = node.content {
                stack.extend([(l, normal), (r, normal)]);
            }
        }
        Some(least)
    }
}
