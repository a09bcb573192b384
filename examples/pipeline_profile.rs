//! Development aid: median pipeline time per Panda segment (free / colliding) with
//! per-stage statistics, quicker than the criterion bench.
#[path = "../benches/panda_scene.rs"]
mod panda_scene;
use ccd_guard::ccd::{run_pipeline, PipelineOptions, Statistics};
use ccd_guard::check::sampled::{check_sampled, SampledOptions};
use ccd_guard::check::{CheckInput, Verdict};
use ccd_guard::motion::{JointMotion, Trajectory, TrajectoryPoint};
use std::time::Instant;

const N: usize = 20;

fn main() {
    let step: f64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(0.3);
    // Repeat the timed runs (for profilers).
    let repeat: usize = std::env::args().nth(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    // "free" or "colliding" times only those segments.
    let only = std::env::args().nth(3);
    let bench = panda_scene::load(100);
    let world = &bench.world;
    let names: Vec<String> = world.robot.variable_names().map(str::to_string).collect();
    let mut rng = panda_scene::Rng::new(5);
    let (mut free, mut colliding) = (Vec::new(), Vec::new());
    for q0 in bench.free.iter().cycle().take(2000) {
        if free.len() >= N && colliding.len() >= N {
            break;
        }
        let q1: Vec<f64> = q0.iter().map(|q| q + rng.uniform(-step, step)).collect();
        let point = |q: &[f64], t: f64| TrajectoryPoint { positions: q.to_vec(), velocities: None, accelerations: None, time_from_start: t };
        let traj = Trajectory { joint_names: names.clone(), points: vec![point(q0, 0.0), point(&q1, 0.5)] };
        let motion = JointMotion::new(&world.robot, &traj, None).unwrap();
        let input = CheckInput { world: world.clone(), motion };
        match check_sampled(&input, &SampledOptions { resolution: 0.002, first_only: true, tolerance: 0.001 }).verdict {
            Verdict::Collision if colliding.len() < N => colliding.push(input.motion),
            Verdict::Uncertain if free.len() < N => free.push(input.motion),
            _ => {}
        }
    }
    stage1_pieces(world, &free[0]);
    let options = PipelineOptions { first_only: true, ..PipelineOptions::default() };
    for (name, list) in [("free", &free), ("colliding", &colliding)] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut times = Vec::new();
        let mut stats = Statistics::default();
        for m in list.iter().flat_map(|m| std::iter::repeat_n(m, repeat)) {
            let t = Instant::now();
            let r = run_pipeline(world, m, &options);
            times.push(t.elapsed().as_secs_f64());
            stats += &r.stats;
        }
        times.sort_by(f64::total_cmp);
        let n = times.len();
        println!(
            "{name}: median {:.0} us; per segment {} cells, {} OBB, {} advancement, {} equations, {} pairs after stage 2",
            times[n / 2] * 1e6,
            stats.time_cells / n,
            stats.obb_tests / n,
            stats.advancement_tests / n,
            stats.equations_evaluated / n,
            stats.stage2_kept / n
        );
        let total = stats.stage1_seconds + stats.stage2_seconds + stats.stage3_seconds;
        println!(
            "  mean us per segment: stage 1 {:.1}, stage 2 {:.1}, stage 3 {:.1} (rest of the run {:.1})",
            stats.stage1_seconds / n as f64 * 1e6,
            stats.stage2_seconds / n as f64 * 1e6,
            stats.stage3_seconds / n as f64 * 1e6,
            (times.iter().sum::<f64>() - total) / n as f64 * 1e6
        );
    }
}

/// Time of the pieces of stage 1 on the first free segment (the fastest of 10 batches:
/// this machine's timings are noisy).
fn stage1_pieces(world: &ccd_guard::collision::CollisionWorld, motion: &JointMotion) {
    use ccd_guard::ccd::stage1_dynamic_bvh::DynamicBvh;
    use ccd_guard::enclosure::link_enclosures;
    let seg = &motion.segments[0];
    let fastest = |f: &mut dyn FnMut()| {
        (0..10)
            .map(|_| {
                let t = Instant::now();
                for _ in 0..2000 {
                    f();
                }
                t.elapsed().as_secs_f64() / 2000.0
            })
            .fold(f64::INFINITY, f64::min)
    };
    let mut links = Vec::new();
    let enclosure = fastest(&mut || {
        link_enclosures(&world.robot, seg, 0.0, seg.duration, false, &mut links);
        std::hint::black_box(&links);
    });
    let mut bvh = DynamicBvh::new(world);
    let mut out = Vec::new();
    let candidates = fastest(&mut || {
        bvh.candidates(world, &links, &mut out);
        std::hint::black_box(&out);
    });
    println!("stage 1 pieces: link enclosures {:.2} us, candidates {:.2} us", enclosure * 1e6, candidates * 1e6);
}
