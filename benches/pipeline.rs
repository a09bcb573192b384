//! Per-segment cost of the CCD pipeline on the Panda (STL meshes) in a 20-object scene,
//! with the time per stage, against dense discrete sampling at 0.005 rad of the same
//! motions measured in the same run.
//!
//! Planned trajectories: straight joint-space moves of up to 0.6 rad per joint cut into
//! segments of at most `STEP` = 0.05 rad (what a time-parameterized MoveIt plan sends to
//! the controller: 0.1 s apart at 0.5 rad/s), linear interpolation. Free ones are free
//! under sampling at 0.001 rad; colliding ones start free and touch on the way. The
//! pipeline's cost is given per segment: a free trajectory's time over its segments, and
//! the segment in which a colliding trajectory first touches on its own.
//!
//! Coarse segments (up to 0.3 rad, one segment each) are timed too, without criterion,
//! to show how the cost grows with the motion of a segment.
use ccd_guard::ccd::{PipelineOptions, Statistics, run_pipeline};
use ccd_guard::check::CheckInput;
use ccd_guard::check::sampled::{SampledOptions, check_sampled};
use ccd_guard::collision::CollisionWorld;
use ccd_guard::motion::JointMotion;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

mod panda_scene;
use panda_scene::moves;

/// Largest joint change of a planned segment (rad).
const STEP: f64 = 0.05;
/// Largest joint change of a coarse segment (rad).
const COARSE_STEP: f64 = 0.3;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median per-segment times of the pipeline and of sampling at 0.005 rad (5 runs of
/// each motion), and the pipeline's statistics.
fn measure(world: &CollisionWorld, motions: &[JointMotion], options: &PipelineOptions) -> (f64, f64, Statistics) {
    let (mut pipeline_times, mut sampled_times) = (Vec::new(), Vec::new());
    let mut stats = Statistics::default();
    for motion in motions {
        let segments = motion.segments.len() as f64;
        for _ in 0..5 {
            let t = Instant::now();
            let result = black_box(run_pipeline(world, motion, options));
            pipeline_times.push(t.elapsed().as_secs_f64() / segments);
            stats += &result.stats;
        }
        let input = CheckInput { world: world.clone().into(), motion: motion.clone() };
        for _ in 0..5 {
            let t = Instant::now();
            black_box(check_sampled(&input, &SampledOptions { resolution: 0.005, first_only: true, tolerance: 0.001 }));
            sampled_times.push(t.elapsed().as_secs_f64() / segments);
        }
    }
    (median(pipeline_times), median(sampled_times), stats)
}

fn report(name: &str, world: &CollisionWorld, motions: &[JointMotion], options: &PipelineOptions) {
    let (p, s, stats) = measure(world, motions, options);
    let segments = stats.segments.max(1) as f64;
    let total = stats.stage1_seconds + stats.stage2_seconds + stats.stage3_seconds;
    println!("{name}: pipeline median {:.1} us per segment, sampling at 0.005 rad median {:.1} us: ratio sampled/pipeline {:.2}x", p * 1e6, s * 1e6, s / p);
    println!(
        "  stage shares: BVH {:.1}%  LSS {:.1}%  exact {:.1}%; pairs per segment: considered {}, after stage 1 {:.1}, after stage 2 {:.1}; \
         stage 3 per segment: {:.1} time cells, {:.1} OBB tests, {:.1} advancement tests, {:.1} equations",
        100.0 * stats.stage1_seconds / total,
        100.0 * stats.stage2_seconds / total,
        100.0 * stats.stage3_seconds / total,
        stats.pairs_considered / stats.segments.max(1),
        stats.stage1_kept as f64 / segments,
        stats.stage2_kept as f64 / segments,
        stats.time_cells as f64 / segments,
        stats.obb_tests as f64 / segments,
        stats.advancement_tests as f64 / segments,
        stats.equations_evaluated as f64 / segments,
    );
}

fn pipeline(c: &mut Criterion) {
    let bench = panda_scene::load(200);
    let world = &bench.world;
    let (free, colliding) = moves(&bench, 0.6, STEP, 5, 30);
    let options = PipelineOptions { first_only: true, ..PipelineOptions::default() };
    let mut group = c.benchmark_group("panda_planned");
    for (name, list) in [("free_trajectory", &free), ("colliding_segment", &colliding)] {
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % list.len();
                black_box(run_pipeline(world, black_box(&list[i]), &options))
            })
        });
    }
    group.finish();

    let segments: usize = free.iter().map(|m| m.segments.len()).sum();
    println!(
        "\nplanned: {} free trajectories ({segments} segments of up to {STEP} rad), {} colliding segments; Panda STL, 20 objects",
        free.len(),
        colliding.len()
    );
    report("free", world, &free, &options);
    report("colliding", world, &colliding, &options);

    let (coarse_free, coarse_colliding) = moves(&bench, COARSE_STEP, COARSE_STEP, 6, 30);
    println!("\ncoarse: single segments of up to {COARSE_STEP} rad: {} free, {} colliding", coarse_free.len(), coarse_colliding.len());
    report("free", world, &coarse_free, &options);
    report("colliding", world, &coarse_colliding, &options);
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
