//! A perception-scale cell: the Panda (STL meshes) with a table (a box) and a 1 cm
//! octomap of a shelf (boards, side walls, back wall and top; about 26k occupied leaves),
//! as a depth camera would give it. Coarse moves of 3-5 waypoints, 1 s apart, from free
//! configurations: free ones (dense sampling at 0.001 rad finds no contact) and colliding
//! ones. Per move: the certified check (whole report), `--first-only`, and MoveIt-like
//! sampling (`--method sampled --resolution 0.01`) in the same run; medians on one core
//! (`RAYON_NUM_THREADS=1`, which the bench sets) and the map's decoding-free build time
//! and memory.
//!
//! `cargo bench --bench octomap_scene` (needs `.venv`: `bash scripts/setup_python.sh`);
//! `OCTOMAP_BENCH_ONLY=free|free_first_only|first_only|whole` times one kind of check alone
//! (for a profiler: the free moves' whole reports or first-only checks, the colliding moves'
//! first-only checks or whole reports).
mod panda_scene;

use ccd_guard::check::sampled::{SampledOptions, check_sampled};
use ccd_guard::check::{CheckInput, CheckOptions, Method, Verdict, check_trajectory};
use ccd_guard::collision::CollisionWorld;
use ccd_guard::math::{Isometry3, Real};
use ccd_guard::motion::{JointMotion, Trajectory, TrajectoryPoint};
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{srdf, urdf};
use ccd_guard::scene::{Obstacle, Scene};
use ccd_guard::shape::{Cuboid, KEY_CENTRE, Shape, Voxel, VoxelMap};
use criterion::{Criterion, criterion_group, criterion_main};
use panda_scene::Rng;
use std::sync::Arc;
use std::time::{Duration, Instant};

const RESOLUTION: Real = 0.01;

/// The occupied leaves of a shelf in front of the robot: x 0.45-0.75 m, y ±0.45 m,
/// boards at 0.2, 0.5 and 0.8 m, walls up to a top at 1.0 m, one voxel thick.
pub fn shelf_voxels() -> Vec<Voxel> {
    let key = |x: Real| ((x / RESOLUTION).round() as i32 + KEY_CENTRE) as u16;
    let mut voxels = Vec::new();
    let mut add = |x: Real, y: Real, z: Real| voxels.push(Voxel { min: [key(x), key(y), key(z)], level: 0 });
    let steps = |a: Real, b: Real| {
        let n = ((b - a) / RESOLUTION).round() as usize;
        (0..n).map(move |i| a + i as Real * RESOLUTION)
    };
    for z in [0.2, 0.5, 0.8, 1.0] {
        for x in steps(0.45, 0.75) {
            for y in steps(-0.45, 0.45) {
                add(x, y, z);
            }
        }
    }
    for z in steps(0.0, 1.0) {
        for x in steps(0.45, 0.75) {
            add(x, -0.46, z);
            add(x, 0.45, z);
        }
        for y in steps(-0.45, 0.45) {
            add(0.75, y, z);
        }
    }
    voxels
}

fn world() -> CollisionWorld {
    let prefix = panda_scene::cmeel_prefix();
    let robots = prefix.join("share/example-robot-data/robots/panda_description");
    let (urdf_path, srdf_path) = (robots.join("urdf/panda.urdf"), robots.join("srdf/panda.srdf"));
    let resolver = ResourceResolver { ament_prefix_path: vec![prefix.clone()], ..ResourceResolver::default() };
    let robot = urdf::load_urdf(&urdf_path, &resolver).expect("panda loads");
    let disabled = srdf::parse_disabled_pairs(&std::fs::read_to_string(&srdf_path).unwrap(), &srdf_path).unwrap();
    let map = VoxelMap::new(RESOLUTION, shelf_voxels()).unwrap();
    let table =
        Obstacle { id: "table".into(), shape: Shape::Cuboid(Cuboid { half_extents: [0.8, 0.8, 0.02].into() }), pose: Isometry3::translation(0.3, 0.0, -0.021) };
    let scene = Scene {
        frame_id: None,
        objects: vec![table, Obstacle { id: "camera_map".into(), shape: Shape::VoxelMap(Arc::new(map)), pose: Isometry3::identity() }],
    };
    CollisionWorld::new(robot, scene, Some(&disabled))
}

/// Coarse moves: 3-5 waypoints 1 s apart, each a step of up to `reach` rad per joint
/// from a free configuration; `count` free and `count` colliding (by dense sampling).
fn coarse_moves(world: &Arc<CollisionWorld>, count: usize, reach: Real) -> (Vec<JointMotion>, Vec<JointMotion>) {
    let names: Vec<String> = world.robot.variable_names().map(str::to_string).collect();
    let limits: Vec<(Real, Real)> = world.robot.variables.iter().map(|&j| (world.robot.joints[j].lower, world.robot.joints[j].upper)).collect();
    let mut rng = Rng::new(42);
    let (mut free, mut colliding) = (Vec::new(), Vec::new());
    let mut checker = ccd_guard::collision::StateChecker::new(world);
    for _ in 0..20000 {
        if free.len() >= count && colliding.len() >= count {
            break;
        }
        // Start near the shelf's middle compartment, then wander.
        let mut q = world.robot.default_positions();
        q[..7].copy_from_slice(&[0.0, 0.3, 0.0, -1.6, 0.0, 1.9, 0.8]);
        for (v, (lo, hi)) in q.iter_mut().zip(&limits) {
            *v = (*v + rng.uniform(-0.8, 0.8)).clamp(*lo, *hi);
        }
        if !checker.contacts(&q, true).is_empty() {
            continue;
        }
        let n = 3 + (rng.uniform(0.0, 2.999) as usize);
        let mut points = vec![TrajectoryPoint { positions: q.clone(), velocities: None, accelerations: None, time_from_start: 0.0 }];
        for k in 1..n {
            for (v, (lo, hi)) in q.iter_mut().zip(&limits) {
                *v = (*v + rng.uniform(-reach, reach)).clamp(*lo, *hi);
            }
            points.push(TrajectoryPoint { positions: q.clone(), velocities: None, accelerations: None, time_from_start: k as Real });
        }
        let motion = JointMotion::new(&world.robot, &Trajectory { joint_names: names.clone(), points }, None).unwrap();
        let input = CheckInput { world: world.clone(), motion };
        let dense = check_sampled(&input, &SampledOptions { resolution: 0.001, first_only: true, tolerance: 0.001 });
        match dense.verdict {
            Verdict::Collision if colliding.len() < count => colliding.push(input.motion),
            Verdict::Uncertain if free.len() < count => free.push(input.motion),
            _ => {}
        }
    }
    (free, colliding)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

/// Median milliseconds of `run` over the moves (each timed once after a warm-up run).
fn median_ms(world: &Arc<CollisionWorld>, moves: &[JointMotion], options: &CheckOptions) -> (f64, usize) {
    let mut times = Vec::new();
    let mut certified = 0;
    for m in moves {
        let input = CheckInput { world: world.clone(), motion: m.clone() };
        let started = Instant::now();
        let report = check_trajectory(&input, options).report;
        times.push(started.elapsed().as_secs_f64() * 1e3);
        certified += report.certified as usize;
    }
    (median(times), certified)
}

fn bench(c: &mut Criterion) {
    // One core, as the targets are stated.
    let _ = rayon::ThreadPoolBuilder::new().num_threads(1).build_global();
    let voxels = shelf_voxels();
    let started = Instant::now();
    let map = VoxelMap::new(RESOLUTION, voxels.clone()).unwrap();
    let build_ms = started.elapsed().as_secs_f64() * 1e3;
    println!(
        "shelf map: {} leaves, built in {build_ms:.2} ms, {:.1} bytes per leaf",
        map.voxels().len(),
        map.memory_bytes() as f64 / map.voxels().len() as f64
    );
    let world = Arc::new(world());
    let (free, colliding) = coarse_moves(&world, 20, 0.5);
    println!("{} free and {} colliding coarse moves", free.len(), colliding.len());
    let certified = CheckOptions { method: Method::Certified, ..CheckOptions::default() };
    let first_only = CheckOptions { first_only: true, ..certified };
    // For profiling one kind of check: OCTOMAP_BENCH_ONLY=free|free_first_only|first_only|whole.
    if let Ok(only) = std::env::var("OCTOMAP_BENCH_ONLY") {
        let (moves, options) = match only.as_str() {
            "free" => (&free, certified),
            "free_first_only" => (&free, first_only),
            "first_only" => (&colliding, first_only),
            _ => (&colliding, certified),
        };
        for _ in 0..5 {
            println!("{only}: {:.2} ms", median_ms(&world, moves, &options).0);
        }
        return;
    }
    let sampled = CheckOptions { method: Method::Sampled, resolution: 0.01, ..certified };
    let sampled_first = CheckOptions { first_only: true, ..sampled };
    for (name, moves) in [("free", &free), ("colliding", &colliding)] {
        let (whole, proven) = median_ms(&world, moves, &certified);
        let (first, _) = median_ms(&world, moves, &first_only);
        let (samp, _) = median_ms(&world, moves, &sampled);
        let (samp_first, _) = median_ms(&world, moves, &sampled_first);
        println!(
            "{name:>9}: certified whole report {whole:.2} ms ({proven}/{} certified), first-only {first:.2} ms; sampled 0.01 rad whole {samp:.2} ms ({:.2}x), first-only {samp_first:.2} ms ({:.2}x)",
            moves.len(),
            whole / samp,
            first / samp_first
        );
    }
    let mut group = c.benchmark_group("octomap_shelf");
    group.sample_size(10).measurement_time(Duration::from_secs(5));
    group.bench_function("build 26k-leaf map", |b| b.iter(|| VoxelMap::new(RESOLUTION, voxels.clone()).unwrap()));
    if let Some(m) = free.first() {
        let input = CheckInput { world: world.clone(), motion: m.clone() };
        group.bench_function("free move, certified", |b| b.iter(|| check_trajectory(&input, &certified)));
        group.bench_function("free move, sampled 0.01", |b| b.iter(|| check_trajectory(&input, &sampled)));
    }
    if let Some(m) = colliding.first() {
        let input = CheckInput { world: world.clone(), motion: m.clone() };
        group.bench_function("colliding move, first-only", |b| b.iter(|| check_trajectory(&input, &first_only)));
        group.bench_function("colliding move, whole report", |b| b.iter(|| check_trajectory(&input, &certified)));
        group.bench_function("colliding move, sampled 0.01", |b| b.iter(|| check_trajectory(&input, &sampled)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
