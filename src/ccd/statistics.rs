//! How much work each stage of the pipeline keeps and drops (`--stats`).
use serde::Serialize;
use std::time::Duration;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Statistics {
    pub segments: usize,
    /// Checked element pairs before any culling (link-obstacle and link-link).
    pub pairs_considered: usize,
    /// Kept by stage 1 (dynamic BVH of swept AABBs) and by stage 2 (swept LSS).
    pub stage1_kept: usize,
    pub stage2_kept: usize,
    /// Element pairs that stage 3 proved free, and that it found in contact.
    pub stage3_free: usize,
    pub stage3_contacts: usize,
    /// Stage 3 work: time cells, continuous OBB tests, elementary (V-F/E-E) equations
    /// evaluated, those culled by the interval Newton step, conservative-advancement tests.
    pub time_cells: usize,
    pub obb_tests: usize,
    pub equations_evaluated: usize,
    pub newton_culls: usize,
    pub advancement_tests: usize,
    pub enclosures_computed: usize,
    /// Pairs proven to draw away over a time cell after a contact event's exit (the gap
    /// to second order from the cell's start).
    pub receding_proofs: usize,
    /// Seconds spent per stage.
    pub stage1_seconds: f64,
    pub stage2_seconds: f64,
    pub stage3_seconds: f64,
}

impl std::ops::AddAssign<&Statistics> for Statistics {
    /// Sums every count and time (statistics of several runs or solver calls).
    fn add_assign(&mut self, s: &Statistics) {
        self.segments += s.segments;
        self.pairs_considered += s.pairs_considered;
        self.stage1_kept += s.stage1_kept;
        self.stage2_kept += s.stage2_kept;
        self.stage3_free += s.stage3_free;
        self.stage3_contacts += s.stage3_contacts;
        self.time_cells += s.time_cells;
        self.obb_tests += s.obb_tests;
        self.equations_evaluated += s.equations_evaluated;
        self.newton_culls += s.newton_culls;
        self.advancement_tests += s.advancement_tests;
        self.enclosures_computed += s.enclosures_computed;
        self.receding_proofs += s.receding_proofs;
        self.stage1_seconds += s.stage1_seconds;
        self.stage2_seconds += s.stage2_seconds;
        self.stage3_seconds += s.stage3_seconds;
    }
}

impl Statistics {
    pub fn add_time(slot: &mut f64, d: Duration) {
        *slot += d.as_secs_f64();
    }

    /// One line per stage, for `--format text`.
    pub fn to_text(&self) -> String {
        if self.segments == 0 {
            return "stats: the pipeline ran on no segment (every pair that could touch was proven apart by the clearance search, or the motion is one waypoint)\n".into();
        }
        format!(
            "stats: {} segments, {} element pairs\n  stage 1 (swept AABB BVH): kept {} dropped {} in {:.3} ms\n  stage 2 (swept LSS): kept {} dropped {} in {:.3} ms\n  stage 3 (exact): free {} contact {} in {:.3} ms ({} time cells, {} OBB tests, {} equations, {} Newton culls, {} advancement tests, {} enclosures, {} receding proofs)\n",
            self.segments,
            self.pairs_considered,
            self.stage1_kept,
            self.pairs_considered - self.stage1_kept,
            self.stage1_seconds * 1e3,
            self.stage2_kept,
            self.stage1_kept - self.stage2_kept,
            self.stage2_seconds * 1e3,
            self.stage3_free,
            self.stage3_contacts,
            self.stage3_seconds * 1e3,
            self.time_cells,
            self.obb_tests,
            self.equations_evaluated,
            self.newton_culls,
            self.advancement_tests,
            self.enclosures_computed,
            self.receding_proofs,
        )
    }
}
