//! `--method pipeline`: the articulated CCD pipeline over the whole trajectory
//! (exact first time of contact; no certificate).
use super::CheckInput;
use super::report::{ContactEvent, Report, Verdict};
use crate::ccd::{PipelineOptions, PipelineResult, Statistics, run_pipeline};
use crate::collision::{Body, CollisionWorld};
use std::time::Instant;

/// Runs the pipeline; the report and the per-stage statistics.
pub fn check_pipeline(input: &CheckInput, options: &PipelineOptions, tolerance: f64) -> (Report, Statistics) {
    let started = Instant::now();
    let result = run_pipeline(&input.world, &input.motion, options);
    let mut report = pipeline_report(&input.world, &result, tolerance);
    report.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    (report, result.stats)
}

/// The report of what the pipeline found (method "pipeline", no certificate).
pub fn pipeline_report(world: &CollisionWorld, result: &PipelineResult, tolerance: f64) -> Report {
    let contacts: Vec<ContactEvent> = result
        .contacts
        .iter()
        .map(|c| ContactEvent {
            link: world.body_name(Body::Link(c.link)).to_string(),
            other: world.body_name(c.other).to_string(),
            time_of_contact: c.time_of_contact,
            time_of_separation: c.time_of_separation,
            point: c.point.coords.into(),
            normal: c.normal.map(|n| n.into()),
            max_penetration_depth: None,
        })
        .collect();
    let first = result.contacts.first();
    Report {
        verdict: if contacts.is_empty() { Verdict::CollisionFree } else { Verdict::Collision },
        certified: false,
        method: "pipeline".into(),
        time_of_contact: first.map(|c| c.time_of_contact),
        segment_index: first.map(|c| c.segment),
        contacts,
        max_penetration_depth: None,
        min_clearance: None,
        tolerance,
        elapsed_ms: 0.0,
        error: None,
        states_checked: None,
        decided_by: None,
        unproven: None,
        closest_approach: None,
        world_clearance: None,
        self_clearance: None,
        clearance_ok: None,
        warnings: Vec::new(),
        first_only: false,
    }
}
