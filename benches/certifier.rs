//! Certification time per free segment (Schröcker & Weber's certifier after the pipeline's
//! culling) of the Panda with STL meshes in the 20-object scene: the planned
//! trajectories of `benches/pipeline.rs` (segments of at most 0.05 rad), one core,
//! with the time per stage and how many segments are proven free.
use ccd_guard::ccd::Statistics;
use ccd_guard::ccd::culling::Culling;
use ccd_guard::certifier::certify::{Certifier, CertifierData, CertifierStats, CertifyOptions};
use ccd_guard::collision::CollisionWorld;
use ccd_guard::motion::JointMotion;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

mod panda_scene;

/// Culling and certification of every segment of `motion` on this thread: whether all
/// are proven, the seconds of each part, and the certifier's work.
fn certify(world: &CollisionWorld, data: &CertifierData, motion: &JointMotion, options: &CertifyOptions) -> (bool, f64, f64, CertifierStats) {
    let mut culling = Culling::new(world);
    let mut certifier = Certifier::new(world, data, *options);
    let (mut cull_s, mut certify_s, mut proven) = (0.0, 0.0, true);
    let mut pairs = Vec::new();
    for segment in &motion.segments {
        let t = Instant::now();
        culling.near_pairs(segment, &mut pairs, &mut Statistics::default());
        cull_s += t.elapsed().as_secs_f64();
        let t = Instant::now();
        proven &= certifier.certify_segment(segment, &pairs).is_ok();
        certify_s += t.elapsed().as_secs_f64();
    }
    (proven, cull_s, certify_s, certifier.stats)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn certifier(c: &mut Criterion) {
    let bench = panda_scene::load(200);
    let world = &bench.world;
    let (free, _) = panda_scene::moves(&bench, 0.6, 0.05, 5, 30);
    let data = CertifierData::new(world);
    let options = CertifyOptions::default();
    let mut i = 0;
    c.bench_function("panda_certify_free_trajectory", |b| {
        b.iter(|| {
            i = (i + 1) % free.len();
            black_box(certify(world, &data, black_box(&free[i]), &options))
        })
    });

    report(world, &data, &free, &options, "with arc-length balls");
    report(world, &data, &free, &CertifyOptions { arc_length_balls: false, ..options }, "enclosure balls only");
}

/// Times each trajectory 5 times outside criterion, for the median per segment, the
/// stage times and the certifier's work.
fn report(world: &CollisionWorld, data: &CertifierData, free: &[JointMotion], options: &CertifyOptions, label: &str) {
    let (mut per_segment, mut proven, mut segments) = (Vec::new(), 0, 0);
    let (mut cull_total, mut certify_total) = (0.0, 0.0);
    let mut stats = CertifierStats::default();
    for motion in free {
        for _ in 0..5 {
            let t = Instant::now();
            let (ok, cull_s, certify_s, s) = certify(world, data, motion, options);
            per_segment.push(t.elapsed().as_secs_f64() / motion.segments.len() as f64);
            cull_total += cull_s;
            certify_total += certify_s;
            stats += &s;
            proven += ok as usize;
            segments += motion.segments.len();
        }
    }
    let runs = free.len() * 5;
    println!(
        "\ncertifier ({label}), {} free planned trajectories ({} segments, each run 5 times): median {:.1} us per segment; \
         culling {:.1} us and certifier {:.1} us per segment on average; {} of {runs} runs proven free; \
         per segment {:.1} time cells, {:.1} node tests, {:.1} orbit tests, deepest level {}; \
         {} of {} motion balls from the arc length",
        free.len(),
        segments / 5,
        median(per_segment) * 1e6,
        cull_total / segments as f64 * 1e6,
        certify_total / segments as f64 * 1e6,
        proven,
        stats.time_cells as f64 / segments as f64,
        stats.node_tests as f64 / segments as f64,
        stats.orbit_tests as f64 / segments as f64,
        stats.deepest_level,
        stats.arc_length_balls,
        stats.motion_balls
    );
}

criterion_group!(benches, certifier);
criterion_main!(benches);
