//! `--method pipeline`: the articulated CCD pipeline over the whole trajectory
//! (exact first time of contact; no certificate).
use super::CheckInput;
use super::report::{ContactEvent, Report, ReportMethod, Verdict};
use crate::ccd::{PipelineOptions, PipelineResult, Statistics, run_pipeline};
use crate::collision::CollisionWorld;
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
    let contacts: Vec<ContactEvent> = result.contacts.iter().map(|c| ContactEvent::from_ccd_contact(world, c)).collect();
    let first = result.contacts.first();
    let verdict = if contacts.is_empty() { Verdict::CollisionFree } else { Verdict::Collision };
    Report {
        time_of_contact: first.map(|c| c.time_of_contact),
        segment_index: first.map(|c| c.segment),
        contacts,
        ..Report::new(ReportMethod::Pipeline, verdict, tolerance)
    }
}
