//! What a report measures beyond its verdict: the motion's minimum clearance
//! ([`crate::clearance`]) and the penetration depth of each contact event.
use super::report::{ClosestApproach, Report, Verdict};
use super::CheckInput;
use crate::clearance::{min_clearance, ClearanceOptions};
use std::time::Instant;

/// Fills `min_clearance` (0 when colliding) and, for a motion without contacts, where
/// the closest approach happens. The time spent is added to `elapsed_ms`.
pub fn add_clearance(report: &mut Report, input: &CheckInput) {
    let started = Instant::now();
    match report.verdict {
        Verdict::Invalid => return,
        Verdict::Collision => report.min_clearance = Some(0.0),
        Verdict::CollisionFree | Verdict::Uncertain => {
            let Some(found) = min_clearance(&input.world, &input.motion, &ClearanceOptions::default()) else { return };
            let world = &input.world;
            let (a, b) = found.closest.elements;
            report.min_clearance = Some(found.closest.distance);
            report.closest_approach = Some(ClosestApproach {
                link: world.body_name(world.elements[a].body).to_string(),
                other: world.body_name(world.elements[b].body).to_string(),
                time: found.time,
                point: found.closest.point_a.coords.into(),
                other_point: found.closest.point_b.coords.into(),
                lower_bound: found.lower_bound,
            });
        }
    }
    report.elapsed_ms += started.elapsed().as_secs_f64() * 1e3;
}
