//! The search over one motion: its time cells in a queue by their bound, the best
//! distance found so far, and the steps that settle, split or measure a cell (the
//! bounds themselves are in the parent module and `cell_bound`).
use super::cell_bound::{CellData, Probe, Reach, Settled, WarmProbe, direction};
use super::shared_level::SharedLevel;
use super::swept_boxes::SweptBoxes;
use super::{ClearanceOptions, ClearanceSearch, MinClearance};
use crate::clearance::world_distance::{PairDistance, body_pose, pair_distance};
use crate::math::{Isometry3, Real, Vector3};
use crate::motion::{JointMotion, Segment};
use crate::motion_bounds::element_motion::poses_at;
use crate::motion_bounds::joint_levers::joint_deviations;
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::sync::atomic::{AtomicBool, Ordering};

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
    /// Once measured: the part around the middle its second-order bound settles,
    /// where the whole cell is not settled (what is left is split instead of halves).
    settled: Option<Settled>,
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

/// Radians (in some joint) between the waypoints the search measures first: a plan in
/// small steps (MoveIt's, 0.05 rad) has its level from every few of them as well, and
/// the cells measure the rest, for less work than measuring every waypoint.
const WAYPOINT_SPACING: Real = 0.1;

/// Cells whose shared data is kept at once (a few kilobytes each).
const MAX_SHARED_CELLS: usize = 1 << 14;

/// Cells below the floor a search has at least before it hands half of them to an idle
/// thread ([`Search::split_off`]): fewer are settled before the other thread starts.
const MIN_CELLS_TO_SPLIT: usize = 8;

/// The best distance so far: attained, and bounded from above.
struct Incumbent {
    best: Option<MinClearance>,
    /// The smallest exact distance found.
    distance: Real,
    /// The smallest upper bound found, where: (bound, pair, segment, local time).
    candidate: Option<(Real, usize, usize, Real)>,
}

impl Incumbent {
    fn none() -> Self {
        Incumbent { best: None, distance: Real::INFINITY, candidate: None }
    }

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
                searches: 1,
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
pub(super) enum Goal {
    /// The motion's minimum clearance, to the options' tolerance: a cell settles once
    /// its bound is within the tolerance of the best distance found.
    Minimum,
    /// Only which pairs stay at least this far apart (metres): a cell settles once its
    /// bound reaches it, whatever the minimum.
    Apart(Real),
}

/// The search over one motion.
pub(super) struct Search<'s, 'w> {
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
    /// Per pair, the smallest bound of its cells set aside (settled, or left in the
    /// queue when the search stops); the smallest of them bounds the whole search.
    pair_bounds: Vec<Real>,
    /// The waypoints measured first, in time order, with every pair's lower bound there.
    anchors: Vec<Anchor>,
    /// The elements' boxes over each segment, where searches beside it share them.
    swept: Option<&'s SweptBoxes<'s>>,
}

/// A waypoint the search measured first: the joint values there, and a proven lower
/// bound of every pair's distance (the gap of the world boxes, raised by the hull or
/// exact distance of the pairs measured). With the pairs' joint levers it bounds a
/// segment's cells from below before any of them is measured.
struct Anchor {
    time: Real,
    joints: Vec<Real>,
    lower: Vec<Real>,
}

/// The anchors last before local times `[lo, hi]` of `segment` and first after them,
/// with their joint variables' deviations over those times.
fn anchors_around<'a>(anchors: &'a [Anchor], segment: &Segment, lo: Real, hi: Real) -> Vec<(&'a Anchor, Vec<Real>)> {
    let before = anchors.partition_point(|a| a.time <= segment.start_time + lo);
    let after = anchors.partition_point(|a| a.time < segment.start_time + hi);
    [before.checked_sub(1), Some(after)]
        .into_iter()
        .flatten()
        .filter_map(|i| anchors.get(i))
        .map(|a| (a, joint_deviations(&a.joints, segment, lo, hi)))
        .collect()
}

impl<'s, 'w> Search<'s, 'w> {
    /// Only over these segments of the motion (a share of it).
    pub(super) fn in_segments(self, segments: std::ops::Range<usize>) -> Self {
        Self { segments, ..self }
    }

    /// Beside other searches of the same pairs over other segments, with what they found.
    pub(super) fn sharing_level(self, shared: &'s SharedLevel) -> Self {
        Self { shared_level: Some(shared), ..self }
    }

    /// Beside other searches of the same motion, with the elements' boxes over its
    /// segments that they share.
    pub(super) fn sharing_swept_boxes(self, swept: &'s SweptBoxes<'s>) -> Self {
        Self { swept: Some(swept), ..self }
    }

    /// Beside other searches, all stopping at the first pair any finds touching (with
    /// [`ClearanceOptions::stop_at_contact`]).
    pub(super) fn sharing_touching(self, flag: &'s AtomicBool) -> Self {
        Self { shared_touching: Some(flag), ..self }
    }

    /// Half of the cells still queued, as a search of their own over the same pairs, for
    /// a thread with nothing to do (`pool`): the two share the level (this needs
    /// [`Self::sharing_level`]) and the touching flag, and their outcomes merge
    /// ([`Outcome::merge`]). The pairs over one time interval stay together (they share
    /// what the links do over it); the intervals go to either half in turn, smallest
    /// bound first, so that each half has its share of the cells near the minimum.
    /// `None` where too few cells are left to work on.
    pub(super) fn split_off(&mut self) -> Option<Self> {
        let shared_level = self.shared_level?;
        if self.touched() || self.closer_found() {
            return None;
        }
        // Only the cells below the floor are work: the floor never rises, and the rest
        // are set aside together when the search ends.
        let floor = self.floor();
        let mut work = Vec::new();
        while let Some(Reverse(cell)) = self.queue.peek()
            && cell.bound < floor
            && let Some(Reverse(cell)) = self.queue.pop()
        {
            work.push(cell);
        }
        if work.len() < MIN_CELLS_TO_SPLIT {
            self.queue.extend(work.into_iter().map(Reverse));
            return None;
        }
        // The level the cells were settled against so far, for the other half too.
        self.publish();
        let mut sides: HashMap<(u32, u64, u64), bool> = HashMap::new();
        let mut turn = false;
        let mut given = BinaryHeap::new();
        for cell in work {
            let handed = *sides.entry((cell.segment, cell.lo.to_bits(), cell.hi.to_bits())).or_insert_with(|| {
                turn = !turn;
                !turn
            });
            if handed { given.push(Reverse(cell)) } else { self.queue.push(Reverse(cell)) }
        }
        if given.is_empty() {
            return None;
        }
        Some(Search {
            finder: self.finder,
            motion: self.motion,
            options: self.options,
            goal: self.goal,
            warm_starts: self.warm_starts.clone(),
            hull_gaps: self.hull_gaps.clone(),
            found_closer: false,
            touching: false,
            shared_touching: self.shared_touching,
            segments: self.segments.clone(),
            shared_level: Some(shared_level),
            incumbent: Incumbent::none(),
            evaluations: 0,
            exact_distances: 0,
            cells: 0,
            queue: given,
            shared: HashMap::new(),
            pair_bounds: vec![Real::INFINITY; self.pair_bounds.len()],
            // Only the first cells start from them.
            anchors: Vec::new(),
            swept: self.swept,
        })
    }

    /// A search of `finder`'s pairs over every segment of the motion, alone.
    pub(super) fn new(finder: &'s ClearanceSearch<'w>, motion: &'s JointMotion, options: &'s ClearanceOptions, goal: Goal) -> Self {
        Search {
            finder,
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
            pair_bounds: vec![Real::INFINITY; finder.pairs.len()],
            warm_starts: vec![WarmProbe::new(); finder.pairs.len()],
            hull_gaps: vec![Real::INFINITY; finder.pairs.len()],
            incumbent: Incumbent::none(),
            evaluations: 0,
            exact_distances: 0,
            cells: 0,
            anchors: Vec::new(),
            swept: None,
        }
    }
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

    /// Every pair at the waypoints (the first, the last, and each at least
    /// [`WAYPOINT_SPACING`] from the one measured before): pairs in the order of their
    /// boxes' gap, lower bounds first, then the exact distances the hulls cannot settle.
    /// What they find is the level the cells are first settled against, and the anchors
    /// their joint levers start from.
    ///
    /// Looking for pairs apart ([`Goal::Apart`]), only the pairs whose boxes' gap is below
    /// the threshold, and it stops at the first pair found closer than that: a motion in
    /// contact at a waypoint is told at once, rather than once its cells are searched
    /// until one meets the contact; free motions are answered sooner too, from the
    /// anchors' tighter first cells.
    fn waypoints(&mut self) {
        let finder = self.finder;
        let (world, pairs) = (finder.world, &finder.pairs);
        let mut order: Vec<(Real, usize)> = Vec::with_capacity(pairs.len());
        let mut bounded: Vec<(Real, usize)> = Vec::with_capacity(pairs.len());
        let count = self.motion.segments.len();
        // The waypoint measured last (of a plan in small steps, only every few).
        let mut last: Option<&Vec<Real>> = None;
        for k in self.segments.clone() {
            let q = &self.motion.waypoints[k];
            let apart = last.is_none_or(|p| p.iter().zip(q).any(|(a, b)| (a - b).abs() >= WAYPOINT_SPACING));
            if !apart && k + 1 != count {
                continue;
            }
            last = Some(q);
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
                // Every pair's bound here, rounded down by the largest pair's rounding.
                let tiny = finder.largest_rounding(&poses);
                let mut lower: Vec<Real> = vec![0.0; pairs.len()];
                for &(gap, p) in &order {
                    lower[p] = gap - tiny;
                }
                // Only the pairs whose boxes come closer than the level (and, looking for
                // pairs apart, the threshold) are measured: the level only falls.
                let limit = match self.goal {
                    Goal::Apart(threshold) => threshold.min(self.level()),
                    Goal::Minimum => self.level(),
                };
                order.retain(|&(gap, _)| gap < limit);
                order.sort_by(|x, y| x.0.total_cmp(&y.0));
                bounded.clear();
                for &(gap, p) in &order {
                    // The level falls as pairs are measured (the threshold is kept out above).
                    if gap >= self.level() || self.touched() || self.closer_found() {
                        break;
                    }
                    self.evaluations += 1;
                    let probe = finder.probe(p, &poses, &mut self.warm_starts[p]);
                    self.take(&probe, p, &poses, k, s);
                    lower[p] = lower[p].max(probe.lower - tiny);
                    if probe.exact.is_none() {
                        bounded.push((probe.lower, p));
                    }
                }
                for &(probed, p) in &bounded {
                    if self.closer_found() {
                        return;
                    }
                    // A hull that cannot settle the pair at this instant.
                    if probed - finder.rounding(p, &poses) < self.floor() {
                        let cutoff = self.level();
                        if let Some(d) = self.exact(p, &poses, cutoff, probed, k, s) {
                            lower[p] = lower[p].max(d.distance - tiny);
                        }
                    }
                }
                // The joint values the poses were taken at.
                let mut joints = vec![0.0; segment.coefficients.len()];
                segment.positions_at(s, &mut joints);
                self.anchors.push(Anchor { time: segment.start_time + s, joints, lower });
            }
        }
    }

    /// Measures a cell at its middle: its new bound, and where that is below the floor,
    /// the part of the cell its second-order bound settles (if any).
    fn measure(&mut self, cell: &Cell, data: &mut CellData) -> (Real, Option<Settled>) {
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
            return (bound, None);
        }
        let mut settled = None;
        self.evaluations += 1;
        let probe = finder.probe(p, poses, &mut self.warm_starts[p]);
        self.take(&probe, p, poses, k, middle);
        bound = bound.max(probe.lower - reach.any - tiny);
        if let (Some(n), false) = (probe.normal, cell.fixed) {
            if bound < self.floor() {
                bound = bound.max(finder.gap_along(p, poses, &n) - reach.along(&n) - tiny);
            }
            if bound < self.floor() {
                bound = bound.max(self.second_order(cell, data, &n, tiny, &mut settled));
            }
        }
        if probe.exact.is_some() || bound >= self.floor() {
            return (bound, settled);
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
            return (bound, settled);
        }
        let level = self.level();
        match self.exact(p, poses, level + reach.any, probe.lower, k, middle) {
            // Farther than the best plus the reach all over the cell.
            None => (bound.max(level - tiny), settled),
            Some(d) => {
                bound = bound.max(d.distance - reach.any - tiny);
                if let (Some(n), false) = (direction(&d), cell.fixed) {
                    if bound < self.floor() {
                        bound = bound.max(finder.gap_along(p, &data.poses, &n) - reach.along(&n) - tiny);
                    }
                    if bound < self.floor() {
                        bound = bound.max(self.second_order(cell, data, &n, tiny, &mut settled));
                    }
                }
                // A mesh whose hull comes closer than the mesh: node by node.
                if bound < self.floor() && !cell.fixed {
                    let floor = self.floor();
                    if let Some(nodes) = finder.mesh_cell_bound(p, segment, (cell.lo, cell.hi), data, &reach, (d.distance, floor)) {
                        bound = bound.max(nodes);
                    }
                }
                (bound, settled)
            }
        }
    }

    /// The cell's second-order bound along `n` (rounded down by `tiny`); where it stays
    /// below the floor, `settled` becomes the part of the cell it settles, if it
    /// settles one.
    fn second_order(&self, cell: &Cell, data: &mut CellData, n: &Vector3, tiny: Real, settled: &mut Option<Settled>) -> Real {
        let segment = &self.motion.segments[cell.segment as usize];
        let floor = self.floor();
        let (bound, part) = self.finder.second_order_settling(cell.pair as usize, segment, (cell.lo, cell.hi), data, n, floor + tiny);
        if let Some(part) = part {
            *settled = Some(Settled { bound: part.bound - tiny, ..part });
        }
        bound - tiny
    }

    /// Whether this search, or one it shares the flag with, found a pair touching.
    fn touched(&self) -> bool {
        self.options.stop_at_contact && (self.touching || self.shared_touching.is_some_and(|flag| flag.load(Ordering::Relaxed)))
    }

    /// The pairs at the waypoints, then one cell per pair and segment: the whole
    /// segment, bounded by the gap of the pair's swept boxes (and the anchors' levers).
    pub(super) fn start(&mut self) {
        let finder = self.finder;
        let (world, pairs) = (finder.world, &finder.pairs);
        self.waypoints();
        let own;
        let swept = match self.swept {
            Some(shared) => shared,
            None => {
                own = SweptBoxes::new(world, self.motion);
                &own
            }
        };
        for k in self.segments.clone() {
            let segment = &self.motion.segments[k];
            let moving = finder.moving_joints(segment);
            let near = anchors_around(&self.anchors, segment, 0.0, segment.duration);
            let boxes = swept.of_segment(k);
            let floor = self.floor();
            for (p, &(a, b)) in pairs.iter().enumerate() {
                let mut bound = boxes[a].distance(&boxes[b]) * (1.0 - 1e-12);
                // Where the boxes leave the cell to be measured: the measured waypoints
                // less how far the joints' levers can take the pair from there.
                for (anchor, deviations) in &near {
                    if bound < floor && anchor.lower[p] >= floor {
                        bound = bound.max(anchor.lower[p] - finder.levers[p].drop(deviations));
                    }
                }
                // Settled already (the floor only falls): its bound set aside at once.
                if bound >= floor {
                    self.pair_bounds[p] = self.pair_bounds[p].min(bound);
                    continue;
                }
                let fixed = !finder.between[p].iter().any(|&j| moving[j]);
                self.queue.push(Reverse(Cell {
                    bound,
                    pair: p as u32,
                    segment: k as u32,
                    lo: 0.0,
                    hi: segment.duration,
                    evaluated: false,
                    fixed,
                    settled: None,
                }));
            }
        }
    }

    /// The bound of the cell the search takes next; `None` once it is done.
    pub(super) fn next_bound(&self) -> Option<Real> {
        self.queue.peek().map(|Reverse(cell)| cell.bound)
    }

    /// Takes the next cell: settles it, splits it, or measures it. `false` once the
    /// search is done.
    pub(super) fn step(&mut self) -> bool {
        let Some(Reverse(cell)) = self.queue.pop() else { return false };
        // Settled; or (looking for pairs apart) a pair found closer than the threshold;
        // or a pair found touching: every cell left keeps the bound it has, a proven one.
        if cell.bound >= self.floor() || self.closer_found() || self.touched() {
            for Reverse(left) in std::iter::once(Reverse(cell)).chain(self.queue.drain()) {
                let p = left.pair as usize;
                self.pair_bounds[p] = self.pair_bounds[p].min(left.bound);
            }
            return false;
        }
        if cell.evaluated {
            // The part its second-order bound settles is set aside, and the rest cut off;
            // without one, the cell is halved.
            let middle = 0.5 * (cell.lo + cell.hi);
            let (from, to) = cell.settled.map_or((middle, middle), |settled| (settled.from, settled.to));
            if let Some(settled) = cell.settled {
                let p = cell.pair as usize;
                self.pair_bounds[p] = self.pair_bounds[p].min(settled.bound);
            }
            for (lo, hi) in [(cell.lo, from), (to, cell.hi)] {
                if lo < hi {
                    self.queue.push(Reverse(Cell { lo, hi, evaluated: false, settled: None, ..cell }));
                }
            }
            return true;
        }
        let segment = &self.motion.segments[cell.segment as usize];
        if self.shared.len() >= MAX_SHARED_CELLS {
            self.shared.clear();
        }
        // The map is taken out while a cell is measured (which needs the search whole).
        let mut shared = std::mem::take(&mut self.shared);
        let data = shared
            .entry((cell.segment, cell.lo.to_bits(), cell.hi.to_bits()))
            .or_insert_with(|| CellData::new(self.finder.world, segment, 0.5 * (cell.lo + cell.hi)));
        // Distances are not negative.
        let (bound, settled) = self.measure(&cell, data);
        let bound = bound.max(0.0);
        self.shared = shared;
        let splittable = cell.hi - cell.lo > self.options.min_cell * segment.duration;
        if bound < self.floor() && splittable {
            self.queue.push(Reverse(Cell { bound, evaluated: true, settled, ..cell }));
        } else {
            // Settled (or too short to split): its bound holds over the cell.
            let p = cell.pair as usize;
            self.pair_bounds[p] = self.pair_bounds[p].min(bound);
        }
        true
    }

    /// What the search found: its best distance (its smallest upper bound made an
    /// attained distance), and the bounds of the cells it set aside.
    pub(super) fn finish(mut self) -> Outcome {
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
            pair_bounds: self.pair_bounds,
            evaluations: self.evaluations,
            exact_distances: self.exact_distances,
            cells: self.cells,
            searches: 1,
        }
    }

    pub(super) fn run(mut self) -> Outcome {
        self.start();
        while self.step() {}
        self.finish()
    }
}

/// What one search, or several over shares of the motion, found.
pub(super) struct Outcome {
    /// The smallest attained distance, where.
    pub(super) best: Option<MinClearance>,
    /// Per pair, the smallest bound of its cells set aside.
    pub(super) pair_bounds: Vec<Real>,
    pub(super) evaluations: usize,
    pub(super) exact_distances: usize,
    pub(super) cells: usize,
    /// How many searches found it (more than one where cells were handed over).
    pub(super) searches: usize,
}

impl Outcome {
    /// Two searches' findings over the same pairs, on different segments.
    pub(super) fn merge(self, other: Outcome) -> Outcome {
        let best = match (self.best, other.best) {
            (Some(a), Some(b)) => Some(if b.closest.distance < a.closest.distance { b } else { a }),
            (a, b) => a.or(b),
        };
        Outcome {
            best,
            pair_bounds: self.pair_bounds.iter().zip(&other.pair_bounds).map(|(a, b)| a.min(*b)).collect(),
            evaluations: self.evaluations + other.evaluations,
            exact_distances: self.exact_distances + other.exact_distances,
            cells: self.cells + other.cells,
            searches: self.searches + other.searches,
        }
    }

    /// The minimum clearance over `pairs` (the search's), if any distance was found.
    pub(super) fn clearance(self, pairs: &[(usize, usize)]) -> Option<MinClearance> {
        let pair_lower_bounds = pairs.iter().copied().zip(self.pair_bounds.iter().copied()).collect();
        // The smallest bound of every cell set aside.
        let lower_bound = self.pair_bounds.iter().copied().fold(Real::INFINITY, Real::min);
        let (evaluations, exact_distances, cells, searches) = (self.evaluations, self.exact_distances, self.cells, self.searches);
        self.best.map(|b| MinClearance {
            lower_bound: lower_bound.min(b.closest.distance).max(0.0),
            pair_lower_bounds,
            evaluations,
            exact_distances,
            cells,
            searches,
            ..b
        })
    }
}
