//! The minimum clearance over a motion: best-first search over (pair, time cell) with
//! proven lower bounds (Lin 1993 ch. 5's priority queue of pairs).
//!
//! The search starts from every pair at the waypoints (every few of a plan in small
//! steps; pairs in the order of their world boxes' gap, cut off at the best so far).
//! A cell's lower bound starts as the gap between the pair's swept boxes over the
//! whole segment (stage 1's enclosures).
//! When a cell comes first in the queue its pair is measured at the cell's middle, and
//! the bound becomes the largest of these, each a proven lower bound of the pair's
//! distance over the cell (cheapest first, stopping once one settles the cell):
//!
//! - `l - m`, `l` a lower bound of the distance at the middle and `m` a bound on how
//!   far any point of one element moves relative to the other over the cell
//!   (`motion_bound` on the relative pose enclosure, in whichever element's frame gives
//!   the smaller bound: a link passing over a large table is measured by the link's
//!   ball, not the table's). `l` is first the gap of the elements' world boxes, then
//!   the hull distance (GJK's separating plane against a mesh's convex bound, warm
//!   started from the pair's last normal; exact for two primitives), then the exact
//!   distance where that is needed;
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
//!   tolerance / speed (`motion_bounds::second_order`; two links in the frame of their
//!   lowest common ancestor link, where only the joints between them move them);
//! - for a mesh against a convex shape, where the mesh's hull comes closer than the
//!   mesh (so the bounds above, from the hull, cannot settle the cell), the same two
//!   bounds node by node down the mesh's OBB tree, a node that settles the cell not
//!   opened (`mesh_cell_bound`).
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
//! Cells are cut while their bound is below the best by more than the tolerance, so
//! the answer is within the tolerance of the true minimum (up to the distance queries'
//! own accuracy), and the proven lower bound comes with it: the smallest bound of every
//! cell (or part of one) set aside. A cell is halved, unless its second-order bound,
//! concave in time, holds the floor over a part around the middle: that part is set
//! aside and only the rest, an end of an eighth or a quarter of the cell or a whole
//! half, is measured again (`cell_bound::Settled`).
//!
//! The files, each importing only those listed after it (and this one's types):
//! `together` (the searches of one motion run together) uses `pool` (them on rayon's
//! threads), which uses `search` (one best-first search), which uses `mesh_cell_bound`
//! (a mesh's bound node by node), `cell_bound` (a cell's bounds), `swept_boxes` and
//! `shared_level` (the level the searches of one set of pairs share).
mod cell_bound;
mod mesh_cell_bound;
mod pool;
mod search;
mod shared_level;
mod swept_boxes;
mod together;

use super::world_distance::{PairDistance, body_pose, checked_element_pairs, pair_distance};
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::{EnclosuresOnDemand, IntervalPose, JetsOnDemand, KinematicTree};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::motion::{JointMotion, Segment};
use crate::motion_bounds::conservative_advancement::{BoundingBall, advance_along, motion_bound};
use crate::motion_bounds::element_motion::{element_pose, element_relative_poses, poses_at};
use crate::motion_bounds::joint_levers::PairLevers;
use crate::motion_bounds::second_order::{ElementRates, MovingShape, extent_along, gap_bound};
use crate::query::gjk;
use crate::robot::JointKind;
use crate::shape::{Ball, MeshHull, Shape, SupportMap};
use cell_bound::{CellData, Reach, WarmProbe, direction};
use search::{Goal, Search};
use std::collections::HashMap;
pub use together::min_clearances_together;

#[derive(Clone, Copy, Debug)]
pub struct ClearanceOptions {
    /// How far (metres) the reported minimum may lie above the true one...
    pub tolerance: Real,
    /// ...or this share of it, whichever is larger.
    pub relative_tolerance: Real,
    /// Cells are not split below this share of their segment's duration.
    pub min_cell: Real,
    /// Stop at the first pair found touching (an attained distance of 0): the minimum
    /// is then 0, and every pair keeps the proven bound its cells have by then. For a
    /// report that needs the clearance only when the motion is free, and the pairs
    /// proven apart in any case ([`split_clearance`](super::split_clearance)).
    pub stop_at_contact: bool,
}

impl Default for ClearanceOptions {
    fn default() -> Self {
        Self { tolerance: 1e-4, relative_tolerance: 1e-2, min_cell: 1e-9, stop_at_contact: false }
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
    /// How many searches the cells went through: one, or more where threads with
    /// nothing else to do were handed some of them.
    pub searches: usize,
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
    /// A mesh against a convex shape, node by node of the mesh's tree (the
    /// `mesh_cell_bound` module): the largest of its bounds asked to reach the exact
    /// distance less 0.1 mm, 1 mm and 1 cm.
    pub mesh_nodes: Real,
    /// Whether no joint between the pair's bodies moves over the segment.
    pub fixed: bool,
}

/// What the search keeps per world: the checked pairs, bounding balls, the kinematic
/// tree and which joints lie between the bodies of each pair.
pub struct ClearanceSearch<'w> {
    world: &'w CollisionWorld,
    pairs: Vec<(usize, usize)>,
    balls: Vec<BoundingBall>,
    tree: KinematicTree,
    /// Per pair, the joints whose motion moves one body relative to the other.
    between: Vec<Vec<usize>>,
    /// Per pair, how far its distance can change per unit of each joint variable.
    levers: Vec<PairLevers>,
}

/// The motion's minimum clearance over every checked pair (see [`ClearanceSearch`] to
/// check several motions in one world).
pub fn min_clearance(world: &CollisionWorld, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
    ClearanceSearch::new(world).min_clearance_held(motion, options)
}

/// Share of its segment below which [`ClearanceSearch::pairs_apart`] splits no cell
/// (anywhere from 2^-7 to 2^-10 answers free motions as quickly).
pub const APART_MIN_CELL: Real = 1.0 / 1024.0;

impl<'w> ClearanceSearch<'w> {
    pub fn new(world: &'w CollisionWorld) -> Self {
        Self::with_pairs(world, checked_element_pairs(world))
    }

    /// The search over some of the checked element pairs (`(link element, other
    /// element)`, as [`checked_element_pairs`] lists them).
    pub fn with_pairs(world: &'w CollisionWorld, pairs: Vec<(usize, usize)>) -> Self {
        let balls: Vec<BoundingBall> = world.elements.iter().map(BoundingBall::of_element).collect();
        let robot = &world.robot;
        let up = |l: usize| robot.joints_to_root(l).collect::<Vec<_>>();
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
        let levers = pairs
            .iter()
            .zip(&between)
            .map(|(&(a, b), joints): (&(usize, usize), &Vec<usize>)| {
                PairLevers::of_pair(robot, [(&world.elements[a], &balls[a]), (&world.elements[b], &balls[b])], joints)
            })
            .collect();
        Self { world, pairs, balls, tree: KinematicTree::new(robot), between, levers }
    }

    /// The checked element pairs, in the order [`Self::cell_bounds`] numbers them.
    pub fn pairs(&self) -> &[(usize, usize)] {
        &self.pairs
    }

    /// [`Self::min_clearance`], where a one-point motion counts too: the clearance of its
    /// configuration, searched as a motion that stays there.
    pub fn min_clearance_held(&self, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
        min_clearances_together(&[self], motion, options).0.pop().flatten()
    }

    /// The motion's minimum clearance, or `None` when no pairs are checked (or the
    /// motion has no segments).
    pub fn min_clearance(&self, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
        if self.pairs.is_empty() || motion.segments.is_empty() {
            return None;
        }
        Search::new(self, motion, options, Goal::Minimum).run().clearance(&self.pairs)
    }

    /// The checked pairs (sorted) proven at least `threshold` apart over the whole
    /// motion. The same proven cell bounds as [`Self::min_clearance`], but a cell settles
    /// as soon as its bound reaches `threshold`, and a pair whose cells are still below
    /// it at `APART_MIN_CELL` of their segment is left out: far less work than the
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

    /// The largest `w · x` over the points `x` of element `e` in its own frame, as the
    /// search bounds it (a mesh by its convex bound). For tests.
    #[doc(hidden)]
    pub fn element_extent(&self, e: usize, w: &Vector3) -> Real {
        self.extent(e, &Isometry3::identity(), w)
    }

    /// Pair `p`'s joint levers (see `motion_bounds::joint_levers`). For tests.
    #[doc(hidden)]
    pub fn pair_levers(&self, p: usize) -> &PairLevers {
        &self.levers[p]
    }

    /// The mesh's node-by-node bound of pair `p` over local times `[lo, hi]` of segment
    /// `k`, asked to reach `floor` (see the `mesh_cell_bound` module). For tests.
    #[doc(hidden)]
    pub fn mesh_nodes_bound(&self, motion: &JointMotion, p: usize, k: usize, lo: Real, hi: Real, floor: Real) -> Option<Real> {
        let segment = &motion.segments[k];
        let mut data = CellData::new(self.world, segment, 0.5 * (lo + hi));
        let reach = self.reach(p, segment, lo, hi, &mut data);
        let at_middle = pair_distance(self.world, self.pairs[p], &data.poses, Real::INFINITY).map_or(0.0, |d| d.distance);
        self.mesh_cell_bound(p, segment, (lo, hi), &mut data, &reach, (at_middle, floor))
    }

    /// The part of pair `p`'s cell `[lo, hi]` of segment `k` that its second-order bound
    /// along the exact closest direction at the middle proves at least `target` apart,
    /// where the whole cell is not: `(from, to, bound)`, as the search sets it aside
    /// (rounding allowed for). For tests.
    #[doc(hidden)]
    pub fn second_order_settled(&self, motion: &JointMotion, p: usize, k: usize, lo: Real, hi: Real, target: Real) -> Option<(Real, Real, Real)> {
        let segment = &motion.segments[k];
        let mut data = CellData::new(self.world, segment, 0.5 * (lo + hi));
        let tiny = self.rounding(p, &data.poses);
        let exact = pair_distance(self.world, self.pairs[p], &data.poses, Real::INFINITY)?;
        let n = direction(&exact)?;
        let (_, settled) = self.second_order_settling(p, segment, (lo, hi), &mut data, &n, target + tiny);
        settled.map(|s| (s.from, s.to, s.bound - tiny))
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
        let probe = self.probe(p, &poses, &mut WarmProbe::new());
        let exact = pair_distance(self.world, self.pairs[p], &poses, Real::INFINITY).expect("no cutoff");
        let mut along = |n: Option<Vector3>| match (n, fixed) {
            (Some(n), false) => (self.gap_along(p, &poses, &n) - reach.along(&n) - tiny, self.second_order(p, segment, lo, hi, &mut data, &n) - tiny),
            _ => (Real::NEG_INFINITY, Real::NEG_INFINITY),
        };
        let (hull_along, hull_second_order) = along(probe.normal);
        let (exact_along, exact_second_order) = along(direction(&exact));
        let mesh_nodes = [1e-4, 1e-3, 1e-2]
            .iter()
            .filter_map(
                |below| if fixed { None } else { self.mesh_cell_bound(p, segment, (lo, hi), &mut data, &reach, (exact.distance, exact.distance - below)) },
            )
            .fold(Real::NEG_INFINITY, Real::max);
        CellBounds {
            boxes: boxes - reach.any - tiny,
            hull: probe.lower - reach.any - tiny,
            hull_along,
            hull_second_order,
            exact: exact.distance - reach.any - tiny,
            exact_along,
            exact_second_order,
            mesh_nodes,
            fixed,
        }
    }
}
