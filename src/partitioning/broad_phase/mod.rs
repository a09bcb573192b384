//! Broad phases: from many axis-aligned boxes to the pairs of boxes that overlap.
//!
//! - [`brute_force_pairs`]: all pairs, the reference (Šinjur §4.1).
//! - [`UniformGrid`]: uniform space subdivision (Šinjur §4.2).
//! - [`SortAndSweep`]: sorted endpoint lists kept between calls and re-sorted by insertion
//!   sort (Lin 1993 ch. 5).
//!
//! All of them return the same thing: the pairs `(i, j)`, `i < j`, of indices into the
//! slice whose closed boxes overlap (touching counts), sorted, without duplicates. Empty
//! boxes (`mins > maxs` on an axis) and boxes with a `NaN` coordinate overlap nothing;
//! boxes with infinite extents are allowed.
mod brute_force;
mod sort_and_sweep;
mod uniform_grid;

pub use brute_force::brute_force_pairs;
pub use sort_and_sweep::SortAndSweep;
pub use uniform_grid::UniformGrid;

use crate::bounding_volume::Aabb;
use crate::math::Real;

/// Which broad phase [`choose_broad_phase`] picked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BroadPhaseKind {
    UniformGrid,
    SortAndSweep,
}

/// Below this many (non-empty) boxes the sweep is used: the grid's cell registration
/// does not pay off for few boxes (measured: a one-shot grid and a fresh sweep cost
/// about the same near 200–300 similar boxes; at 1000 the grid is about 2.5× faster).
pub const GRID_MIN_BOXES: usize = 256;

/// The grid is used only while the spread of box sizes, as the coefficient of variation
/// (standard deviation / mean) of the boxes' largest extents, stays at or below this.
pub const GRID_MAX_SIZE_SPREAD: Real = 1.0;

/// Picks a broad phase from the statistics of the scene.
///
/// Rule:
/// - fewer than [`GRID_MIN_BOXES`] non-empty boxes: [`BroadPhaseKind::SortAndSweep`];
/// - any box with an infinite coordinate: `SortAndSweep` (it would cover every cell);
/// - the boxes' largest extents vary with a coefficient of variation above
///   [`GRID_MAX_SIZE_SPREAD`]: `SortAndSweep`;
/// - otherwise (many boxes of similar size): [`BroadPhaseKind::UniformGrid`].
///
/// Grounds: the uniform subdivision sizes its cells from the average box extents and
/// works when each box covers few cells and each cell holds few boxes (Šinjur
/// §4.2); Lin 1993 (ch. 5) notes that uniform grids suit
/// objects of uniform size, while the sort-and-sweep cost O(n + exchanges) depends only
/// on the number of boxes and on how much their order changes, not on their sizes.
pub fn choose_broad_phase(aabbs: &[Aabb]) -> BroadPhaseKind {
    let mut n = 0usize;
    let mut sum = 0.0;
    let mut sum_sq = 0.0;
    for b in aabbs.iter().filter(|b| is_proper(b)) {
        if !is_finite(b) {
            return BroadPhaseKind::SortAndSweep;
        }
        let e = b.extents();
        let size = e.x.max(e.y).max(e.z);
        n += 1;
        sum += size;
        sum_sq += size * size;
    }
    if n < GRID_MIN_BOXES {
        return BroadPhaseKind::SortAndSweep;
    }
    let mean = sum / n as Real;
    let variance = (sum_sq / n as Real - mean * mean).max(0.0);
    if !variance.is_finite() || variance.sqrt() > GRID_MAX_SIZE_SPREAD * mean {
        return BroadPhaseKind::SortAndSweep;
    }
    BroadPhaseKind::UniformGrid
}

/// The overlapping pairs of `aabbs`, computed by the broad phase that
/// [`choose_broad_phase`] picks. Equal to [`brute_force_pairs`].
pub fn overlapping_pairs(aabbs: &[Aabb]) -> Vec<(usize, usize)> {
    match choose_broad_phase(aabbs) {
        BroadPhaseKind::UniformGrid => UniformGrid::new(aabbs).pairs(aabbs),
        BroadPhaseKind::SortAndSweep => SortAndSweep::new().pairs(aabbs),
    }
}

/// A box that can overlap something: `mins <= maxs` on every axis (false for empty boxes
/// and for boxes with a `NaN` coordinate).
#[inline]
pub(crate) fn is_proper(b: &Aabb) -> bool {
    (0..3).all(|k| b.mins[k] <= b.maxs[k])
}

#[inline]
pub(crate) fn is_finite(b: &Aabb) -> bool {
    b.mins.iter().chain(b.maxs.iter()).all(|c| c.is_finite())
}
