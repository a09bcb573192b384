//! Per-segment cost of the CCD pipeline on the Panda (STL meshes) in a 20-object scene,
//! free and colliding segments, with the time per stage, against dense discrete
//! sampling at 0.005 rad of the same segments measured in the same run.
use ccd_guard::ccd::{run_pipeline, PipelineOptions, Statistics};
use ccd_guard::check::sampled::{check_sampled, SampledOptions};
use ccd_guard::check::{CheckInput, Verdict};
use ccd_guard::collision::CollisionWorld;
use ccd_guard::motion::{JointMotion, Trajectory, TrajectoryPoint};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Instant;

mod panda_scene;

const SEGMENTS: usize = 60;
/// Largest joint change of a segment (rad): a planner's waypoint spacing.
const STEP: f64 = 0.3;

fn segment(world: &CollisionWorld, q0: &[f64], q1: &[f64]) -> JointMotion {
    let names: Vec<String> = world.robot.variable_names().map(str::to_string).collect();
    let point = |q: &[f64], t: f64| TrajectoryPoint { positions: q.to_vec(), velocities: None, accelerations: None, time_from_start: t };
    let trajectory = Trajectory { joint_names: names, points: vec![point(q0, 0.0), point(q1, 0.5)] };
    JointMotion::new(&world.robot, &trajectory, None).expect("valid segment")
}

struct Segments {
    free: Vec<JointMotion>,
    colliding: Vec<JointMotion>,
}

fn segments(bench: &panda_scene::PandaBench) -> Segments {
    let world = &bench.world;
    let mut rng = panda_scene::Rng::new(5);
    let (mut free, mut colliding) = (Vec::new(), Vec::new());
    // Segments that start free; colliding ones touch somewhere along the way.
    for q0 in bench.free.iter().cycle().take(8000) {
        if free.len() >= SEGMENTS && colliding.len() >= SEGMENTS {
            break;
        }
        let q1: Vec<f64> = q0
            .iter()
            .zip(&world.robot.variables)
            .map(|(q, &j)| (q + rng.uniform(-STEP, STEP)).clamp(world.robot.joints[j].lower, world.robot.joints[j].upper))
            .collect();
        let motion = segment(world, q0, &q1);
        let dense = check_sampled(&CheckInput { world: world.clone(), motion: motion.clone() }, &SampledOptions { resolution: 0.001, first_only: true, tolerance: 0.001 });
        match dense.verdict {
            Verdict::Collision if colliding.len() < SEGMENTS => colliding.push(motion),
            Verdict::Uncertain if free.len() < SEGMENTS => free.push(motion),
            _ => {}
        }
    }
    Segments { free, colliding }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn pipeline(c: &mut Criterion) {
    let bench = panda_scene::load(200);
    let world = &bench.world;
    let segs = segments(&bench);
    let options = PipelineOptions { first_only: true, ..PipelineOptions::default() };
    let mut group = c.benchmark_group("panda_segment");
    for (name, list) in [("pipeline_free", &segs.free), ("pipeline_colliding", &segs.colliding)] {
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % list.len();
                black_box(run_pipeline(world, black_box(&list[i]), &options))
            })
        });
    }
    group.finish();

    println!("\nsegments: {} free, {} colliding (largest joint change up to {STEP} rad, Panda STL, 20 objects)", segs.free.len(), segs.colliding.len());
    for (name, list) in [("free", &segs.free), ("colliding", &segs.colliding)] {
        let mut pipeline_times = Vec::new();
        let mut sampled_times = Vec::new();
        let mut stats = Statistics::default();
        for motion in list.iter() {
            for _ in 0..5 {
                let t = Instant::now();
                let result = black_box(run_pipeline(world, motion, &options));
                pipeline_times.push(t.elapsed().as_secs_f64());
                stats += &result.stats;
            }
            let input = CheckInput { world: world.clone(), motion: motion.clone() };
            for _ in 0..5 {
                let t = Instant::now();
                black_box(check_sampled(&input, &SampledOptions { resolution: 0.005, first_only: true, tolerance: 0.001 }));
                sampled_times.push(t.elapsed().as_secs_f64());
            }
        }
        let (p, s) = (median(pipeline_times), median(sampled_times));
        let total = stats.stage1_seconds + stats.stage2_seconds + stats.stage3_seconds;
        println!(
            "{name}: pipeline median {:.1} us per segment, sampling at 0.005 rad median {:.1} us: ratio sampled/pipeline {:.2}x",
            p * 1e6,
            s * 1e6,
            s / p
        );
        println!(
            "  stage shares: BVH {:.1}%  LSS {:.1}%  exact {:.1}%; pairs per segment: considered {}, after stage 1 {}, after stage 2 {}",
            100.0 * stats.stage1_seconds / total,
            100.0 * stats.stage2_seconds / total,
            100.0 * stats.stage3_seconds / total,
            stats.pairs_considered / stats.segments.max(1),
            stats.stage1_kept as f64 / stats.segments.max(1) as f64,
            stats.stage2_kept as f64 / stats.segments.max(1) as f64,
        );
    }
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
