//! Distances in one configuration: of one element pair, and the smallest over all
//! checked pairs (pairs ordered and pruned by the distance of their world boxes).
use crate::collision::{Body, CollisionWorld};
use crate::math::{Isometry3, Point3, Real};
use crate::query::distance::shape_distance;

/// The distance of one element pair `(a, b)`, with its closest world points.
#[derive(Clone, Copy, Debug)]
pub struct PairDistance {
    pub distance: Real,
    pub elements: (usize, usize),
    pub point_a: Point3,
    pub point_b: Point3,
}

/// Every checked element pair `(link element, other element)`.
pub fn checked_element_pairs(world: &CollisionWorld) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (a, ea) in world.elements.iter().enumerate() {
        let Body::Link(_) = ea.body else { continue };
        for (b, eb) in world.elements.iter().enumerate() {
            let later_link = matches!(eb.body, Body::Link(_)) && b <= a;
            if !later_link && ea.body != eb.body && world.is_checked(ea.body, eb.body) {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// The distance of the pair with the links at `link_poses`, if below `cutoff`.
pub fn pair_distance(world: &CollisionWorld, (a, b): (usize, usize), link_poses: &[Isometry3], cutoff: Real) -> Option<PairDistance> {
    let (ea, eb) = (&world.elements[a], &world.elements[b]);
    let (pose_a, pose_b) = (world.element_pose(ea, link_poses), world.element_pose(eb, link_poses));
    let cp = shape_distance(&ea.shape, &pose_a, &eb.shape, &pose_b, cutoff)?;
    Some(PairDistance { distance: cp.distance, elements: (a, b), point_a: cp.point_a, point_b: cp.point_b })
}

/// The closest of `pairs` with the links at `link_poses`, if closer than `cutoff`.
pub fn world_distance(world: &CollisionWorld, pairs: &[(usize, usize)], link_poses: &[Isometry3], cutoff: Real) -> Option<PairDistance> {
    let boxes: Vec<_> = world.elements.iter().map(|e| e.body_obb.transformed_aabb(&body_pose(e.body, link_poses))).collect();
    let mut ordered: Vec<(Real, (usize, usize))> = pairs.iter().map(|&(a, b)| (boxes[a].distance(&boxes[b]), (a, b))).collect();
    ordered.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut best: Option<PairDistance> = None;
    let mut best_distance = cutoff;
    for (gap, pair) in ordered {
        // The box gap is a lower bound (the boxes hold the elements).
        if gap >= best_distance {
            break;
        }
        if let Some(d) = pair_distance(world, pair, link_poses, best_distance) {
            best_distance = d.distance;
            best = Some(d);
        }
    }
    best
}

/// The pose of a body's frame: a link's pose, or the world frame for obstacles (whose
/// element boxes are given in the world frame).
pub(super) fn body_pose(body: Body, link_poses: &[Isometry3]) -> Isometry3 {
    match body {
        Body::Link(l) => link_poses[l],
        Body::Obstacle(_) => Isometry3::identity(),
    }
}
