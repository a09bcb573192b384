//! Link enclosures over the dyadic sub-intervals of one segment, computed once and
//! shared by every test on that interval (the simultaneous idea of seed 002 §5.2.2).
use crate::enclosure::{link_jets, LinkJet};
use crate::math::Real;
use crate::motion::Segment;
use crate::robot::Robot;
use std::collections::HashMap;

/// A dyadic sub-interval of the solve range: `index` of `2^level` equal parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeCell {
    pub level: u32,
    pub index: u64,
}

impl TimeCell {
    pub const ROOT: TimeCell = TimeCell { level: 0, index: 0 };

    pub fn children(self) -> [TimeCell; 2] {
        [TimeCell { level: self.level + 1, index: 2 * self.index }, TimeCell { level: self.level + 1, index: 2 * self.index + 1 }]
    }
}

pub struct EnclosureCache<'a> {
    robot: &'a Robot,
    segment: &'a Segment,
    /// Local times `[from, to]` of the segment being solved.
    from: Real,
    to: Real,
    cells: HashMap<TimeCell, Vec<LinkJet>>,
    points: HashMap<u64, Vec<LinkJet>>,
    /// Enclosures computed (for the statistics).
    pub computed: usize,
}

impl<'a> EnclosureCache<'a> {
    pub fn new(robot: &'a Robot, segment: &'a Segment, from: Real, to: Real) -> Self {
        Self { robot, segment, from, to, cells: HashMap::new(), points: HashMap::new(), computed: 0 }
    }

    pub fn segment(&self) -> &'a Segment {
        self.segment
    }

    /// Local times of a cell.
    pub fn bounds(&self, cell: TimeCell) -> (Real, Real) {
        let n = (1u64 << cell.level.min(62)) as Real;
        let w = self.to - self.from;
        let lo = self.from + w * (cell.index as Real / n);
        let hi = if cell.index + 1 == 1u64 << cell.level.min(62) { self.to } else { self.from + w * ((cell.index + 1) as Real / n) };
        (lo, hi)
    }

    /// Every link's jet over the cell.
    pub fn cell(&mut self, cell: TimeCell) -> &[LinkJet] {
        if !self.cells.contains_key(&cell) {
            let (lo, hi) = self.bounds(cell);
            let mut jets = Vec::new();
            link_jets(self.robot, self.segment, lo, hi, &mut jets);
            self.computed += 1;
            self.cells.insert(cell, jets);
        }
        &self.cells[&cell]
    }

    /// Every link's jet at one local time (a point interval: tight).
    pub fn at(&mut self, s: Real) -> &[LinkJet] {
        let key = s.to_bits();
        if !self.points.contains_key(&key) {
            let mut jets = Vec::new();
            link_jets(self.robot, self.segment, s, s, &mut jets);
            self.computed += 1;
            self.points.insert(key, jets);
        }
        &self.points[&key]
    }
}
