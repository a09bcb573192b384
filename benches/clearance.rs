//! Minimum clearance of whole Panda trajectories (STL meshes, its SRDF, the seeded
//! 20-object scene; the free planned moves of `benches/pipeline.rs`): the best-first
//! search over (pair, time cell) of `clearance::min_clearance`, against dense sampling
//! of the exact distance every 0.005 rad in the same run (which only bounds the
//! minimum from above, and misses it between samples). The criterion runs share one
//! `ClearanceSearch`; the summary also times a new search per trajectory, as
//! `ccd_guard check` runs it.
use ccd_guard::clearance::{ClearanceOptions, ClearanceSearch, checked_element_pairs, world_distance};
use ccd_guard::collision::CollisionWorld;
use ccd_guard::motion::JointMotion;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Instant;

mod panda_scene;

/// The smallest distance at states every `step` rad of the largest joint motion.
fn sampled_clearance(world: &CollisionWorld, pairs: &[(usize, usize)], motion: &JointMotion, step: f64) -> f64 {
    let mut best = f64::INFINITY;
    for (k, seg) in motion.segments.iter().enumerate() {
        let travel = motion.waypoints[k].iter().zip(&motion.waypoints[k + 1]).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        let n = ((travel / step).ceil() as usize).max(1);
        for i in 0..=n {
            let t = seg.start_time + seg.duration * i as f64 / n as f64;
            if let Some(d) = world_distance(world, pairs, &world.robot.link_poses(&motion.positions_at(t)), best) {
                best = d.distance;
            }
        }
    }
    best
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn clearance(c: &mut Criterion) {
    let bench = panda_scene::load(200);
    let world = &bench.world;
    let (free, _) = panda_scene::moves(&bench, 0.6, 0.05, 5, 20);
    let options = ClearanceOptions::default();
    let pairs = checked_element_pairs(world);
    let search = ClearanceSearch::new(world);
    let mut i = 0;
    c.bench_function("panda_min_clearance_trajectory", |b| {
        b.iter(|| {
            i = (i + 1) % free.len();
            black_box(search.min_clearance(black_box(&free[i]), &options))
        })
    });
    let mut j = 0;
    c.bench_function("panda_sampled_clearance_trajectory_0.005rad", |b| {
        b.iter(|| {
            j = (j + 1) % free.len();
            black_box(sampled_clearance(world, &pairs, black_box(&free[j]), 0.005))
        })
    });

    let (mut ours, mut fresh, mut sampled, mut below) = (Vec::new(), Vec::new(), Vec::new(), 0);
    let (mut evaluations, mut exact, mut cells) = (0, 0, 0);
    let mut gap: f64 = 0.0;
    for motion in &free {
        let t = Instant::now();
        let found = search.min_clearance(motion, &options).expect("pairs");
        ours.push(t.elapsed().as_secs_f64());
        // As `check` does: a new search (its hulls and support trees built as needed).
        let t = Instant::now();
        black_box(ClearanceSearch::new(world).min_clearance(motion, &options));
        fresh.push(t.elapsed().as_secs_f64());
        let t = Instant::now();
        let reference = sampled_clearance(world, &pairs, motion, 0.005);
        sampled.push(t.elapsed().as_secs_f64());
        evaluations += found.evaluations;
        exact += found.exact_distances;
        cells += found.cells;
        below += (found.closest.distance < reference) as usize;
        gap = gap.max(found.closest.distance - reference);
    }
    let (m_ours, m_fresh, m_sampled) = (median(ours), median(fresh), median(sampled));
    println!(
        "\nclearance, {} free Panda trajectories ({} segments): min_clearance median {:.2} ms per trajectory \
         ({:.0} pairs measured, {:.1} exact mesh distances, {:.0} time cells; {:.2} ms with a new search per trajectory), sampling at 0.005 rad {:.2} ms (ratio {:.2}); \
         min_clearance found a smaller distance than sampling in {below} trajectories, and exceeded it by at most {gap:.2e} m (tolerance {:e} m or {}%)",
        free.len(),
        free.iter().map(|m| m.segments.len()).sum::<usize>(),
        m_ours * 1e3,
        evaluations as f64 / free.len() as f64,
        exact as f64 / free.len() as f64,
        cells as f64 / free.len() as f64,
        m_fresh * 1e3,
        m_sampled * 1e3,
        m_sampled / m_ours,
        options.tolerance,
        options.relative_tolerance * 100.0
    );
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(8));
    targets = clearance
}
criterion_main!(benches);
