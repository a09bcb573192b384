//! What a report measures beyond its verdict: the motion's minimum clearance and the
//! penetration depth of each contact event ([`crate::clearance`]).
use super::CheckInput;
use super::report::{ClosestApproach, Report, Verdict};
use crate::clearance::{ClearanceOptions, MinClearance, SplitClearance, body_named, contact_normal, max_depth_over, split_clearance};
use rayon::prelude::*;
use std::time::Instant;

/// Fills `min_clearance` (0 when colliding) and, for a motion without contacts, where
/// the closest approach happens, and the clearance to the world and the self-clearance
/// apart: `measured` when the method has measured them already (its time is in
/// `elapsed_ms`), else measured here and the time added.
pub fn add_clearance(report: &mut Report, input: &CheckInput, measured: Option<SplitClearance>) {
    let started = Instant::now();
    match report.verdict {
        Verdict::Invalid => return,
        Verdict::Collision => report.min_clearance = Some(0.0),
        Verdict::CollisionFree | Verdict::Uncertain => {
            let split = measured.unwrap_or_else(|| split_clearance(&input.world, &input.motion, &ClearanceOptions::default()));
            let Some(found) = split.combined() else { return };
            report.min_clearance = Some(found.closest.distance);
            report.closest_approach = Some(closest_approach(input, &found));
            report.world_clearance = split.world.as_ref().map(|c| closest_approach(input, c));
            report.self_clearance = split.self_collision.as_ref().map(|c| closest_approach(input, c));
        }
    }
    report.elapsed_ms += started.elapsed().as_secs_f64() * 1e3;
}

/// Where a clearance is attained, and its proven bound.
fn closest_approach(input: &CheckInput, found: &MinClearance) -> ClosestApproach {
    let world = &input.world;
    let (a, b) = found.closest.elements;
    ClosestApproach {
        link: world.body_name(world.elements[a].body).to_string(),
        other: world.body_name(world.elements[b].body).to_string(),
        distance: found.closest.distance,
        time: found.time,
        point: found.closest.point_a.coords.into(),
        other_point: found.closest.point_b.coords.into(),
        lower_bound: found.lower_bound,
    }
}

/// Gives each contact event that has no normal yet (a contact at the start, or one whose
/// closest points just before it were not clear of rounding, and every sampled contact)
/// the direction of its depth just after it begins ([`contact_normal`]).
pub fn add_missing_normals(report: &mut Report, input: &CheckInput) {
    let (world, motion) = (&input.world, &input.motion);
    for event in report.contacts.iter_mut().filter(|e| e.normal.is_none()) {
        let (Some(link), Some(other)) = (body_named(world, &event.link), body_named(world, &event.other)) else { continue };
        let until = event.time_of_separation.unwrap_or_else(|| motion.end_time());
        event.normal = contact_normal(world, motion, link, other, event.time_of_contact, until).map(|n| n.into());
    }
}

/// Fills each contact event's `max_penetration_depth` (the largest translational depth
/// of its pair over the event's interval) and the report's maximum (0 without events).
/// Events whose end is unknown (`--first-only`) keep `null`. The events are measured in
/// parallel (rayon). The time spent is added to `elapsed_ms`.
pub fn add_penetration_depths(report: &mut Report, input: &CheckInput, first_only: bool) {
    if report.verdict == Verdict::Invalid {
        return;
    }
    let started = Instant::now();
    let (world, motion) = (&input.world, &input.motion);
    let end = motion.waypoint_times.last().copied().unwrap_or(0.0);
    // Each event's depth on its own, the events side by side where there are cores.
    let depths: Vec<Option<f64>> = report
        .contacts
        .par_iter()
        .map(|event| {
            let until = match (event.time_of_separation, first_only) {
                (Some(t), _) => t,
                (None, false) => end,
                (None, true) => return None,
            };
            let (a, b) = (body_named(world, &event.link)?, body_named(world, &event.other)?);
            Some(max_depth_over(world, motion, a, b, event.time_of_contact, until).0)
        })
        .collect();
    let mut deepest: Option<f64> = Some(0.0);
    for (event, depth) in report.contacts.iter_mut().zip(depths) {
        event.max_penetration_depth = depth;
        deepest = match depth {
            Some(d) => deepest.map(|x| x.max(d)),
            None => None,
        };
    }
    report.max_penetration_depth = deepest;
    report.elapsed_ms += started.elapsed().as_secs_f64() * 1e3;
}
