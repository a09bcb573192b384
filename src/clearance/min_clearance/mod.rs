//! The minimum clearance over a motion: best-first search over (pair, time cell) with
//! proven lower bounds (Lin 1993 ch. 5's priority queue of pairs).
//!
//! The search starts from every pair at every waypoint (pairs in the order of their
//! world boxes' gap, cut off at the best so far). A cell's lower bound starts as the
//! gap between the pair's swept boxes over the whole segment (stage 1's enclosures).
//! When a cell comes first in the queue its pair is measured at the cell's middle, and
//! the bound becomes the largest of these, each a proven lower bound of the pair's
//! distance over the cell (cheapest first, stopping once one settles the cell):
//!
//! - `l - m`, `l` a lower bound of the distance at the middle and `m` a bound on how
//!   far any point of one element moves relative to the other over the cell
//!   (`motion_bound` on the relative pose enclosure, in whichever element's frame gives
//!   the smaller bound: a link passing over a large table is measured by the link's
//!   ball, not the table's). `l` is first the gap of the elements' world boxes, then
//!   the hull distance (Lin–Canny, warm started, or GJK's separating plane against a
//!   mesh's vertices; exact for two primitives), then the exact distance where
//!   that is needed;
//! - `s - a`, `s` the gap of the two elements along a fixed direction `n` (the closest
//!   points' direction at the middle: every direction's gap is a lower bound of the
//!   distance) and `a` a bound on how far any point advances along `n` towards the
//!   other element (`advance_along`). Motion across `n` costs nothing, so a pair that
//!   keeps its distance while moving (a link turning above a table, sliding along a
//!   wall) is settled by a few cells rather than length / tolerance of them;
//! - the same gap to second order: each element's extent along `n` over the cell is at
//!   most the larger of its values at the cell's ends under the motion's linear part
//!   at the middle (the extent is convex along a line of directions), plus half the
//!   cell times the spread of the pose rates over the cell (`link_jets`) on the
//!   element's ball. Near a pair's closest approach the gap's rate vanishes and the
//!   spread is itself proportional to the cell, so cells there stop being cut to
//!   tolerance / speed.
//!
//! Pairs with no relative motion over a segment (no moving joint between the two
//! bodies) have `m = 0`: one measurement settles them.
//!
//! The best distance is tracked two ways: the smallest exact (attained) distance, and
//! the smallest upper bound of one, the distance from a mesh vertex nearest the other
//! element (a real point) to it. Cells are pruned against the smaller; the exact
//! distance of a mesh (a branch and bound over its triangles, hundreds of times a hull
//! test) is computed only when the hull cannot settle a cell however small, when the
//! hull's gap below the exact distance, as last seen on the pair, would settle it, and
//! once at the end where the smallest upper bound was found, which then is attained.
//! Cells are halved while their bound is below the best by more than the tolerance, so
//! the answer is within the tolerance of the true minimum (up to the distance queries'
//! own accuracy), and the proven lower bound comes with it: the smallest bound of every
//! cell set aside.
mod cell_bound;
mod together;

use super::world_distance::{ElementHulls, PairDistance, body_pose, checked_element_pairs, pair_distance};
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::{EnclosuresOnDemand, Interval, IntervalMatrix3, IntervalPose, IntervalVector3, JetsOnDemand, KinematicTree, LinkJet, link_enclosures};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::motion::{JointMotion, Segment};
use crate::motion_bounds::conservative_advancement::{BoundingBall, advance_along, motion_bound};
use crate::motion_bounds::element_motion::{element_pose, element_relative_pose, poses_at};
use crate::query::closest_features::{WarmStart, closest_features_cached};
use crate::query::gjk;
use crate::robot::JointKind;
use crate::shape::{Ball, Shape, SupportMap, SupportTree};
use cell_bound::{CellData, Probe, Reach, WarmProbe, direction};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use together::SharedLevel;
pub use together::min_clearances_together;

#[derive(Clone, Copy, Debug)]
pub struct ClearanceOptions {
    /// How far (metres) the reported minimum may lie above the true one...
    pub tolerance: Real,
    /// ...or this share of it, whichever is larger.
    pub relative_tolerance: Real,
    /// Cells are not split below this share of their segment's duration.
    pub min_cell: Real,
    /// Measure pairs of hulls with Lin–Canny's closest features (warm started) once
    /// the hulls are built, rather than with GJK.
    pub track_hulls: bool,
    /// Stop at the first pair found touching (an attained distance of 0): the minimum
    /// is then 0, and every pair keeps the proven bound its cells have by then. For a
    /// report that needs the clearance only when the motion is free, and the pairs
    /// proven apart in any case ([`split_clearance`](super::split_clearance)).
    pub stop_at_contact: bool,
}

impl Default for ClearanceOptions {
    fn default() -> Self {
        Self { tolerance: 1e-4, relative_tolerance: 1e-2, min_cell: 1e-9, track_hulls: true, stop_at_contact: false }
    }
}

/// The smallest distance the motion attains, where, and a proven lower bound of it.
#[derive(Clone, Debug)]
pub struct MinClearance {
    pub closest: PairDistance,
    /// Seconds from the trajectory's start.
    pub time: Real,
    pub segment: usize,
    /// No checked pair comes closer than this over the whole motion.
    pub lower_bound: Real,
    /// Per checked element pair (as [`ClearanceSearch::pairs`] lists them), a proven
    /// lower bound of its distance over the whole motion: the smallest bound of the
    /// pair's cells when the search stopped (at least `lower_bound`, and far above it
    /// for the pairs that stay apart).
    pub pair_lower_bounds: Vec<((usize, usize), Real)>,
    /// Pairs measured (at a waypoint or a cell's middle) by a lower bound of their
    /// distance (exact for two primitives); cells settled by their boxes not counted.
    pub evaluations: usize,
    /// Of those, how many needed the exact distance of a mesh as well.
    pub exact_distances: usize,
    /// Time cells looked at.
    pub cells: usize,
}

/// The parts of one cell's lower bound, each a proven lower bound of the pair's
/// distance over the cell on its own (`-inf` where a part does not apply). For tests.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct CellBounds {
    /// World boxes at the middle, minus the motion bound.
    pub boxes: Real,
    /// Hull distance (or GJK's gap) at the middle, minus the motion bound.
    pub hull: Real,
    /// Gap along the hull's closest direction, minus the advance along it.
    pub hull_along: Real,
    /// The same gap to second order.
    pub hull_second_order: Real,
    /// Exact distance at the middle, minus the motion bound.
    pub exact: Real,
    /// Gap along the exact closest direction, minus the advance along it.
    pub exact_along: Real,
    /// The same gap to second order.
    pub exact_second_order: Real,
    /// Whether no joint between the pair's bodies moves over the segment.
    pub fixed: bool,
}

/// A pair over local times `[lo, hi]` of a segment, with a lower bound of its distance.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    bound: Real,
    pair: u32,
    segment: u32,
    lo: Real,
    hi: Real,
    /// Whether `bound` already comes from the pair measured at the middle.
    evaluated: bool,
    /// No joint between the pair's bodies moves over the segment.
    fixed: bool,
}

impl Eq for Cell {}
impl PartialOrd for Cell {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Cell {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.bound.total_cmp(&other.bound)
    }
}

/// What the search keeps per world: the checked pairs, the elements' hulls (a mesh's
/// built once it has been measured often enough to repay it), bounding balls, the
/// kinematic tree and which joints lie between the bodies of each pair.
pub struct ClearanceSearch<'w> {
    world: &'w CollisionWorld,
    pairs: Vec<(usize, usize)>,
    hulls: ElementHulls<'w>,
    /// Per element, how often it has been measured against another hull.
    uses: Vec<AtomicUsize>,
    balls: Vec<BoundingBall>,
    tree: KinematicTree,
    /// Per pair, the joints whose motion moves one body relative to the other.
    between: Vec<Vec<usize>>,
}

/// The motion's minimum clearance over every checked pair (see [`ClearanceSearch`] to
/// check several motions in one world).
pub fn min_clearance(world: &CollisionWorld, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
    ClearanceSearch::new(world).min_clearance_held(motion, options)
}

/// A one-point motion as a motion that holds its configuration for a second.
pub(super) fn stationary(motion: &JointMotion) -> JointMotion {
    let (q, t) = (&motion.waypoints[0], motion.start_time());
    let segment = Segment { start_time: t, duration: 1.0, degree: 1, coefficients: q.iter().map(|&v| [v, 0.0, 0.0, 0.0, 0.0, 0.0]).collect() };
    JointMotion { waypoints: vec![q.clone(), q.clone()], waypoint_times: vec![t, t + 1.0], segments: vec![segment] }
}

/// Share of its segment below which [`ClearanceSearch::pairs_apart`] splits no cell
/// (`cargo bench --bench real_use`, free first contacts: 2^-7 and 2^-10 gave the same
/// medians).
pub const APART_MIN_CELL: Real = 1.0 / 1024.0;

/// Cells whose shared data is kept at once (a few kilobytes each).
const MAX_SHARED_CELLS: usize = 1 << 14;

/// Measurements of a mesh against another hull before its Lin–Canny hull is built:
/// building a mesh's hull costs about as much as a few thousand GJK queries on its
/// reduced hull.
const BUILD_HULL_AFTER: usize = 4096;

/// The best distance so far: attained, and bounded from above.
struct Incumbent {
    best: Option<MinClearance>,
    /// The smallest exact distance found.
    distance: Real,
    /// The smallest upper bound found, where: (bound, pair, segment, local time).
    candidate: Option<(Real, usize, usize, Real)>,
}

impl Incumbent {
    fn offer(&mut self, d: &PairDistance, segment: usize, time: Real) {
        if d.distance < self.distance {
            self.distance = d.distance;
            self.best = Some(MinClearance {
                closest: *d,
                time,
                segment,
                lower_bound: 0.0,
                pair_lower_bounds: Vec::new(),
                evaluations: 0,
                exact_distances: 0,
                cells: 0,
            });
        }
    }

    fn propose(&mut self, bound: Real, pair: usize, segment: usize, s: Real) {
        if bound < self.level() {
            self.candidate = Some((bound, pair, segment, s));
        }
    }

    /// What no cell needs to beat: the true minimum is at most this.
    fn level(&self) -> Real {
        self.candidate.map_or(self.distance, |c| c.0.min(self.distance))
    }
}

/// What a search settles its cells against.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Goal {
    /// The motion's minimum clearance, to the options' tolerance: a cell settles once
    /// its bound is within the tolerance of the best distance found.
    Minimum,
    /// Only which pairs stay at least this far apart (metres): a cell settles once its
    /// bound reaches it, whatever the minimum.
    Apart(Real),
}

/// The search over one motion.
struct Search<'s, 'w> {
    finder: &'s ClearanceSearch<'w>,
    motion: &'s JointMotion,
    options: &'s ClearanceOptions,
    goal: Goal,
    warm_starts: Vec<WarmProbe>,
    /// The hull's gap below the exact distance, as last seen on each pair.
    hull_gaps: Vec<Real>,
    /// For [`Goal::Apart`], whether a pair was found closer than its threshold
    /// somewhere (it cannot be proven apart, and a contact is likely): the search then
    /// stops where it is.
    found_closer: bool,
    /// With [`ClearanceOptions::stop_at_contact`]: whether this search found a pair
    /// touching, and the flag it shares with searches run beside it (any of them that
    /// finds one stops them all).
    touching: bool,
    shared_touching: Option<&'s AtomicBool>,
    /// The segments this search looks at (all of them, or its share of the motion when
    /// searches run side by side, [`together`]).
    segments: std::ops::Range<usize>,
    /// The best level and the closer flag of the searches it runs beside over other
    /// segments of the same pairs.
    shared_level: Option<&'s SharedLevel>,
    incumbent: Incumbent,
    evaluations: usize,
    exact_distances: usize,
    cells: usize,
    /// The cells still to look at, smallest bound first.
    queue: BinaryHeap<Reverse<Cell>>,
    /// What the pairs measured over one cell share.
    shared: HashMap<(u32, u64, u64), CellData>,
    /// The smallest bound of every cell set aside.
    lower_bound: Real,
    /// Per pair, the smallest bound of its cells set aside (settled, or left in the
    /// queue when the search stops).
    pair_bounds: Vec<Real>,
}

impl Search<'_, '_> {
    fn slack(&self, level: Real) -> Real {
        if level.is_finite() { self.options.tolerance.max(self.options.relative_tolerance * level) } else { 0.0 }
    }

    /// What no cell needs to beat: its own best, or one a search beside it found.
    fn level(&self) -> Real {
        let own = self.incumbent.level();
        self.shared_level.map_or(own, |shared| own.min(shared.level()))
    }

    /// Hands its best level to the searches beside it.
    fn publish(&self) {
        if let Some(shared) = self.shared_level {
            shared.offer(self.incumbent.level());
        }
    }

    /// Whether a pair was found closer than the threshold, here or beside it.
    fn closer_found(&self) -> bool {
        self.found_closer || self.shared_level.is_some_and(|shared| shared.closer_found())
    }

    /// The level below which a cell's bound is not good enough.
    fn floor(&self) -> Real {
        if let Goal::Apart(threshold) = self.goal {
            return threshold;
        }
        let level = self.level();
        level - self.slack(level)
    }

    /// The exact distance of pair `p` with the links at `poses`, if below `cutoff`.
    fn exact(&mut self, p: usize, poses: &[Isometry3], cutoff: Real, lower: Real, segment: usize, s: Real) -> Option<PairDistance> {
        self.exact_distances += 1;
        let found = pair_distance(self.finder.world, self.finder.pairs[p], poses, cutoff)?;
        self.hull_gaps[p] = found.distance - lower;
        self.note_distance(found.distance);
        self.incumbent.offer(&found, segment, self.motion.segments[segment].start_time + s);
        self.publish();
        Some(found)
    }

    /// Notes a distance (or an upper bound of one) that a pair attains.
    fn note_distance(&mut self, distance: Real) {
        if self.options.stop_at_contact && distance <= 0.0 {
            self.touching = true;
            if let Some(flag) = self.shared_touching {
                flag.store(true, Ordering::Relaxed);
            }
        }
        if let Goal::Apart(threshold) = self.goal
            && distance < threshold
        {
            self.found_closer = true;
            if let Some(shared) = self.shared_level {
                shared.note_closer();
            }
        }
    }

    /// Offers what a probe found: the distance where exact, else an upper bound.
    fn take(&mut self, probe: &Probe, p: usize, poses: &[Isometry3], segment: usize, s: Real) {
        match &probe.exact {
            Some(d) => {
                self.note_distance(d.distance);
                self.incumbent.offer(d, segment, self.motion.segments[segment].start_time + s);
                self.publish();
            }
            None if probe.lower < self.level() => {
                let upper = self.finder.upper_bound(p, poses, probe.normal.as_ref());
                self.note_distance(upper);
                self.incumbent.propose(upper, p, segment, s);
                self.publish();
            }
            None => {}
        }
    }

    /// Every pair at every waypoint: pairs in the order of their boxes' gap, lower
    /// bounds first, then the exact distances the hulls cannot settle.
    fn waypoints(&mut self) {
        let finder = self.finder;
        let (world, pairs) = (finder.world, &finder.pairs);
        let mut order: Vec<(Real, usize)> = Vec::with_capacity(pairs.len());
        let mut bounded: Vec<(Real, usize)> = Vec::with_capacity(pairs.len());
        let count = self.motion.segments.len();
        for k in self.segments.clone() {
            let segment = &self.motion.segments[k];
            let ends: &[Real] = if k + 1 == count { &[0.0, segment.duration] } else { &[0.0] };
            for &s in ends {
                if self.touched() {
                    return;
                }
                let poses = poses_at(world, segment, s);
                let boxes: Vec<_> = world.elements.iter().map(|e| e.body_obb.transformed_aabb(&body_pose(e.body, &poses))).collect();
                order.clear();
                order.extend(pairs.iter().enumerate().map(|(p, &(a, b))| (boxes[a].distance(&boxes[b]), p)));
                order.sort_by(|x, y| x.0.total_cmp(&y.0));
                bounded.clear();
                for &(gap, p) in &order {
                    if gap >= self.level() || self.touched() {
                        break;
                    }
                    self.evaluations += 1;
                    let probe = finder.probe(p, &poses, self.options.track_hulls, &mut self.warm_starts[p]);
                    self.take(&probe, p, &poses, k, s);
                    if probe.exact.is_none() {
                        bounded.push((probe.lower, p));
                    }
                }
                for &(lower, p) in &bounded {
                    // A hull that cannot settle the pair at this instant.
                    if lower - finder.rounding(p, &poses) < self.floor() {
                        let cutoff = self.level();
                        self.exact(p, &poses, cutoff, lower, k, s);
                    }
                }
            }
        }
    }

    /// Measures a cell at its middle: its new bound.
    fn measure(&mut self, cell: &Cell, data: &mut CellData) -> Real {
        let finder = self.finder;
        let world = finder.world;
        let p = cell.pair as usize;
        let (a, b) = finder.pairs[p];
        let k = cell.segment as usize;
        let segment = &self.motion.segments[k];
        let middle = 0.5 * (cell.lo + cell.hi);
        self.cells += 1;
        let reach = if cell.fixed { Reach::NONE } else { finder.reach(p, segment, cell.lo, cell.hi, data) };
        let poses = &data.poses;
        let tiny = finder.rounding(p, poses);
        // The boxes at the middle first: they settle the pairs that stay far apart.
        let (ea, eb) = (&world.elements[a], &world.elements[b]);
        let boxes = ea.body_obb.transformed_aabb(&body_pose(ea.body, poses)).distance(&eb.body_obb.transformed_aabb(&body_pose(eb.body, poses)));
        let mut bound = cell.bound.max(boxes - reach.any - tiny);
        if bound >= self.floor() {
            return bound;
        }
        self.evaluations += 1;
        let probe = finder.probe(p, poses, self.options.track_hulls, &mut self.warm_starts[p]);
        self.take(&probe, p, poses, k, middle);
        bound = bound.max(probe.lower - reach.any - tiny);
        if let (Some(n), false) = (probe.normal, cell.fixed) {
            if bound < self.floor() {
                bound = bound.max(finder.gap_along(p, poses, &n) - reach.along(&n) - tiny);
            }
            if bound < self.floor() {
                bound = bound.max(finder.second_order(p, segment, cell.lo, cell.hi, data, &n) - tiny);
            }
        }
        if probe.exact.is_some() || bound >= self.floor() {
            return bound;
        }
        // The exact distance, where the hull cannot settle the cell however small it
        // gets, or where the hull's gap as last seen on the pair would settle it (and
        // the distance between the nearest vertices leaves room for that).
        let poses = &data.poses;
        let floor = self.floor();
        let shortfall = floor - (probe.lower - reach.any - tiny);
        let needed = probe.lower - tiny < floor;
        let may_settle = || self.hull_gaps[p] >= shortfall && finder.upper_bound(p, poses, probe.normal.as_ref()) - reach.any - tiny >= floor;
        if !(needed || may_settle()) {
            return bound;
        }
        let level = self.level();
        match self.exact(p, poses, level + reach.any, probe.lower, k, middle) {
            // Farther than the best plus the reach all over the cell.
            None => bound.max(level - tiny),
            Some(d) => {
                bound = bound.max(d.distance - reach.any - tiny);
                if let (Some(n), false) = (direction(&d), cell.fixed) {
                    if bound < self.floor() {
                        bound = bound.max(finder.gap_along(p, &data.poses, &n) - reach.along(&n) - tiny);
                    }
                    if bound < self.floor() {
                        bound = bound.max(finder.second_order(p, segment, cell.lo, cell.hi, data, &n) - tiny);
                    }
                }
                bound
            }
        }
    }

    /// Whether this search, or one it shares the flag with, found a pair touching.
    fn touched(&self) -> bool {
        self.options.stop_at_contact && (self.touching || self.shared_touching.is_some_and(|flag| flag.load(Ordering::Relaxed)))
    }

    /// The pairs at the waypoints (for [`Goal::Minimum`]), then one cell per pair and
    /// segment: the whole segment, bounded by the gap of the pair's swept boxes.
    fn start(&mut self) {
        let finder = self.finder;
        let (world, pairs) = (finder.world, &finder.pairs);
        if self.goal == Goal::Minimum {
            self.waypoints();
        }
        let mut links = Vec::new();
        for k in self.segments.clone() {
            let segment = &self.motion.segments[k];
            let moving = finder.moving_joints(segment);
            link_enclosures(&world.robot, segment, 0.0, segment.duration, false, None, &mut links);
            let boxes: Vec<_> = world
                .elements
                .iter()
                .map(|e| match e.body {
                    Body::Link(l) => links[l].pose.obb_aabb(&e.body_obb),
                    Body::Obstacle(_) => e.body_obb.transformed_aabb(&body_pose(e.body, &[])),
                })
                .collect();
            for (p, &(a, b)) in pairs.iter().enumerate() {
                let gap = boxes[a].distance(&boxes[b]);
                let fixed = !finder.between[p].iter().any(|&j| moving[j]);
                self.queue.push(Reverse(Cell {
                    bound: gap * (1.0 - 1e-12),
                    pair: p as u32,
                    segment: k as u32,
                    lo: 0.0,
                    hi: segment.duration,
                    evaluated: false,
                    fixed,
                }));
            }
        }
    }

    /// The bound of the cell the search takes next; `None` once it is done.
    fn next_bound(&self) -> Option<Real> {
        self.queue.peek().map(|Reverse(cell)| cell.bound)
    }

    /// Takes the next cell: settles it, splits it, or measures it. `false` once the
    /// search is done.
    fn step(&mut self) -> bool {
        let Some(Reverse(cell)) = self.queue.pop() else { return false };
        // Settled; or (looking for pairs apart) a pair found closer than the threshold;
        // or a pair found touching: every cell left keeps the bound it has, a proven one.
        if cell.bound >= self.floor() || self.closer_found() || self.touched() {
            self.lower_bound = self.lower_bound.min(cell.bound);
            for Reverse(left) in std::iter::once(Reverse(cell)).chain(self.queue.drain()) {
                let p = left.pair as usize;
                self.pair_bounds[p] = self.pair_bounds[p].min(left.bound);
            }
            return false;
        }
        if cell.evaluated {
            let middle = 0.5 * (cell.lo + cell.hi);
            for (lo, hi) in [(cell.lo, middle), (middle, cell.hi)] {
                self.queue.push(Reverse(Cell { lo, hi, evaluated: false, ..cell }));
            }
            return true;
        }
        let segment = &self.motion.segments[cell.segment as usize];
        if self.shared.len() >= MAX_SHARED_CELLS {
            self.shared.clear();
        }
        let key = (cell.segment, cell.lo.to_bits(), cell.hi.to_bits());
        let mut data = self.shared.remove(&key).unwrap_or_else(|| CellData::new(self.finder.world, segment, 0.5 * (cell.lo + cell.hi)));
        // Distances are not negative.
        let bound = self.measure(&cell, &mut data).max(0.0);
        self.shared.insert(key, data);
        let splittable = cell.hi - cell.lo > self.options.min_cell * segment.duration;
        if bound < self.floor() && splittable {
            self.queue.push(Reverse(Cell { bound, evaluated: true, ..cell }));
        } else {
            // Settled (or too short to split): its bound holds over the cell.
            self.lower_bound = self.lower_bound.min(bound);
            let p = cell.pair as usize;
            self.pair_bounds[p] = self.pair_bounds[p].min(bound);
        }
        true
    }

    /// What the search found: its best distance (its smallest upper bound made an
    /// attained distance), and the bounds of the cells it set aside.
    fn finish(mut self) -> Outcome {
        // The smallest upper bound, made an attained distance (at most the bound); not
        // needed once a pair touches.
        if let Some((upper, p, k, s)) = self.incumbent.candidate
            && upper < self.incumbent.distance
            && !self.touched()
        {
            let poses = poses_at(self.finder.world, &self.motion.segments[k], s);
            self.exact(p, &poses, Real::INFINITY, Real::NEG_INFINITY, k, s);
        }
        Outcome {
            best: self.incumbent.best,
            lower_bound: self.lower_bound,
            pair_bounds: self.pair_bounds,
            evaluations: self.evaluations,
            exact_distances: self.exact_distances,
            cells: self.cells,
        }
    }

    fn run(mut self) -> Outcome {
        self.start();
        while self.step() {}
        self.finish()
    }
}

/// What one search, or several over shares of the motion, found.
struct Outcome {
    /// The smallest attained distance, where.
    best: Option<MinClearance>,
    /// The smallest bound of every cell set aside.
    lower_bound: Real,
    /// Per pair, the smallest bound of its cells set aside.
    pair_bounds: Vec<Real>,
    evaluations: usize,
    exact_distances: usize,
    cells: usize,
}

impl Outcome {
    /// Two searches' findings over the same pairs, on different segments.
    fn merge(self, other: Outcome) -> Outcome {
        let best = match (self.best, other.best) {
            (Some(a), Some(b)) => Some(if b.closest.distance < a.closest.distance { b } else { a }),
            (a, b) => a.or(b),
        };
        Outcome {
            best,
            lower_bound: self.lower_bound.min(other.lower_bound),
            pair_bounds: self.pair_bounds.iter().zip(&other.pair_bounds).map(|(a, b)| a.min(*b)).collect(),
            evaluations: self.evaluations + other.evaluations,
            exact_distances: self.exact_distances + other.exact_distances,
            cells: self.cells + other.cells,
        }
    }

    /// The minimum clearance over `pairs` (the search's), if any distance was found.
    fn clearance(self, pairs: &[(usize, usize)]) -> Option<MinClearance> {
        let pair_lower_bounds = pairs.iter().copied().zip(self.pair_bounds.iter().copied()).collect();
        let (lower_bound, evaluations, exact_distances, cells) = (self.lower_bound, self.evaluations, self.exact_distances, self.cells);
        self.best.map(|b| MinClearance {
            lower_bound: lower_bound.min(b.closest.distance).max(0.0),
            pair_lower_bounds,
            evaluations,
            exact_distances,
            cells,
            ..b
        })
    }
}

impl<'w> ClearanceSearch<'w> {
    pub fn new(world: &'w CollisionWorld) -> Self {
        Self::with_pairs(world, checked_element_pairs(world))
    }

    /// The search over some of the checked element pairs (`(link element, other
    /// element)`, as [`checked_element_pairs`] lists them).
    pub fn with_pairs(world: &'w CollisionWorld, pairs: Vec<(usize, usize)>) -> Self {
        let balls =
            world.elements.iter().map(|e| BoundingBall { center: e.local_obb.center, radius: e.local_obb.half_extents.norm() * (1.0 + 1e-12) }).collect();
        let robot = &world.robot;
        // The joint that places each link, and the joints from a link up to the root.
        let mut placing = vec![None; robot.links.len()];
        for (j, joint) in robot.joints.iter().enumerate() {
            placing[joint.child_link] = Some(j);
        }
        let up = |l: usize| {
            let mut chain = Vec::new();
            let mut x = l;
            while let Some(j) = placing[x] {
                chain.push(j);
                x = robot.joints[j].parent_link;
            }
            chain
        };
        let between = pairs
            .iter()
            .map(|&(a, b)| {
                let (ua, ub) = match (world.elements[a].body, world.elements[b].body) {
                    (Body::Link(la), Body::Link(lb)) => (up(la), up(lb)),
                    (Body::Link(l), Body::Obstacle(_)) | (Body::Obstacle(_), Body::Link(l)) => (up(l), Vec::new()),
                    (Body::Obstacle(_), Body::Obstacle(_)) => (Vec::new(), Vec::new()),
                };
                // Joints on one chain but not the other: the path between the bodies.
                ua.iter().filter(|j| !ub.contains(j)).chain(ub.iter().filter(|j| !ua.contains(j))).copied().collect()
            })
            .collect();
        let uses = (0..world.elements.len()).map(|_| AtomicUsize::new(0)).collect();
        Self { world, pairs, hulls: ElementHulls::new(world), uses, balls, tree: KinematicTree::new(robot), between }
    }

    /// The checked element pairs, in the order [`Self::cell_bounds`] numbers them.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// [`Self::min_clearance`], where a one-point motion counts too: the clearance of its
    /// configuration, searched as a motion that stays there.
    pub fn min_clearance_held(&self, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
        if !(motion.segments.is_empty() && motion.waypoints.len() == 1) {
            return self.min_clearance(motion, options);
        }
        let mut held = self.min_clearance(&stationary(motion), options)?;
        held.time = motion.start_time();
        Some(held)
    }

    /// The motion's minimum clearance, or `None` when no pairs are checked (or the
    /// motion has no segments).
    pub fn min_clearance(&self, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
        if self.pairs.is_empty() || motion.segments.is_empty() {
            return None;
        }
        self.search(motion, options, Goal::Minimum).run().clearance(&self.pairs)
    }

    /// The checked pairs (sorted) proven at least `threshold` apart over the whole
    /// motion. The same proven cell bounds as [`Self::min_clearance`], but a cell settles
    /// as soon as its bound reaches `threshold`, and a pair whose cells are still below
    /// it at [`APART_MIN_CELL`] of their segment is left out: far less work than the
    /// clearance to its tolerance, for the pairs the certifier need not subdivide. The
    /// search stops at the first pair it finds closer than `threshold` (a contact is
    /// likely, for the pipeline to find): the pairs not settled by then are left out.
    pub fn pairs_apart(&self, motion: &JointMotion, threshold: Real) -> Vec<(usize, usize)> {
        if self.pairs.is_empty() || motion.segments.is_empty() {
            return Vec::new();
        }
        let options = ClearanceOptions { min_cell: APART_MIN_CELL, ..ClearanceOptions::default() };
        let bounds = together::apart_side_by_side(self, motion, &options, threshold).pair_bounds;
        let mut apart: Vec<(usize, usize)> = self.pairs.iter().zip(bounds).filter(|(_, bound)| *bound >= threshold).map(|(pair, _)| *pair).collect();
        apart.sort_unstable();
        apart
    }

    fn search<'s>(&'s self, motion: &'s JointMotion, options: &'s ClearanceOptions, goal: Goal) -> Search<'s, 'w> {
        Search {
            finder: self,
            motion,
            options,
            goal,
            found_closer: false,
            touching: false,
            shared_touching: None,
            segments: 0..motion.segments.len(),
            shared_level: None,
            queue: BinaryHeap::new(),
            shared: HashMap::new(),
            lower_bound: Real::INFINITY,
            pair_bounds: vec![Real::INFINITY; self.pairs.len()],
            warm_starts: vec![WarmProbe::new(); self.pairs.len()],
            hull_gaps: vec![Real::INFINITY; self.pairs.len()],
            incumbent: Incumbent { best: None, distance: Real::INFINITY, candidate: None },
            evaluations: 0,
            exact_distances: 0,
            cells: 0,
        }
    }

    /// Every part of the lower bound the search takes for pair `p` over local times
    /// `[lo, hi]` of segment `k`, each on its own. For tests.
    #[doc(hidden)]
    pub fn cell_bounds(&self, motion: &JointMotion, p: usize, k: usize, lo: Real, hi: Real) -> CellBounds {
        let segment = &motion.segments[k];
        let moving = self.moving_joints(segment);
        let fixed = !self.between[p].iter().any(|&j| moving[j]);
        let mut data = CellData::new(self.world, segment, 0.5 * (lo + hi));
        let reach = if fixed { Reach::NONE } else { self.reach(p, segment, lo, hi, &mut data) };
        let poses = data.poses.clone();
        let tiny = self.rounding(p, &poses);
        let (a, b) = self.pairs[p];
        let (ea, eb) = (&self.world.elements[a], &self.world.elements[b]);
        let boxes = ea.body_obb.transformed_aabb(&body_pose(ea.body, &poses)).distance(&eb.body_obb.transformed_aabb(&body_pose(eb.body, &poses)));
        let probe = self.probe(p, &poses, true, &mut WarmProbe::new());
        let exact = pair_distance(self.world, self.pairs[p], &poses, Real::INFINITY).expect("no cutoff");
        let mut along = |n: Option<Vector3>| match (n, fixed) {
            (Some(n), false) => (self.gap_along(p, &poses, &n) - reach.along(&n) - tiny, self.second_order(p, segment, lo, hi, &mut data, &n) - tiny),
            _ => (Real::NEG_INFINITY, Real::NEG_INFINITY),
        };
        let (hull_along, hull_second_order) = along(probe.normal);
        let (exact_along, exact_second_order) = along(direction(&exact));
        CellBounds {
            boxes: boxes - reach.any - tiny,
            hull: probe.lower - reach.any - tiny,
            hull_along,
            hull_second_order,
            exact: exact.distance - reach.any - tiny,
            exact_along,
            exact_second_order,
            fixed,
        }
    }
}
