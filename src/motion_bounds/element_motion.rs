//! Where a collision element is over a time interval (interval poses from the link
//! enclosures) and at one instant (f64 forward kinematics): shared by the solver and
//! the certifier.
use crate::collision::{Body, CollisionWorld, Element};
use crate::enclosure::{IntervalPose, KinematicTree, LinkEnclosure};
use crate::math::{Isometry3, Real};
use crate::motion::Segment;

/// The element's pose set over the interval (links) or its fixed pose (obstacles).
pub fn element_pose(e: &Element, links: &[LinkEnclosure]) -> IntervalPose {
    match e.body {
        Body::Link(l) if e.origin == Isometry3::identity() => links[l].pose,
        Body::Link(l) => links[l].pose.mul_isometry(&e.origin),
        Body::Obstacle(_) => IntervalPose::from_isometry(&e.origin),
    }
}

/// The pose set of element `eb` in the frame of element `ea`; for two links, along the
/// chain between them (the enclosures must hold the poses in the parent's frame).
pub fn element_relative_pose(tree: &KinematicTree, ea: &Element, eb: &Element, links: &[LinkEnclosure]) -> IntervalPose {
    match (ea.body, eb.body) {
        (Body::Link(la), Body::Link(lb)) => IntervalPose::isometry_mul(&ea.origin.inverse(), &tree.relative_pose(links, la, lb)).mul_isometry(&eb.origin),
        _ => element_pose(ea, links).inv_mul(&element_pose(eb, links)),
    }
}

/// Two link elements each in the other's frame, from one walk up the chain between
/// them: `eb` in `ea`'s frame and `ea` in `eb`'s, each what [`element_relative_pose`]
/// gives.
pub fn element_relative_poses(tree: &KinematicTree, ea: &Element, eb: &Element, links: &[LinkEnclosure]) -> [IntervalPose; 2] {
    match (ea.body, eb.body) {
        (Body::Link(la), Body::Link(lb)) => {
            let [b_in_a, a_in_b] = tree.relative_poses(links, la, lb);
            [
                IntervalPose::isometry_mul(&ea.origin.inverse(), &b_in_a).mul_isometry(&eb.origin),
                IntervalPose::isometry_mul(&eb.origin.inverse(), &a_in_b).mul_isometry(&ea.origin),
            ]
        }
        _ => [element_relative_pose(tree, ea, eb, links), element_relative_pose(tree, eb, ea, links)],
    }
}

/// The element's world pose with the links placed by `link_poses`.
pub fn element_world_pose(e: &Element, link_poses: &[Isometry3]) -> Isometry3 {
    match e.body {
        Body::Link(l) => link_poses[l] * e.origin,
        Body::Obstacle(_) => e.origin,
    }
}

/// World poses of the links at local time `s` of a segment (f64 forward kinematics).
pub fn poses_at(world: &CollisionWorld, segment: &Segment, s: Real) -> Vec<Isometry3> {
    let mut q = vec![0.0; segment.coefficients.len()];
    segment.positions_at(s, &mut q);
    world.robot.link_poses(&q)
}
