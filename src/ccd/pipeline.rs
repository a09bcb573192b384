//! The pipeline over a whole trajectory: every segment through the three stages, and
//! the contact events (entry and exit per pair) that the report lists.
use super::culling::Culling;
use super::exit_march::time_of_separation;
use super::solver::{FoundContact, PairGroup, Solver};
use super::statistics::Statistics;
use crate::collision::{Body, CollisionWorld, StateChecker, StateContact};
use crate::math::{Point3, Real, Vector3};
use crate::motion::JointMotion;
use crate::motion_bounds::time_cells::SolveRange;
use std::collections::HashMap;
use std::time::Instant;

/// Seconds between an exit and a re-entry of the same pair below which both are one
/// contact event.
const EVENT_MERGE_GAP: Real = 1e-6;

#[derive(Clone, Copy, Debug)]
pub struct PipelineOptions {
    /// Stop at the first contact.
    pub first_only: bool,
    /// Width in seconds of the time intervals at which the solver stops subdividing and
    /// bisects (the time of contact is then exact to far below this).
    pub time_tolerance: Real,
    /// Joint step (rad) of the march that finds where a contact event ends.
    pub exit_resolution: Real,
}

impl Default for PipelineOptions {
    fn default() -> Self {
        Self { first_only: false, time_tolerance: 1e-7, exit_resolution: 0.002 }
    }
}

/// One contact event.
#[derive(Clone, Debug)]
pub struct CcdContact {
    pub link: usize,
    pub other: Body,
    pub time_of_contact: Real,
    pub time_of_separation: Option<Real>,
    pub segment: usize,
    pub point: Point3,
    pub normal: Option<Vector3>,
}

#[derive(Clone, Debug, Default)]
pub struct PipelineResult {
    /// Sorted by time of contact.
    pub contacts: Vec<CcdContact>,
    pub stats: Statistics,
}

/// The body pair of an element pair: (link, other), the lower link first for two links.
fn body_pair(world: &CollisionWorld, a: usize, b: usize) -> (usize, Body) {
    match (world.elements[a].body, world.elements[b].body) {
        (Body::Link(x), Body::Link(y)) => (x.min(y), Body::Link(x.max(y))),
        (Body::Link(x), other) | (other, Body::Link(x)) => (x, other),
        _ => unreachable!("obstacle pairs are not checked"),
    }
}

/// Runs the pipeline over the motion.
pub fn run_pipeline(world: &CollisionWorld, motion: &JointMotion, options: &PipelineOptions) -> PipelineResult {
    run_pipeline_except(world, motion, options, &[])
}

/// Runs the pipeline over the motion, leaving out the element pairs `apart` (sorted;
/// `(link element, other element)`, the lower link element first for two links) that
/// are already proven apart over the whole motion.
///
/// Every contact event (not `first_only`) with more than one rayon thread: each segment
/// on its own, side by side, from the contacts under way at its first waypoint; then
/// an event a segment finds under way at its start, which an earlier one found, is that
/// one (`merge_segment_events`). The events are those of the segments in turn, where
/// a pair in contact at a segment's start is solved from its exit on.
pub fn run_pipeline_except(world: &CollisionWorld, motion: &JointMotion, options: &PipelineOptions, apart: &[(usize, usize)]) -> PipelineResult {
    let count = motion.segments.len();
    if options.first_only || count < 2 || rayon::current_num_threads() < 2 {
        return run_segments(world, motion, options, apart, 0..count);
    }
    use rayon::prelude::*;
    let parts: Vec<PipelineResult> = (0..count).into_par_iter().map(|k| run_segments(world, motion, options, apart, k..k + 1)).collect();
    merge_segment_events(parts)
}

/// The events of consecutive runs over segments (in order) as one list: an event that a
/// run finds under way at its start, of a pair whose last event ends within
/// [`EVENT_MERGE_GAP`] of it or lasts on, is that event (its end the later one).
fn merge_segment_events(parts: Vec<PipelineResult>) -> PipelineResult {
    let mut result = PipelineResult::default();
    for part in parts {
        result.stats += &part.stats;
        for contact in part.contacts {
            let earlier = result.contacts.iter_mut().rev().find(|e| e.link == contact.link && e.other == contact.other);
            match earlier {
                Some(event) if event.time_of_separation.is_none_or(|end| contact.time_of_contact - end <= EVENT_MERGE_GAP) => {
                    event.time_of_separation = match (event.time_of_separation, contact.time_of_separation) {
                        (Some(x), Some(y)) => Some(x.max(y)),
                        _ => None,
                    };
                }
                _ => result.contacts.push(contact),
            }
        }
    }
    result
}

/// The pipeline over segments `range` of the motion, from the contacts under way at the
/// range's first waypoint (each event's end may lie beyond the range).
fn run_segments(
    world: &CollisionWorld,
    motion: &JointMotion,
    options: &PipelineOptions,
    apart: &[(usize, usize)],
    range: std::ops::Range<usize>,
) -> PipelineResult {
    let mut run = SegmentRun { world, motion, options, result: PipelineResult::default(), blocked_until: HashMap::new() };
    let mut culling = Culling::new(world);
    let mut checker = StateChecker::new(world);
    let start = motion.segments.get(range.start).map_or(motion.start_time(), |s| s.start_time);
    // The first segment's pairs that may touch (stages 1 and 2), less those proven apart:
    // without any, no pair touches at its start either, and the discrete check is spared.
    let near = |culling: &mut Culling, seg, candidates: &mut Vec<(usize, usize)>, stats: &mut Statistics| {
        culling.near_pairs(seg, candidates, stats);
        candidates.retain(|pair| apart.binary_search(pair).is_err());
    };
    let mut candidates = Vec::new();
    let first_near = match motion.segments.get(range.start) {
        Some(seg) if range.start < range.end => {
            near(&mut culling, seg, &mut candidates, &mut run.result.stats);
            Some(candidates.len())
        }
        _ => None,
    };
    let start_contacts = match first_near {
        Some(0) => Vec::new(),
        _ => checker.contacts(&motion.waypoints[range.start], options.first_only),
    };
    for c in start_contacts {
        run.event_under_way(c, start, range.start);
    }
    for (k, seg) in motion.segments.iter().enumerate().take(range.end).skip(range.start) {
        if options.first_only && !run.result.contacts.is_empty() {
            break;
        }
        if k > range.start {
            near(&mut culling, seg, &mut candidates, &mut run.result.stats);
        }

        let started = Instant::now();
        let found_pairs = run.solve_segment(&culling, k, &candidates);
        run.result.stats.stage3_contacts += found_pairs;
        run.result.stats.stage3_free += candidates.len().saturating_sub(found_pairs);
        Statistics::add_time(&mut run.result.stats.stage3_seconds, started.elapsed());
    }
    let mut result = run.result;
    result.contacts.sort_by(|a, b| a.time_of_contact.total_cmp(&b.time_of_contact));
    if options.first_only {
        result.contacts.truncate(1);
    }
    result
}

/// A run of the pipeline over consecutive segments: the events found so far, and until
/// when each body pair is in contact.
struct SegmentRun<'a> {
    world: &'a CollisionWorld,
    motion: &'a JointMotion,
    options: &'a PipelineOptions,
    result: PipelineResult,
    /// Pairs in contact until a time (infinite: until the end).
    blocked_until: HashMap<(usize, Body), Real>,
}

impl SegmentRun<'_> {
    /// A contact the discrete test finds at the run's first waypoint (time `start`,
    /// segment `k`): an event under way, with its end.
    fn event_under_way(&mut self, c: StateContact, start: Real, k: usize) {
        // The first contact alone needs no end (its report leaves it null).
        let exit = match self.options.first_only {
            true => None,
            false => time_of_separation(self.world, self.motion, c.link, c.other, start, self.options.exit_resolution),
        };
        self.blocked_until.insert((c.link, c.other), exit.unwrap_or(Real::INFINITY));
        self.result.contacts.push(CcdContact {
            link: c.link,
            other: c.other,
            time_of_contact: start,
            time_of_separation: exit,
            segment: k,
            point: c.point,
            normal: None,
        });
    }

    /// Stage 3 on segment `k` over the element pairs `candidates` that may touch: each
    /// body pair's group solved from the time it is free again, and again from each
    /// event's end within the segment. Returns how many first contacts were found.
    fn solve_segment(&mut self, culling: &Culling, k: usize, candidates: &[(usize, usize)]) -> usize {
        let (world, options) = (self.world, self.options);
        let seg = &self.motion.segments[k];
        let mut groups: Vec<PairGroup> = Vec::new();
        for &(a, b) in candidates {
            let (link, other) = body_pair(world, a, b);
            match groups.iter_mut().find(|g| g.link == link && g.other == other) {
                Some(g) => g.elements.push((a, b)),
                None => groups.push(PairGroup { link, other, elements: vec![(a, b)] }),
            }
        }
        // Each group is solved from the local time its pair is free again.
        let seg_end = seg.start_time + seg.duration;
        let mut pending: Vec<(Real, PairGroup)> = groups
            .into_iter()
            .filter_map(|g| {
                let from = self.blocked_until.get(&(g.link, g.other)).copied().unwrap_or(Real::NEG_INFINITY);
                (from < seg_end).then(|| ((from - seg.start_time).max(0.0), g))
            })
            .collect();
        let mut found_pairs = 0;
        while !pending.is_empty() {
            let from = pending.iter().map(|p| p.0).fold(Real::INFINITY, Real::min);
            let (batch, rest): (Vec<_>, Vec<_>) = pending.into_iter().partition(|p| p.0 == from);
            pending = rest;
            let batch: Vec<PairGroup> = batch.into_iter().map(|p| p.1).collect();
            let mut range = SolveRange::new(&world.robot, seg, from, seg.duration);
            if from == 0.0 {
                range = range.with_whole_range(&culling.links);
            }
            let solver = Solver::new(world, &mut range, &batch, options.first_only, options.time_tolerance);
            // A batch solved from after the segment's start is solved from its pairs' exit.
            let (found, stats) = if from > 0.0 { solver.after_exit() } else { solver }.solve();
            self.result.stats += &stats;
            found_pairs += found.len();
            for f in found {
                let group = &batch[f.group];
                let until = self.record_contact(group, &f, k);
                if until < seg_end && !options.first_only {
                    pending.push((until - seg.start_time, group.clone()));
                }
                if options.first_only {
                    break;
                }
            }
            if options.first_only && !self.result.contacts.is_empty() {
                break;
            }
        }
        found_pairs
    }

    /// A first contact the solver found for `group` in segment `k`: a new event, or the
    /// same one as the pair's last if it re-enters within a hair of its exit. Returns
    /// until when the pair is in contact.
    fn record_contact(&mut self, group: &PairGroup, f: &FoundContact, k: usize) -> Real {
        let t = self.motion.segments[k].start_time + f.s_contact;
        let exit = match self.options.first_only {
            true => None,
            false => time_of_separation(self.world, self.motion, group.link, group.other, t, self.options.exit_resolution),
        };
        // A re-entry within a hair of the last exit is the same event: the
        // discrete test flickers where the surfaces part.
        let same_event = self
            .result
            .contacts
            .iter_mut()
            .rev()
            .find(|c| c.link == group.link && c.other == group.other && c.time_of_separation.is_some_and(|e| t - e <= EVENT_MERGE_GAP));
        match same_event {
            Some(event) => event.time_of_separation = exit,
            None => self.result.contacts.push(CcdContact {
                link: group.link,
                other: group.other,
                time_of_contact: t,
                time_of_separation: exit,
                segment: k,
                point: f.point,
                normal: f.normal,
            }),
        }
        let until = exit.unwrap_or(Real::INFINITY);
        self.blocked_until.insert((group.link, group.other), until);
        until
    }
}
