//! Development aid: per-pair stage-3 cost of the pipeline on Panda segments.
#[path = "../benches/panda_scene.rs"]
mod panda_scene;
use ccd_guard::ccd::solver::{PairGroup, Solver};
use ccd_guard::ccd::enclosure_cache::EnclosureCache;
use ccd_guard::collision::Body;
use ccd_guard::motion::{JointMotion, Trajectory, TrajectoryPoint};
use std::time::Instant;

fn main() {
    let bench = panda_scene::load(100);
    let world = &bench.world;
    let names: Vec<String> = world.robot.variable_names().map(str::to_string).collect();
    let mut rng = panda_scene::Rng::new(5);
    let mut per_pair: std::collections::HashMap<(String, String), (f64, usize)> = Default::default();
    for q0 in bench.free.iter().take(60) {
        let q1: Vec<f64> = q0.iter().map(|q| q + rng.uniform(-0.15, 0.15)).collect();
        let point = |q: &[f64], t: f64| TrajectoryPoint { positions: q.to_vec(), velocities: None, accelerations: None, time_from_start: t };
        let traj = Trajectory { joint_names: names.clone(), points: vec![point(q0, 0.0), point(&q1, 0.5)] };
        let motion = JointMotion::new(&world.robot, &traj, None).unwrap();
        let seg = &motion.segments[0];
        // Every checked element pair, solved alone.
        for (i, ea) in world.elements.iter().enumerate() {
            let Body::Link(la) = ea.body else { continue };
            for (j, eb) in world.elements.iter().enumerate() {
                if j <= i && matches!(eb.body, Body::Link(_)) { continue; }
                if ea.body == eb.body || !world.is_checked(ea.body, eb.body) { continue; }
                let group = PairGroup { link: la, other: eb.body, elements: vec![(i, j)] };
                let mut cache = EnclosureCache::new(&world.robot, seg, 0.0, seg.duration);
                let t = Instant::now();
                let (_found, _stats) = Solver::new(world, &mut cache, &[group], true, 1e-7).solve();
                let e = per_pair.entry((world.body_name(ea.body).to_string(), world.body_name(eb.body).to_string())).or_default();
                e.0 += t.elapsed().as_secs_f64();
                e.1 += 1;
            }
        }
    }
    let mut v: Vec<_> = per_pair.into_iter().collect();
    v.sort_by(|a, b| b.1.0.total_cmp(&a.1.0));
    for ((a, b), (t, n)) in v.iter().take(15) {
        println!("{a:>16} {b:>16}: {:.1} us per segment", t / *n as f64 * 1e6);
    }
}
