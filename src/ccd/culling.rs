//! Stages 1 and 2 over one whole segment (Redon et al. 2004 §4): the element pairs that may
//! touch, and the link enclosures they were decided on. Shared by the pipeline and the
//! certifier, which both work on what survives.
use super::stage1_dynamic_bvh::DynamicBvh;
use super::stage2_swept_lss::{element_lss, may_touch};
use super::statistics::Statistics;
use crate::bounding_volume::Lss;
use crate::collision::CollisionWorld;
use crate::enclosure::{LinkEnclosure, link_enclosures};
use crate::motion::Segment;
use std::time::Instant;

pub struct Culling<'w> {
    world: &'w CollisionWorld,
    bvh: DynamicBvh,
    lss: Vec<Lss>,
    /// With the poses in the parent's frame when links are checked against each other,
    /// so that later stages can start from these enclosures.
    with_local: bool,
    /// The enclosures over the last segment culled.
    pub links: Vec<LinkEnclosure>,
    /// Checked element pairs of one segment before any culling.
    pub pairs_per_segment: usize,
}

impl<'w> Culling<'w> {
    pub fn new(world: &'w CollisionWorld) -> Self {
        let bvh = DynamicBvh::new(world);
        let pairs_per_segment = bvh.pair_count(world);
        Self { world, bvh, lss: element_lss(world), with_local: world.checks_link_pairs(), links: Vec::new(), pairs_per_segment }
    }

    /// The element pairs `(link element, other element)` that may touch over the
    /// segment, counted and timed in `stats`.
    pub fn near_pairs(&mut self, seg: &Segment, out: &mut Vec<(usize, usize)>, stats: &mut Statistics) {
        stats.segments += 1;
        stats.pairs_considered += self.pairs_per_segment;
        let started = Instant::now();
        link_enclosures(&self.world.robot, seg, 0.0, seg.duration, self.with_local, None, &mut self.links);
        self.bvh.candidates(self.world, &self.links, out);
        stats.stage1_kept += out.len();
        Statistics::add_time(&mut stats.stage1_seconds, started.elapsed());

        let started = Instant::now();
        out.retain(|&(a, b)| may_touch(self.world, &self.lss, &self.links, a, b));
        stats.stage2_kept += out.len();
        Statistics::add_time(&mut stats.stage2_seconds, started.elapsed());
    }
}
