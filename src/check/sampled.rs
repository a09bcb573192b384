//! `--method sampled`: discrete checks along the executed motion, as MoveIt does.
//!
//! Each segment is cut into steps so that no joint moves more than `resolution`
//! (radians, or metres for prismatic joints) between two checks. Sampling proves
//! nothing between samples, so the verdict is `collision` or `uncertain`, never
//! `collision_free`.
use super::CheckInput;
use super::report::{ContactEvent, Report, ReportMethod, Verdict};
use crate::collision::{Body, StateChecker};
use crate::math::Real;
use std::time::Instant;

/// More states than this is a resolution mistake, not a check (about a minute of work).
pub const MAX_STATES: usize = 10_000_000;

/// Options of a sampled check.
#[derive(Clone, Copy, Debug)]
pub struct SampledOptions {
    /// Largest joint change between two checks (default 0.01 rad).
    pub resolution: Real,
    /// Stop at the first colliding sample.
    pub first_only: bool,
    /// Reported as the report's tolerance (not used by sampling).
    pub tolerance: Real,
}

impl Default for SampledOptions {
    fn default() -> Self {
        Self { resolution: 0.01, first_only: false, tolerance: 0.001 }
    }
}

/// Runs the sampled check.
pub fn check_sampled(input: &CheckInput, options: &SampledOptions) -> Report {
    let started = Instant::now();
    let world = &input.world;
    let motion = &input.motion;
    let mut checker = StateChecker::new(world);
    let mut events: Vec<ContactEvent> = Vec::new();
    // Open events: (link, other, index into events).
    let mut open: Vec<(usize, Body, usize)> = Vec::new();
    let mut first: Option<(Real, usize)> = None;
    let mut states = 0usize;
    let mut q = motion.waypoints[0].clone();

    let steps: Vec<usize> = motion.segments.iter().map(|seg| seg.step_count(options.resolution)).collect();
    let total: usize = steps.iter().fold(1usize, |acc, n| acc.saturating_add(*n));
    if total > MAX_STATES {
        let message =
            format!("the sampled method would check {total} states at --resolution {} (more than {MAX_STATES}); use a coarser resolution", options.resolution);
        return Report::invalid(ReportMethod::Sampled, options.tolerance, message);
    }
    // (time, segment index, local time) of every sample, in order.
    let single = motion.segments.is_empty().then_some((motion.start_time(), 0, 0.0));
    let along = motion.segments.iter().zip(&steps).enumerate().flat_map(|(k, (seg, &n))| {
        let first = if k == 0 { 0 } else { 1 };
        (first..=n).map(move |i| {
            let s = seg.duration * i as Real / n as Real;
            (seg.start_time + s, k, s)
        })
    });
    let samples = single.into_iter().chain(along);

    'samples: for (t, k, s) in samples {
        match motion.segments.get(k) {
            Some(seg) => seg.positions_at(s, &mut q),
            None => q.clone_from(&motion.waypoints[0]),
        }
        states += 1;
        let contacts = checker.contacts(&q, options.first_only);
        // Close the events whose pair no longer touches.
        open.retain(|&(link, other, e)| {
            let still = contacts.iter().any(|c| c.link == link && c.other == other);
            if !still {
                events[e].time_of_separation = Some(t);
            }
            still
        });
        for c in contacts {
            if open.iter().any(|&(l, o, _)| l == c.link && o == c.other) {
                continue;
            }
            if first.is_none() {
                first = Some((t, k));
            }
            open.push((c.link, c.other, events.len()));
            events.push(ContactEvent::from_state_contact(world, &c, t));
            if options.first_only {
                break 'samples;
            }
        }
    }

    let verdict = if events.is_empty() { Verdict::Uncertain } else { Verdict::Collision };
    Report {
        time_of_contact: first.map(|f| f.0),
        segment_index: first.map(|f| f.1),
        contacts: events,
        elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
        states_checked: Some(states),
        ..Report::new(ReportMethod::Sampled, verdict, options.tolerance)
    }
}
