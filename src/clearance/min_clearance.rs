//! The minimum clearance over a motion: best-first search over (pair, time cell) with
//! proven lower bounds (seed 001 digest §5.1's priority queue of pairs).
//!
//! A cell's lower bound starts as the gap between the pair's swept boxes over the whole
//! segment (stage 1's enclosures). When a cell comes first in the queue its pair's
//! distance `d` is computed at the cell's middle (an attained distance: the best one is
//! the answer), and the bound becomes `d - m`, where `m` bounds how far any point of
//! one element moves relative to the other over the cell (`motion_bound` on the
//! relative pose enclosure). Cells are halved while their bound is below the best
//! distance by more than the tolerance, so the answer is within the tolerance of the
//! true minimum (up to the distance queries' own accuracy), and the proven lower bound
//! comes with it. The bound is first order in the cell's length, so a pair that keeps
//! its distance while moving (sliding along a wall) costs cells in proportion to
//! length / tolerance: the tolerance is relative as well as absolute.
use super::world_distance::{body_pose, checked_element_pairs, pair_distance, pair_distance_tracked, ElementHulls, PairDistance};
use crate::query::closest_features::WarmStart;
use crate::ccd::conservative_advancement::{motion_bound, BoundingBall};
use crate::ccd::element_motion::{element_relative_pose, poses_at};
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::{link_enclosures, KinematicTree};
use crate::math::Real;
use crate::motion::JointMotion;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[derive(Clone, Copy, Debug)]
pub struct ClearanceOptions {
    /// How far (metres) the reported minimum may lie above the true one...
    pub tolerance: Real,
    /// ...or this share of it, whichever is larger.
    pub relative_tolerance: Real,
    /// Cells are not split below this share of their segment's duration.
    pub min_cell: Real,
    /// Measure pairs with hulls hull to hull first (Lin–Canny, warm started).
    pub track_hulls: bool,
}

impl Default for ClearanceOptions {
    fn default() -> Self {
        Self { tolerance: 1e-4, relative_tolerance: 1e-2, min_cell: 1e-9, track_hulls: true }
    }
}

/// The smallest distance the motion attains, where, and a proven lower bound of it.
#[derive(Clone, Copy, Debug)]
pub struct MinClearance {
    pub closest: PairDistance,
    /// Seconds from the trajectory's start.
    pub time: Real,
    pub segment: usize,
    /// No checked pair comes closer than this over the whole motion.
    pub lower_bound: Real,
    /// Pair distances computed.
    pub evaluations: usize,
}

/// A pair over local times `[lo, hi]` of a segment, with a lower bound of its distance.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Cell {
    bound: Real,
    pair: u32,
    segment: u32,
    lo: Real,
    hi: Real,
    /// Whether `bound` already comes from the distance at the middle.
    evaluated: bool,
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

/// What the search precomputes once per world: the checked pairs, the elements' hulls
/// and bounding balls, the kinematic tree.
pub struct ClearanceSearch<'w> {
    world: &'w CollisionWorld,
    pairs: Vec<(usize, usize)>,
    hulls: ElementHulls,
    balls: Vec<BoundingBall>,
    tree: KinematicTree,
}

/// The motion's minimum clearance over every checked pair (see [`ClearanceSearch`] to
/// check several motions in one world).
pub fn min_clearance(world: &CollisionWorld, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
    ClearanceSearch::new(world).min_clearance(motion, options)
}

impl<'w> ClearanceSearch<'w> {
    pub fn new(world: &'w CollisionWorld) -> Self {
        let balls = world.elements.iter().map(|e| BoundingBall { center: e.local_obb.center, radius: e.local_obb.half_extents.norm() * (1.0 + 1e-12) }).collect();
        Self { world, pairs: checked_element_pairs(world), hulls: ElementHulls::new(world), balls, tree: KinematicTree::new(&world.robot) }
    }

    /// The motion's minimum clearance, or `None` when no pairs are checked (or the
    /// motion has no segments).
    pub fn min_clearance(&self, motion: &JointMotion, options: &ClearanceOptions) -> Option<MinClearance> {
        let (world, pairs, tree, balls) = (self.world, &self.pairs, &self.tree, &self.balls);
        let mut warm_starts = vec![WarmStart::new(); pairs.len()];
        let mut queue = BinaryHeap::new();
        let mut links = Vec::new();
        for (k, segment) in motion.segments.iter().enumerate() {
            link_enclosures(&world.robot, segment, 0.0, segment.duration, false, None, &mut links);
            let boxes: Vec<_> = world
                .elements
                .iter()
                .map(|e| match e.body {
                    Body::Link(l) => links[l].pose.obb_aabb(&e.body_obb),
                    Body::Obstacle(_) => e.body_obb.transformed_aabb(&body_pose(e.body, &[])),
                })
                .collect();
            for (p, &(a, b)) in pairs.iter().enumerate() {
                let gap = boxes[a].distance(&boxes[b]);
                queue.push(Reverse(Cell { bound: gap * (1.0 - 1e-12), pair: p as u32, segment: k as u32, lo: 0.0, hi: segment.duration, evaluated: false }));
            }
        }
        let mut best: Option<MinClearance> = None;
        let mut best_distance = Real::INFINITY;
        let mut evaluations = 0;
        let mut lower_bound = Real::INFINITY;
        let slack = |best: Real| if best.is_finite() { options.tolerance.max(options.relative_tolerance * best) } else { 0.0 };
        while let Some(Reverse(cell)) = queue.pop() {
            if cell.bound >= best_distance - slack(best_distance) {
                lower_bound = cell.bound.min(best_distance);
                break;
            }
            let segment = &motion.segments[cell.segment as usize];
            if cell.evaluated {
                let middle = 0.5 * (cell.lo + cell.hi);
                for (lo, hi) in [(cell.lo, middle), (middle, cell.hi)] {
                    queue.push(Reverse(Cell { lo, hi, evaluated: false, ..cell }));
                }
                continue;
            }
            let (a, b) = pairs[cell.pair as usize];
            let (ea, eb) = (&world.elements[a], &world.elements[b]);
            let middle = 0.5 * (cell.lo + cell.hi);
            let poses = poses_at(world, segment, middle);
            // How far b moves relative to a over the cell, from the pose at the middle.
            let mut needed = vec![false; world.robot.links.len()];
            for body in [ea.body, eb.body] {
                if let Body::Link(l) = body {
                    tree.mark_chain(l, &mut needed);
                }
            }
            link_enclosures(&world.robot, segment, cell.lo, cell.hi, true, Some(&needed), &mut links);
            let over = element_relative_pose(&tree, ea, eb, &links);
            let start = world.element_pose(ea, &poses).inv_mul(&world.element_pose(eb, &poses));
            let motion_reach = motion_bound(&start, &over, &balls[b]);
            evaluations += 1;
            let cutoff = best_distance + motion_reach;
            let found = if options.track_hulls {
                pair_distance_tracked(world, &self.hulls, (a, b), &poses, cutoff, &mut warm_starts[cell.pair as usize])
            } else {
                pair_distance(world, (a, b), &poses, cutoff)
            };
            let Some(d) = found else {
                continue; // farther than the best plus the reach all over the cell
            };
            if d.distance < best_distance {
                best_distance = d.distance;
                best = Some(MinClearance { closest: d, time: segment.start_time + middle, segment: cell.segment as usize, lower_bound: 0.0, evaluations: 0 });
            }
            let bound = cell.bound.max(d.distance - motion_reach);
            let splittable = cell.hi - cell.lo > options.min_cell * segment.duration;
            if bound < best_distance - slack(best_distance) {
                if splittable {
                    queue.push(Reverse(Cell { bound, evaluated: true, ..cell }));
                } else {
                    lower_bound = lower_bound.min(bound);
                }
            }
        }
        best.map(|b| MinClearance { lower_bound: lower_bound.min(b.closest.distance).max(0.0), evaluations, ..b })
    }
}
