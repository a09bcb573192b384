//! The clearance over time, for the plot: the smallest distance over all checked pairs
//! at evenly spaced instants plus every waypoint.
use super::world_distance::{checked_element_pairs, world_distance};
use crate::collision::CollisionWorld;
use crate::math::Real;
use crate::motion::JointMotion;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClearanceSample {
    /// Seconds from the trajectory's start.
    pub time: Real,
    /// Smallest distance over the checked pairs (0 where they touch).
    pub distance: Real,
}

/// The clearance at `count` evenly spaced instants and at every waypoint, in time order.
/// Empty when no pairs are checked.
pub fn clearance_profile(world: &CollisionWorld, motion: &JointMotion, count: usize) -> Vec<ClearanceSample> {
    let pairs = checked_element_pairs(world);
    let (Some(&start), Some(&end)) = (motion.waypoint_times.first(), motion.waypoint_times.last()) else {
        return Vec::new();
    };
    let mut times: Vec<Real> = (0..count.max(2)).map(|i| start + (end - start) * i as Real / (count.max(2) - 1) as Real).collect();
    times.extend_from_slice(&motion.waypoint_times);
    times.sort_by(Real::total_cmp);
    times.dedup();
    times
        .into_iter()
        .filter_map(|time| {
            let poses = world.robot.link_poses(&motion.positions_at(time));
            world_distance(world, &pairs, &poses, Real::INFINITY).map(|d| ClearanceSample { time, distance: d.distance })
        })
        .collect()
}
