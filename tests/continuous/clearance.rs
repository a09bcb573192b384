//! The motion's minimum clearance (`clearance::min_clearance`) against dense sampling
//! of the exact per-configuration distance: the reported minimum is attained (a real
//! distance at the reported instant), its proven lower bound lies below every sampled
//! distance, and it is within the tolerance of the sampled minimum. On the demo's arm
//! (two STL meshes and primitives) in its work cell, with the free trajectory and with
//! shifted copies of it that pass the obstacles at many distances, and with a ball
//! beside the gripper's path that makes the minimum fall between waypoints. Each part
//! of a time cell's lower bound is checked on its own against the pair's distance
//! sampled over the cell (shrinking the motion bounds or dropping the second-order
//! term's spread makes that test fail).
use ccd_guard::check::CheckInput;
use ccd_guard::clearance::{
    ClearanceOptions, ClearanceSearch, SplitClearance, checked_element_pairs, clearance_profile, min_clearance, pair_distance, split_clearance, world_distance,
};
use ccd_guard::collision::{Body, CollisionWorld};
use ccd_guard::demo::{CASES, FILES, case_input};
use ccd_guard::math::{Point3, Vector3};
use ccd_guard::motion::JointMotion;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{srdf, urdf};
use ccd_guard::scene::parse_scene;
use ccd_guard::shape::SupportMap;
use std::path::Path;

use crate::common::rng::Lcg64;

/// The smallest distance at `n` evenly spaced instants of every segment, and where.
fn sampled_minimum(input: &CheckInput, motion: &JointMotion, n: usize) -> (f64, f64) {
    let pairs = checked_element_pairs(&input.world);
    let mut best = (f64::INFINITY, 0.0);
    for seg in &motion.segments {
        for k in 0..=n {
            let t = seg.start_time + seg.duration * k as f64 / n as f64;
            let poses = input.world.robot.link_poses(&motion.positions_at(t));
            if let Some(d) = world_distance(&input.world, &pairs, &poses, best.0) {
                best = (d.distance, t);
            }
        }
    }
    best
}

/// The demo's free trajectory with every waypoint's joints offset by `offset`.
fn shifted(motion: &JointMotion, offset: &[f64]) -> JointMotion {
    let mut m = motion.clone();
    for seg in &mut m.segments {
        for (j, c) in seg.coefficients.iter_mut().enumerate() {
            c[0] += offset[j % offset.len()];
        }
    }
    for w in &mut m.waypoints {
        for (j, q) in w.iter_mut().enumerate() {
            *q += offset[j % offset.len()];
        }
    }
    m
}

#[test]
fn min_clearance_matches_dense_sampling() {
    let input = case_input(&CASES[0]).unwrap();
    let options = ClearanceOptions::default();
    let offsets: Vec<Vec<f64>> = (0..12).map(|k| vec![0.05 * k as f64 - 0.3, 0.02 * (k % 5) as f64, -0.03 * (k % 3) as f64]).collect();
    let mut compared = 0;
    for offset in &offsets {
        let motion = shifted(&input.motion, offset);
        let found = min_clearance(&input.world, &motion, &options).expect("pairs are checked");
        let (sampled, at) = sampled_minimum(&input, &motion, 400);
        // Attained: the pair's distance at the reported instant is the reported one.
        let poses = input.world.robot.link_poses(&motion.positions_at(found.time));
        let again = pair_distance(&input.world, found.closest.elements, &poses, f64::INFINITY).unwrap();
        assert!((again.distance - found.closest.distance).abs() <= 1e-12, "not attained: {} vs {}", again.distance, found.closest.distance);
        assert!(found.lower_bound <= sampled + 1e-12, "offset {offset:?}: lower bound {} above a sampled distance {sampled} at {at}", found.lower_bound);
        let tolerance = options.tolerance.max(options.relative_tolerance * found.closest.distance);
        assert!(found.closest.distance <= sampled + tolerance, "offset {offset:?}: {} misses the sampled minimum {sampled} at {at}", found.closest.distance);
        assert!(found.closest.distance - found.lower_bound <= tolerance * 1.000001);
        if sampled > 0.0 {
            compared += 1;
        }
    }
    assert!(compared >= 6, "only {compared} shifted motions stay clear");
}

/// On more than one thread a thread that has run out of work is handed half the cells
/// of a search still running, over the same pairs and sharing its level: on 2 and 3
/// threads, the demo's free motion and shifted copies of it, every pair in one search
/// and the clearance to the world beside the self-clearance. Each minimum is attained,
/// its lower bound below every sampled distance, within the tolerance of the sampled
/// minimum (the world's and the self-clearance each of its own pairs'), every pair's
/// bound below its sampled distances, and cells were handed over in at least 8 searches
/// (a handed half's findings dropped fails the pairs' bounds). Whether a thread is idle
/// while a search has cells to spare depends on how the threads are scheduled (about 2
/// in 3 searches here, fewer on a loaded machine): the shifts go on, in rounds of the
/// four on 2 and 3 threads, until 8 searches have handed cells over, at least 16 and at
/// most 64 searches in all.
#[test]
fn searches_handed_to_idle_threads_keep_their_answers() {
    let input = case_input(&CASES[0]).unwrap();
    let world = &input.world;
    let options = ClearanceOptions::default();
    let pairs = checked_element_pairs(world);
    let (mut runs, mut handed) = (0, 0);
    let pools: Vec<(usize, rayon::ThreadPool)> = [2, 3].map(|threads| (threads, rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap())).into();
    for round in 0..4 {
        if round > 0 && handed >= 8 {
            break;
        }
        for ((threads, pool), k) in pools.iter().flat_map(|pool| (0..4).map(move |k| (pool, k))) {
            let threads = *threads;
            // Each round 0.01 rad farther in the first joint.
            let first = 0.1 * k as f64 - 0.15 + 0.01 * round as f64;
            let motion = shifted(&input.motion, &[first, 0.03 * k as f64, -0.02 * (k % 2) as f64]);
            let (sampled, at) = sampled_minimum(&input, &motion, 200);
            let least = sampled_pair_minima(world, &motion, &pairs, 100);
            let (alone, split) = pool.install(|| {
                (ClearanceSearch::with_pairs(world, pairs.clone()).min_clearance_held(&motion, &options).unwrap(), split_clearance(world, &motion, &options))
            });
            // Each part of the split within the tolerance of its own pairs' sampled minimum.
            for part in [&split.world, &split.self_collision] {
                let part = part.as_ref().unwrap();
                let own = part.pair_lower_bounds.iter().map(|(pair, _)| least[pairs.iter().position(|q| q == pair).unwrap()]).fold(f64::INFINITY, f64::min);
                let tolerance = options.tolerance.max(options.relative_tolerance * part.closest.distance);
                assert!(
                    part.closest.distance <= own + tolerance,
                    "{threads} threads, shift {k}: {} misses its pairs' sampled minimum {own}",
                    part.closest.distance
                );
            }
            for (found, sets) in [(alone, 1), (split.combined().unwrap(), 2)] {
                runs += 1;
                handed += usize::from(found.searches > sets);
                let what = format!("{threads} threads, shift {k}");
                let poses = world.robot.link_poses(&motion.positions_at(found.time));
                let again = pair_distance(world, found.closest.elements, &poses, f64::INFINITY).unwrap();
                assert!((again.distance - found.closest.distance).abs() <= 1e-12, "{what}: not attained: {} vs {}", again.distance, found.closest.distance);
                assert!(found.lower_bound <= sampled + 1e-12, "{what}: lower bound {} above a sampled distance {sampled} at {at}", found.lower_bound);
                let tolerance = options.tolerance.max(options.relative_tolerance * found.closest.distance);
                assert!(found.closest.distance <= sampled + tolerance, "{what}: {} misses the sampled minimum {sampled} at {at}", found.closest.distance);
                for (pair, bound) in &found.pair_lower_bounds {
                    let p = pairs.iter().position(|q| q == pair).unwrap();
                    assert!(*bound <= least[p] + 1e-12, "{what}: pair {pair:?} bound {bound} above its sampled distance {}", least[p]);
                }
            }
        }
    }
    assert!(handed >= 8, "cells handed over in only {handed} of {runs} searches");
}

/// The demo world with `extra` objects appended to its scene file.
fn demo_world_with(extra: &str) -> CollisionWorld {
    let resolver = ResourceResolver::embedded(FILES);
    let text = |p: &str| resolver.read_text(Path::new(p)).unwrap();
    let robot = urdf::parse_urdf(&text("demo/robot.urdf"), Path::new("demo/robot.urdf"), &resolver).unwrap();
    let disabled = srdf::parse_disabled_pairs(&text("demo/robot.srdf"), Path::new("demo/robot.srdf")).unwrap();
    let scene = parse_scene(&(text("demo/scene.yaml") + extra), Path::new("demo/scene.yaml"), &resolver).unwrap();
    CollisionWorld::new(robot, scene, Some(&disabled))
}

/// The demo world with a ball of radius 3 cm centred at `centre`, and the pairs that
/// hold the ball.
fn world_with_ball(centre: &Point3) -> (CollisionWorld, Vec<(usize, usize)>) {
    let extra = format!(
        "  - id: probe_ball\n    type: sphere\n    dimensions: [0.03]\n    pose: {{position: [{}, {}, {}], orientation: [0, 0, 0, 1]}}\n",
        centre.x, centre.y, centre.z
    );
    let world = demo_world_with(&extra);
    let pairs = checked_element_pairs(&world).into_iter().filter(|&(_, b)| world.body_name(world.elements[b].body) == "probe_ball").collect();
    (world, pairs)
}

/// A ball placed beside the gripper's path in the middle of a segment, at several
/// clearances, makes the minimum a moving pair's between waypoints (on the demo alone
/// it is the fixed base above the table, or at a waypoint): the reported minimum is
/// attained, within the tolerance of dense sampling, and its lower bound below it.
#[test]
fn min_clearance_between_waypoints_matches_dense_sampling() {
    let base = case_input(&CASES[0]).unwrap();
    let motion = &base.motion;
    let gripper = base.world.robot.link_named("gripper").unwrap();
    let options = ClearanceOptions::default();
    let directions: Vec<Vector3> = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0), (1.0, 1.0, 1.0), (1.0, -1.0, 1.0), (-1.0, 1.0, 1.0), (-1.0, -1.0, 1.0)]
        .into_iter()
        .flat_map(|(x, y, z)| [Vector3::new(x, y, z).normalize(), -Vector3::new(x, y, z).normalize()])
        .collect();
    let near_waypoint = |t: f64| motion.waypoint_times.iter().any(|w| (w - t).abs() < 0.05);
    let mut between = 0;
    for (k, segment) in motion.segments.iter().enumerate() {
        for (j, clearance) in [0.002, 0.006, 0.012, 0.018].into_iter().enumerate() {
            let s = segment.duration * (0.2 + 0.2 * j as f64);
            let mut q = motion.waypoints[0].clone();
            segment.positions_at(s, &mut q);
            let centre = base.world.robot.link_poses(&q)[gripper] * Point3::new(0.0, 0.0, 0.02);
            // A side where the ball's closest approach (sampled coarsely) is clear of
            // the arm, below the base's 2.2 cm above the table, and between waypoints.
            let placed = directions.iter().find_map(|u| {
                let ball = centre + u * (0.06 + 0.03 + clearance);
                let (world, pairs) = world_with_ball(&ball);
                let input = CheckInput { world: world.into(), motion: motion.clone() };
                let mut closest = (f64::INFINITY, 0.0);
                for seg in &motion.segments {
                    for i in 0..=300 {
                        let t = seg.start_time + seg.duration * i as f64 / 300.0;
                        if let Some(d) = world_distance(&input.world, &pairs, &input.world.robot.link_poses(&motion.positions_at(t)), closest.0) {
                            closest = (d.distance, t);
                        }
                    }
                }
                (closest.0 > 0.001 && closest.0 < 0.02 && !near_waypoint(closest.1)).then_some((input, ball))
            });
            let Some((input, ball)) = placed else { continue };
            let found = min_clearance(&input.world, motion, &options).expect("pairs are checked");
            let (sampled, at) = sampled_minimum(&input, motion, 1500);
            let poses = input.world.robot.link_poses(&motion.positions_at(found.time));
            let again = pair_distance(&input.world, found.closest.elements, &poses, f64::INFINITY).unwrap();
            assert!((again.distance - found.closest.distance).abs() <= 1e-12, "not attained: {} vs {}", again.distance, found.closest.distance);
            let tolerance = options.tolerance.max(options.relative_tolerance * found.closest.distance);
            let case = format!(
                "segment {k}, ball at {ball:?}: found {} at {} (lower bound {}), sampled {sampled} at {at}",
                found.closest.distance, found.time, found.lower_bound
            );
            assert!(found.lower_bound <= sampled + 1e-12, "{case}: lower bound above a sampled distance");
            assert!(found.closest.distance <= sampled + tolerance, "{case}: misses the sampled minimum");
            assert!(found.closest.distance - found.lower_bound <= tolerance * 1.000001, "{case}: lower bound too far below");
            if !near_waypoint(found.time) {
                between += 1;
            }
        }
    }
    eprintln!("{between} minima between waypoints");
    assert!(between >= 10, "only {between} minima between waypoints");
}

/// The distance of element pair `pair` at local time `s` of segment `k`.
fn distance_at(input: &CheckInput, motion: &JointMotion, pair: (usize, usize), k: usize, s: f64) -> f64 {
    let mut q = motion.waypoints[0].clone();
    motion.segments[k].positions_at(s, &mut q);
    pair_distance(&input.world, pair, &input.world.robot.link_poses(&q), f64::INFINITY).unwrap().distance
}

/// Every part of the search's lower bound of a cell (boxes, hull, gap along a
/// direction to first and second order, exact distance), each on its own, lies below
/// the pair's distance sampled densely over the cell. The cells are the dyadic ones
/// around each close pair's sampled closest approach, where the bounds are tightest,
/// from the whole segment down to 1/256 of it, on the free motion and shifted copies.
/// So does the part of a cell that its second-order bound settles against a level
/// above the cell's minimum (where the search cuts away only the rest).
#[test]
fn every_part_of_a_cell_bound_lies_below_the_sampled_distances() {
    let input = case_input(&CASES[0]).unwrap();
    let search = ClearanceSearch::new(&input.world);
    let pairs = search.pairs().to_vec();
    let (mut checked, mut tight, mut second_order, mut mesh_nodes, mut near_minimum, mut settled) = (0, 0, 0, 0, 0, 0);
    for offset in [vec![0.0], vec![-0.25, 0.04, -0.03], vec![0.2, 0.0, 0.06]] {
        let motion = shifted(&input.motion, &offset);
        for (k, segment) in motion.segments.iter().enumerate() {
            let duration = segment.duration;
            for (p, &pair) in pairs.iter().enumerate() {
                // Close pairs only, around their sampled closest approach.
                let coarse: Vec<(f64, f64)> = (0..=24).map(|i| duration * i as f64 / 24.0).map(|s| (distance_at(&input, &motion, pair, k, s), s)).collect();
                let (closest, at) = coarse.iter().copied().fold((f64::INFINITY, 0.0), |b, x| if x.0 < b.0 { x } else { b });
                if closest > 0.12 {
                    continue;
                }
                // The cell holding the closest approach at each depth, and its neighbour
                // (where the distance runs one way across the cell).
                let around = [0, 1, 2, 3, 5, 8].into_iter().flat_map(|depth| [(depth, 0.0), (depth, 1.0)]);
                for (depth, side) in around {
                    let cells = (1u32 << depth) as f64;
                    let holding = ((at / duration) * cells).floor().min(cells - 1.0);
                    let i = if side == 0.0 {
                        holding
                    } else if holding + 1.0 < cells {
                        holding + 1.0
                    } else {
                        holding - 1.0
                    };
                    if i < 0.0 {
                        continue;
                    }
                    let (lo, hi) = (duration * i / cells, duration * (i + 1.0) / cells);
                    let sampled = (0..=48).map(|j| distance_at(&input, &motion, pair, k, lo + (hi - lo) * j as f64 / 48.0)).fold(f64::INFINITY, f64::min);
                    let b = search.cell_bounds(&motion, p, k, lo, hi);
                    let parts = [
                        ("boxes", b.boxes),
                        ("hull", b.hull),
                        ("hull_along", b.hull_along),
                        ("hull_second_order", b.hull_second_order),
                        ("exact", b.exact),
                        ("exact_along", b.exact_along),
                        ("exact_second_order", b.exact_second_order),
                        ("mesh_nodes", b.mesh_nodes),
                    ];
                    for (name, bound) in parts {
                        assert!(
                            bound <= sampled + 1e-12,
                            "offset {offset:?}, segment {k}, pair {pair:?}, cell [{lo}, {hi}]: {name} bound {bound} above the sampled minimum {sampled} ({b:?})"
                        );
                    }
                    // The mesh's nodes asked to come within a hair of the sampled minimum:
                    // what they claim must still lie below it; asked to reach past it, they
                    // must not claim to.
                    for hair in [1e-6, 1e-5, 1e-4] {
                        if let Some(nodes) = search.mesh_nodes_bound(&motion, p, k, lo, hi, sampled - hair) {
                            assert!(
                                nodes <= sampled + 1e-12,
                                "pair {pair:?}, cell [{lo}, {hi}]: the mesh's nodes claim {nodes} above the sampled minimum {sampled}"
                            );
                            near_minimum += 1;
                        }
                        let past = search.mesh_nodes_bound(&motion, p, k, lo, hi, sampled + hair);
                        assert!(past.is_none(), "pair {pair:?}, cell [{lo}, {hi}]: the mesh's nodes claim {past:?}, past the sampled minimum {sampled}");
                    }
                    // The part of the cell its second-order bound settles against a
                    // level above the cell's minimum: the distance sampled over that part
                    // stays above what it claims, and the claim reaches the level.
                    for above in [1e-4, 1e-3, 5e-3] {
                        let target = sampled + above;
                        if let Some((from, to, bound)) = search.second_order_settled(&motion, p, k, lo, hi, target) {
                            assert!(lo <= from && from <= to && to <= hi && from < to, "cell [{lo}, {hi}]: settled part [{from}, {to}]");
                            assert!(bound >= target - 1e-9, "cell [{lo}, {hi}]: the settled part's bound {bound} below the level {target}");
                            let least =
                                (0..=48).map(|j| distance_at(&input, &motion, pair, k, from + (to - from) * j as f64 / 48.0)).fold(f64::INFINITY, f64::min);
                            assert!(
                                bound <= least + 1e-12,
                                "offset {offset:?}, segment {k}, pair {pair:?}, cell [{lo}, {hi}]: settled part [{from}, {to}] claims {bound}, sampled {least}"
                            );
                            settled += 1;
                        }
                    }
                    checked += 1;
                    let best = parts.iter().map(|x| x.1).fold(f64::NEG_INFINITY, f64::max);
                    // Count the cells where the bound nearly reaches the distance: a bound
                    // made too large there would show.
                    if sampled > 0.0 && best > 0.98 * sampled {
                        tight += 1;
                    }
                    if b.hull_second_order.max(b.exact_second_order) >= best && !b.fixed {
                        second_order += 1;
                    }
                    // Where the mesh's nodes beat every bound from its hull.
                    if b.mesh_nodes > b.hull.max(b.hull_along).max(b.hull_second_order).max(b.exact_along).max(b.exact_second_order).max(b.exact) {
                        mesh_nodes += 1;
                    }
                }
            }
        }
    }
    eprintln!(
        "{checked} cells checked, {tight} tight, second order best in {second_order}, the mesh's nodes in {mesh_nodes} (and {near_minimum} times within 0.1 mm of the sampled minimum), {settled} parts settled"
    );
    assert!(
        checked >= 500 && tight >= 150 && second_order >= 100 && settled >= 100,
        "{checked} cells, {tight} tight, {second_order} second order best, {settled} parts settled"
    );
}

#[test]
fn profile_holds_the_waypoints_and_never_dips_below_the_minimum() {
    let input = case_input(&CASES[0]).unwrap();
    let found = min_clearance(&input.world, &input.motion, &ClearanceOptions::default()).unwrap();
    let profile = clearance_profile(&input.world, &input.motion, 200);
    assert!(profile.len() >= 200);
    assert!(profile.windows(2).all(|w| w[0].time < w[1].time));
    for t in &input.motion.waypoint_times {
        assert!(profile.iter().any(|s| s.time == *t), "waypoint {t} missing");
    }
    let least = profile.iter().map(|s| s.distance).fold(f64::INFINITY, f64::min);
    assert!(found.lower_bound <= least && found.closest.distance <= least + 1e-4 + 0.01 * least, "profile min {least}, clearance {:?}", found);
}

#[test]
fn colliding_motion_has_zero_clearance() {
    let input = case_input(&CASES[1]).unwrap();
    let found = min_clearance(&input.world, &input.motion, &ClearanceOptions::default()).unwrap();
    assert_eq!(found.closest.distance, 0.0);
}

/// The sampled distance of every pair at `n` instants of every segment: the smallest per
/// pair.
fn sampled_pair_minima(world: &CollisionWorld, motion: &JointMotion, pairs: &[(usize, usize)], n: usize) -> Vec<f64> {
    let mut least = vec![f64::INFINITY; pairs.len()];
    for seg in &motion.segments {
        for k in 0..=n {
            let poses = world.robot.link_poses(&motion.positions_at(seg.start_time + seg.duration * k as f64 / n as f64));
            for (p, &pair) in pairs.iter().enumerate() {
                least[p] = least[p].min(pair_distance(world, pair, &poses, f64::INFINITY).unwrap().distance);
            }
        }
    }
    least
}

/// Whole reports search the clearance to the world and the self-clearance with
/// `stop_at_contact`: on a colliding motion both stop at the first pair found touching,
/// on one core (taking turns) and on two (side by side). The clearance is then 0, the
/// searches did less than to their tolerance, and every pair's bound still lies below
/// its sampled distances. Without the option, taking turns gives each search the answer
/// it has alone.
#[test]
fn split_searches_stop_together_at_a_contact() {
    let colliding = case_input(&CASES[1]).unwrap();
    let (world, motion) = (&colliding.world, &colliding.motion);
    let stop = ClearanceOptions { stop_at_contact: true, ..ClearanceOptions::default() };
    let cells = |s: &SplitClearance| [&s.world, &s.self_collision].into_iter().flatten().map(|c| c.cells + c.evaluations).sum::<usize>();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        let (full, stopped) = pool.install(|| (split_clearance(world, motion, &ClearanceOptions::default()), split_clearance(world, motion, &stop)));
        assert!(full.world.is_some() && full.self_collision.is_some(), "both parts are checked");
        assert!(!full.touching && stopped.touching, "{threads} threads");
        let combined = stopped.combined().unwrap();
        assert_eq!(combined.closest.distance, 0.0);
        assert!(cells(&stopped) < cells(&full), "{threads} threads: {} cells and measurements stopped, {} to the tolerance", cells(&stopped), cells(&full));
        let pairs: Vec<(usize, usize)> = combined.pair_lower_bounds.iter().map(|(pair, _)| *pair).collect();
        let sampled = sampled_pair_minima(world, motion, &pairs, 200);
        for ((pair, bound), least) in combined.pair_lower_bounds.iter().zip(&sampled) {
            assert!(*bound <= least + 1e-12, "{threads} threads: pair {pair:?} bound {bound} above its sampled distance {least}");
        }
    }

    let free = case_input(&CASES[0]).unwrap();
    let (world, motion) = (&free.world, &free.motion);
    let (to_world, to_self): (Vec<_>, Vec<_>) =
        checked_element_pairs(world).into_iter().partition(|&(_, b)| matches!(world.elements[b].body, Body::Obstacle(_)));
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    let alone =
        |pairs: Vec<(usize, usize)>| pool.install(|| ClearanceSearch::with_pairs(world, pairs).min_clearance(motion, &ClearanceOptions::default()).unwrap());
    let (world_alone, self_alone) = (alone(to_world), alone(to_self));
    for options in [ClearanceOptions::default(), stop] {
        let turns = pool.install(|| split_clearance(world, motion, &options));
        assert!(!turns.touching);
        for (together, alone) in [(turns.world.unwrap(), &world_alone), (turns.self_collision.unwrap(), &self_alone)] {
            assert_eq!((together.cells, together.evaluations, together.exact_distances), (alone.cells, alone.evaluations, alone.exact_distances));
            assert_eq!((together.closest.distance, together.lower_bound), (alone.closest.distance, alone.lower_bound));
        }
    }
}

/// A box of side `side` whose faces are grids of `n` x `n` squares, each inner grid
/// point pushed out by up to `bulge`, as an ASCII STL.
fn bulging_box_stl(side: f64, n: usize, bulge: f64) -> String {
    let mut rng = Lcg64::new(0x9e37_79b9_7f4a_7c15);
    let mut next = || rng.f();
    let h = side / 2.0;
    let mut out = String::from("solid bulging\n");
    // Each face: its normal axis and sign, and two in-face axes.
    for (axis, sign) in [(0, 1.0), (0, -1.0), (1, 1.0), (1, -1.0), (2, 1.0), (2, -1.0)] {
        let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
        let grid: Vec<Vec<[f64; 3]>> = (0..=n)
            .map(|i| {
                (0..=n)
                    .map(|j| {
                        let inner = i > 0 && i < n && j > 0 && j < n;
                        let mut p = [0.0; 3];
                        p[axis] = sign * (h + if inner { bulge * next() } else { 0.0 });
                        p[u] = -h + side * i as f64 / n as f64;
                        p[v] = -h + side * j as f64 / n as f64;
                        p
                    })
                    .collect()
            })
            .collect();
        for i in 0..n {
            for j in 0..n {
                let (a, b, c, d) = (grid[i][j], grid[i + 1][j], grid[i + 1][j + 1], grid[i][j + 1]);
                for t in [[a, b, c], [a, c, d]] {
                    out += "facet normal 0 0 0\nouter loop\n";
                    for p in t {
                        out += &format!("vertex {} {} {}\n", p[0], p[1], p[2]);
                    }
                    out += "endloop\nendfacet\n";
                }
            }
        }
    }
    out + "endsolid bulging\n"
}

/// The search bounds a mesh by its convex bound (the hull of its extreme vertices grown
/// by a margin): along any direction it reaches past every vertex of the mesh, by no
/// more than the margin. A box whose faces bulge by less than the reduction keeps (half
/// a micrometre) has vertices outside the chosen ones' hull, inside the margin
/// (dropping the margin, in the hull or in the search, makes them stick out).
#[test]
fn a_mesh_as_the_search_sees_it_holds_every_vertex() {
    let dir = std::env::temp_dir().join(format!("ccd_guard_bulging_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let stl = dir.join("bulging.stl");
    std::fs::write(&stl, bulging_box_stl(0.2, 12, 5e-7)).unwrap();
    let resolver = ResourceResolver::embedded(FILES);
    let text = |p: &str| resolver.read_text(Path::new(p)).unwrap();
    let robot = urdf::parse_urdf(&text("demo/robot.urdf"), Path::new("demo/robot.urdf"), &resolver).unwrap();
    let scene_text = format!("objects:\n  - id: bulging\n    type: mesh\n    mesh: {}\n    pose: {{position: [0.5, 0.5, 0.5]}}\n", stl.display());
    let scene = parse_scene(&scene_text, &dir.join("scene.yaml"), &ResourceResolver::default()).unwrap();
    let world = CollisionWorld::new(robot, scene, None);
    std::fs::remove_dir_all(&dir).unwrap();
    let search = ClearanceSearch::new(&world);
    let (e, element) = world.elements.iter().enumerate().find(|(_, e)| matches!(e.body, Body::Obstacle(_))).expect("the mesh");
    let ccd_guard::shape::Shape::TriMesh(mesh) = &element.shape else { panic!("a mesh") };
    let mut rng = Lcg64::new(0x2545_f491_4f6c_dd1d);
    let mut next = || rng.f() - 0.5;
    let mut outside_chosen = 0;
    for k in 0..4000 {
        // Half the directions near a face's normal, where the bulges are the farthest.
        let mut w = Vector3::new(next(), next(), next());
        if k % 2 == 0 {
            let mut axis = Vector3::zeros();
            axis[k / 2 % 3] = if k % 4 == 0 { 1.0 } else { -1.0 };
            w = axis + w * 4e-6;
        }
        let w = w.normalize();
        let farthest = mesh.vertices().iter().map(|v| v.coords.dot(&w)).fold(f64::NEG_INFINITY, f64::max);
        let extent = search.element_extent(e, &w);
        assert!(extent >= farthest, "extent {extent} below a vertex at {farthest}");
        assert!(extent <= farthest + 1e-5, "extent {extent} far past the vertices ({farthest})");
        // Where a vertex the hull left out is the farthest, only the margin covers it.
        let chosen = mesh.hull().core_support(&w).coords.dot(&w);
        outside_chosen += usize::from(chosen < farthest);
    }
    assert!(outside_chosen >= 100, "only {outside_chosen} directions where a vertex lies outside the chosen ones' hull");
}
