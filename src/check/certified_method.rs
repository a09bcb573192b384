//! `--method certified` (the default): the CCD pipeline, then the affine-ball certifier
//! (Schröcker & Weber 2013) on every segment when the pipeline finds no contact.
//! `collision_free` comes with `certified: true` only when every pair is proven free
//! over the whole motion; a pair the certifier leaves within the tolerance makes it
//! `uncertain`.
//!
//! Every report of a motion without contacts carries its minimum clearance, and the
//! clearance search proves a lower bound of every pair's distance over the motion
//! (Lin 1993 ch. 5, with the pose enclosures' motion bound). A pair whose bound is at least
//! half the certifier's tolerance is thereby proven apart over the whole motion, with a
//! margin far above rounding: the certifier takes it as excluded and subdivides only
//! the pairs that come closer; where every pair is proven apart, neither the pipeline
//! nor the certifier runs. Such a pair has no contact for the pipeline to find either:
//! for a whole report the search comes first and the pipeline leaves those pairs out
//! too. On a colliding motion both searches, the clearance to the world and the
//! self-clearance, stop at the first pair either finds touching (`stop_at_contact`):
//! the report's clearance is then 0, and the bounds they have by then still hold. (Else
//! the self-clearance of a motion whose contact is with an obstacle would be searched
//! to its tolerance for nothing.) Should the pipeline find no contact after all, the
//! clearances are searched again to their tolerance.
//!
//! The first answer alone (`--first-only`) measures no clearance unless one is
//! required. Its search ([`near_pairs_apart`]) looks only at the pairs that may touch
//! (stages 1 and 2), settles their cells once their bound reaches half the tolerance
//! rather than near the minimum, and stops at the first pair it finds closer than that
//! (a contact is likely then, for the pipeline to find); the pipeline and the certifier
//! leave out what it proved. This answers free and grazing motions sooner; colliding
//! ones pay a little for it. With a clearance required, the pipeline comes first on
//! every pair, then (without a contact) the search to its tolerance.
use super::CheckInput;
use super::pipeline_method::pipeline_report;
use super::report::{DecidedBy, Report, ReportMethod, UnprovenPair, Verdict};
use crate::ccd::culling::Culling;
use crate::ccd::{PipelineOptions, PipelineResult, Statistics, run_pipeline_except};
use crate::certifier::certify::{Certifier, CertifierData, CertifierStats, CertifyOptions, Unproven};
use crate::clearance::{ClearanceOptions, ClearanceSearch, MinClearance, SplitClearance, checked_element_pairs, split_clearance};
use crate::collision::{Body, CollisionWorld, StateChecker};
use crate::motion::JointMotion;
use rayon::prelude::*;
use std::time::Instant;

/// What the certified method found: the report, both parts' statistics, and the
/// minimum clearance it measured on the way (the report's, for a motion without
/// contacts).
pub struct CertifiedOutcome {
    pub report: Report,
    pub pipeline: Statistics,
    pub certifier: CertifierStats,
    pub clearance: Option<SplitClearance>,
}

/// Runs the clearance search, the pipeline and (without contacts) the certifier, the
/// last two on the pairs the search does not prove apart ([`pairs_apart`]), and neither
/// where it proves every pair apart that could touch (`all_apart`); see the module
/// for the order. With `first_only`, the clearance is measured only when
/// `with_clearance` asks for it (after a pipeline on every pair that finds no contact);
/// otherwise [`near_pairs_apart`] comes first.
pub fn check_certified(input: &CheckInput, options: &PipelineOptions, certify: &CertifyOptions, with_clearance: bool) -> CertifiedOutcome {
    let started = Instant::now();
    let (world, motion) = (&input.world, &input.motion);
    let measure = |stop_at_contact: bool| {
        let clearance = split_clearance(world, motion, &ClearanceOptions { stop_at_contact, ..ClearanceOptions::default() });
        let apart = clearance.combined().map_or(Vec::new(), |c| pairs_apart(&c, certify.tolerance));
        (Some(clearance), apart)
    };
    // The pairs the pipeline and the certifier could look at: every checked pair, or
    // for a first answer those that may touch over some segment.
    let (mut clearance, mut apart, could_touch) = match (options.first_only, with_clearance) {
        (false, _) => {
            let (clearance, apart) = measure(true);
            (clearance, apart, checked_element_pairs(world))
        }
        (true, false) => {
            let (near, apart) = near_pairs_and_those_apart(world, motion, certify.tolerance);
            (None, apart, near)
        }
        (true, true) => (None, Vec::new(), checked_element_pairs(world)),
    };
    let result = match all_apart(motion, &could_touch, &apart) {
        true => PipelineResult::default(),
        false => run_pipeline_except(world, motion, options, &apart),
    };
    let cut_short = clearance.as_ref().is_some_and(|c| c.touching);
    if result.contacts.is_empty() && ((options.first_only && with_clearance) || cut_short) {
        // No contact after all where the search met a pair at distance 0 (touching
        // within rounding): the report's clearances are searched to their tolerance.
        // The pairs the first search proved apart stay proven.
        (clearance, apart) = measure(false);
    }
    let mut report = pipeline_report(world, &result, certify.tolerance);
    report.method = ReportMethod::Certified;
    let mut certifier_stats = CertifierStats::default();
    if result.contacts.is_empty() {
        let ((outcome, stats), decided_by) = match all_apart(motion, &could_touch, &apart) {
            true => ((Ok(()), CertifierStats::default()), DecidedBy::Clearance),
            false => (certify_motion(world, motion, certify, &apart), DecidedBy::Certifier),
        };
        certifier_stats = stats;
        report.decided_by = Some(decided_by);
        match outcome {
            Ok(()) => {
                report.verdict = Verdict::CollisionFree;
                report.certified = true;
            }
            Err((segment, u)) => {
                let name = |e: usize| world.body_name(world.elements[e].body).to_string();
                let start = motion.segments[segment].start_time;
                report.verdict = Verdict::Uncertain;
                report.unproven = Some(UnprovenPair { link: name(u.moving), other: name(u.fixed), from: start + u.s_lo, to: start + u.s_hi });
            }
        }
    } else {
        report.decided_by = Some(DecidedBy::Pipeline);
    }
    report.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    CertifiedOutcome { report, pipeline: result.stats, certifier: certifier_stats, clearance }
}

/// Element indices `(link element, other element)`, the lower link element first for two links.
type ElementPair = (usize, usize);

/// Whether every pair in `could_touch` is among those proven apart over the whole motion
/// (`apart`, sorted): then neither the pipeline nor the certifier has a pair to look at,
/// and the motion is proven free by the search's bounds alone, each at least half the
/// certifier's tolerance (the certifier takes them as excluded; its check of the first
/// waypoint is one of the instants they bound). Else both would cull every segment
/// again to find nothing left. Never for a motion of one waypoint: no segment lists the
/// pairs that may touch there.
fn all_apart(motion: &JointMotion, could_touch: &[ElementPair], apart: &[ElementPair]) -> bool {
    !motion.segments.is_empty() && could_touch.iter().all(|pair| apart.binary_search(pair).is_ok())
}

/// What a first-only check without a clearance to measure hands the certifier: the
/// element pairs that may touch over some segment (stages 1 and 2) and that the search
/// proves at least half the certifier's `tolerance` apart over the whole motion
/// ([`ClearanceSearch::pairs_apart`]), sorted: far less work than the certifier's on
/// every near pair.
pub fn near_pairs_apart(world: &CollisionWorld, motion: &JointMotion, tolerance: f64) -> Vec<(usize, usize)> {
    near_pairs_and_those_apart(world, motion, tolerance).1
}

/// The element pairs that may touch over some segment, and those of them
/// [`near_pairs_apart`] proves apart (each sorted).
fn near_pairs_and_those_apart(world: &CollisionWorld, motion: &JointMotion, tolerance: f64) -> (Vec<ElementPair>, Vec<ElementPair>) {
    let near = near_pairs_over(world, motion);
    let apart = ClearanceSearch::with_pairs(world, near.clone()).pairs_apart(motion, APART_SHARE * tolerance);
    (near, apart)
}

/// The element pairs that may touch over some segment of the motion, sorted.
fn near_pairs_over(world: &CollisionWorld, motion: &JointMotion) -> Vec<(usize, usize)> {
    let mut culling = Culling::new(world);
    let (mut all, mut near) = (Vec::new(), Vec::new());
    for segment in &motion.segments {
        culling.near_pairs(segment, &mut near, &mut Statistics::default());
        all.extend_from_slice(&near);
    }
    all.sort_unstable();
    all.dedup();
    all
}

/// A pair is taken as proven apart when its proven bound is at least this share of the
/// certifier's tolerance: a margin far above the rounding the bounds allow for (1e-12
/// relative) and GJK's accuracy; the search settles every pair at no less than the
/// motion's minimum clearance less 0.1 mm (its own tolerance), so in a motion whose
/// minimum clearance is the tolerance no pair is left to the certifier.
const APART_SHARE: f64 = 0.5;

/// The element pairs the clearance search proves at least half the certifier's
/// `tolerance` apart over the whole motion, sorted.
pub fn pairs_apart(clearance: &MinClearance, tolerance: f64) -> Vec<(usize, usize)> {
    let threshold = APART_SHARE * tolerance;
    let mut apart: Vec<(usize, usize)> = clearance.pair_lower_bounds.iter().filter(|(_, bound)| *bound >= threshold).map(|(pair, _)| *pair).collect();
    apart.sort_unstable();
    apart
}

/// The certifier over every segment (in parallel): `Ok` when all are proven free, else
/// the earliest segment's unproven pair. `apart` (sorted) lists element pairs already
/// proven apart over the whole motion, which it takes as excluded.
///
/// The orbit tests exclude contacts that BEGIN on an interval, so the proof starts from
/// a free first waypoint: checked here (exactly, discretely) before anything else.
pub fn certify_motion(
    world: &CollisionWorld,
    motion: &JointMotion,
    options: &CertifyOptions,
    apart: &[(usize, usize)],
) -> (Result<(), (usize, Unproven)>, CertifierStats) {
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
                pairs.retain(|pair| apart.binary_search(pair).is_err());
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
