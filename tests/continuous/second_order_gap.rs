//! The gap of two shapes along a direction over a time cell, to second order
//! (`motion_bounds::second_order::gap_over`), against the gap sampled densely over the
//! cell: anchored at a cell's start (the solver's receding test) and at its middle (the
//! clearance search), on the demo's arm (STL meshes by their hulls, and primitives) in
//! its work cell, link against obstacle and link against link, on the demo's motions.
//! The bound must never exceed a sampled gap; it must also prove pairs that draw away
//! over cells where no bound on how far they move could (dropping the spread, or one
//! end of the cell, makes this test fail).

use crate::common::rng::Rng;
use ccd_guard::clearance::checked_element_pairs;
use ccd_guard::collision::{Body, CollisionWorld};
use ccd_guard::demo::{CASES, case_input};
use ccd_guard::enclosure::JetsOnDemand;
use ccd_guard::math::{Isometry3, Real, Vector3};
use ccd_guard::motion::{JointMotion, Segment};
use ccd_guard::motion_bounds::conservative_advancement::BoundingBall;
use ccd_guard::motion_bounds::element_motion::{element_world_pose, poses_at};
use ccd_guard::motion_bounds::second_order::{ElementRates, MovingShape, extent_along, gap_bound, gap_over};
use ccd_guard::query::gjk;
use ccd_guard::shape::SupportMap;

fn ball(world: &CollisionWorld, e: usize) -> BoundingBall {
    let obb = &world.elements[e].local_obb;
    BoundingBall { center: obb.center, radius: obb.half_extents.norm() * (1.0 + 1e-12) }
}

/// The gap along world `n` (from b towards a) of the two elements' hulls at local time `s`.
fn gap_at(world: &CollisionWorld, segment: &Segment, (a, b): (usize, usize), hulls: [&dyn SupportMap; 2], n: &Vector3, s: Real) -> Real {
    let poses = poses_at(world, segment, s);
    let extent = |e: usize, hull: &dyn SupportMap, w: &Vector3| extent_along(hull, &element_world_pose(&world.elements[e], &poses), w);
    -extent(a, hulls[0], &-n) - extent(b, hulls[1], n)
}

/// The pair's two sides over local times `[lo, hi]` of the segment: poses at `anchor`
/// (the cell's start or middle), rates over the cell.
fn sides<'h>(
    world: &CollisionWorld,
    segment: &Segment,
    (a, b): (usize, usize),
    hulls: [&'h dyn SupportMap; 2],
    (lo, hi): (Real, Real),
    anchor: Real,
) -> [MovingShape<'h>; 2] {
    let mut jets = JetsOnDemand::new(&world.robot, segment, lo, hi);
    let poses = poses_at(world, segment, anchor);
    let mut side = |e: usize, hull| {
        let element = &world.elements[e];
        let rates = match element.body {
            Body::Link(l) => Some(ElementRates::on_link(jets.get(&world.robot, l), &element.origin).expect("finite rates")),
            Body::Obstacle(_) => None,
        };
        MovingShape { shape: hull, ball: ball(world, e), pose: element_world_pose(element, &poses), rates }
    };
    [side(a, hulls[0]), side(b, hulls[1])]
}

/// The bound of the pair's gap along `n` over local times `[lo, hi]` of the segment,
/// anchored at `anchor` (the cell's start or middle).
#[allow(clippy::too_many_arguments)]
fn bound(world: &CollisionWorld, segment: &Segment, pair: (usize, usize), hulls: [&dyn SupportMap; 2], n: &Vector3, lo: Real, hi: Real, anchor: Real) -> Real {
    let [side_a, side_b] = sides(world, segment, pair, hulls, (lo, hi), anchor);
    gap_over(&side_a, &side_b, n, lo - anchor, hi - anchor)
}

/// Calls `f` with each segment of the motion and each checked element pair, with the
/// pair's hulls (a mesh's convex bound, a primitive itself).
fn each_pair(world: &CollisionWorld, motion: &JointMotion, mut f: impl FnMut(&Segment, (usize, usize), [&dyn SupportMap; 2])) {
    let pairs = checked_element_pairs(world);
    for segment in &motion.segments {
        for &(a, b) in &pairs {
            let (hull_a, hull_b) = (world.elements[a].shape.convex_bound(), world.elements[b].shape.convex_bound());
            f(segment, (a, b), [hull_a.as_ref(), hull_b.as_ref()]);
        }
    }
}

/// The direction of GJK's separating plane between the pair's hulls at local time `s`
/// (from b towards a), where they are apart by at most 0.3 m (the pairs close enough
/// for the bound to matter).
fn close_direction(world: &CollisionWorld, segment: &Segment, (a, b): (usize, usize), hulls: [&dyn SupportMap; 2], s: Real) -> Option<Vector3> {
    let poses = poses_at(world, segment, s);
    let (pa, pb): (Isometry3, Isometry3) = (element_world_pose(&world.elements[a], &poses), element_world_pose(&world.elements[b], &poses));
    let plane = gjk::separating_plane(hulls[0], &pa, hulls[1], &pb);
    (plane.gap > 0.0 && plane.gap <= 0.3).then_some(plane.normal)
}

/// How far any point of the pair's elements moves over the cell, sampled: a bound on
/// it would be at least this (so a first-order test needs the gap at the start above it).
fn sampled_motion(world: &CollisionWorld, segment: &Segment, (a, b): (usize, usize), lo: Real, hi: Real) -> Real {
    let start = poses_at(world, segment, lo);
    let mut most: Real = 0.0;
    for j in 1..=32 {
        let poses = poses_at(world, segment, lo + (hi - lo) * j as Real / 32.0);
        for e in [a, b] {
            let element = &world.elements[e];
            let c = ball(world, e).center;
            let moved = (element_world_pose(element, &poses) * c - element_world_pose(element, &start) * c).norm();
            most = most.max(moved);
        }
    }
    most
}

#[test]
fn the_gap_to_second_order_lies_below_the_sampled_gap_and_proves_pairs_drawing_away() {
    let (mut checked, mut receding, mut tight) = (0, 0, 0);
    let mut self_pairs = 0;
    for case in &CASES[..2] {
        let input = case_input(case).unwrap();
        let world = &input.world;
        each_pair(world, &input.motion, |segment, (a, b), hulls| {
            let duration = segment.duration;
            for i in 0..8 {
                let l = duration * i as Real / 8.0;
                let Some(n) = close_direction(world, segment, (a, b), hulls, l) else { continue };
                for depth in [0, 2, 4, 6, 9] {
                    let w = duration / 8.0 / (1u32 << depth) as Real;
                    let r = l + w;
                    let sampled = (0..=64).map(|j| gap_at(world, segment, (a, b), hulls, &n, l + w * j as Real / 64.0)).fold(Real::INFINITY, Real::min);
                    for anchor in [l, 0.5 * (l + r)] {
                        let found = bound(world, segment, (a, b), hulls, &n, l, r, anchor);
                        assert!(
                            found <= sampled + 1e-12,
                            "pair ({a}, {b}), cell [{l}, {r}] anchored at {anchor}: bound {found} above the sampled gap {sampled}"
                        );
                        checked += 1;
                        if sampled > 0.0 && found > 0.9 * sampled {
                            tight += 1;
                        }
                    }
                    // Anchored at the start: proven apart where the pair moves farther than
                    // its gap at the start (no motion bound could prove the cell).
                    let start_gap = gap_at(world, segment, (a, b), hulls, &n, l);
                    if bound(world, segment, (a, b), hulls, &n, l, r, l) > 0.0 && sampled_motion(world, segment, (a, b), l, r) > start_gap {
                        receding += 1;
                        self_pairs += usize::from(matches!(world.elements[b].body, Body::Link(_)));
                    }
                }
            }
        });
    }
    eprintln!("{checked} cells checked, {tight} tight, {receding} proven drawing away ({self_pairs} of two links)");
    assert!(
        checked >= 1000 && tight >= 1000 && receding >= 40 && self_pairs >= 20 && receding - self_pairs >= 3,
        "{checked} cells, {tight} tight, {receding} receding, {self_pairs} self"
    );
}

/// The bound at each instant (`gap_bound`, anchored at a cell's middle), which the
/// clearance search evaluates at a part's two ends to set the part aside: it lies below
/// the gap at that instant, and it is concave, so that no instant inside a part lies
/// below both of its ends (checked at 17 instants of 12 parts per cell, the parts drawn
/// at random in the cell). Dropping the spread term breaks the first; a wiggle taken
/// off the bound (`1e-3 (1 + cos 200τ)`: still below the gap, no longer concave) breaks
/// the second, which the test above does not see.
#[test]
fn the_gap_bound_at_each_instant_lies_below_the_gap_and_is_least_at_a_part_s_ends() {
    let mut rng = Rng::new(0x5e771ed);
    let (mut instants, mut parts, mut curved) = (0, 0, 0);
    let input = case_input(&CASES[0]).unwrap();
    let world = &input.world;
    each_pair(world, &input.motion, |segment, (a, b), hulls| {
        let duration = segment.duration;
        for i in 0..4 {
            for depth in [0, 3] {
                let w = duration / 4.0 / (1u32 << depth) as Real;
                let (lo, hi) = (duration * i as Real / 4.0, duration * i as Real / 4.0 + w);
                let middle = 0.5 * (lo + hi);
                let Some(n) = close_direction(world, segment, (a, b), hulls, middle) else { continue };
                let [side_a, side_b] = sides(world, segment, (a, b), hulls, (lo, hi), middle);
                let at = gap_bound(&side_a, &side_b, &n);
                for _ in 0..12 {
                    let (x, y) = (rng.range(lo, hi), rng.range(lo, hi));
                    let (x, y) = (x.min(y), x.max(y));
                    let ends = at(x - middle).min(at(y - middle));
                    let mut inside = Vec::new();
                    for j in 0..=16 {
                        let s = x + (y - x) * j as Real / 16.0;
                        let bound = at(s - middle);
                        let gap = gap_at(world, segment, (a, b), hulls, &n, s);
                        assert!(bound <= gap + 1e-12, "pair ({a}, {b}), cell [{lo}, {hi}], at {s}: the bound {bound} above the gap {gap}");
                        assert!(bound >= ends - 1e-12, "pair ({a}, {b}), part [{x}, {y}] of [{lo}, {hi}], at {s}: {bound} below both ends' {ends}");
                        if 0 < j && j < 16 {
                            inside.push(bound);
                        }
                        instants += 1;
                    }
                    // Parts where the bound inside stays above both ends (it is not flat there): the
                    // claim has something to check.
                    let least = inside.iter().copied().fold(Real::INFINITY, Real::min);
                    curved += usize::from(least > ends + 1e-9);
                    parts += 1;
                }
            }
        }
    });
    eprintln!("{instants} instants over {parts} parts, {curved} parts whose inside lies above both ends");
    assert!(parts >= 500 && curved >= 200, "{parts} parts, {curved} curved");
}
