//! Sort and sweep exploiting coherence, after Lin 1993 ch. 5.
//!
//! The begin and end values of every box are kept sorted on each of x, y and z between
//! calls. Each call writes the boxes' new values into the lists and re-sorts them with
//! insertion sort, which costs O(n + exchanges) on the nearly sorted lists of a coherent
//! motion. A pair's overlap status changes only when one of its begin values and one of
//! its end values exchange places on some axis, so the set of overlapping pairs is
//! updated only at those exchanges:
//! - a begin value moving below an end value may start an overlap: the two boxes are
//!   tested on all three axes and the pair is added if they overlap;
//! - an end value moving below a begin value ends the overlap: the pair is removed.
//!
//! Ties put begin values before end values, so touching boxes overlap (closed boxes).
//! Robustness additions: when the number of boxes changes, or a box becomes empty or
//! `NaN` (or stops being so), the lists are rebuilt from scratch with a full sort and
//! one sweep along x; so are they when an insertion sort exceeds an exchange budget (an
//! incoherent jump, where insertion sort would be quadratic).
use std::cmp::Ordering;
use std::collections::BTreeSet;

use super::is_proper;
use crate::bounding_volume::Aabb;
use crate::math::Real;

/// One begin or end value of a box on one axis.
#[derive(Clone, Copy, Debug)]
struct Endpoint {
    value: Real,
    /// `box index << 1 | is_end`.
    tag: u32,
}

impl Endpoint {
    #[inline]
    fn new(b: usize, is_end: bool, value: Real) -> Self {
        Endpoint { value, tag: (b as u32) << 1 | is_end as u32 }
    }
    #[inline]
    fn index(self) -> usize {
        (self.tag >> 1) as usize
    }
    #[inline]
    fn is_end(self) -> bool {
        self.tag & 1 == 1
    }
    /// Order by value, begin values first among equal values.
    #[inline]
    fn less(self, other: Endpoint) -> bool {
        self.value < other.value || (self.value == other.value && !self.is_end() && other.is_end())
    }
}

/// Incremental sort and sweep (Lin 1993 ch. 5).
#[derive(Clone, Debug, Default)]
pub struct SortAndSweep {
    axes: [Vec<Endpoint>; 3],
    /// Which boxes were in the lists (non-empty, no `NaN`) at the last call.
    proper: Vec<bool>,
    overlapping: BTreeSet<(usize, usize)>,
    initialized: bool,
    rebuilds: usize,
}

impl SortAndSweep {
    pub fn new() -> Self {
        Self::default()
    }

    /// The overlapping pairs of `aabbs`, equal to [`super::brute_force_pairs`]: sorted,
    /// `i < j`, no duplicates. Index `i` is taken to be the same object as in the
    /// previous call; coherent motion between calls makes the call cheap.
    pub fn pairs(&mut self, aabbs: &[Aabb]) -> Vec<(usize, usize)> {
        let same_boxes = self.initialized && self.proper.len() == aabbs.len() && self.proper.iter().zip(aabbs).all(|(&p, b)| p == is_proper(b));
        if !same_boxes || !self.update(aabbs) {
            self.rebuild(aabbs);
        }
        self.overlapping.iter().copied().collect()
    }

    /// How many times the lists were rebuilt from scratch (first call included).
    pub fn rebuild_count(&self) -> usize {
        self.rebuilds
    }

    /// Writes the new values and re-sorts by insertion sort; false if the exchange budget
    /// ran out (the state is then inconsistent and must be rebuilt).
    fn update(&mut self, aabbs: &[Aabb]) -> bool {
        let budget_per_axis = 1024 + 32 * aabbs.len();
        for k in 0..3 {
            let list = &mut self.axes[k];
            for e in list.iter_mut() {
                let b = &aabbs[e.index()];
                e.value = if e.is_end() { b.maxs[k] } else { b.mins[k] };
            }
            if !insertion_sort(list, aabbs, &mut self.overlapping, budget_per_axis) {
                return false;
            }
        }
        true
    }

    /// Full sort of the three lists, then one sweep along x for the overlapping pairs.
    fn rebuild(&mut self, aabbs: &[Aabb]) {
        self.rebuilds += 1;
        self.initialized = true;
        self.proper = aabbs.iter().map(is_proper).collect();
        self.overlapping.clear();
        for k in 0..3 {
            let list = &mut self.axes[k];
            list.clear();
            for (i, b) in aabbs.iter().enumerate().filter(|(_, b)| is_proper(b)) {
                list.push(Endpoint::new(i, false, b.mins[k]));
                list.push(Endpoint::new(i, true, b.maxs[k]));
            }
            // Values are never NaN here (proper boxes only); begin values first on ties.
            list.sort_unstable_by(|a, b| a.value.partial_cmp(&b.value).unwrap_or(Ordering::Equal).then(a.is_end().cmp(&b.is_end())));
        }
        let mut active: Vec<usize> = Vec::new();
        for e in &self.axes[0] {
            let i = e.index();
            if e.is_end() {
                if let Some(pos) = active.iter().position(|&a| a == i) {
                    active.swap_remove(pos);
                }
            } else {
                // Boxes still active overlap box i along x (ties count), so only y and z
                // remain to be tested.
                let a = &aabbs[i];
                for &j in &active {
                    let b = &aabbs[j];
                    if a.mins.y <= b.maxs.y && b.mins.y <= a.maxs.y && a.mins.z <= b.maxs.z && b.mins.z <= a.maxs.z {
                        self.overlapping.insert((i.min(j), i.max(j)));
                    }
                }
                active.push(i);
            }
        }
    }
}

/// Insertion sort of one axis list, updating `overlapping` at every exchange of a begin
/// and an end value. Returns false if more than `budget` exchanges were needed.
fn insertion_sort(list: &mut [Endpoint], aabbs: &[Aabb], overlapping: &mut BTreeSet<(usize, usize)>, mut budget: usize) -> bool {
    for idx in 1..list.len() {
        let cur = list[idx];
        let mut j = idx;
        while j > 0 && cur.less(list[j - 1]) {
            let prev = list[j - 1];
            if cur.is_end() != prev.is_end() && cur.index() != prev.index() {
                let (a, b) = (cur.index(), prev.index());
                let key = (a.min(b), a.max(b));
                if cur.is_end() {
                    // An end now below a begin: these two boxes are apart on this axis.
                    overlapping.remove(&key);
                } else if aabbs[a].intersects(&aabbs[b]) {
                    // A begin now below an end: they may overlap on all axes.
                    overlapping.insert(key);
                }
            }
            list[j] = prev;
            j -= 1;
            if budget == 0 {
                list[j] = cur;
                return false;
            }
            budget -= 1;
        }
        list[j] = cur;
    }
    true
}
