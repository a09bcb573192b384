//! The dyadic time cells of one segment's solve range, and the link enclosures over a
//! cell. The solver visits each cell once and computes its enclosures once, for every
//! test on it (the simultaneous idea of Redon et al. 2004 §5.2.2); pose derivatives are computed
//! only for the cells where the interval Newton step needs them.
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::{KinematicTree, LinkEnclosure, LinkJet, link_enclosures, link_jets};
use crate::math::Real;
use crate::motion::Segment;
use crate::robot::Robot;

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

/// Local times `[from, to]` of a segment being solved, cut into dyadic cells.
pub struct SolveRange<'a> {
    robot: &'a Robot,
    segment: &'a Segment,
    from: Real,
    to: Real,
    /// The enclosures over the whole range, when the caller has them (stage 1's).
    whole: Option<&'a [LinkEnclosure]>,
    /// Enclosures computed (for the statistics).
    pub computed: usize,
}

impl<'a> SolveRange<'a> {
    pub fn new(robot: &'a Robot, segment: &'a Segment, from: Real, to: Real) -> Self {
        Self { robot, segment, from, to, whole: None, computed: 0 }
    }

    /// Reuse `links`, the enclosures over exactly `[from, to]`, for the root cell.
    pub fn with_whole_range(self, links: &'a [LinkEnclosure]) -> Self {
        Self { whole: Some(links), ..self }
    }

    /// The range from local time `from` on (the cells cut anew; the caller's enclosures
    /// over the old range no longer apply).
    pub fn start_at(&mut self, from: Real) {
        self.from = from;
        self.whole = None;
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

    /// Every link's pose enclosure over local times `[lo, hi]` (a point interval when
    /// equal: tight), with the poses in the parent's frame if `with_local`; with `only`,
    /// of the links it marks (see [`link_enclosures`]).
    pub fn enclosures(&mut self, lo: Real, hi: Real, with_local: bool, only: Option<&[bool]>) -> Vec<LinkEnclosure> {
        let reusable = |whole: &&[LinkEnclosure]| (lo, hi) == (self.from, self.to) && (!with_local || whole.iter().all(|l| l.local.is_some()));
        if let Some(whole) = self.whole.filter(reusable) {
            return whole.to_vec();
        }
        let mut out = Vec::new();
        link_enclosures(self.robot, self.segment, lo, hi, with_local, only, &mut out);
        self.computed += 1;
        out
    }

    /// The enclosures the element pairs `(a, b)` need over `[lo, hi]`: only their links
    /// and the ancestors, with the poses in the parent's frame when a pair is two links
    /// (their relative pose is composed along the chain).
    pub fn enclosures_for_pairs(
        &mut self,
        lo: Real,
        hi: Real,
        world: &CollisionWorld,
        tree: &KinematicTree,
        pairs: impl IntoIterator<Item = (usize, usize)>,
    ) -> Vec<LinkEnclosure> {
        let mut needed = vec![false; self.robot.links.len()];
        let mut between_links = false;
        for (a, b) in pairs {
            for body in [world.elements[a].body, world.elements[b].body] {
                if let Body::Link(link) = body {
                    tree.mark_chain(link, &mut needed);
                }
            }
            between_links |= matches!(world.elements[b].body, Body::Link(_));
        }
        self.enclosures(lo, hi, between_links, Some(&needed))
    }

    /// Every link's pose and pose derivative over local times `[lo, hi]`.
    pub fn jets(&mut self, lo: Real, hi: Real) -> Vec<LinkJet> {
        let mut out = Vec::new();
        link_jets(self.robot, self.segment, lo, hi, &mut out);
        self.computed += 1;
        out
    }
}
