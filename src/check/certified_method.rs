//! `--method certified` (the default): the CCD pipeline, then the affine-ball certifier
//! (seed 000) on every segment when the pipeline finds no contact. `collision_free`
//! comes with `certified: true` only when every pair is proven free over the whole
//! motion; a pair the certifier leaves within the tolerance makes it `uncertain`.
use super::pipeline_method::pipeline_report;
use super::report::{Report, UnprovenPair, Verdict};
use super::CheckInput;
use crate::ccd::culling::Culling;
use crate::ccd::{run_pipeline, PipelineOptions, Statistics};
use crate::certifier::certify::{CertifierData, CertifierStats, Certifier, CertifyOptions, Unproven};
use crate::collision::{Body, CollisionWorld, StateChecker};
use crate::motion::JointMotion;
use rayon::prelude::*;
use std::time::Instant;

/// Runs pipeline and certifier; the report and both parts' statistics.
pub fn check_certified(input: &CheckInput, options: &PipelineOptions, certify: &CertifyOptions) -> (Report, Statistics, CertifierStats) {
    let started = Instant::now();
    let world = &input.world;
    let result = run_pipeline(world, &input.motion, options);
    let mut report = pipeline_report(world, &result, certify.tolerance);
    report.method = "certified".into();
    let mut certifier_stats = CertifierStats::default();
    if result.contacts.is_empty() {
        let (outcome, stats) = certify_motion(world, &input.motion, certify);
        certifier_stats = stats;
        report.decided_by = Some("certifier".into());
        match outcome {
            Ok(()) => {
                report.verdict = Verdict::CollisionFree;
                report.certified = true;
            }
            Err((segment, u)) => {
                let name = |e: usize| world.body_name(world.elements[e].body).to_string();
                let start = input.motion.segments[segment].start_time;
                report.verdict = Verdict::Uncertain;
                report.unproven = Some(UnprovenPair { link: name(u.moving), other: name(u.fixed), from: start + u.s_lo, to: start + u.s_hi });
            }
        }
    } else {
        report.decided_by = Some("pipeline".into());
    }
    report.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    (report, result.stats, certifier_stats)
}

/// The certifier over every segment (in parallel): `Ok` when all are proven free, else
/// the earliest segment's unproven pair.
///
/// The orbit tests exclude contacts that BEGIN on an interval, so the proof starts from
/// a free first waypoint: checked here (exactly, discretely) before anything else.
pub fn certify_motion(world: &CollisionWorld, motion: &JointMotion, options: &CertifyOptions) -> (Result<(), (usize, Unproven)>, CertifierStats) {
    if let Some(c) = StateChecker::new(world).contacts(&motion.waypoints[0], true).first() {
        let element_of = |body: Body| world.elements.iter().position(|e| e.body == body).unwrap_or(0);
        let start = Unproven { moving: element_of(Body::Link(c.link)), fixed: element_of(c.other), s_lo: 0.0, s_hi: 0.0 };
        return (Err((0, start)), CertifierStats::default());
    }
    let data = CertifierData::new(world);
    let outcomes: Vec<(Result<(), Unproven>, CertifierStats)> = motion
        .segments
        .par_iter()
        .map_init(
            || Culling::new(world),
            |culling, segment| {
                let mut pairs = Vec::new();
                culling.near_pairs(segment, &mut pairs, &mut Statistics::default());
                // Self-collision pairs are listed (lower link element, higher); either moves.
                debug_assert!(pairs.iter().all(|&(a, _)| matches!(world.elements[a].body, Body::Link(_))));
                let mut certifier = Certifier::new(world, &data, *options);
                let outcome = certifier.certify_segment(segment, &pairs);
                (outcome, certifier.stats)
            },
        )
        .collect();
    let mut stats = CertifierStats::default();
    let mut first = None;
    for (k, (outcome, s)) in outcomes.into_iter().enumerate() {
        stats += &s;
        if let (Err(u), None) = (outcome, &first) {
            first = Some((k, u));
        }
    }
    (first.map_or(Ok(()), Err), stats)
}
