//! The clearance to the world and the self-clearance, apart: a link's distance to the
//! obstacles and to the robot's other links answer different questions (a finger near
//! its neighbour says nothing of the shelf), and the smaller one alone hides the other.
//! Each is the minimum clearance search ([`super::min_clearance`]) over its own pairs;
//! together they give the motion's minimum clearance.
use super::min_clearance::{ClearanceOptions, ClearanceSearch, MinClearance, min_clearances_together};
use super::world_distance::checked_element_pairs;
use crate::collision::{Body, CollisionWorld};
use crate::motion::JointMotion;

/// The minimum clearance of link-obstacle pairs and of link-link pairs; `None` where no
/// such pair is checked.
#[derive(Clone, Debug, Default)]
pub struct SplitClearance {
    pub world: Option<MinClearance>,
    pub self_collision: Option<MinClearance>,
    /// A pair was found touching, and (with [`ClearanceOptions::stop_at_contact`]) both
    /// searches stopped there: the motion's minimum clearance is 0 and every pair's
    /// bound is proven, but the part without the contact is not searched to its
    /// tolerance (its minimum may lie above the true one by more).
    pub touching: bool,
}

/// Both clearances of the motion: the two searches side by side where there are cores
/// for both (rayon), else taking turns ([`min_clearances_together`]).
pub fn split_clearance(world: &CollisionWorld, motion: &JointMotion, options: &ClearanceOptions) -> SplitClearance {
    let (to_world, to_self): (Vec<_>, Vec<_>) =
        checked_element_pairs(world).into_iter().partition(|&(_, b)| matches!(world.elements[b].body, Body::Obstacle(_)));
    let (to_world, to_self) = (ClearanceSearch::with_pairs(world, to_world), ClearanceSearch::with_pairs(world, to_self));
    let (found, touching) = min_clearances_together(&[&to_world, &to_self], motion, options);
    let mut found = found.into_iter();
    let (world, self_collision) = (found.next().flatten(), found.next().flatten());
    SplitClearance { world, self_collision, touching }
}

impl SplitClearance {
    /// The motion's minimum clearance over every checked pair: the smaller of the two,
    /// with the smaller proven lower bound and every pair's bound.
    pub fn combined(&self) -> Option<MinClearance> {
        let parts: Vec<&MinClearance> = [&self.world, &self.self_collision].into_iter().flatten().collect();
        let closest = parts.iter().min_by(|a, b| a.closest.distance.total_cmp(&b.closest.distance))?;
        Some(MinClearance {
            lower_bound: parts.iter().map(|p| p.lower_bound).fold(f64::INFINITY, f64::min),
            pair_lower_bounds: parts.iter().flat_map(|p| p.pair_lower_bounds.iter().copied()).collect(),
            evaluations: parts.iter().map(|p| p.evaluations).sum(),
            exact_distances: parts.iter().map(|p| p.exact_distances).sum(),
            cells: parts.iter().map(|p| p.cells).sum(),
            searches: parts.iter().map(|p| p.searches).sum(),
            ..(*closest).clone()
        })
    }
}
