//! Development aid: median pipeline time per Panda segment (free / colliding) with
//! per-stage statistics, quicker than the criterion bench.
#[path = "../benches/panda_scene.rs"]
mod panda_scene;
use ccd_guard::ccd::{PipelineOptions, Statistics, run_pipeline};
use ccd_guard::motion::JointMotion;
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
    // Segments of up to `step` rad: moves of up to 0.6 rad per joint (one segment
    // each from 0.3 rad up).
    let reach = if step >= 0.3 { step } else { 0.6 };
    let (free, colliding) = panda_scene::moves(&bench, reach, step, 5, N);
    stage1_pieces(world, &free[0]);
    if only.as_deref() == Some("pieces") {
        for _ in 0..20 {
            stage1_pieces(world, &free[0]);
        }
        return;
    }
    let options = PipelineOptions { first_only: true, ..PipelineOptions::default() };
    for (name, list) in [("free", &free), ("colliding", &colliding)] {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        let mut times = Vec::new();
        let mut stats = Statistics::default();
        let mut total_time = 0.0;
        for m in list.iter().flat_map(|m| std::iter::repeat_n(m, repeat)) {
            let t = Instant::now();
            let r = run_pipeline(world, m, &options);
            let elapsed = t.elapsed().as_secs_f64();
            total_time += elapsed;
            times.push(elapsed / m.segments.len() as f64);
            stats += &r.stats;
        }
        times.sort_by(f64::total_cmp);
        let n = stats.segments.max(1);
        println!(
            "{name}: median {:.1} us per segment; per segment {:.1} cells, {:.1} OBB, {:.1} advancement, {:.1} equations, {:.1} pairs after stage 2",
            times[times.len() / 2] * 1e6,
            stats.time_cells as f64 / n as f64,
            stats.obb_tests as f64 / n as f64,
            stats.advancement_tests as f64 / n as f64,
            stats.equations_evaluated as f64 / n as f64,
            stats.stage2_kept as f64 / n as f64
        );
        let total = stats.stage1_seconds + stats.stage2_seconds + stats.stage3_seconds;
        println!(
            "  mean us per segment: stage 1 {:.1}, stage 2 {:.1}, stage 3 {:.1} (rest of the run {:.1})",
            stats.stage1_seconds / n as f64 * 1e6,
            stats.stage2_seconds / n as f64 * 1e6,
            stats.stage3_seconds / n as f64 * 1e6,
            (total_time - total) / n as f64 * 1e6
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
        link_enclosures(&world.robot, seg, 0.0, seg.duration, false, None, &mut links);
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
