//! The clearance over time, for the plot: the smallest distance over all checked pairs
//! at evenly spaced instants plus every waypoint; and per body pair, for the few pairs
//! that come closest, signed (the depth below zero where they overlap).
use super::event_depth::bodies_depth;
use super::world_distance::{checked_element_pairs, pair_distance, world_distance};
use crate::collision::{Body, CollisionWorld};
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

/// One body pair's distance over time: negative where the bodies overlap (minus their
/// largest penetration depth).
#[derive(Clone, Debug)]
pub struct PairProfile {
    pub link: Body,
    pub other: Body,
    pub samples: Vec<ClearanceSample>,
    /// The smallest sample.
    pub least: Real,
}

/// Instants at which the body pairs are ranked before the few closest are sampled fully.
const RANKING_INSTANTS: usize = 48;

/// The `keep` body pairs that come closest over the motion, each sampled at `count`
/// evenly spaced instants (and at the waypoints while there are at most `count` of
/// them: a trajectory of thousands of points is sampled evenly), signed; closest first.
pub fn pair_profiles(world: &CollisionWorld, motion: &JointMotion, count: usize, keep: usize) -> Vec<PairProfile> {
    let pairs = checked_element_pairs(world);
    let (Some(&start), Some(&end)) = (motion.waypoint_times.first(), motion.waypoint_times.last()) else {
        return Vec::new();
    };
    let even = |n: usize| (0..n.max(2)).map(move |i| start + (end - start) * i as Real / (n.max(2) - 1) as Real);
    let body_pair = |(a, b): (usize, usize)| (world.elements[a].body, world.elements[b].body);
    // Rank the body pairs by their smallest distance at a few instants (and waypoints).
    let mut ranking_times: Vec<Real> = even(RANKING_INSTANTS).collect();
    if motion.waypoint_times.len() <= count {
        ranking_times.extend_from_slice(&motion.waypoint_times);
    }
    let mut least: Vec<((Body, Body), Real)> = Vec::new();
    for &t in &ranking_times {
        let poses = world.robot.link_poses(&motion.positions_at(t));
        for &pair in &pairs {
            let Some(d) = pair_distance(world, pair, &poses, Real::INFINITY) else { continue };
            match least.iter_mut().find(|(p, _)| *p == body_pair(pair)) {
                Some(entry) => entry.1 = entry.1.min(d.distance),
                None => least.push((body_pair(pair), d.distance)),
            }
        }
    }
    least.sort_by(|x, y| x.1.total_cmp(&y.1));
    least.truncate(keep);
    // Sample the kept ones at every instant.
    let mut times: Vec<Real> = even(count).collect();
    if motion.waypoint_times.len() <= count {
        times.extend_from_slice(&motion.waypoint_times);
    }
    times.sort_by(Real::total_cmp);
    times.dedup();
    let mut profiles: Vec<PairProfile> =
        least.iter().map(|&((link, other), _)| PairProfile { link, other, samples: Vec::new(), least: Real::INFINITY }).collect();
    for &time in &times {
        let poses = world.robot.link_poses(&motion.positions_at(time));
        for profile in &mut profiles {
            let distance = pairs
                .iter()
                .filter(|&&p| body_pair(p) == (profile.link, profile.other))
                .filter_map(|&p| pair_distance(world, p, &poses, Real::INFINITY))
                .map(|d| d.distance)
                .fold(Real::INFINITY, Real::min);
            let signed = if distance > 0.0 { distance } else { -bodies_depth(world, profile.link, profile.other, &poses) };
            profile.least = profile.least.min(signed);
            profile.samples.push(ClearanceSample { time, distance: signed });
        }
    }
    profiles.sort_by(|x, y| x.least.total_cmp(&y.least));
    profiles
}
