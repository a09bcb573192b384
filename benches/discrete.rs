//! Discrete state checks of the Panda (STL meshes) in a 20-object scene, free and
//! colliding states, with coal (through pinocchio) timed on the same states in the same
//! run by `benches/coal_discrete.py`; the ratio is printed at the end.
use ccd_guard::collision::StateChecker;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

mod panda_scene;

const STATES: usize = 200;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Median seconds per state for our checker, measured directly (for the ratio).
fn our_median(bench: &panda_scene::PandaBench, states: &[Vec<f64>]) -> f64 {
    let mut checker = StateChecker::new(&bench.world);
    let mut times = Vec::new();
    for _ in 0..20 {
        for q in states {
            let t = std::time::Instant::now();
            black_box(checker.contacts(black_box(q), true));
            times.push(t.elapsed().as_secs_f64());
        }
    }
    median(times)
}

fn coal_medians(bench: &panda_scene::PandaBench) -> Option<(f64, f64)> {
    let request = serde_json::json!({
        "urdf": bench.urdf, "srdf": bench.srdf, "prefix": bench.prefix, "scene": serde_json::from_str::<serde_json::Value>(&bench.scene_json).ok()?,
        "joint_names": bench.world.robot.variable_names().collect::<Vec<_>>(),
        "free": bench.free, "colliding": bench.colliding, "repeats": 20,
    });
    let answer = panda_scene::run_python_peer("coal_discrete.py", &request)?;
    Some((answer["free_median_s"].as_f64()?, answer["colliding_median_s"].as_f64()?))
}

fn discrete(c: &mut Criterion) {
    let bench = panda_scene::load(STATES);
    let mut group = c.benchmark_group("panda_20_objects");
    for (name, states) in [("free_state", &bench.free), ("colliding_state", &bench.colliding)] {
        let mut checker = StateChecker::new(&bench.world);
        let mut i = 0;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % states.len();
                black_box(checker.contacts(black_box(&states[i]), true))
            })
        });
    }
    group.finish();

    let ours = (our_median(&bench, &bench.free), our_median(&bench, &bench.colliding));
    println!("\nbroad phase chosen: {:?}", StateChecker::new(&bench.world).broad_phase_kind());
    println!("ccd_guard median per state: free {:.2} us, colliding {:.2} us", ours.0 * 1e6, ours.1 * 1e6);
    match coal_medians(&bench) {
        Some((free, colliding)) => {
            println!("coal (pinocchio computeCollisions, stop at first) median per state: free {:.2} us, colliding {:.2} us", free * 1e6, colliding * 1e6);
            println!("ratio coal / ccd_guard: free {:.2}x, colliding {:.2}x", free / ours.0, colliding / ours.1);
        }
        None => println!("coal not measured (run `bash scripts/setup_python.sh` to create .venv)"),
    }
}

criterion_group!(benches, discrete);
criterion_main!(benches);
