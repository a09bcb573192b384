//! The certified method on whole trajectories of the Panda (STL meshes) in a seeded
//! 20-object scene, one core: 30 free and 30 colliding moves of up to 1 rad per joint,
//! MoveIt-like (segments of 0.05 rad, 0.1 s apart) and coarse (one segment), and per kind
//! the median of the whole report, of `--first-only`, of the clearance search alone (over
//! every pair at once, and the clearance to the world and the self-clearance apart, as
//! reports give them), and of `--method sampled --resolution 0.01` in the same run.
//!
//! `cargo bench --bench certified_method` (needs `.venv`: `bash scripts/setup_python.sh`).
mod panda_scene;

use ccd_guard::check::{CheckInput, CheckOptions, Method, check_trajectory};
use ccd_guard::clearance::{ClearanceOptions, min_clearance, split_clearance};
use std::sync::Arc;
use std::time::Instant;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

fn main() {
    let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    let bench = panda_scene::load(400);
    let world = Arc::new(bench.world.clone());
    let whole = CheckOptions::default();
    let first_only = CheckOptions { first_only: true, ..whole };
    let sampled = CheckOptions { method: Method::Sampled, resolution: 0.01, ..whole };
    for (label, step) in [("MoveIt-like", 0.05), ("coarse", 1.0)] {
        let (free, colliding) = panda_scene::moves(&bench, 1.0, step, 7, 30);
        for (kind, moves) in [("free", &free), ("colliding", &colliding)] {
            let mut times: [Vec<f64>; 5] = Default::default();
            for m in moves.iter() {
                let input = CheckInput { world: world.clone(), motion: m.clone() };
                let mut time = |k: usize, run: &dyn Fn()| {
                    let started = Instant::now();
                    run();
                    times[k].push(started.elapsed().as_secs_f64() * 1e3);
                };
                time(0, &|| drop(check_trajectory(&input, &whole)));
                time(1, &|| drop(check_trajectory(&input, &first_only)));
                time(2, &|| drop(min_clearance(&world, &input.motion, &ClearanceOptions::default())));
                time(3, &|| drop(check_trajectory(&input, &sampled)));
                time(4, &|| drop(split_clearance(&world, &input.motion, &ClearanceOptions::default())));
            }
            let [w, f, c, s, split] = times.map(median);
            println!(
                "{label} {kind} ({} moves): whole report {w:.2} ms, first-only {f:.2} ms, clearance search alone {c:.2} ms (world and self apart {split:.2} ms); sampled 0.01 rad {s:.2} ms ({:.2}x whole)",
                moves.len(),
                w / s
            );
        }
    }
}
