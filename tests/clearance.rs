//! The motion's minimum clearance (`clearance::min_clearance`) against dense sampling
//! of the exact per-configuration distance: the reported minimum is attained (a real
//! distance at the reported instant), its proven lower bound lies below every sampled
//! distance, and it is within the tolerance of the sampled minimum. On the demo's arm
//! (two STL meshes and primitives) in its work cell, with the free trajectory and with
//! shifted copies of it that pass the obstacles at many distances.
use ccd_guard::clearance::{checked_element_pairs, clearance_profile, min_clearance, pair_distance, world_distance, ClearanceOptions};
use ccd_guard::demo::{case_input, CASES};
use ccd_guard::motion::JointMotion;

/// The smallest distance at `n` evenly spaced instants of every segment, and where.
fn sampled_minimum(input: &ccd_guard::check::CheckInput, motion: &JointMotion, n: usize) -> (f64, f64) {
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
