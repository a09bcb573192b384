//! Stage 3, exact contact (Redon et al. 2004 §5): the simultaneous solver. All element pairs that
//! survived culling are solved together on the same dyadic time intervals, so the link
//! enclosures are computed once per interval (§5.2.2). On each interval every pair's
//! work is refined: continuous OBB tests down the OBB trees (§5.1), the vertex-face and
//! edge-edge equations of triangle pairs with the interval Newton step (§5.2.3-5.2.4),
//! conservative advancement for curved primitives. Intervals are visited earliest first;
//! at the time tolerance, the first time of contact is found by bisection between a free
//! and a touching instant with the exact discrete test.
//!
//! A pair apart at a cell's start that fails the advancement test gets the gap along
//! the plane's normal to second order from the cell's start ([`gap_over`]): a pair
//! drawing away is proven over a cell whose length depends on its speed and
//! acceleration, not on how near it starts. This is what a solve from where a contact
//! event ends needs: its pairs start only just apart, and no bound on how far they move
//! in a cell proves a cell from there, so the cells were cut down to the time tolerance
//! (the first of which is left to the discrete tests, [`Solver::after_exit`]).
use super::continuous_obb::{MidpointRadiusPose, MovingBox, may_overlap};
use super::elementary::{ALL_EQUATIONS, CornerBounds, EquationOutcome, NewtonBounds, active_equations};
use super::kept_contact::{Kept, contact_among_kept};
use super::statistics::Statistics;
use crate::bounding_volume::Obb;
use crate::collision::{Body, CollisionWorld, Element};
use crate::enclosure::{IntervalPose, IntervalVector3, JetsOnDemand, KinematicTree, LinkEnclosure, LinkJet};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::motion::Segment;
use crate::motion_bounds::conservative_advancement::{Advancement, BoundingBall, advance, advance_from_plane, motion_bound};
use crate::motion_bounds::element_motion::{element_pose, element_relative_pose, element_world_pose, poses_at};
use crate::motion_bounds::element_nodes::{Leaf, LeafShape, PRIMITIVE, leaf_shape, leaf_triangle, node_obb};
use crate::motion_bounds::second_order::{ElementRates, MovingShape, extent_along, gap_over, gap_rounding};
use crate::motion_bounds::time_cells::{SolveRange, TimeCell};
use crate::query::gjk::{self, SeparatingPlane};
use crate::shape::{Shape, SupportMap, TriangleShape};
use std::collections::HashMap;

/// Element pairs of one body pair (a link and an obstacle, or two links).
#[derive(Clone, Debug)]
pub struct PairGroup {
    pub link: usize,
    pub other: Body,
    /// `(link element, other element)` indices into `world.elements`.
    pub elements: Vec<(usize, usize)>,
}

/// A first contact of a group within the solved range.
#[derive(Clone, Debug)]
pub struct FoundContact {
    pub group: usize,
    /// Local segment time of contact, and a free time just before it.
    pub s_contact: Real,
    pub s_free: Real,
    pub point: Point3,
    /// From the other body towards the link, where it could be told.
    pub normal: Option<Vector3>,
}

/// Work on one element pair: a pair of hierarchy nodes still to refine, a pair of
/// triangles with the equations that may still vanish, or a pair with a curved
/// primitive for conservative advancement.
#[derive(Clone, Copy, Debug)]
enum Work {
    Nodes { pair: u32, a: u32, b: u32 },
    Triangles { pair: u32, a: u32, b: u32, mask: u16 },
    Convex { pair: u32, a: u32, b: u32 },
}

/// Descend a pair of boxes only once the pair moves less than this share of the boxes'
/// size over the interval; before that, splitting time culls more per test.
const DESCEND_RATIO: Real = 0.05;
/// The same against a voxel map's nodes, which tile the map: descending them sooner
/// spares the cells that each walk them again (the shelf bench's first contacts are
/// quickest about this ratio, slower both well below and well above it).
const MAP_DESCEND_RATIO: Real = 0.2;
/// Bisection for a time of contact stops at this width (seconds, relative to the
/// time's magnitude past 1 s): far below what a report prints or a controller acts on,
/// and half the discrete tests of bisecting down to the last bit.
const CONTACT_BISECTION_WIDTH: Real = 1e-12;
/// Bisection for a time of separation (a contact event's end) stops at this width: a
/// report's exit time to the nanosecond, where its entry is told to the picosecond (an
/// exit bounds no proof: the solve after it starts from an instant the discrete test
/// finds free).
pub(super) const SEPARATION_BISECTION_WIDTH: Real = 1e-9;

/// Whether a bisection of `[lo, hi]` for a time of contact or separation is done: at
/// `width` (relative to the time's magnitude past 1 s, as the widths above), or where the
/// middle `mid` is no longer strictly inside.
pub(super) fn bisection_done(lo: Real, mid: Real, hi: Real, width: Real) -> bool {
    mid <= lo || mid >= hi || hi - lo <= width * (1.0 + hi.abs())
}
/// Refine hierarchy nodes on one interval while fewer than this many items wait.
const WORK_BUDGET: usize = 4096;

pub struct Solver<'w, 'c> {
    world: &'w CollisionWorld,
    range: &'c mut SolveRange<'w>,
    /// Flattened element pairs, and the group of each.
    pairs: Vec<(usize, usize)>,
    pair_group: Vec<usize>,
    /// The link of each group (the lower index for two links).
    group_link: Vec<usize>,
    group_done: Vec<bool>,
    found: Vec<FoundContact>,
    first_only: bool,
    time_tolerance: Real,
    pub stats: Statistics,
    tree: KinematicTree,
    /// Per element pair, the last separating plane GJK found between its whole shapes
    /// (in the fixed side's frame), and the local time it was found at.
    root_planes: Vec<Option<(Real, SeparatingPlane)>>,
    /// Per element pair, where its [`PairMemo`] is in the interval being refined
    /// (`u32::MAX`: none yet).
    memo_slot: Vec<u32>,
    /// Solving from where a contact event ends ([`Self::after_exit`]).
    after_exit: bool,
}

impl<'w, 'c> Solver<'w, 'c> {
    pub fn new(world: &'w CollisionWorld, range: &'c mut SolveRange<'w>, groups: &[PairGroup], first_only: bool, time_tolerance: Real) -> Self {
        let mut pairs = Vec::new();
        let mut pair_group = Vec::new();
        for (g, group) in groups.iter().enumerate() {
            for &p in &group.elements {
                pairs.push(p);
                pair_group.push(g);
            }
        }
        Self {
            world,
            range,
            root_planes: vec![None; pairs.len()],
            memo_slot: vec![u32::MAX; pairs.len()],
            pairs,
            pair_group,
            group_link: groups.iter().map(|g| g.link).collect(),
            group_done: vec![false; groups.len()],
            found: Vec::new(),
            first_only,
            time_tolerance,
            stats: Statistics::default(),
            tree: KinematicTree::new(&world.robot),
            after_exit: false,
        }
    }

    /// A solve whose range starts where a contact event of its pairs ends (found free
    /// there by the discrete test): the first time tolerance of the range is left to the
    /// discrete tests, as the cells' descent would leave it, and the cells after it start
    /// with the pairs apart by more than rounding, where the receding test can prove them.
    pub fn after_exit(self) -> Self {
        Self { after_exit: true, ..self }
    }

    /// The first contact of every group in the solve range (earliest first).
    pub fn solve(mut self) -> (Vec<FoundContact>, Statistics) {
        let work: Vec<Work> = (0..self.pairs.len() as u32).map(|pair| Work::Nodes { pair, a: 0, b: 0 }).collect();
        if self.after_exit {
            let (from, to) = self.range.bounds(TimeCell::ROOT);
            let first = (from + self.time_tolerance).min(to);
            self.resolve(from, first, &work);
            if first < to {
                self.range.start_at(first);
                self.solve_cell(TimeCell::ROOT, work);
            }
        } else {
            self.solve_cell(TimeCell::ROOT, work);
        }
        self.stats.enclosures_computed += self.range.computed;
        self.found.sort_by(|a, b| a.s_contact.total_cmp(&b.s_contact));
        (self.found, self.stats)
    }

    fn stopped(&self) -> bool {
        self.first_only && !self.found.is_empty()
    }

    fn solve_cell(&mut self, cell: TimeCell, work: Vec<Work>) {
        let work: Vec<Work> = work.into_iter().filter(|w| !self.group_done[self.pair_group[pair_of(w) as usize]]).collect();
        if work.is_empty() || self.stopped() {
            return;
        }
        self.stats.time_cells += 1;
        let (l, r) = self.range.bounds(cell);
        let [left_cell, right_cell] = cell.children();
        let m = self.range.bounds(left_cell).1;
        let pairs = work.iter().map(|w| self.pairs[pair_of(w) as usize]);
        let links = self.range.enclosures_for_pairs(l, r, self.world, &self.tree, pairs);
        let (left, right) = self.refine(&links, work, l, m, r);
        if r - l <= self.time_tolerance || m <= l || m >= r {
            let mut survivors = left;
            survivors.extend(right);
            self.resolve(l, r, &survivors);
            return;
        }
        self.solve_cell(left_cell, left);
        self.solve_cell(right_cell, right);
    }

    /// One interval's refinement: returns the work that may still touch in `[l, m]`
    /// and in `[m, r]`.
    fn refine(&mut self, links: &[LinkEnclosure], work: Vec<Work>, l: Real, m: Real, r: Real) -> (Vec<Work>, Vec<Work>) {
        // Only the pairs of this interval's work get a memo (a few of the tens of pairs).
        let mut memos: Vec<PairMemo> = Vec::new();
        let mut cell = Refinement::new(links, work, (l, m, r), self.time_tolerance);
        while let Some(item) = cell.queue.pop() {
            let pair = pair_of(&item) as usize;
            if self.memo_slot[pair] == u32::MAX {
                let memo = self.memo(pair, &mut cell);
                self.memo_slot[pair] = memos.len() as u32;
                memos.push(memo);
            }
            let memo = &mut memos[self.memo_slot[pair] as usize];
            match item {
                Work::Nodes { a, b, .. } => self.refine_nodes(&mut cell, memo, item, (a, b)),
                Work::Triangles { a, b, mask, .. } => self.refine_triangles(&mut cell, memo, (a, b), mask),
                Work::Convex { a, b, .. } => self.refine_convex(&mut cell, memo, item, (a, b)),
            }
        }
        for memo in &memos {
            self.memo_slot[memo.pair] = u32::MAX;
        }
        (cell.left, cell.right)
    }

    /// The elements of element pair `pair`.
    fn elements(&self, pair: usize) -> (&'w Element, &'w Element) {
        let world = self.world;
        (&world.elements[self.pairs[pair].0], &world.elements[self.pairs[pair].1])
    }

    /// What the interval's refinement works out once for element pair `pair`, when its
    /// first item comes up: its advancement frame (the rest when first needed).
    fn memo(&self, pair: usize, cell: &mut Refinement) -> PairMemo {
        let (ea, eb) = self.elements(pair);
        let l = cell.l;
        let poses = cell.start_poses.get_or_insert_with(|| poses_at(self.world, self.range.segment(), l));
        let start = element_world_pose(ea, poses).inv_mul(&element_world_pose(eb, poses));
        let frame = match eb.body {
            Body::Obstacle(_) => AdvancementFrame::against_obstacle(ea, eb, start, cell.links),
            Body::Link(_) => AdvancementFrame::between_links(start, self.element_relative_pose(ea, eb, cell.links)),
        };
        PairMemo { pair, frame, motion: None, rel: None }
    }

    /// A pair of hierarchy nodes `(a, b)` of the memo's pair on the interval: culled by
    /// the continuous OBB test (and at the roots by the advancement and receding tests
    /// on the whole shapes), kept for both halves while the pair moves far over the
    /// interval, else descended.
    fn refine_nodes(&mut self, cell: &mut Refinement, memo: &mut PairMemo, item: Work, (a, b): (u32, u32)) {
        let PairMemo { pair, frame, motion, .. } = memo;
        let (pair, frame) = (*pair, &*frame);
        let p = pair as u32;
        let (ea, eb) = self.elements(pair);
        self.stats.obb_tests += 1;
        let (node_a, node_b) = (node_obb(ea, a), node_obb(eb, b));
        // A voxel map's node boxes are tested by the continuous OBB test alone: the
        // boxes' conservative advancement (a GJK plane per item) rarely culls more
        // there, and costs more than half of a first contact in a 1 cm map.
        let on_map = matches!(eb.shape, Shape::VoxelMap(_));
        // Against a map's (axis-aligned) node boxes, the continuous OBB test with
        // what it computes of the link's node done once per node and interval
        // (and first the box that node sweeps).
        let may_overlap = match (&eb.shape, frame.moving_is_a) {
            (Shape::VoxelMap(map), true) => {
                cell.moving_boxes.entry((p, a)).or_insert_with(|| MovingBox::new(&node_a.0, &frame.over)).may_overlap_aabb(&map.node_aabb(b))
            }
            _ => frame.may_overlap(&node_a.0, &node_b.0),
        };
        // (Conservative advancement on the two boxes, GJK's plane at the
        // interval's start against their motion, is not tried: nine in ten
        // boxes that pass the continuous test overlap at the start, and it
        // culled one in 170 of the rest, for a third of a colliding report's
        // solver time.)
        if !may_overlap {
            return;
        }
        // At the roots, the whole shapes (a mesh by its convex hull). While the
        // hulls are still apart at the interval's start, refine time, not
        // geometry: one item per pair instead of one per triangle near contact.
        // (Not against a map: its hull holds the links that reach this far.)
        if a == 0 && b == 0 && !on_map && (ea.shape.as_support_map().is_none() || eb.shape.as_support_map().is_none()) {
            self.stats.advancement_tests += 1;
            let outcome = self.root_advancement(pair, frame, ea, eb, cell.l);
            if outcome.separated {
                return;
            }
            if outcome.distance_at_start > 0.0 {
                let (hull_a, hull_b) = (ea.shape.convex_bound(), eb.shape.convex_bound());
                let sides = [(hull_a.as_ref(), BoundingBall::of_element(ea)), (hull_b.as_ref(), BoundingBall::of_element(eb))];
                if self.recedes(&mut cell.receding, &mut cell.start_poses, pair, frame, sides, &outcome.normal) {
                    return;
                }
                if !cell.last {
                    cell.keep(item);
                    return;
                }
            }
        }
        match (node_a.1, node_b.1) {
            (Leaf::Triangle, Leaf::Triangle) => cell.queue.push(Work::Triangles { pair: p, a, b, mask: ALL_EQUATIONS }),
            (Leaf::Triangle | Leaf::Primitive | Leaf::Voxel, Leaf::Triangle | Leaf::Primitive | Leaf::Voxel) => cell.queue.push(Work::Convex { pair: p, a, b }),
            // Refine time before geometry while the pair moves farther over the
            // interval than the boxes' size (the refinement levels of §5.1.1).
            (Leaf::Inner(..), _) | (_, Leaf::Inner(..))
                if cell.queue.len() + cell.left.len() >= WORK_BUDGET
                    || *motion.get_or_insert_with(|| frame.motion(ea, eb))
                        > if on_map { MAP_DESCEND_RATIO } else { DESCEND_RATIO } * node_a.0.half_extents.norm().max(node_b.0.half_extents.norm()) =>
            {
                cell.keep(item);
            }
            (Leaf::Inner(la1, la2), Leaf::Inner(lb1, lb2)) => {
                if node_a.0.half_extents.norm_squared() >= node_b.0.half_extents.norm_squared() {
                    cell.queue.extend([Work::Nodes { pair: p, a: la1, b }, Work::Nodes { pair: p, a: la2, b }]);
                } else {
                    cell.queue.extend([Work::Nodes { pair: p, a, b: lb1 }, Work::Nodes { pair: p, a, b: lb2 }]);
                }
            }
            (Leaf::Inner(la1, la2), _) => cell.queue.extend([Work::Nodes { pair: p, a: la1, b }, Work::Nodes { pair: p, a: la2, b }]),
            (_, Leaf::Inner(lb1, lb2)) => cell.queue.extend([Work::Nodes { pair: p, a, b: lb1 }, Work::Nodes { pair: p, a, b: lb2 }]),
        }
    }

    /// A pair of triangle leaves `(a, b)` of the memo's pair on the interval, with the
    /// equations in `mask` that may still vanish: culled by the leaves' boxes and the
    /// triangles' advancement and receding tests, else the equations that may vanish in
    /// each half (§5.2.3-5.2.4).
    fn refine_triangles(&mut self, cell: &mut Refinement, memo: &mut PairMemo, (a, b): (u32, u32), mask: u16) {
        let PairMemo { pair, frame, rel, .. } = memo;
        let (pair, frame) = (*pair, &*frame);
        let p = pair as u32;
        let (ea, eb) = self.elements(pair);
        let (l, m, r) = (cell.l, cell.m, cell.r);
        // The leaves' boxes, then the triangles' distance against their motion:
        // on finer intervals these separate most pairs before any equation.
        self.stats.obb_tests += 1;
        if !frame.may_overlap(&node_obb(ea, a).0, &node_obb(eb, b).0) {
            return;
        }
        self.stats.advancement_tests += 1;
        let (ta, tb) = (leaf_triangle(ea, a), leaf_triangle(eb, b));
        let sides = [
            (&TriangleShape(&ta) as &dyn SupportMap, BoundingBall::of_triangle(&ta)),
            (&TriangleShape(&tb) as &dyn SupportMap, BoundingBall::of_triangle(&tb)),
        ];
        let outcome = frame.advance(sides[0].0, &sides[0].1, sides[1].0, &sides[1].1);
        if outcome.separated {
            return;
        }
        if outcome.distance_at_start > 0.0 && self.recedes(&mut cell.receding, &mut cell.start_poses, pair, frame, sides, &outcome.normal) {
            return;
        }
        let newton = cell.newton_links.get_or_insert_with(|| NewtonLinks { jets: self.range.jets(l, r), at_split: self.range.enclosures(m, m, true, None) });
        let b_in_a = match frame.moving_is_a {
            true => *rel.get_or_insert_with(|| self.element_relative_pose(ea, eb, cell.links)),
            false => frame.over,
        };
        let outcome = self.triangle_equations(newton, ea, eb, a, b, mask, &b_in_a, l, m, r);
        self.keep_triangles(p, a, b, outcome, &mut cell.left, &mut cell.right);
    }

    /// A pair of convex leaves `(a, b)` of the memo's pair (a curved primitive, a voxel
    /// or a triangle against one) on the interval: culled by the leaves' boxes and the
    /// leaves' advancement and receding tests, else kept for both halves.
    fn refine_convex(&mut self, cell: &mut Refinement, memo: &PairMemo, item: Work, (a, b): (u32, u32)) {
        let (pair, frame) = (memo.pair, &memo.frame);
        let (ea, eb) = self.elements(pair);
        self.stats.obb_tests += 1;
        if !frame.may_overlap(&node_obb(ea, a).0, &node_obb(eb, b).0) {
            return;
        }
        self.stats.advancement_tests += 1;
        let (leaf_a, leaf_b) = (leaf_shape(ea, a), leaf_shape(eb, b));
        let sides = [(&leaf_a as &dyn SupportMap, leaf_ball(ea, &leaf_a)), (&leaf_b as &dyn SupportMap, leaf_ball(eb, &leaf_b))];
        let outcome = frame.advance(sides[0].0, &sides[0].1, sides[1].0, &sides[1].1);
        if outcome.separated {
            return;
        }
        if outcome.distance_at_start > 0.0 && self.recedes(&mut cell.receding, &mut cell.start_poses, pair, frame, sides, &outcome.normal) {
            return;
        }
        cell.keep(item);
    }

    /// Conservative advancement of element pair `pair`'s whole shapes (a mesh by its
    /// convex hull) over an interval starting at local time `l`. The plane GJK found at
    /// this start before is taken again (an interval's left half starts where it does),
    /// and one found at another start is tried first, by the shapes' gap along its
    /// normal now: a pair hovering near another body keeps nearly the same plane from
    /// one interval to the next. Either is a proven plane at the start, as GJK's is.
    fn root_advancement(&mut self, pair: usize, frame: &AdvancementFrame, ea: &Element, eb: &Element, l: Real) -> Advancement {
        let moving_ball = BoundingBall::of_element(if frame.moving_is_a { ea } else { eb });
        let advance = |plane: &SeparatingPlane| advance_from_plane(plane, &frame.start, &frame.over, &moving_ball);
        let cached = self.root_planes[pair];
        if let Some((start, plane)) = cached
            && start == l
        {
            return advance(&plane);
        }
        let (hull_a, hull_b) = (ea.shape.convex_bound(), eb.shape.convex_bound());
        let (fixed, moving) = if frame.moving_is_a { (hull_b.as_ref(), hull_a.as_ref()) } else { (hull_a.as_ref(), hull_b.as_ref()) };
        if let Some((_, plane)) = cached {
            let hint = SeparatingPlane { gap: gjk::gap_along(fixed, &Isometry3::identity(), moving, &frame.start, &plane.normal), normal: plane.normal };
            let outcome = advance(&hint);
            if outcome.separated {
                return outcome;
            }
        }
        let plane = gjk::separating_plane(fixed, &Isometry3::identity(), moving, &frame.start);
        self.root_planes[pair] = Some((l, plane));
        advance(&plane)
    }

    /// The receding test of element pair `pair` over the cell, where the pair's `sides`
    /// (shape and ball of element a, then b, in their element frames) are apart along
    /// `normal` at its start (the fixed side's frame, from the moving side towards it):
    /// whether the gap along it, to second order from the cell's start ([`gap_over`]),
    /// stays above rounding over the whole cell. `start_poses`: the links' poses at the
    /// cell's start, when made.
    fn recedes(
        &mut self,
        cell: &mut RecedingCell,
        start_poses: &mut Option<Vec<Isometry3>>,
        pair: usize,
        frame: &AdvancementFrame,
        sides: [(&dyn SupportMap, BoundingBall); 2],
        normal: &Vector3,
    ) -> bool {
        let (ia, ib) = self.pairs[pair];
        let (world, segment) = (self.world, self.range.segment());
        let (l, r) = cell.times;
        let poses = start_poses.get_or_insert_with(|| poses_at(world, segment, l));
        // Fixed, then moving: their element and side of the gap.
        let ([fixed_e, moving_e], [fixed_side, moving_side]) = if frame.moving_is_a { ([ib, ia], [sides[1], sides[0]]) } else { ([ia, ib], sides) };
        // The plane's normal in the world at the cell's start, from the moving side
        // towards the fixed one.
        let n = element_world_pose(&world.elements[fixed_e], poses).rotation * normal;
        // The bound lies below the gap along it at the cell's end: where that is not
        // positive (a pair closing in) there is no proof to look for.
        let end = cell.end_poses(world, segment);
        let extent = |e: usize, shape: &dyn SupportMap, w: &Vector3| extent_along(shape, &element_world_pose(&world.elements[e], end), w);
        if -extent(fixed_e, fixed_side.0, &-n) - extent(moving_e, moving_side.0, &n) <= 0.0 {
            return false;
        }
        let (Some(fixed), Some(moving)) = (cell.side(world, segment, poses, fixed_e, fixed_side), cell.side(world, segment, poses, moving_e, moving_side))
        else {
            return false;
        };
        let proven = gap_over(&fixed, &moving, &n, 0.0, r - l) > gap_rounding(&fixed, &moving);
        self.stats.receding_proofs += usize::from(proven);
        proven
    }

    fn element_relative_pose(&self, ea: &Element, eb: &Element, links: &[LinkEnclosure]) -> IntervalPose {
        element_relative_pose(&self.tree, ea, eb, links)
    }

    fn keep_triangles(&mut self, pair: u32, a: u32, b: u32, outcome: EquationOutcome, left: &mut Vec<Work>, right: &mut Vec<Work>) {
        self.stats.equations_evaluated += outcome.evaluated;
        self.stats.newton_culls += outcome.newton_culled;
        if outcome.left != 0 {
            left.push(Work::Triangles { pair, a, b, mask: outcome.left });
        }
        if outcome.right != 0 {
            right.push(Work::Triangles { pair, a, b, mask: outcome.right });
        }
    }

    /// The equations of the triangles of leaf nodes `a` and `b` on `[l, r]` split at `m`.
    #[allow(clippy::too_many_arguments)]
    fn triangle_equations(
        &self,
        newton_links: &NewtonLinks,
        ea: &Element,
        eb: &Element,
        a: u32,
        b: u32,
        mask: u16,
        b_in_a: &IntervalPose,
        l: Real,
        m: Real,
        r: Real,
    ) -> EquationOutcome {
        let (tri_a, tri_b) = (leaf_triangle(ea, a), leaf_triangle(eb, b));
        // Tight positions: A's corners exact in A's frame, B's through the relative pose.
        let positions: [IntervalVector3; 6] =
            std::array::from_fn(|k| if k < 3 { IntervalVector3::from_point(&tri_a[k]) } else { b_in_a.transform_point(&tri_b[k - 3]) });
        // Newton: world positions and velocities over [l, r], positions at m.
        let corners: [(IntervalVector3, IntervalVector3); 6] =
            std::array::from_fn(|k| if k < 3 { corner_world(ea, &newton_links.jets, &tri_a[k]) } else { corner_world(eb, &newton_links.jets, &tri_b[k - 3]) });
        let world: [IntervalVector3; 6] = corners.map(|c| c.0);
        let velocity: [IntervalVector3; 6] = corners.map(|c| c.1);
        let rel_m = self.element_relative_pose(ea, eb, &newton_links.at_split);
        let at_split: [IntervalVector3; 6] =
            std::array::from_fn(|k| if k < 3 { IntervalVector3::from_point(&tri_a[k]) } else { rel_m.transform_point(&tri_b[k - 3]) });
        let newton = NewtonBounds { positions: &world, velocities: &velocity, at_split: &at_split, l, m, r };
        active_equations(mask, &CornerBounds { positions: &positions, newton: Some(newton) })
    }

    fn poses_at(&self, s: Real) -> Vec<Isometry3> {
        poses_at(self.world, self.range.segment(), s)
    }

    /// Whether a group's element pairs touch at local time `s` of a cell, and where, from
    /// what the solver kept of each over the cell ([`Solver::kept_of`]).
    fn group_contact_at(&self, kept: &[(usize, Kept)], s: Real) -> Option<Point3> {
        let poses = self.poses_at(s);
        kept.iter().find_map(|(p, kept)| {
            let (ea, eb) = (&self.world.elements[self.pairs[*p].0], &self.world.elements[self.pairs[*p].1]);
            contact_among_kept(ea, &element_world_pose(ea, &poses), eb, &element_world_pose(eb, &poses), kept)
        })
    }

    /// What the solver kept over a cell of each of a group's element pairs, from the
    /// cell's survivors: the leaf pairs of a pair with no hierarchy nodes left (none of a
    /// pair proven apart over the cell), else the whole pair.
    fn kept_of(&self, group: usize, survivors: &[Work]) -> Vec<(usize, Kept)> {
        (0..self.pairs.len())
            .filter(|&p| self.pair_group[p] == group)
            .map(|p| {
                let (ea, eb) = (&self.world.elements[self.pairs[p].0], &self.world.elements[self.pairs[p].1]);
                if !Kept::serves(&ea.shape, &eb.shape) {
                    return (p, Kept::Whole);
                }
                let mut leaves = Vec::new();
                for w in survivors.iter().filter(|w| pair_of(w) as usize == p) {
                    match *w {
                        Work::Triangles { a, b, .. } | Work::Convex { a, b, .. } => leaves.push((a, b)),
                        Work::Nodes { .. } => return (p, Kept::Whole),
                    }
                }
                leaves.sort_unstable();
                leaves.dedup();
                (p, Kept::Leaves(leaves))
            })
            .collect()
    }

    /// At the time tolerance: which of the remaining groups touch by the end of
    /// `[l, r]`, with the first time of contact by bisection.
    fn resolve(&mut self, l: Real, r: Real, survivors: &[Work]) {
        let mut groups: Vec<usize> = survivors.iter().map(|w| self.pair_group[pair_of(w) as usize]).collect();
        groups.sort_unstable();
        groups.dedup();
        for g in groups {
            if self.group_done[g] || self.stopped() {
                continue;
            }
            let kept = self.kept_of(g, survivors);
            let mid = 0.5 * (l + r);
            let hit = [r, mid].into_iter().find_map(|s| self.group_contact_at(&kept, s).map(|p| (s, p)));
            let Some((mut hi, mut point)) = hit else { continue };
            let mut lo = l;
            for _ in 0..64 {
                let s = 0.5 * (lo + hi);
                if bisection_done(lo, s, hi, CONTACT_BISECTION_WIDTH) {
                    break;
                }
                match self.group_contact_at(&kept, s) {
                    Some(p) => {
                        hi = s;
                        point = p;
                    }
                    None => lo = s,
                }
            }
            let normal = self.normal_before(g, lo, l, survivors);
            self.group_done[g] = true;
            self.found.push(FoundContact { group: g, s_contact: hi, s_free: lo, point, normal });
        }
    }

    /// Direction from the other body to the link just before contact: from the closest
    /// points of the group's surviving leaf shapes, at the latest time before `s_free`
    /// (stepping back towards `floor`) where their distance is clear of rounding.
    fn normal_before(&mut self, group: usize, s_free: Real, floor: Real, survivors: &[Work]) -> Option<Vector3> {
        let mut step = 1e-9 * (1.0 + s_free.abs());
        let mut s = s_free;
        loop {
            if let Some((distance, normal)) = self.closest_direction_at(group, s, survivors)
                && distance > 1e-9
            {
                return Some(normal);
            }
            if s <= floor {
                return None;
            }
            s = (s_free - step).max(floor);
            step *= 10.0;
        }
    }

    /// The smallest distance between the group's surviving leaf shapes at `s`, and the
    /// unit direction from the other body's closest point to the link's.
    fn closest_direction_at(&mut self, group: usize, s: Real, survivors: &[Work]) -> Option<(Real, Vector3)> {
        let poses = self.poses_at(s);
        let mut best: Option<(Real, Vector3)> = None;
        let link = self.group_link[group];
        let mut consider = |sa: &dyn SupportMap, pa: &Isometry3, sb: &dyn SupportMap, pb: &Isometry3, sign: Real| {
            let cp = gjk::closest_points(sa, pa, sb, pb);
            let d = cp.point_a - cp.point_b;
            if cp.distance > 0.0 && d.norm() > 0.0 && best.as_ref().is_none_or(|(bd, _)| cp.distance < *bd) {
                best = Some((cp.distance, d * (sign / d.norm())));
            }
        };
        for w in survivors {
            let pair = pair_of(w) as usize;
            if self.pair_group[pair] != group {
                continue;
            }
            let (ea, eb) = (&self.world.elements[self.pairs[pair].0], &self.world.elements[self.pairs[pair].1]);
            let (pa, pb) = (element_world_pose(ea, &poses), element_world_pose(eb, &poses));
            let (a, b) = match *w {
                Work::Triangles { a, b, .. } | Work::Convex { a, b, .. } => (a, b),
                Work::Nodes { .. } => (PRIMITIVE, PRIMITIVE),
            };
            let (leaf_a, leaf_b) = (leaf_shape(ea, a), leaf_shape(eb, b));
            let (hull_a, hull_b);
            let sa = match leaf_a.support_map() {
                Some(s) => s,
                None => {
                    hull_a = ea.shape.convex_bound();
                    hull_a.as_ref()
                }
            };
            let sb = match leaf_b.support_map() {
                Some(s) => s,
                None => {
                    hull_b = eb.shape.convex_bound();
                    hull_b.as_ref()
                }
            };
            // From the other body towards the link: element a is the link, except in a
            // self-collision pair listed the other way round.
            let sign = if ea.body == Body::Link(link) { 1.0 } else { -1.0 };
            consider(sa, &pa, sb, &pb, sign);
        }
        best
    }
}

/// One interval's refinement under way: the work still to look at, what may still touch
/// in each half, and what the interval's tests compute once, when first needed.
struct Refinement<'l> {
    links: &'l [LinkEnclosure],
    l: Real,
    m: Real,
    r: Real,
    /// At the time tolerance the survivors go to the bisection's discrete tests, which
    /// test only the leaves kept (`kept_contact`): the hierarchies are descended there.
    last: bool,
    queue: Vec<Work>,
    left: Vec<Work>,
    right: Vec<Work>,
    /// Against a voxel map: the box each link node sweeps over the interval.
    moving_boxes: HashMap<(u32, u32), MovingBox>,
    /// The links' poses at the interval's start.
    start_poses: Option<Vec<Isometry3>>,
    /// For the interval Newton step, on the cells that reach triangle equations.
    newton_links: Option<NewtonLinks>,
    /// For the receding test, on the cells that need it.
    receding: RecedingCell,
}

impl<'l> Refinement<'l> {
    fn new(links: &'l [LinkEnclosure], work: Vec<Work>, (l, m, r): (Real, Real, Real), time_tolerance: Real) -> Self {
        Self {
            links,
            l,
            m,
            r,
            last: r - l <= time_tolerance || m <= l || m >= r,
            queue: work,
            left: Vec::new(),
            right: Vec::new(),
            moving_boxes: HashMap::new(),
            start_poses: None,
            newton_links: None,
            receding: RecedingCell::new(l, r),
        }
    }

    /// The item may still touch in either half.
    fn keep(&mut self, item: Work) {
        self.left.push(item);
        self.right.push(item);
    }
}

/// What the interval Newton step needs on one cell: every link's pose and derivative
/// over the cell, and its pose at the split time.
struct NewtonLinks {
    jets: Vec<LinkJet>,
    at_split: Vec<LinkEnclosure>,
}

/// What the receding test needs on one cell (local times `[l, r]`), each computed when
/// first asked for: the links' poses at its end, their poses and rates over it, and
/// each element's rates.
struct RecedingCell {
    times: (Real, Real),
    end_poses: Option<Vec<Isometry3>>,
    jets: Option<JetsOnDemand>,
    rates: HashMap<usize, Option<ElementRates>>,
}

impl RecedingCell {
    fn new(l: Real, r: Real) -> Self {
        Self { times: (l, r), end_poses: None, jets: None, rates: HashMap::new() }
    }

    /// The links' world poses at the cell's end.
    fn end_poses(&mut self, world: &CollisionWorld, segment: &Segment) -> &[Isometry3] {
        self.end_poses.get_or_insert_with(|| poses_at(world, segment, self.times.1))
    }

    /// The world pose rates of link element `e` over the cell, if finite.
    fn rates(&mut self, world: &CollisionWorld, segment: &Segment, e: usize) -> Option<ElementRates> {
        let (l, r) = self.times;
        let jets = self.jets.get_or_insert_with(|| JetsOnDemand::new(&world.robot, segment, l, r));
        *self.rates.entry(e).or_insert_with(|| {
            let element = &world.elements[e];
            let Body::Link(link) = element.body else { return None };
            ElementRates::on_link(jets.get(&world.robot, link), &element.origin)
        })
    }

    /// Element `e`'s side of a gap over the cell: a shape and ball in its frame, placed
    /// by the links' `poses` at the cell's start. `None` where its rates are not finite.
    fn side<'s>(
        &mut self,
        world: &CollisionWorld,
        segment: &Segment,
        poses: &[Isometry3],
        e: usize,
        (shape, ball): (&'s dyn SupportMap, BoundingBall),
    ) -> Option<MovingShape<'s>> {
        let element = &world.elements[e];
        let rates = match element.body {
            Body::Link(_) => Some(self.rates(world, segment, e)?),
            Body::Obstacle(_) => None,
        };
        Some(MovingShape { shape, ball, pose: element_world_pose(element, poses), rates })
    }
}

/// What one interval's refinement works out once per element pair, when the first item
/// of the pair comes up: its advancement frame, how far it moves (for the descent), and
/// b's pose in a's frame (for the triangle equations). Only the pairs of the interval's
/// work get one. (Rather than a slot for every pair of the segment, cleared for each
/// interval, with the frame copied for each item, which was slower.)
struct PairMemo {
    pair: usize,
    frame: AdvancementFrame,
    motion: Option<Real>,
    rel: Option<IntervalPose>,
}

/// The frame of the advancement tests of a pair: the fixed side and the moving side.
/// Against an obstacle the link element moves in the obstacle's frame, so its motion is
/// its own world motion; two links use the chain between them.
#[derive(Debug)]
struct AdvancementFrame {
    moving_is_a: bool,
    /// The moving element in the fixed one's frame at the interval's start, and over it.
    start: Isometry3,
    over: IntervalPose,
    /// `over` in midpoint-radius form, for the continuous OBB tests.
    over_midpoint_radius: MidpointRadiusPose,
}

impl AdvancementFrame {
    /// Link element `ea` moving in the frame of obstacle element `eb`.
    fn against_obstacle(ea: &Element, eb: &Element, b_in_a_start: Isometry3, links: &[LinkEnclosure]) -> Self {
        let over = IntervalPose::from_isometry(&eb.origin.inverse()).mul(&element_pose(ea, links));
        Self { moving_is_a: true, start: b_in_a_start.inverse(), over, over_midpoint_radius: MidpointRadiusPose::new(&over) }
    }

    /// Link element b moving in the frame of link element a (`b_in_a` along the chain).
    fn between_links(b_in_a_start: Isometry3, b_in_a: IntervalPose) -> Self {
        Self { moving_is_a: false, start: b_in_a_start, over: b_in_a, over_midpoint_radius: MidpointRadiusPose::new(&b_in_a) }
    }

    /// Conservative advancement of shape `sa` (on element a, inside `ball_a` of a's
    /// frame) against `sb` (on b).
    fn advance(&self, sa: &dyn SupportMap, ball_a: &BoundingBall, sb: &dyn SupportMap, ball_b: &BoundingBall) -> Advancement {
        if self.moving_is_a { advance(sb, sa, &self.start, &self.over, ball_a) } else { advance(sa, sb, &self.start, &self.over, ball_b) }
    }

    /// The continuous OBB test of a box on a and one on b, in the fixed side's frame
    /// (against an obstacle the link's box moves; its enclosure there is the tightest).
    fn may_overlap(&self, box_a: &Obb, box_b: &Obb) -> bool {
        if self.moving_is_a { may_overlap(box_b, box_a, &self.over_midpoint_radius) } else { may_overlap(box_a, box_b, &self.over_midpoint_radius) }
    }

    /// How far any point of the moving element moves over the interval.
    fn motion(&self, ea: &Element, eb: &Element) -> Real {
        motion_bound(&self.start, &self.over, &BoundingBall::of_element(if self.moving_is_a { ea } else { eb }))
    }
}

fn pair_of(w: &Work) -> u32 {
    match *w {
        Work::Nodes { pair, .. } | Work::Triangles { pair, .. } | Work::Convex { pair, .. } => pair,
    }
}

/// A ball holding a leaf's shape, in the element frame.
fn leaf_ball(e: &Element, leaf: &LeafShape) -> BoundingBall {
    match leaf {
        LeafShape::Triangle(t) => BoundingBall::of_triangle(t),
        LeafShape::Cube(c) => BoundingBall { center: c.center(), radius: c.half_extents().norm() * (1.0 + 1e-12) + 1e-15 },
        LeafShape::Primitive(_) | LeafShape::Whole => BoundingBall::of_element(e),
    }
}

/// World position and velocity of an element point (given in the element frame) over
/// the interval; obstacles do not move.
fn corner_world(e: &Element, jets: &[LinkJet], p: &Point3) -> (IntervalVector3, IntervalVector3) {
    match e.body {
        Body::Link(l) => {
            let q = e.origin * p;
            (jets[l].enclosure.point(&q), jets[l].point_velocity(&q))
        }
        Body::Obstacle(_) => (IntervalVector3::from_point(&(e.origin * p)), IntervalVector3::zeros()),
    }
}
