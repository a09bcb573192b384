//! Issue 16's benchmark: ccd_guard as a MoveIt user would run it, side by side in the same
//! run with the sampling check they run today (coal through pinocchio at 0.05 and 0.01
//! rad joint steps, stopping at the first colliding state: `benches/coal_sampling.py`).
//!
//! The Panda (STL meshes) and the UR5 (STL meshes, `ur5_gripper.srdf`) of
//! example-robot-data, each in seeded scenes of 10-20 boxes, spheres and cylinders, with:
//! - MoveIt-like plans: a straight joint move of up to 1 rad per joint in segments of at
//!   most 0.05 rad, 0.1 s apart;
//! - coarse plans: 3-20 waypoints 1 s apart, up to 1 rad per joint each (a random walk);
//! - planned plans: 15-20 waypoints 1 s apart, each move drawn again until the robot keeps
//!   1 cm from everything along it (a random walk of 15-20 moves through clutter nearly
//!   always collides, unlike a planner's plan), each also grazing and colliding through
//!   its closest obstacle moved (`planned_cases`);
//!
//! each free (dense sampling at 0.001 rad finds no contact, clearance over 5 mm), grazing
//! (clearance 2-5 mm: the closest obstacle moved towards the robot) or colliding. Per
//! kind: medians per trajectory of the certified `--first-only` check and of the whole
//! report (one core, best of 3 runs per trajectory), the peer's at both steps (best of
//! 3), and the ratios the targets are stated in.
//!
//! `cargo bench --bench real_use` (needs `.venv`: `bash scripts/setup_python.sh`);
//! `REAL_USE_CASES=N` cases per robot, plan kind and verdict kind (default 8);
//! `REAL_USE_KIND=free|grazing|colliding`, `REAL_USE_ROBOT=panda|ur5` and
//! `REAL_USE_PLAN=MoveIt-like|coarse|planned` time only that kind, robot or plan (for a profiler);
//! `REAL_USE_THREADS=N` lets the checks use N cores (the peer is single-threaded);
//! `REAL_USE_ONLY=first|whole` times only the first-only check or the whole report;
//! `REAL_USE_REPEAT=N` runs each timed check N times over (for a profiler's samples);
//! `REAL_USE_BREAKDOWN=1` prints instead, per trajectory, the CPU milliseconds of each
//! part of the two checks (the first-only search for pairs apart, the clearance search
//! and its world and self searches each alone,
//! the pipeline, the certifier, the events' depths) and the clearance search's counts, and with
//! `REAL_USE_PICK=i` only for trajectory `i`, its clearance search repeated 15 times;
//! `REAL_USE_EVENTS=1` with it prints each event of the pipeline (link, other body, entry,
//! exit, point), to compare two builds' events.
mod panda_scene;

use ccd_guard::check::sampled::{SampledOptions, check_sampled};
use ccd_guard::check::{CheckInput, CheckOptions, Verdict, check_trajectory};
use ccd_guard::clearance::{ClearanceOptions, ClearanceSearch, PairDistance, checked_element_pairs, min_clearance};
use ccd_guard::collision::{Body, CollisionWorld, StateChecker};
use ccd_guard::motion::{JointMotion, Trajectory, TrajectoryPoint};
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{Robot, srdf, urdf};
use ccd_guard::scene::parse_scene;
use panda_scene::Rng;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// A robot of example-robot-data.
struct RobotFiles {
    name: &'static str,
    urdf: PathBuf,
    srdf: PathBuf,
}

/// One trajectory to time: its world (robot and scene), the motion, what it is.
struct Case {
    robot: &'static str,
    plan: &'static str,
    kind: &'static str,
    input: CheckInput,
    scene: serde_json::Value,
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

/// Milliseconds of the best of three runs.
/// The best of 3 runs (of `REAL_USE_REPEAT` times 3, for a profiler).
fn best_of_3(run: &dyn Fn()) -> f64 {
    let repeat: usize = std::env::var("REAL_USE_REPEAT").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    (0..3 * repeat.max(1))
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed().as_secs_f64() * 1e3
        })
        .fold(f64::INFINITY, f64::min)
}

fn world_of(robot: &Robot, disabled: &[srdf::DisabledPair], scene: &serde_json::Value, resolver: &ResourceResolver) -> CollisionWorld {
    let scene = parse_scene(&scene.to_string(), Path::new("bench_scene.yaml"), resolver).expect("scene");
    CollisionWorld::new(robot.clone(), scene, Some(disabled))
}

/// The motion through `points` (1 s or 0.1 s apart).
fn motion_of(robot: &Robot, points: &[Vec<f64>], spacing: f64) -> JointMotion {
    let names: Vec<String> = robot.variable_names().map(str::to_string).collect();
    let points = points
        .iter()
        .enumerate()
        .map(|(k, q)| TrajectoryPoint { positions: q.clone(), velocities: None, accelerations: None, time_from_start: spacing * k as f64 })
        .collect();
    JointMotion::new(robot, &Trajectory { joint_names: names, points }, None).expect("valid motion")
}

/// A plan from `q0`: MoveIt-like (one move in 0.05 rad segments) or coarse (3-20 moves).
fn plan(robot: &Robot, rng: &mut Rng, q0: &[f64], coarse: bool) -> JointMotion {
    let limits: Vec<(f64, f64)> = robot.variables.iter().map(|&j| (robot.joints[j].lower.max(-3.0), robot.joints[j].upper.min(3.0))).collect();
    let step = |q: &[f64], rng: &mut Rng| q.iter().zip(&limits).map(|(v, (lo, hi))| (v + rng.uniform(-1.0, 1.0)).clamp(*lo, *hi)).collect::<Vec<f64>>();
    if coarse {
        let n = 3 + (rng.uniform(0.0, 17.999) as usize);
        let mut points = vec![q0.to_vec()];
        for _ in 1..n {
            let next = step(points.last().unwrap(), rng);
            points.push(next);
        }
        motion_of(robot, &points, 1.0)
    } else {
        let q1 = step(q0, rng);
        let largest = q0.iter().zip(&q1).map(|(a, b)| (b - a).abs()).fold(0.0, f64::max);
        let n = ((largest / 0.05).ceil() as usize).max(1);
        let points: Vec<Vec<f64>> = (0..=n).map(|k| q0.iter().zip(&q1).map(|(a, b)| a + (b - a) * k as f64 / n as f64).collect()).collect();
        motion_of(robot, &points, 0.1)
    }
}

/// The cases of one robot: `per_kind` of each plan kind and verdict kind.
fn cases(files: &RobotFiles, resolver: &ResourceResolver, per_kind: usize, seed: u64) -> Vec<Case> {
    let robot = urdf::load_urdf(&files.urdf, resolver).expect("robot");
    let disabled = srdf::parse_for_robot(&std::fs::read_to_string(&files.srdf).unwrap(), &files.srdf, &robot).expect("srdf");
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut counts: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for attempt in 0..4000 {
        if counts.len() == 6 && counts.values().all(|&n| n >= per_kind) {
            break;
        }
        let coarse = attempt % 2 == 1;
        let plan_kind = if coarse { "coarse" } else { "MoveIt-like" };
        let count = 10 + (rng.uniform(0.0, 10.999) as usize);
        let mut scene_value = panda_scene::scene_objects(&mut rng, count);
        let world = world_of(&robot, &disabled, &scene_value, resolver);
        let q0: Vec<f64> = robot.variables.iter().map(|&j| rng.uniform(robot.joints[j].lower.max(-3.0), robot.joints[j].upper.min(3.0))).collect();
        if !StateChecker::new(&world).contacts(&q0, true).is_empty() {
            continue;
        }
        let motion = plan(&robot, &mut rng, &q0, coarse);
        let input = CheckInput { world: Arc::new(world), motion };
        let dense = check_sampled(&input, &SampledOptions { resolution: 0.001, first_only: true, tolerance: 0.001 });
        let kind = if dense.verdict == Verdict::Collision {
            "colliding"
        } else {
            let Some(c) = min_clearance(&input.world, &input.motion, &ClearanceOptions::default()) else { continue };
            if c.closest.distance > 0.005 && counts.get(&(plan_kind, "free")).copied().unwrap_or(0) < per_kind {
                "free"
            } else {
                // Grazing: the closest obstacle moved towards the robot, to about 3.5 mm.
                let Some(moved_scene) = moved_towards(&input.world, &scene_value, &c.closest, 0.0035) else { continue };
                scene_value = moved_scene;
                let moved = Arc::new(world_of(&robot, &disabled, &scene_value, resolver));
                let input = CheckInput { world: moved, motion: input.motion.clone() };
                let dense = check_sampled(&input, &SampledOptions { resolution: 0.001, first_only: true, tolerance: 0.001 });
                let grazes = dense.verdict != Verdict::Collision
                    && min_clearance(&input.world, &input.motion, &ClearanceOptions::default()).is_some_and(|c| (0.002..=0.005).contains(&c.closest.distance));
                let entry = counts.entry((plan_kind, "grazing")).or_insert(0);
                if grazes && *entry < per_kind {
                    *entry += 1;
                    out.push(Case { robot: files.name, plan: plan_kind, kind: "grazing", input, scene: scene_value });
                }
                continue;
            }
        };
        let entry = counts.entry((plan_kind, kind)).or_insert(0);
        if *entry < per_kind {
            *entry += 1;
            out.push(Case { robot: files.name, plan: plan_kind, kind, input, scene: scene_value });
        }
    }
    out
}

/// `scene` with the obstacle of `closest` (a link element, then an obstacle's) moved
/// along the line of its closest points so that they come to `distance` apart (negative:
/// that far into each other). `None` if the pair's second element is a link.
fn moved_towards(world: &CollisionWorld, scene: &serde_json::Value, closest: &PairDistance, distance: f64) -> Option<serde_json::Value> {
    let Body::Obstacle(o) = world.elements[closest.elements.1].body else { return None };
    let shift = (closest.point_a - closest.point_b).normalize() * (closest.distance - distance);
    let id = world.scene.objects[o].id.as_str();
    let mut scene = scene.clone();
    for object in scene["objects"].as_array_mut()?.iter_mut().filter(|object| object["id"] == id) {
        for (k, v) in object["pose"]["position"].as_array_mut()?.iter_mut().enumerate() {
            *v = serde_json::json!(v.as_f64()? + shift[k]);
        }
    }
    Some(scene)
}

/// The closest an obstacle comes to the robot over `motion` (`None` without obstacles).
fn closest_obstacle(world: &CollisionWorld, motion: &JointMotion) -> Option<PairDistance> {
    let pairs = checked_element_pairs(world).into_iter().filter(|&(_, b)| matches!(world.elements[b].body, Body::Obstacle(_))).collect();
    Some(ClearanceSearch::with_pairs(world, pairs).min_clearance(motion, &ClearanceOptions::default())?.closest)
}

/// Planned plans, as a planner hands them over: 15-20 waypoints 1 s apart, each move up
/// to 1 rad per joint, drawn again (up to 40 times) until the robot keeps 1 cm from
/// everything along it (a planner's padding). Each such plan three times: free as
/// planned (dense sampling finds no contact, clearance over 5 mm); grazing, its closest
/// obstacle moved to 3.5 mm of the robot; colliding, that obstacle moved 1 cm into the
/// path (the scene changed after planning: what a guard in front of the controller is
/// for).
fn planned_cases(files: &RobotFiles, resolver: &ResourceResolver, per_kind: usize, seed: u64) -> Vec<Case> {
    let robot = urdf::load_urdf(&files.urdf, resolver).expect("robot");
    let disabled = srdf::parse_for_robot(&std::fs::read_to_string(&files.srdf).unwrap(), &files.srdf, &robot).expect("srdf");
    let limits: Vec<(f64, f64)> = robot.variables.iter().map(|&j| (robot.joints[j].lower.max(-3.0), robot.joints[j].upper.min(3.0))).collect();
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let dense = |input: &CheckInput| check_sampled(input, &SampledOptions { resolution: 0.001, first_only: true, tolerance: 0.001 }).verdict;
    for _ in 0..200 {
        if ["free", "grazing", "colliding"].iter().all(|k| counts.get(k).copied().unwrap_or(0) >= per_kind) {
            break;
        }
        let count = 10 + (rng.uniform(0.0, 10.999) as usize);
        let scene_value = panda_scene::scene_objects(&mut rng, count);
        let world = world_of(&robot, &disabled, &scene_value, resolver);
        let q0: Vec<f64> = limits.iter().map(|(lo, hi)| rng.uniform(*lo, *hi)).collect();
        let keeps_margin = |points: &[Vec<f64>]| {
            min_clearance(&world, &motion_of(&robot, points, 1.0), &ClearanceOptions::default()).is_none_or(|c| c.closest.distance > 0.01)
        };
        if !keeps_margin(std::slice::from_ref(&q0)) {
            continue;
        }
        let n = 15 + (rng.uniform(0.0, 5.999) as usize);
        let mut points = vec![q0];
        while points.len() < n {
            let last = points.last().unwrap().clone();
            let next = (0..40)
                .map(|_| last.iter().zip(&limits).map(|(v, (lo, hi))| (v + rng.uniform(-1.0, 1.0)).clamp(*lo, *hi)).collect::<Vec<f64>>())
                .find(|next| keeps_margin(&[last.clone(), next.clone()]));
            let Some(next) = next else { break };
            points.push(next);
        }
        if points.len() < n {
            continue;
        }
        let motion = motion_of(&robot, &points, 1.0);
        let input = CheckInput { world: Arc::new(world), motion };
        let Some(closest) = closest_obstacle(&input.world, &input.motion) else { continue };
        let free = dense(&input) != Verdict::Collision
            && min_clearance(&input.world, &input.motion, &ClearanceOptions::default()).is_some_and(|c| c.closest.distance > 0.005);
        if !free {
            continue;
        }
        let variants = [
            ("free", Some(scene_value.clone())),
            ("grazing", moved_towards(&input.world, &scene_value, &closest, 0.0035)),
            ("colliding", moved_towards(&input.world, &scene_value, &closest, -0.01)),
        ];
        for (kind, scene) in variants {
            let Some(scene) = scene else { continue };
            let entry = counts.entry(kind).or_insert(0);
            if *entry >= per_kind {
                continue;
            }
            let world = Arc::new(world_of(&robot, &disabled, &scene, resolver));
            let input = CheckInput { world, motion: input.motion.clone() };
            let fits = match kind {
                "free" => true,
                "grazing" => {
                    dense(&input) != Verdict::Collision
                        && min_clearance(&input.world, &input.motion, &ClearanceOptions::default())
                            .is_some_and(|c| (0.002..=0.005).contains(&c.closest.distance))
                }
                _ => dense(&input) == Verdict::Collision,
            };
            if fits {
                *entry += 1;
                out.push(Case { robot: files.name, plan: "planned", kind, input, scene });
            }
        }
    }
    out
}

/// The peer's seconds per case and step (`None` when the peer cannot run).
fn peer(robots: &[RobotFiles], prefix: &Path, cases: &[Case]) -> Option<Vec<BTreeMap<String, f64>>> {
    let robots: serde_json::Map<String, serde_json::Value> =
        robots.iter().map(|r| (r.name.to_string(), serde_json::json!({"urdf": r.urdf, "srdf": r.srdf, "prefix": prefix}))).collect();
    let cases: Vec<serde_json::Value> = cases
        .iter()
        .map(|c| {
            serde_json::json!({
                "robot": c.robot, "objects": c.scene["objects"],
                "joint_names": c.input.world.robot.variable_names().collect::<Vec<_>>(),
                "waypoints": c.input.motion.waypoints,
            })
        })
        .collect();
    let request = serde_json::json!({"robots": robots, "cases": cases, "resolutions": [0.05, 0.01], "repeats": 3});
    let answer = panda_scene::run_python_peer("coal_sampling.py", &request)?;
    Some(
        answer
            .as_array()?
            .iter()
            .map(|a| ["0.05", "0.01"].iter().map(|s| (s.to_string(), a[*s]["seconds"].as_f64().unwrap_or(f64::NAN) * 1e3)).collect())
            .collect(),
    )
}

fn main() {
    let threads: usize = std::env::var("REAL_USE_THREADS").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let _ = rayon::ThreadPoolBuilder::new().num_threads(threads).build_global();
    let per_kind: usize = std::env::var("REAL_USE_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(8);
    let prefix = panda_scene::cmeel_prefix();
    let robots_dir = prefix.join("share/example-robot-data/robots");
    let robots = [
        RobotFiles { name: "panda", urdf: robots_dir.join("panda_description/urdf/panda.urdf"), srdf: robots_dir.join("panda_description/srdf/panda.srdf") },
        RobotFiles { name: "ur5", urdf: robots_dir.join("ur_description/urdf/ur5_robot.urdf"), srdf: robots_dir.join("ur_description/srdf/ur5_gripper.srdf") },
    ];
    let resolver = ResourceResolver { ament_prefix_path: vec![prefix.clone()], ..ResourceResolver::default() };
    let mut all = Vec::new();
    for (k, r) in robots.iter().enumerate() {
        all.extend(cases(r, &resolver, per_kind, 16 + k as u64));
        all.extend(planned_cases(r, &resolver, per_kind, 32 + k as u64));
    }
    if let Ok(kind) = std::env::var("REAL_USE_KIND") {
        all.retain(|c| c.kind == kind);
    }
    if let Ok(robot) = std::env::var("REAL_USE_ROBOT") {
        all.retain(|c| c.robot == robot);
    }
    if let Ok(plan) = std::env::var("REAL_USE_PLAN") {
        all.retain(|c| c.plan == plan);
    }
    let whole = CheckOptions::default();
    let first_only = CheckOptions { first_only: true, ..whole };
    // `REAL_USE_ONLY=first|whole` times one of the two (for a profiler).
    let only = std::env::var("REAL_USE_ONLY").unwrap_or_default();
    let time = |options: &CheckOptions, name: &str, c: &Case| match only.is_empty() || only == name {
        true => best_of_3(&|| drop(check_trajectory(&c.input, options))),
        false => f64::NAN,
    };
    if std::env::var("REAL_USE_BREAKDOWN").is_ok() {
        breakdown(&all);
        return;
    }
    let ours: Vec<(f64, f64)> = all.iter().map(|c| (time(&first_only, "first", c), time(&whole, "whole", c))).collect();
    let theirs = peer(&robots, &prefix, &all);
    // `REAL_USE_EACH=1`: every trajectory's times, and its whole report over its first contact.
    if std::env::var("REAL_USE_EACH").is_ok() {
        for (i, (c, o)) in all.iter().zip(&ours).enumerate() {
            let coal = theirs.as_ref().map_or(f64::NAN, |t| t[i]["0.05"]);
            println!(
                "each {i} {} {} {} points {} first {:.3} whole {:.3} coal.05 {coal:.3} whole/first {:.3}",
                c.robot,
                c.plan,
                c.kind,
                c.input.motion.waypoints.len(),
                o.0,
                o.1,
                o.1 / o.0
            );
        }
    }
    println!("{} trajectories; medians per trajectory (ms), {threads} core(s); ratios to coal sampling at 0.05 rad", all.len());
    println!(
        "{:<6} {:<12} {:<10} {:>3} {:>9} {:>9} {:>9} {:>9} {:>10} {:>10} {:>11} {:>7}",
        "robot", "plan", "kind", "n", "first", "whole", "coal.05", "coal.01", "first/.05", "whole/.05", "whole/first", "points"
    );
    let mut groups: BTreeMap<(&str, &str, &str), Vec<usize>> = BTreeMap::new();
    for (i, c) in all.iter().enumerate() {
        groups.entry((c.robot, c.plan, c.kind)).or_default().push(i);
    }
    let mut rows: Vec<(String, Vec<usize>)> = groups.into_iter().map(|((r, p, k), v)| (format!("{r:<6} {p:<12} {k:<10}"), v)).collect();
    let of = |keep: &dyn Fn(&Case) -> bool| -> Vec<usize> { all.iter().enumerate().filter(|(_, c)| keep(c)).map(|(i, _)| i).collect() };
    for kind in ["free", "grazing", "colliding", "all"] {
        rows.push((format!("{:<6} {:<12} {:<10}", "all", "planned", kind), of(&|c| c.plan == "planned" && (kind == "all" || c.kind == kind))));
    }
    let long_walk = |c: &Case| c.plan == "coarse" && c.input.motion.waypoints.len() >= 15;
    rows.push((format!("{:<6} {:<12} {:<10}", "all", "coarse 15-20", "all"), of(&long_walk)));
    rows.push((format!("{:<6} {:<12} {:<10}", "all", "15-20 points", "all"), of(&|c| c.plan == "planned" || long_walk(c))));
    rows.push((format!("{:<6} {:<12} {:<10}", "all", "MI+coarse", "all"), of(&|c| c.plan != "planned")));
    rows.push((format!("{:<6} {:<12} {:<10}", "all", "all", "all"), (0..all.len()).collect()));
    for (label, idx) in rows {
        let first = median(idx.iter().map(|&i| ours[i].0).collect());
        let whole_ms = median(idx.iter().map(|&i| ours[i].1).collect());
        let ratio = median(idx.iter().map(|&i| ours[i].1 / ours[i].0).collect());
        let points = median(idx.iter().map(|&i| all[i].input.motion.waypoints.len() as f64).collect());
        let (c05, c01) = match &theirs {
            Some(t) => (median(idx.iter().map(|&i| t[i]["0.05"]).collect()), median(idx.iter().map(|&i| t[i]["0.01"]).collect())),
            None => (f64::NAN, f64::NAN),
        };
        // Medians of the per-trajectory ratios to the peer at 0.05 rad.
        let to_peer = |pick: fn(&(f64, f64)) -> f64| match &theirs {
            Some(t) => median(idx.iter().map(|&i| pick(&ours[i]) / t[i]["0.05"]).collect()),
            None => f64::NAN,
        };
        let (first_ratio, whole_ratio) = (to_peer(|o| o.0), to_peer(|o| o.1));
        println!(
            "{label} {:>3} {first:>9.2} {whole_ms:>9.2} {c05:>9.2} {c01:>9.2} {first_ratio:>10.2} {whole_ratio:>10.2} {ratio:>11.2} {points:>7.0}",
            idx.len()
        );
    }
}

/// `REAL_USE_BREAKDOWN=1`: per trajectory, where the two checks' time goes (CPU time,
/// which another process on the machine does not inflate as much as wall time).
fn breakdown(all: &[Case]) {
    use ccd_guard::ccd::{PipelineOptions, run_pipeline_except};
    use ccd_guard::certifier::certify::CertifyOptions;
    use ccd_guard::check::certified_method::{certify_motion, near_pairs_apart, pairs_apart};
    use ccd_guard::clearance::{checked_element_pairs, split_clearance};
    // CPU milliseconds of every thread of this process so far.
    let cpu = || -> f64 {
        let mut time = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: clock_gettime writes the timespec it is handed and nothing else.
        unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut time) };
        time.tv_sec as f64 * 1e3 + time.tv_nsec as f64 * 1e-6
    };
    struct Clock(f64);
    let now = || Clock(cpu());
    let ms = |t: Clock| cpu() - t.0;
    let pick: Option<usize> = std::env::var("REAL_USE_PICK").ok().and_then(|v| v.parse().ok());
    // As a whole report searches the clearance.
    let whole_report = ClearanceOptions { stop_at_contact: true, ..ClearanceOptions::default() };
    for (i, c) in all.iter().enumerate() {
        if pick.is_some_and(|p| p != i) {
            continue;
        }
        if pick.is_some() {
            let mut runs: Vec<f64> = (0..15)
                .map(|_| {
                    let t = now();
                    let _ = split_clearance(&c.input.world, &c.input.motion, &whole_report);
                    ms(t)
                })
                .collect();
            runs.sort_by(f64::total_cmp);
            println!("split cpu ms over 15 runs: min {:.3} median {:.3}", runs[0], runs[7]);
        }
        let (w, m) = (&c.input.world, &c.input.motion);
        let t = now();
        let near = near_pairs_apart(w, m, 0.001);
        let t_near = ms(t);
        let t = now();
        let split = split_clearance(w, m, &whole_report);
        let t_split = ms(t);
        // Each of the two searches alone (on two cores they run side by side: the
        // larger sets the wall time).
        let (to_world, to_self): (Vec<_>, Vec<_>) =
            checked_element_pairs(w).into_iter().partition(|&(_, b)| matches!(w.elements[b].body, ccd_guard::collision::Body::Obstacle(_)));
        let alone = |pairs: Vec<(usize, usize)>| {
            let search = ClearanceSearch::with_pairs(w, pairs);
            let t = now();
            let _ = search.min_clearance(m, &whole_report);
            ms(t)
        };
        let (t_world, t_self) = (alone(to_world), alone(to_self));
        let t = now();
        let ws = split.world.as_ref().map(|x| (x.cells, x.evaluations, x.exact_distances, x.closest.distance));
        let ss = split.self_collision.as_ref().map(|x| (x.cells, x.evaluations, x.exact_distances, x.closest.distance));
        let apart = split.combined().map_or(Vec::new(), |x| pairs_apart(&x, 0.001));
        let r = run_pipeline_except(w, m, &PipelineOptions::default(), &apart);
        let t_pipe = ms(t);
        let t = now();
        if r.contacts.is_empty() {
            let _ = certify_motion(w, m, &CertifyOptions { tolerance: 0.001, ..CertifyOptions::default() }, &apart);
        }
        let t_cert = ms(t);
        // Each event's largest depth, as the whole report measures it (one core here).
        let t = now();
        for event in &r.contacts {
            let until = event.time_of_separation.unwrap_or_else(|| m.end_time());
            let depth = ccd_guard::clearance::max_depth_over(w, m, ccd_guard::collision::Body::Link(event.link), event.other, event.time_of_contact, until);
            if std::env::var("REAL_USE_EVENTS").is_ok() {
                println!("depth {i} {} {:?} {:?}", event.link, event.other, depth);
            }
        }
        let t_depth = ms(t);
        if std::env::var("REAL_USE_EVENTS").is_ok() {
            for e in &r.contacts {
                println!("event {i} {} {:?} {:.17e} {:?} {:?}", e.link, e.other, e.time_of_contact, e.time_of_separation, e.point);
            }
            print!("{}", r.stats.to_text());
        }
        println!(
            "{i} {} {} {} points {} | first-only pairs apart {t_near:.2} ({} pairs) | clearance {t_split:.2} (alone: world {t_world:.2} self {t_self:.2}; world, self: cells, measured, exact, minimum {ws:?} {ss:?}) | pipeline {t_pipe:.2} ({} contacts) | certifier {t_cert:.2} | depths {t_depth:.2} | pairs apart {} of {}",
            c.robot,
            c.plan,
            c.kind,
            m.waypoints.len(),
            near.len(),
            r.contacts.len(),
            apart.len(),
            checked_element_pairs(w).len()
        );
    }
}
