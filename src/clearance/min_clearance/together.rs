//! Searches run together. The clearance to the world and the self-clearance of one
//! motion: side by side where rayon has more than one thread, else taking turns, the
//! cell with the smallest bound first. The search for pairs apart of a first-only
//! check: in shares of the motion's segments side by side. A pair found closer than
//! the threshold in one share stops them all, and each takes the smallest distance (or
//! upper bound of one) that any has found as its level: the cutoff of its exact
//! distances, and the bound of a cell whose exact distance lies beyond it.
//!
//! The search for pairs apart in shares answers first-only checks sooner. The
//! clearance searches of whole reports are not cut in shares as well, beside the world
//! and self split: that makes them slower, the shares measuring cells that one search
//! would have settled against a level found elsewhere.
use super::pool;
use super::search::{Goal, Outcome, Search};
use super::shared_level::SharedLevel;
use super::swept_boxes::SweptBoxes;
use super::{ClearanceOptions, ClearanceSearch, MinClearance};
use crate::math::Real;
use crate::motion::{JointMotion, Segment};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Shares of the motion's segments per search, for this many rayon threads: a few per
/// thread, so that the shares balance.
fn shares(segments: usize, threads: usize) -> Vec<std::ops::Range<usize>> {
    let count = segments.min(2 * threads).max(1);
    (0..count).map(|i| i * segments / count..(i + 1) * segments / count).filter(|r| !r.is_empty()).collect()
}

/// The search for `finder`'s pairs at least `threshold` apart over the motion, in
/// shares of its segments side by side where rayon has more than one thread (else
/// whole).
pub(super) fn apart_side_by_side(finder: &ClearanceSearch, motion: &JointMotion, options: &ClearanceOptions, threshold: Real) -> Outcome {
    let shared = SharedLevel::new();
    let search = |segments| Search::new(finder, motion, options, Goal::Apart(threshold)).in_segments(segments).sharing_level(&shared);
    let threads = rayon::current_num_threads();
    if threads < 2 {
        return search(0..motion.segments.len()).run();
    }
    let parts: Vec<Outcome> = shares(motion.segments.len(), threads).into_par_iter().map(|segments| search(segments).run()).collect();
    // (A motion without segments has no share: the search over none of them.)
    parts.into_iter().reduce(Outcome::merge).unwrap_or_else(|| search(0..0).run())
}

/// The minimum clearances of one motion over several searches' pairs in one world (each
/// its own minimum, `None` where a search has no pairs), and whether a pair was found touching
/// (with [`ClearanceOptions::stop_at_contact`], where all stop at the first pair any of
/// them finds touching). Where rayon has one thread they take turns, the cell with the
/// smallest bound first, as one best-first search over all their pairs would (so a
/// contact in one is met before the other is searched to its tolerance); else side by
/// side, a thread that has run out of work handed cells of a search still running
/// (`pool`).
pub fn min_clearances_together(finders: &[&ClearanceSearch], motion: &JointMotion, options: &ClearanceOptions) -> (Vec<Option<MinClearance>>, bool) {
    let held = (motion.segments.is_empty() && motion.waypoints.len() == 1).then(|| stationary(motion));
    let searched = held.as_ref().unwrap_or(motion);
    if searched.segments.is_empty() {
        return (vec![None; finders.len()], false);
    }
    let touching = AtomicBool::new(false);
    let checked: Vec<&ClearanceSearch> = finders.iter().copied().filter(|f| !f.pairs.is_empty()).collect();
    let threads = rayon::current_num_threads();
    // Each set of pairs its own level, for the searches its cells are handed to.
    let levels: Vec<SharedLevel> = checked.iter().map(|_| SharedLevel::new()).collect();
    // The searches are over one world: the elements' boxes over each segment are theirs.
    let Some(world) = checked.first().map(|f| f.world) else { return (vec![None; finders.len()], false) };
    debug_assert!(checked.iter().all(|f| std::ptr::eq(f.world, world)), "searches of one motion over one world");
    let swept = SweptBoxes::new(world, searched);
    let mut searches: Vec<Search> = checked
        .iter()
        .zip(&levels)
        .map(|(f, level)| {
            let search = Search::new(f, searched, options, Goal::Minimum).sharing_touching(&touching).sharing_swept_boxes(&swept);
            if threads > 1 { search.sharing_level(level) } else { search }
        })
        .collect();
    let outcomes: Vec<Outcome> = if threads > 1 {
        pool::run_searches(searches, threads)
    } else {
        for search in &mut searches {
            search.start();
        }
        let mut running: Vec<usize> = (0..searches.len()).collect();
        while let Some(next) = running.iter().copied().min_by(|&a, &b| {
            let bound = |k: usize| searches[k].next_bound().unwrap_or(Real::NEG_INFINITY);
            bound(a).total_cmp(&bound(b))
        }) {
            if !searches[next].step() {
                running.retain(|&k| k != next);
            }
        }
        searches.into_iter().map(Search::finish).collect()
    };
    let mut found = checked.iter().zip(outcomes).map(|(f, outcome)| outcome.clearance(&f.pairs));
    let mut all: Vec<Option<MinClearance>> = finders.iter().map(|f| if f.pairs.is_empty() { None } else { found.next().flatten() }).collect();
    if held.is_some() {
        for clearance in all.iter_mut().flatten() {
            clearance.time = motion.start_time();
        }
    }
    (all, touching.load(Ordering::Relaxed))
}

/// A one-point motion as a motion that holds its configuration for a second.
fn stationary(motion: &JointMotion) -> JointMotion {
    let (q, t) = (&motion.waypoints[0], motion.start_time());
    let segment = Segment { start_time: t, duration: 1.0, degree: 1, coefficients: q.iter().map(|&v| [v, 0.0, 0.0, 0.0, 0.0, 0.0]).collect() };
    JointMotion { waypoints: vec![q.clone(), q.clone()], waypoint_times: vec![t, t + 1.0], segments: vec![segment] }
}

#[cfg(test)]
mod tests {
    use super::shares;

    #[test]
    fn shares_cover_every_segment_once() {
        for segments in 1..40 {
            for threads in 1..6 {
                let all: Vec<usize> = shares(segments, threads).into_iter().flatten().collect();
                assert_eq!(all, (0..segments).collect::<Vec<_>>(), "{segments} segments, {threads} threads");
            }
        }
    }
}
