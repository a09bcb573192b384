//! Uniform space subdivision after Šinjur §4.2.
//!
//! Space is cut into axis-parallel cells whose size is the average extent of the boxes
//! along each axis (the seed's heuristic: "an average length of all triangles in all
//! three coordinate directions"). Each box is registered in every cell it overlaps, only
//! boxes sharing a cell are tested, and a pair met in several cells is reported once: in
//! the first cell the two boxes share (the seed's "A and C need not be tested in the cell
//! [1, 1] once more").
//!
//! Instead of a dense array of cells, the grid keeps a sorted vector of (cell key, box)
//! entries, so memory is proportional to the registrations, never to the number of cells.
//! Robustness additions: at most [`MAX_CELLS_PER_AXIS`] cells per axis; cell indices of
//! coordinates outside the grid are clamped to the border cells (so a grid built once
//! stays correct for boxes that later leave its bounds, where the seed requires a bounded
//! space); a box covering more than [`MAX_CELLS_PER_BOX`] cells (large or infinite
//! boxes) is not registered but tested directly against all other boxes.
use super::is_proper;
use crate::bounding_volume::Aabb;
use crate::math::Real;

/// Upper bound on the number of cells along one axis.
pub const MAX_CELLS_PER_AXIS: u32 = 1024;

/// A box overlapping more cells than this is tested against every box instead.
pub const MAX_CELLS_PER_BOX: u64 = 64;

/// A uniform grid over a scene of boxes (Šinjur §4.2).
#[derive(Clone, Debug, PartialEq)]
pub struct UniformGrid {
    origin: [Real; 3],
    cell_size: [Real; 3],
    cells: [u32; 3],
}

impl UniformGrid {
    /// Sizes the grid from the boxes' statistics: per axis, the cell size is the mean
    /// extent of the finite non-empty boxes, enlarged if needed so that their union spans
    /// at most `MAX_CELLS_PER_AXIS` cells. Zero-size scenes get a single cell per axis.
    pub fn new(aabbs: &[Aabb]) -> Self {
        let mut lo = [Real::INFINITY; 3];
        let mut hi = [Real::NEG_INFINITY; 3];
        let mut sum = [0.0; 3];
        let mut n = 0usize;
        for b in aabbs.iter().filter(|b| is_proper(b) && super::is_finite(b)) {
            n += 1;
            for k in 0..3 {
                lo[k] = lo[k].min(b.mins[k]);
                hi[k] = hi[k].max(b.maxs[k]);
                sum[k] += b.maxs[k] - b.mins[k];
            }
        }
        let mut grid = UniformGrid { origin: [0.0; 3], cell_size: [1.0; 3], cells: [1; 3] };
        if n == 0 {
            return grid;
        }
        let max_cells = MAX_CELLS_PER_AXIS as Real;
        for k in 0..3 {
            grid.origin[k] = lo[k];
            let span = hi[k] - lo[k];
            if !(span.is_finite() && span > 0.0) {
                continue; // one cell along this axis
            }
            let mean = sum[k] / n as Real;
            let mut size = if mean.is_finite() && mean > 0.0 { mean } else { span / max_cells };
            if span / size >= max_cells {
                size = span / max_cells;
            }
            // Cells needed to cover [lo, hi]; at least one, at most the cap.
            let count = (span / size).floor() + 1.0;
            grid.cell_size[k] = size;
            grid.cells[k] = if count >= max_cells { MAX_CELLS_PER_AXIS } else { count as u32 };
        }
        grid
    }

    /// Number of cells along each axis.
    pub fn cell_counts(&self) -> [u32; 3] {
        self.cells
    }

    /// Cell edge lengths along each axis.
    pub fn cell_size(&self) -> [Real; 3] {
        self.cell_size
    }

    /// The overlapping pairs of `aabbs` (which need not be the boxes the grid was built
    /// from), equal to [`super::brute_force_pairs`]: sorted, `i < j`, no duplicates.
    pub fn pairs(&self, aabbs: &[Aabb]) -> Vec<(usize, usize)> {
        let mut entries: Vec<(u64, u32)> = Vec::with_capacity(aabbs.len() * 8);
        let mut first_cell: Vec<[u32; 3]> = vec![[0; 3]; aabbs.len()];
        let mut large: Vec<usize> = Vec::new();
        let mut is_large = vec![false; aabbs.len()];
        for (i, b) in aabbs.iter().enumerate() {
            if !is_proper(b) {
                continue;
            }
            let lo = [self.index(0, b.mins.x), self.index(1, b.mins.y), self.index(2, b.mins.z)];
            let hi = [self.index(0, b.maxs.x), self.index(1, b.maxs.y), self.index(2, b.maxs.z)];
            let covered: u64 = (0..3).map(|k| (hi[k] - lo[k]) as u64 + 1).product();
            if covered > MAX_CELLS_PER_BOX {
                large.push(i);
                is_large[i] = true;
                continue;
            }
            first_cell[i] = lo;
            for z in lo[2]..=hi[2] {
                for y in lo[1]..=hi[1] {
                    for x in lo[0]..=hi[0] {
                        entries.push((cell_key([x, y, z]), i as u32));
                    }
                }
            }
        }
        entries.sort_unstable();

        let mut pairs = Vec::new();
        let mut start = 0;
        while start < entries.len() {
            let key = entries[start].0;
            let mut end = start + 1;
            while end < entries.len() && entries[end].0 == key {
                end += 1;
            }
            // Boxes of one cell, in increasing index order.
            for a in start..end {
                let i = entries[a].1 as usize;
                for &(_, j) in &entries[a + 1..end] {
                    let j = j as usize;
                    let (fi, fj) = (first_cell[i], first_cell[j]);
                    let first_common = [fi[0].max(fj[0]), fi[1].max(fj[1]), fi[2].max(fj[2])];
                    if cell_key(first_common) == key && aabbs[i].intersects(&aabbs[j]) {
                        pairs.push((i, j));
                    }
                }
            }
            start = end;
        }

        for &l in &large {
            for (j, b) in aabbs.iter().enumerate() {
                if j == l || (is_large[j] && j < l) || !is_proper(b) {
                    continue;
                }
                if aabbs[l].intersects(b) {
                    pairs.push((l.min(j), l.max(j)));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// Cell index of coordinate `x` along axis `k`, clamped to the grid. Monotone in `x`,
    /// so overlapping intervals always share a cell index.
    #[inline]
    fn index(&self, k: usize, x: Real) -> u32 {
        let t = (x - self.origin[k]) / self.cell_size[k];
        if t.is_nan() || t < 0.0 {
            0
        } else if t >= (self.cells[k] - 1) as Real {
            self.cells[k] - 1
        } else {
            t as u32
        }
    }
}

#[inline]
fn cell_key(c: [u32; 3]) -> u64 {
    let m = MAX_CELLS_PER_AXIS as u64;
    c[0] as u64 + m * (c[1] as u64 + m * c[2] as u64)
}
