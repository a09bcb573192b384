//! Property tests of the articulated CCD pipeline (`ccd::run_pipeline`, Redon et al. 2004) and
//! `--method pipeline`, with the discrete checker (`StateChecker`, cross-checked against
//! coal) as the reference.
//!
//! `random_worlds_against_dense_sampling` (300 cases in release, 10 in debug): random
//! robots (a chain of 2-6 joints, sometimes with a branch: revolute about random axes,
//! continuous, prismatic, a fixed and a mimic joint; 1-3 collision elements per link
//! among box, sphere, cylinder, capsule and closed convex meshes (cube and octahedron
//! from OBJ, icosahedron from ASCII STL, scaled per axis)), random scenes (3-10 boxes,
//! spheres, cylinders, cones and meshes, a third of them near where the links pass,
//! sometimes a board 2-5 mm thick) and random linear, cubic or quintic motions of 2-4
//! points. The reference samples every segment densely (one sample per 1e-3 rad of joint
//! travel, 2000 to 5000 per segment in release) and bisects (60 steps) between the last
//! free and the first colliding sample. Properties:
//! - every colliding sample of a pair lies in one of the pipeline's events of that pair,
//!   and each pair's first event starts no later than its first colliding sample + 1e-9
//!   (so: no "free" where a sample collides, no first contact after the first colliding
//!   sample);
//! - every event is real (the discrete checker finds the pair touching on
//!   [toc, toc + 1e-6]), lies in its segment, ends where the pair is free, does not
//!   overlap the pair's other events, and has a unit normal that parts the touching
//!   elements; contacts at the start are reported at the start time exactly;
//! - transversal first contacts (see `is_transversal`) agree with the bisected reference
//!   to 1e-6 s;
//! - `first_only` gives exactly one contact when there is any: the earliest.
//!
//! The discrete tests' GJK says "touching" up to a few 1e-7 m apart, and not
//! monotonically; an event or a sample within `NEAR` (1e-6 m, GJK distance) of touching
//! that the other side does not confirm is counted and printed, not failed.
//!
//! Hand-made cases with closed-form answers: a ball, meshes, a capsule and a cylinder
//! crossing a 2 mm board between two free waypoints; a turning box whose edge passes an
//! obstacle 0.1 mm or 1 um away (free) or 1 mm deep (two events); contact at the start,
//! separation and re-entry; mesh-mesh self-collision with and without SRDF-like disabled
//! pairs; `first_only`; the `--method pipeline` report. Then two bugs the random test
//! found, reduced and pinned.
//!
//! Reproduce a random case: `PIPELINE_PROPS_SEED=<case seed> cargo test --release --test
//! pipeline_properties random -- --nocapture` (a failure prints the case seed and writes
//! the case's URDF, scene, trajectory and meshes under the target tmp dir, ready for
//! `ccd_guard check --method pipeline`). `PIPELINE_PROPS_CASES=N` changes the number of
//! cases, `PIPELINE_PROPS_BASE=<u64>` draws another set of cases.
use ccd_guard::ccd::{PipelineOptions, PipelineResult, run_pipeline, run_pipeline_except};
use ccd_guard::certifier::certify::CertifyOptions;
use ccd_guard::check::CheckInput;
use ccd_guard::check::Verdict;
use ccd_guard::check::certified_method::{certify_motion, check_certified, near_pairs_apart, pairs_apart};
use ccd_guard::clearance::{ClearanceOptions, min_clearance};
use ccd_guard::collision::{Body, CollisionWorld, StateChecker};
use ccd_guard::math::{Translation3, Vector3};
use ccd_guard::motion::{JointMotion, parse_trajectory};
use ccd_guard::query::intersection::intersection_point;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::srdf::DisabledPair;
use ccd_guard::robot::urdf::parse_urdf;
use ccd_guard::scene::parse_scene;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::common::rng::{Rng, splitmix};

type Pair = (usize, Body);

// ---------------------------------------------------------------------------------------
// Mesh files: closed meshes written once into a directory.

/// The unit cube `[-0.5, 0.5]^3`, outward triangles.
fn cube_mesh() -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let v = (0..8).map(|k| [if k & 1 == 0 { -0.5 } else { 0.5 }, if k & 2 == 0 { -0.5 } else { 0.5 }, if k & 4 == 0 { -0.5 } else { 0.5 }]).collect();
    let t = vec![[0, 2, 1], [1, 2, 3], [4, 5, 6], [5, 7, 6], [0, 1, 4], [1, 5, 4], [2, 6, 3], [3, 6, 7], [0, 4, 2], [2, 4, 6], [1, 3, 5], [3, 7, 5]];
    (v, t)
}

/// The octahedron with vertices at +-0.5 on the axes.
fn octahedron_mesh() -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let v = vec![[0.5, 0.0, 0.0], [-0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, -0.5, 0.0], [0.0, 0.0, 0.5], [0.0, 0.0, -0.5]];
    let t = vec![[0, 2, 4], [2, 1, 4], [1, 3, 4], [3, 0, 4], [2, 0, 5], [1, 2, 5], [3, 1, 5], [0, 3, 5]];
    (v, t)
}

/// The icosahedron of circumradius 0.5 (a low-poly sphere), vertices as 6-decimal text.
fn icosahedron_mesh() -> (Vec<[f64; 3]>, Vec<[usize; 3]>) {
    let p = (1.0 + 5f64.sqrt()) / 2.0;
    let s = 0.5 / (1.0 + p * p).sqrt();
    let raw = [
        [-1.0, p, 0.0],
        [1.0, p, 0.0],
        [-1.0, -p, 0.0],
        [1.0, -p, 0.0],
        [0.0, -1.0, p],
        [0.0, 1.0, p],
        [0.0, -1.0, -p],
        [0.0, 1.0, -p],
        [p, 0.0, -1.0],
        [p, 0.0, 1.0],
        [-p, 0.0, -1.0],
        [-p, 0.0, 1.0],
    ];
    let v = raw.iter().map(|r| r.map(|x| x * s)).collect();
    let t = vec![
        [0, 11, 5],
        [0, 5, 1],
        [0, 1, 7],
        [0, 7, 10],
        [0, 10, 11],
        [1, 5, 9],
        [5, 11, 4],
        [11, 10, 2],
        [10, 7, 6],
        [7, 1, 8],
        [3, 9, 4],
        [3, 4, 2],
        [3, 2, 6],
        [3, 6, 8],
        [3, 8, 9],
        [4, 9, 5],
        [2, 4, 11],
        [6, 2, 10],
        [8, 6, 7],
        [9, 8, 1],
    ];
    (v, t)
}

/// What a vertex written as text with 6 decimals reads back as (the mesh loader's f32).
fn as_loaded(x: f64) -> f64 {
    format!("{x:.6}").parse::<f32>().unwrap() as f64
}

fn write_obj(path: &Path, (v, t): &(Vec<[f64; 3]>, Vec<[usize; 3]>)) {
    let mut s = String::new();
    for p in v {
        writeln!(s, "v {:.6} {:.6} {:.6}", p[0], p[1], p[2]).unwrap();
    }
    for f in t {
        writeln!(s, "f {} {} {}", f[0] + 1, f[1] + 1, f[2] + 1).unwrap();
    }
    std::fs::write(path, s).unwrap();
}

/// ASCII STL: a triangle soup, welded again by position when loaded.
fn write_stl(path: &Path, (v, t): &(Vec<[f64; 3]>, Vec<[usize; 3]>)) {
    let mut s = String::from("solid ico\n");
    for f in t {
        let [a, b, c] = f.map(|i| v[i]);
        let (e1, e2) = ([b[0] - a[0], b[1] - a[1], b[2] - a[2]], [c[0] - a[0], c[1] - a[1], c[2] - a[2]]);
        let n = [e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]];
        let l = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
        writeln!(s, "facet normal {:.6} {:.6} {:.6}\n outer loop", n[0] / l, n[1] / l, n[2] / l).unwrap();
        for p in [a, b, c] {
            writeln!(s, "  vertex {:.6} {:.6} {:.6}", p[0], p[1], p[2]).unwrap();
        }
        s.push_str(" endloop\nendfacet\n");
    }
    s.push_str("endsolid ico\n");
    std::fs::write(path, s).unwrap();
}

const MESHES: [&str; 3] = ["cube.obj", "octahedron.obj", "icosahedron.stl"];

fn write_meshes(dir: &Path) {
    write_obj(&dir.join("cube.obj"), &cube_mesh());
    write_obj(&dir.join("octahedron.obj"), &octahedron_mesh());
    write_stl(&dir.join("icosahedron.stl"), &icosahedron_mesh());
}

// ---------------------------------------------------------------------------------------
// Building worlds from text, the way the command line does.

struct CaseFiles {
    urdf: String,
    scene: String,
    trajectory: String,
}

fn build_input(dir: &Path, urdf: &str, scene: &str, trajectory: &str, disabled: Option<&[DisabledPair]>) -> CheckInput {
    let resolver = ResourceResolver::default();
    let robot = parse_urdf(urdf, &dir.join("robot.urdf"), &resolver).unwrap_or_else(|e| panic!("{e}\n{urdf}"));
    let scene = parse_scene(scene, &dir.join("scene.yaml"), &resolver).unwrap_or_else(|e| panic!("{e}\n{scene}"));
    let traj = parse_trajectory(trajectory, &dir.join("trajectory.yaml")).unwrap_or_else(|e| panic!("{e}\n{trajectory}"));
    let world = CollisionWorld::new(robot, scene, disabled);
    CheckInput::from_parts(world, &traj, None).unwrap_or_else(|e| panic!("{e}"))
}

fn fmt3(v: [f64; 3]) -> String {
    format!("{} {} {}", v[0], v[1], v[2])
}

fn list(v: &[f64]) -> String {
    let items: Vec<String> = v.iter().map(|x| format!("{x}")).collect();
    format!("[{}]", items.join(", "))
}

// ---------------------------------------------------------------------------------------
// Random robots, motions and scenes.

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
    Mimic,
}

/// An independent joint variable the trajectory may drive.
struct Variable {
    name: String,
    lower: f64,
    upper: f64,
    prismatic: bool,
}

fn random_geometry(rng: &mut Rng, size: f64) -> String {
    match rng.int(0, 6) {
        0 => format!("<box size=\"{}\"/>", fmt3([size * rng.range(0.8, 2.5), size * rng.range(0.8, 2.5), size * rng.range(0.8, 2.5)])),
        1 => format!("<sphere radius=\"{}\"/>", size * rng.range(0.5, 1.0)),
        2 => format!("<cylinder radius=\"{}\" length=\"{}\"/>", size * rng.range(0.4, 0.8), size * rng.range(1.0, 4.0)),
        3 => format!("<capsule radius=\"{}\" length=\"{}\"/>", size * rng.range(0.4, 0.8), size * rng.range(1.0, 4.0)),
        k => {
            let mesh = MESHES[k - 4];
            let s = 2.0 * size;
            format!("<mesh filename=\"{mesh}\" scale=\"{}\"/>", fmt3([s * rng.range(0.7, 1.5), s * rng.range(0.7, 1.5), s * rng.range(0.7, 1.5)]))
        }
    }
}

fn collision(rng: &mut Rng, at: [f64; 3], size: f64) -> String {
    format!("<collision><origin xyz=\"{}\" rpy=\"{}\"/><geometry>{}</geometry></collision>", fmt3(at), fmt3(rng.rpy()), random_geometry(rng, size))
}

/// A URDF with 2-6 joints in a chain (sometimes one branch), and its variables.
fn random_robot(rng: &mut Rng) -> (String, Vec<Variable>) {
    let n = rng.int(2, 6);
    let mut kinds: Vec<Kind> = (0..n)
        .map(|_| match rng.int(0, 5) {
            0..=2 => Kind::Revolute,
            3 => Kind::Continuous,
            _ => Kind::Prismatic,
        })
        .collect();
    kinds[0] = if rng.chance(0.8) { Kind::Revolute } else { Kind::Continuous };
    if n >= 3 && rng.chance(0.7) {
        let k = rng.int(1, n - 1);
        kinds[k] = Kind::Fixed;
    }
    // A mimic joint follows an earlier revolute or continuous joint.
    let mut leader_of = vec![None; n];
    if n >= 3 && rng.chance(0.7) {
        let k = rng.int(1, n - 1);
        let leaders: Vec<usize> = (0..k).filter(|&i| matches!(kinds[i], Kind::Revolute | Kind::Continuous)).collect();
        if !leaders.is_empty() && kinds[k] != Kind::Fixed {
            kinds[k] = Kind::Mimic;
            leader_of[k] = Some(leaders[rng.int(0, leaders.len() - 1)]);
        }
    }
    let branch = n >= 3 && rng.chance(0.4);

    let mut urdf = String::from("<robot name=\"random\">\n");
    // The base: a short column on the floor.
    writeln!(
        urdf,
        "  <link name=\"l0\"><collision><origin xyz=\"0 0 0.03\"/><geometry><cylinder radius=\"0.06\" length=\"0.06\"/></geometry></collision></link>"
    )
    .unwrap();
    let mut tips = vec![[0.0, 0.0, 0.1]];
    let mut variables = Vec::new();
    for i in 0..n {
        let link = i + 1;
        let len = rng.range(0.12, 0.3);
        let d = rng.unit();
        // Mostly upwards or outwards, as arms are.
        let tip = [d[0] * len, d[1] * len, d[2].abs() * len * 0.7 + 0.3 * len];
        let mut body = String::new();
        for _ in 0..rng.int(1, 3) {
            let u = rng.range(0.15, 1.0);
            let at = [tip[0] * u + rng.range(-0.02, 0.02), tip[1] * u + rng.range(-0.02, 0.02), tip[2] * u + rng.range(-0.02, 0.02)];
            let size = rng.range(0.025, 0.06);
            body.push_str(&collision(rng, at, size));
        }
        writeln!(urdf, "  <link name=\"l{link}\">{body}</link>").unwrap();
        let parent = if branch && i == n - 1 { rng.int(0, n - 2) } else { i };
        let ptip = tips[parent];
        let origin = format!("<origin xyz=\"{}\" rpy=\"{}\"/>", fmt3(ptip), fmt3([rng.range(-0.4, 0.4), rng.range(-0.4, 0.4), rng.range(-3.1, 3.1)]));
        let axis = if i == 0 && rng.chance(0.7) { [0.0, 0.0, 1.0] } else { rng.unit() };
        let head = |ty: &str| format!("  <joint name=\"j{link}\" type=\"{ty}\"><parent link=\"l{parent}\"/><child link=\"l{link}\"/>{origin}");
        let joint = match kinds[i] {
            Kind::Revolute => {
                let (lo, hi) = (-rng.range(1.5, 3.0), rng.range(1.5, 3.0));
                variables.push(Variable { name: format!("j{link}"), lower: lo, upper: hi, prismatic: false });
                format!("{}<axis xyz=\"{}\"/><limit lower=\"{lo}\" upper=\"{hi}\" effort=\"1\" velocity=\"1\"/></joint>", head("revolute"), fmt3(axis))
            }
            Kind::Continuous => {
                variables.push(Variable { name: format!("j{link}"), lower: -4.0, upper: 4.0, prismatic: false });
                format!("{}<axis xyz=\"{}\"/></joint>", head("continuous"), fmt3(axis))
            }
            Kind::Prismatic => {
                let (lo, hi) = (-rng.range(0.05, 0.2), rng.range(0.05, 0.25));
                variables.push(Variable { name: format!("j{link}"), lower: lo, upper: hi, prismatic: true });
                format!("{}<axis xyz=\"{}\"/><limit lower=\"{lo}\" upper=\"{hi}\" effort=\"1\" velocity=\"1\"/></joint>", head("prismatic"), fmt3(axis))
            }
            Kind::Fixed => format!("{}</joint>", head("fixed")),
            Kind::Mimic => {
                let leader = leader_of[i].unwrap() + 1;
                format!(
                    "{}<axis xyz=\"{}\"/><limit lower=\"-10\" upper=\"10\" effort=\"1\" velocity=\"1\"/><mimic joint=\"j{leader}\" multiplier=\"{}\" offset=\"{}\"/></joint>",
                    head("revolute"),
                    fmt3(axis),
                    rng.range(-1.5, 1.5),
                    rng.range(-0.3, 0.3)
                )
            }
        };
        urdf.push_str(&joint);
        urdf.push('\n');
        tips.push(tip);
    }
    urdf.push_str("</robot>\n");
    (urdf, variables)
}

/// 2-4 points; linear, cubic or quintic (sometimes mixed: a point without velocities
/// makes its segments linear).
fn random_trajectory(rng: &mut Rng, variables: &[Variable]) -> String {
    let mut driven: Vec<&Variable> = variables.iter().collect();
    if driven.len() >= 2 && rng.chance(0.15) {
        driven.remove(rng.int(0, driven.len() - 1));
    }
    let names: Vec<&str> = driven.iter().map(|v| v.name.as_str()).collect();
    let points = rng.int(2, 4);
    let degree = [1, 3, 5][rng.int(0, 2)];
    let mixed = rng.chance(0.15);
    let mut s = format!("joint_names: [{}]\npoints:\n", names.join(", "));
    let mut q: Vec<f64> = driven.iter().map(|v| rng.range(v.lower, v.upper)).collect();
    let mut t = if rng.chance(0.2) { rng.range(0.0, 1.0) } else { 0.0 };
    for k in 0..points {
        if k > 0 {
            for (x, v) in q.iter_mut().zip(&driven) {
                let step = if v.prismatic { 0.25 } else { 1.3 };
                *x = (*x + rng.range(-step, step)).clamp(v.lower, v.upper);
            }
            t += rng.range(0.4, 2.0);
        }
        let edge = k == 0 || k + 1 == points;
        let zero_ends = rng.chance(0.5);
        let mut point = format!("  - {{positions: {}", list(&q));
        if degree >= 3 && !(mixed && k == 1) {
            let v: Vec<f64> = driven
                .iter()
                .map(|v| {
                    if edge && zero_ends {
                        0.0
                    } else if v.prismatic {
                        rng.range(-0.2, 0.2)
                    } else {
                        rng.range(-1.2, 1.2)
                    }
                })
                .collect();
            write!(point, ", velocities: {}", list(&v)).unwrap();
            if degree == 5 {
                let a: Vec<f64> = driven
                    .iter()
                    .map(|v| {
                        if edge && zero_ends {
                            0.0
                        } else if v.prismatic {
                            rng.range(-0.5, 0.5)
                        } else {
                            rng.range(-2.5, 2.5)
                        }
                    })
                    .collect();
                write!(point, ", accelerations: {}", list(&a)).unwrap();
            }
        }
        writeln!(point, ", time_from_start: {t}}}").unwrap();
        s.push_str(&point);
    }
    s
}

/// World points along the motion where link geometry passes (element origins).
fn path_points(input: &CheckInput, rng: &mut Rng, count: usize) -> Vec<[f64; 3]> {
    let robot = &input.world.robot;
    let moving: Vec<(usize, usize)> =
        robot.links.iter().enumerate().flat_map(|(l, link)| (0..link.collision.len()).map(move |k| (l, k))).filter(|&(l, _)| l != robot.root_link).collect();
    (0..count)
        .map(|_| {
            let t = rng.range(input.motion.start_time(), input.motion.end_time());
            let poses = robot.link_poses(&input.motion.positions_at(t));
            let (l, k) = moving[rng.int(0, moving.len() - 1)];
            let p = (poses[l] * robot.links[l].collision[k].origin).translation.vector;
            [p.x, p.y, p.z]
        })
        .collect()
}

/// 3-10 objects, about half of them near where the links pass; sometimes a thin board.
fn random_scene(rng: &mut Rng, near: &[[f64; 3]]) -> String {
    let n = rng.int(3, 10);
    let board = rng.chance(0.35).then(|| rng.int(0, n - 1));
    let mut s = String::from("objects:\n");
    for i in 0..n {
        let size = rng.range(0.03, 0.12);
        let position = if rng.chance(0.3) && !near.is_empty() {
            let p = near[rng.int(0, near.len() - 1)];
            let d = rng.unit();
            let r = rng.range(0.03, 0.25);
            [p[0] + d[0] * r, p[1] + d[1] * r, p[2] + d[2] * r]
        } else {
            let d = rng.unit();
            let r = rng.range(0.2, 0.9);
            [d[0] * r, d[1] * r, (d[2] * r).abs() * 0.8 + 0.05]
        };
        let pose = format!("{{position: {}, orientation: {}}}", list(&position), list(&rng.quat()));
        let shape = if board == Some(i) {
            format!("type: box\n    dimensions: {}", list(&[rng.range(0.002, 0.005), rng.range(0.2, 0.5), rng.range(0.2, 0.5)]))
        } else {
            match rng.int(0, 4) {
                0 => format!("type: box\n    dimensions: {}", list(&[size * rng.range(0.5, 2.0), size * rng.range(0.5, 2.0), size * rng.range(0.5, 2.0)])),
                1 => format!("type: sphere\n    dimensions: [{}]", size * 0.6),
                2 => format!("type: cylinder\n    dimensions: [{}, {}]", size * rng.range(0.8, 3.0), size * rng.range(0.3, 0.8)),
                3 => format!("type: cone\n    dimensions: [{}, {}]", size * rng.range(0.8, 3.0), size * rng.range(0.3, 1.0)),
                _ => format!(
                    "type: mesh\n    mesh: {}\n    scale: {}",
                    MESHES[rng.int(0, 2)],
                    list(&[2.0 * size * rng.range(0.6, 1.4), 2.0 * size * rng.range(0.6, 1.4), 2.0 * size * rng.range(0.6, 1.4)])
                ),
            }
        };
        writeln!(s, "  - id: o{i}\n    {shape}\n    pose: {pose}").unwrap();
    }
    s
}

/// A case: robot, motion, then a scene around the motion. Scenes that touch at the
/// start are mostly redrawn, so that "in contact at the start" stays a minority.
fn random_case(seed: u64, dir: &Path) -> (CaseFiles, CheckInput) {
    let mut rng = Rng::new(seed);
    loop {
        let (urdf, variables) = random_robot(&mut rng);
        let trajectory = random_trajectory(&mut rng, &variables);
        let bare = build_input(dir, &urdf, "objects: []\n", &trajectory, None);
        let start_free = StateChecker::new(&bare.world).contacts(&bare.motion.waypoints[0], true).is_empty();
        if !start_free && rng.chance(0.9) {
            continue; // the robot touches itself at the start
        }
        let near = path_points(&bare, &mut rng, 6);
        for _ in 0..30 {
            let scene = random_scene(&mut rng, &near);
            let input = build_input(dir, &urdf, &scene, &trajectory, None);
            let touching = !StateChecker::new(&input.world).contacts(&input.motion.waypoints[0], true).is_empty();
            if touching && rng.chance(0.95) {
                continue;
            }
            return (CaseFiles { urdf, scene, trajectory: trajectory.clone() }, input);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The reference: dense sampling plus bisection with the discrete checker.

fn contacts_at(checker: &mut StateChecker, motion: &JointMotion, t: f64) -> Vec<Pair> {
    checker.contacts(&motion.positions_at(t), false).into_iter().map(|c| (c.link, c.other)).collect()
}

fn pair_touches(checker: &mut StateChecker, motion: &JointMotion, pair: Pair, t: f64) -> bool {
    contacts_at(checker, motion, t).contains(&pair)
}

/// Touches somewhere in `[t, t + 1e-6]` (probed at t, t + 1e-9, ..., t + 1e-6).
fn touches_right_after(checker: &mut StateChecker, motion: &JointMotion, pair: Pair, t: f64) -> bool {
    [0.0, 1e-9, 1e-8, 1e-7, 1e-6].iter().any(|h| pair_touches(checker, motion, pair, t + h))
}

/// Whether a wrong contact normal fails the random test (else it is counted and
/// printed). Wrong normals were common before 5bfae50; see
/// `contact_normals_point_from_the_obstacle_to_the_link`.
const STRICT_NORMALS: bool = true;

/// Below this distance (m) the discrete test may answer either way: its GJK-based
/// tests report "touching" up to a few 1e-7 m apart (seen: 4.4e-7 m, box or mesh
/// against a cylinder), and not monotonically.
const NEAR: f64 = 1e-6;

/// Distance between the pair's elements at time `t`: GJK on the convex shapes (every
/// mesh these tests write is convex, so its hull is the mesh's solid).
fn pair_distance(world: &CollisionWorld, motion: &JointMotion, pair: Pair, t: f64) -> f64 {
    element_distances(world, motion, pair, t, Vector3::zeros()).into_iter().fold(f64::INFINITY, f64::min)
}

/// Distances of every element pair of the body pair at time `t`, with the link's
/// elements translated by `shift`.
fn element_distances(world: &CollisionWorld, motion: &JointMotion, (link, other): Pair, t: f64, shift: Vector3) -> Vec<f64> {
    let poses = world.robot.link_poses(&motion.positions_at(t));
    let on = |body: Body| world.elements.iter().filter(move |e| e.body == body);
    on(Body::Link(link))
        .flat_map(|a| on(other).map(move |b| (a, b)))
        .map(|(a, b)| {
            let (pa, pb) = (Translation3::from(shift) * world.element_pose(a, &poses), world.element_pose(b, &poses));
            ccd_guard::query::gjk::closest_points(a.shape.convex_bound().as_ref(), &pa, b.shape.convex_bound().as_ref(), &pb).distance
        })
        .collect()
}

/// Whether `n` parts the pair where it touches at `t`: moving the link 1 mm along it
/// takes one of the element pairs in contact (within `NEAR`) at least 0.5 mm apart
/// (the meshes here are convex; the slack allows for curvature and corners).
fn normal_parts_the_pair(world: &CollisionWorld, motion: &JointMotion, pair: Pair, t: f64, n: Vector3) -> Option<f64> {
    let now = element_distances(world, motion, pair, t, Vector3::zeros());
    let moved = element_distances(world, motion, pair, t, n * 1e-3);
    let best = now.iter().zip(&moved).filter(|(d, _)| **d < NEAR).map(|(_, m)| *m).fold(f64::NEG_INFINITY, f64::max);
    (best < 5e-4).then_some(best)
}

#[derive(Default)]
struct Reference {
    /// Every colliding sample: time and pairs.
    colliding: Vec<(f64, Vec<Pair>)>,
    samples: usize,
    /// First colliding sample.
    t_sample: Option<f64>,
    /// First time of contact (bisection), the pairs touching there, whether at the start.
    t_ref: Option<f64>,
    ref_pairs: Vec<Pair>,
    at_start: bool,
    /// See [`is_transversal`].
    transversal: bool,
}

/// Probe offsets (s) around `t_ref` for [`is_transversal`].
const PROBES: [f64; 7] = [1e-7, 2e-7, 5e-7, 1e-6, 1e-5, 1e-4, 1e-3];

/// Transversal: the contact at `t_ref` is robust in time, so that the first time of
/// contact is well-conditioned and both methods must agree on it to 1e-6 s:
/// - nothing touches at `t_ref - h` and one of the pairs touching at `t_ref` still
///   touches at `t_ref + h`, for every h in [`PROBES`] (0.1 us to 1 ms): not a graze
///   that opens and closes again, not the end of an earlier contact that bisection
///   landed on, and not a contact where the discrete test itself flickers. Its GJK
///   tests call shapes up to ~4e-7 m apart "touching", and not monotonically
///   (cylinders and cones, grazing triangles), so near a slow or grazing contact any
///   method built on it smears the instant of contact over microseconds;
/// - that pair approaches at 0.2 m/s or more: 2e-6 m apart (GJK distance) at
///   `t_ref - 1e-5`.
fn is_transversal(world: &CollisionWorld, checker: &mut StateChecker, motion: &JointMotion, t_ref: f64, pairs: &[Pair]) -> bool {
    let free_before = PROBES.iter().all(|&h| contacts_at(checker, motion, t_ref - h).is_empty());
    free_before
        && pairs
            .iter()
            .any(|&p| PROBES.iter().all(|&h| contacts_at(checker, motion, t_ref + h).contains(&p)) && pair_distance(world, motion, p, t_ref - 1e-5) >= 2e-6)
}

fn sample_times(motion: &JointMotion, min_per_segment: usize, max_per_segment: usize) -> Vec<f64> {
    let mut times = vec![motion.start_time()];
    for seg in &motion.segments {
        let n = seg.step_count(1e-3).clamp(min_per_segment, max_per_segment);
        times.extend((1..=n).map(|i| if i == n { seg.start_time + seg.duration } else { seg.start_time + seg.duration * i as f64 / n as f64 }));
    }
    times
}

fn reference(world: &CollisionWorld, motion: &JointMotion, min_per_segment: usize, max_per_segment: usize) -> Reference {
    let mut checker = StateChecker::new(world);
    let times = sample_times(motion, min_per_segment, max_per_segment);
    let mut r = Reference { samples: times.len(), ..Reference::default() };
    for (i, &t) in times.iter().enumerate() {
        let pairs = contacts_at(&mut checker, motion, t);
        if pairs.is_empty() {
            continue;
        }
        if r.t_sample.is_none() {
            r.t_sample = Some(t);
            if i == 0 {
                r.at_start = true;
                r.t_ref = Some(t);
                r.ref_pairs = pairs.clone();
            } else {
                let (mut lo, mut hi) = (times[i - 1], t);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if mid <= lo || mid >= hi {
                        break;
                    }
                    if contacts_at(&mut checker, motion, mid).is_empty() { lo = mid } else { hi = mid }
                }
                r.t_ref = Some(hi);
                r.ref_pairs = contacts_at(&mut checker, motion, hi);
                r.transversal = is_transversal(world, &mut checker, motion, hi, &r.ref_pairs);
            }
        }
        r.colliding.push((t, pairs));
    }
    r
}

// ---------------------------------------------------------------------------------------
// The properties.

#[derive(Default)]
struct Tally {
    cases: usize,
    colliding: usize,
    free: usize,
    at_start: usize,
    transversal_compared: usize,
    max_toc_error: f64,
    worst_case: Option<u64>,
    pipeline_only: usize,
    pipeline_earlier: usize,
    events: usize,
    near_events: usize,
    near_samples: usize,
    bad_normals: usize,
    normals: usize,
    notes: Vec<String>,
    samples: usize,
    mesh_pairs: usize,
    pipeline_seconds: f64,
    slowest: Vec<(f64, u64, String)>,
    first_only_seconds: f64,
    reference_seconds: f64,
    failures: Vec<(u64, String)>,
    /// The certifier on the cases free by sampling and pipeline: proven, or unproven.
    certified: usize,
    unproven: usize,
    /// The same proven with the clearance search's pairs apart (the certified method).
    certified_with_clearance: usize,
    /// The same with the pairs a first-only check's search proves apart.
    certified_with_search: usize,
    certifier_seconds: f64,
    /// The certified method end to end ([`check_certified`]): its whole reports and
    /// first answers that certify the motion free, and its time.
    certified_by_method: [usize; 2],
    method_seconds: f64,
}

impl Tally {
    fn merge(&mut self, o: Tally) {
        self.cases += o.cases;
        self.colliding += o.colliding;
        self.free += o.free;
        self.at_start += o.at_start;
        self.transversal_compared += o.transversal_compared;
        if o.max_toc_error > self.max_toc_error {
            self.max_toc_error = o.max_toc_error;
            self.worst_case = o.worst_case;
        }
        self.pipeline_only += o.pipeline_only;
        self.pipeline_earlier += o.pipeline_earlier;
        self.events += o.events;
        self.near_events += o.near_events;
        self.near_samples += o.near_samples;
        self.bad_normals += o.bad_normals;
        self.normals += o.normals;
        self.notes.extend(o.notes);
        self.samples += o.samples;
        self.mesh_pairs += o.mesh_pairs;
        self.pipeline_seconds += o.pipeline_seconds;
        self.slowest.extend(o.slowest);
        self.first_only_seconds += o.first_only_seconds;
        self.reference_seconds += o.reference_seconds;
        self.failures.extend(o.failures);
        self.certified += o.certified;
        self.unproven += o.unproven;
        self.certified_with_clearance += o.certified_with_clearance;
        self.certified_with_search += o.certified_with_search;
        self.certifier_seconds += o.certifier_seconds;
        self.certified_by_method = [0, 1].map(|k| self.certified_by_method[k] + o.certified_by_method[k]);
        self.method_seconds += o.method_seconds;
    }
}

/// The element pairs of `apart` (proven apart over the motion) that touch at a time in
/// `touching` where their bodies are listed as touching: each a failure.
fn apart_but_touching(input: &CheckInput, apart: &[(usize, usize)], touching: &[(f64, Vec<Pair>)], how: &str) -> Vec<String> {
    let mut failures = Vec::new();
    for &(a, b) in apart {
        let (ea, eb) = (&input.world.elements[a], &input.world.elements[b]);
        let pair = match (ea.body, eb.body) {
            (Body::Link(x), Body::Link(y)) => (x.min(y), Body::Link(x.max(y))),
            (Body::Link(l), other) | (other, Body::Link(l)) => (l, other),
            _ => continue,
        };
        let reversed = match pair {
            (x, Body::Link(y)) => (y, Body::Link(x)),
            other => other,
        };
        for (t, pairs) in touching {
            if !pairs.contains(&pair) && !pairs.contains(&reversed) {
                continue;
            }
            let poses = input.world.robot.link_poses(&input.motion.positions_at(*t));
            if intersection_point(&ea.shape, &input.world.element_pose(ea, &poses), &eb.shape, &input.world.element_pose(eb, &poses)).is_some() {
                failures
                    .push(format!("FALSE CLEARANCE: elements {a} and {b} of {} are among {how} proven apart, but touch at {t}", pair_name(&input.world, pair)));
            }
        }
    }
    failures
}

fn pair_name(world: &CollisionWorld, (link, other): Pair) -> String {
    format!("{}-{}", world.body_name(Body::Link(link)), world.body_name(other))
}

/// Checks the pipeline's events against the reference; returns the failures.
fn check_events(input: &CheckInput, full: &PipelineResult, first: &PipelineResult, r: &Reference, tally: &mut Tally, seed: u64) -> Vec<String> {
    let (world, motion) = (&input.world, &input.motion);
    let mut checker = StateChecker::new(world);
    let mut failures = Vec::new();
    let name = |p: Pair| pair_name(world, p);
    let mut events: HashMap<Pair, Vec<(f64, Option<f64>)>> = HashMap::new();
    for c in &full.contacts {
        events.entry((c.link, c.other)).or_default().push((c.time_of_contact, c.time_of_separation));
    }
    tally.events += full.contacts.len();
    tally.normals += full.contacts.iter().filter(|c| c.normal.is_some()).count();

    // Every reported event is real, lies in its segment, and ends where the pair is free.
    for c in &full.contacts {
        let pair = (c.link, c.other);
        if !world.is_checked(Body::Link(c.link), c.other) {
            failures.push(format!("event of unchecked pair {}", name(pair)));
        }
        if !touches_right_after(&mut checker, motion, pair, c.time_of_contact) {
            let d = pair_distance(world, motion, pair, c.time_of_contact);
            if d < NEAR {
                // Within the discrete test's own noise (see `event_split_by_the_discrete_tests_noise`).
                tally.near_events += 1;
                tally.notes.push(format!(
                    "case {seed}: event {} [{}, {:?}] not confirmed on [toc, toc + 1e-6]; distance {d:e} m",
                    name(pair),
                    c.time_of_contact,
                    c.time_of_separation
                ));
            } else {
                failures.push(format!("event {} at {} is not a contact (free on [toc, toc + 1e-6], distance {d:e} m)", name(pair), c.time_of_contact));
            }
        }
        let seg = &motion.segments[c.segment];
        if c.time_of_contact < seg.start_time - 1e-12 || c.time_of_contact > seg.start_time + seg.duration + 1e-12 {
            failures.push(format!("event {} at {} is not in its segment {}", name(pair), c.time_of_contact, c.segment));
        }
        if let Some(tos) = c.time_of_separation
            && (tos < c.time_of_contact || pair_touches(&mut checker, motion, pair, tos))
        {
            failures.push(format!("event {} [{}, {tos}]: still touching at its separation", name(pair), c.time_of_contact));
        }
        if let Some(n) = c.normal {
            // A unit vector from `other` towards `link`.
            let problem = if (n.norm() - 1.0).abs() > 1e-9 || !n.iter().all(|x| x.is_finite()) {
                Some("is not a unit vector".to_string())
            } else {
                normal_parts_the_pair(world, motion, pair, c.time_of_contact, n)
                    .map(|d| format!("does not part the touching elements (1 mm along it: {d:e} m apart)"))
            };
            if let Some(problem) = problem {
                let text = format!("event {} at {}: normal {:?} {problem}", name(pair), c.time_of_contact, n.as_slice());
                if STRICT_NORMALS {
                    failures.push(text);
                } else {
                    tally.bad_normals += 1;
                    tally.notes.push(format!("case {seed}: {text}"));
                }
            }
        }
    }
    // Events of one pair do not overlap.
    for (pair, list) in &events {
        for w in list.windows(2) {
            match w[0].1 {
                Some(tos) if w[1].0 >= tos - 1e-12 => {}
                _ => failures.push(format!("events of {} overlap: {:?}", name(*pair), list)),
            }
        }
    }
    // Every colliding sample lies in an event of its pair; every pair's first event is
    // no later than its first colliding sample.
    let mut first_sample: HashMap<Pair, f64> = HashMap::new();
    let mut uncovered = 0;
    for (t, pairs) in &r.colliding {
        for &p in pairs {
            first_sample.entry(p).or_insert(*t);
            let covered = events.get(&p).is_some_and(|l| l.iter().any(|&(a, b)| a <= t + 1e-9 && b.is_none_or(|b| b >= t - 1e-9)));
            if !covered && pair_distance(world, motion, p, *t) < NEAR {
                tally.near_samples += 1;
                tally.notes.push(format!("case {seed}: sample {t} of {} uncovered, within {NEAR:e} m", name(p)));
            } else if !covered {
                uncovered += 1;
                if uncovered <= 3 {
                    failures.push(format!("sample at {t}: {} collides, and no event of the pair covers it (events {:?})", name(p), events.get(&p)));
                }
            }
        }
    }
    for (&p, &t) in &first_sample {
        let first_event = events.get(&p).map(|l| l[0].0);
        if first_event.is_none_or(|toc| toc > t + 1e-9) && pair_distance(world, motion, p, t) >= NEAR {
            failures.push(format!("{} first collides at sample {t}; the pipeline's first event of the pair: {first_event:?}", name(p)));
        }
    }
    // The first time of contact.
    let toc = full.contacts.first().map(|c| c.time_of_contact);
    // (Implied by the per-pair check, kept for its plain message.) A first sample whose
    // pairs are all within the discrete test's noise is not held against the pipeline.
    let sample_is_near = |t: f64| r.colliding.first().is_some_and(|(_, pairs)| pairs.iter().all(|&p| pair_distance(world, motion, p, t) < NEAR));
    match (r.t_sample, toc) {
        (Some(ts), None) if !sample_is_near(ts) => {
            failures.push(format!("sampling collides at {ts} ({:?}); the pipeline says free", r.colliding[0].1.iter().map(|&p| name(p)).collect::<Vec<_>>()))
        }
        (Some(ts), Some(toc)) if toc > ts + 1e-9 && !sample_is_near(ts) => {
            failures.push(format!("first contact at {toc}, after the first colliding sample {ts}"))
        }
        (None, Some(_)) => tally.pipeline_only += 1,
        _ => {}
    }
    if r.at_start {
        tally.at_start += 1;
        let at_start: Vec<Pair> = full.contacts.iter().filter(|c| c.time_of_contact == motion.start_time()).map(|c| (c.link, c.other)).collect();
        for p in &r.ref_pairs {
            if !at_start.contains(p) {
                failures.push(format!("{} touches at the start {}; not reported there (got {at_start:?})", name(*p), motion.start_time()));
            }
        }
    }
    if let (true, Some(t_ref), Some(toc)) = (r.transversal, r.t_ref, toc) {
        if toc < t_ref - 1e-6 {
            // Earlier than sampling: allowed only as a real contact (checked above).
            tally.pipeline_earlier += 1;
        } else {
            tally.transversal_compared += 1;
            let e = (toc - t_ref).abs();
            if e > tally.max_toc_error {
                tally.max_toc_error = e;
                tally.worst_case = Some(seed);
            }
            if e > 1e-6 {
                failures.push(format!("transversal first contact: pipeline {toc}, reference {t_ref} (|diff| {e:e})"));
            }
        }
    } else if let (Some(ts), Some(toc)) = (r.t_sample, toc)
        && !r.at_start
        && r.t_ref.is_some_and(|t_ref| toc < t_ref - 1e-6)
        && toc <= ts
    {
        tally.pipeline_earlier += 1;
    }
    // first_only: exactly one contact when there is any, the earliest.
    match (first.contacts.len(), full.contacts.first()) {
        (0, None) => {}
        (1, Some(f)) => {
            let c = &first.contacts[0];
            if (c.time_of_contact - f.time_of_contact).abs() > 1e-6 {
                failures.push(format!(
                    "first_only contact at {} ({}), the full run's first at {} ({})",
                    c.time_of_contact,
                    name((c.link, c.other)),
                    f.time_of_contact,
                    name((f.link, f.other))
                ));
            }
            if !touches_right_after(&mut checker, motion, (c.link, c.other), c.time_of_contact) {
                failures.push(format!("first_only contact {} at {} is not a contact", name((c.link, c.other)), c.time_of_contact));
            }
        }
        (n, f) => failures.push(format!("first_only gives {n} contacts; the full run's first: {:?}", f.map(|f| f.time_of_contact))),
    }
    failures
}

fn has_mesh_pair(world: &CollisionWorld) -> bool {
    use ccd_guard::shape::Shape;
    let meshes = world.elements.iter().filter(|e| matches!(e.shape, Shape::TriMesh(_))).count();
    meshes >= 2
}

fn run_case(seed: u64, dir: &Path, dense: (usize, usize), tally: &mut Tally) {
    let (files, input) = random_case(seed, dir);
    let started = Instant::now();
    let full = run_pipeline(&input.world, &input.motion, &PipelineOptions::default());
    tally.pipeline_seconds += started.elapsed().as_secs_f64();
    tally.slowest.push((
        started.elapsed().as_secs_f64(),
        seed,
        format!("{} elements, {} events, {}", input.world.elements.len(), full.contacts.len(), full.stats.to_text()),
    ));
    // With more than one rayon thread (the test's pool has one per core), the segments
    // run side by side: their events must be those of the segments in turn.
    let in_turn =
        rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap().install(|| run_pipeline(&input.world, &input.motion, &PipelineOptions::default()));
    let events = |r: &PipelineResult| r.contacts.iter().map(|c| (c.link, c.other, c.time_of_contact, c.time_of_separation, c.segment)).collect::<Vec<_>>();
    let side_by_side_differs = events(&full) != events(&in_turn);
    let started = Instant::now();
    let first = run_pipeline(&input.world, &input.motion, &PipelineOptions { first_only: true, ..PipelineOptions::default() });
    tally.first_only_seconds += started.elapsed().as_secs_f64();
    let started = Instant::now();
    let r = reference(&input.world, &input.motion, dense.0, dense.1);
    tally.reference_seconds += started.elapsed().as_secs_f64();
    tally.cases += 1;
    tally.samples += r.samples;
    tally.mesh_pairs += has_mesh_pair(&input.world) as usize;
    if r.t_sample.is_some() {
        tally.colliding += 1;
    } else {
        tally.free += 1;
    }
    let mut failures = check_events(&input, &full, &first, &r, tally, seed);
    if side_by_side_differs {
        failures.push(format!("segments side by side: events {:?}, in turn {:?}", events(&full), events(&in_turn)));
    }
    // The certifier (Schröcker & Weber): a proof of "free" must never meet a colliding sample or
    // a pipeline contact. Where both say free, count how often it proves it.
    let started = Instant::now();
    let (certificate, _) = certify_motion(&input.world, &input.motion, &CertifyOptions::default(), &[]);
    tally.certifier_seconds += started.elapsed().as_secs_f64();
    match certificate {
        Ok(()) if r.t_sample.is_some() || !full.contacts.is_empty() => failures.push(format!(
            "FALSE CERTIFICATE: certified free, but the first colliding sample is at {:?} and the pipeline lists {} events",
            r.t_sample,
            full.contacts.len()
        )),
        Ok(()) => tally.certified += 1,
        Err(_) if r.t_sample.is_none() && full.contacts.is_empty() => tally.unproven += 1,
        Err(_) => {}
    }
    // The certified method's ways: the clearance search proves element pairs apart (to
    // its tolerance for a whole report, or only up to the threshold for a first-only
    // check), and the certifier takes them as excluded. No such pair may touch at a
    // colliding sample or at a pipeline event's time of contact, and the certificate
    // must hold as above.
    let started = Instant::now();
    let options = CertifyOptions::default();
    let touching: Vec<(f64, Vec<Pair>)> =
        r.colliding.iter().cloned().chain(full.contacts.iter().map(|c| (c.time_of_contact, vec![(c.link, c.other)]))).collect();
    let by_clearance = min_clearance(&input.world, &input.motion, &ClearanceOptions::default()).map_or(Vec::new(), |c| pairs_apart(&c, options.tolerance));
    let by_search = near_pairs_apart(&input.world, &input.motion, options.tolerance);
    // A first-only check leaves the search's pairs out of the pipeline too: its first
    // contact is the one on every pair.
    let first_apart = run_pipeline_except(&input.world, &input.motion, &PipelineOptions { first_only: true, ..PipelineOptions::default() }, &by_search);
    let key = |r: &PipelineResult| r.contacts.first().map(|c| (c.time_of_contact, c.link, c.other));
    if key(&first_apart) != key(&first) {
        failures.push(format!("first contact {:?} with the search's pairs left out, {:?} on every pair", key(&first_apart), key(&first)));
    }
    for (apart, how) in [(&by_clearance, "the clearance's pairs"), (&by_search, "the search's pairs")] {
        failures.extend(apart_but_touching(&input, apart, &touching, how));
        let (certificate, _) = certify_motion(&input.world, &input.motion, &options, apart);
        match certificate {
            Ok(()) if r.t_sample.is_some() || !full.contacts.is_empty() => {
                failures.push(format!("FALSE CERTIFICATE with {how} apart: the first colliding sample is at {:?}", r.t_sample))
            }
            Ok(()) if how == "the clearance's pairs" => tally.certified_with_clearance += 1,
            Ok(()) => tally.certified_with_search += 1,
            Err(_) => {}
        }
    }
    tally.certifier_seconds += started.elapsed().as_secs_f64();
    // The certified method end to end, a whole report and a first answer: where the
    // search proves every pair apart, neither the pipeline nor the certifier runs.
    let started = Instant::now();
    for (k, pipeline) in [PipelineOptions::default(), PipelineOptions { first_only: true, ..PipelineOptions::default() }].into_iter().enumerate() {
        let report = check_certified(&input, &pipeline, &options, !pipeline.first_only).report;
        let how = if pipeline.first_only { "first answer" } else { "whole report" };
        match (report.verdict, report.certified) {
            (Verdict::CollisionFree, true) if r.t_sample.is_some() || !full.contacts.is_empty() => {
                failures.push(format!("FALSE CERTIFICATE by the certified method's {how}: the first colliding sample is at {:?}", r.t_sample))
            }
            (Verdict::CollisionFree, true) => tally.certified_by_method[k] += 1,
            (Verdict::Collision, _) if full.contacts.is_empty() => failures.push(format!("the certified method's {how} finds a contact the pipeline does not")),
            (Verdict::Collision, _) => {}
            _ if !full.contacts.is_empty() => failures.push(format!("the certified method's {how} misses the pipeline's contacts: {:?}", report.verdict)),
            _ => {}
        }
    }
    tally.method_seconds += started.elapsed().as_secs_f64();
    if !failures.is_empty() {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("pipeline_properties/case_{seed}"));
        std::fs::create_dir_all(&out).unwrap();
        write_meshes(&out);
        std::fs::write(out.join("robot.urdf"), &files.urdf).unwrap();
        std::fs::write(out.join("scene.yaml"), &files.scene).unwrap();
        std::fs::write(out.join("trajectory.yaml"), &files.trajectory).unwrap();
        let contacts: Vec<String> = full
            .contacts
            .iter()
            .map(|c| format!("{} [{}, {:?}] seg {}", pair_name(&input.world, (c.link, c.other)), c.time_of_contact, c.time_of_separation, c.segment))
            .collect();
        let text = format!(
            "case seed {seed} (files in {}):\n  {}\n  pipeline events: {contacts:?}\n  reference: first sample {:?}, t_ref {:?}, transversal {}",
            out.display(),
            failures.join("\n  "),
            r.t_sample,
            r.t_ref,
            r.transversal
        );
        tally.failures.push((seed, text));
    }
}

/// Cases that long runs found failing, run every time: a small cylinder held inside a
/// closed mesh cube, whose surface lies 9 mm from it and farther, was proven apart from
/// the cube by the clearance search's node-by-node bound (base 20261207; both cases).
const PINNED_SEEDS: [u64; 2] = [2892595778973921630, 13939360693803491394];

#[test]
fn random_worlds_against_dense_sampling() {
    let cases: usize = std::env::var("PIPELINE_PROPS_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(if cfg!(debug_assertions) { 10 } else { 300 });
    // Samples per segment: at least this many, else one per 1e-3 rad of joint travel.
    let dense = if cfg!(debug_assertions) { (300, 800) } else { (2000, 5000) };
    let only: Option<u64> = std::env::var("PIPELINE_PROPS_SEED").ok().and_then(|v| v.parse().ok());
    let seeds: Vec<u64> = match only {
        Some(s) => vec![s],
        None => {
            let base: u64 = std::env::var("PIPELINE_PROPS_BASE").ok().and_then(|v| v.parse().ok()).unwrap_or(0x0000_2ccd_5eed);
            // Distinct bases give distinct case sets, even when they differ only in low bits.
            (0..cases as u64).map(|i| splitmix(base.wrapping_add(splitmix(i)))).chain(PINNED_SEEDS).collect()
        }
    };
    let tmp = tempfile::tempdir().unwrap();
    write_meshes(tmp.path());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).clamp(1, 4);
    let started = Instant::now();
    let mut tally = Tally::default();
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let (seeds, dir) = (&seeds, tmp.path());
                scope.spawn(move || {
                    let mut t = Tally::default();
                    for &seed in seeds.iter().skip(k).step_by(threads) {
                        run_case(seed, dir, dense, &mut t);
                    }
                    t
                })
            })
            .collect();
        for h in handles {
            tally.merge(h.join().unwrap());
        }
    });
    println!(
        "pipeline properties: {} cases ({} with >= 2 mesh elements), {} colliding ({} at the start), {} free; {} events; \
         {} transversal first contacts compared, max |toc - t_ref| = {:e} s (case {:?}); \
         pipeline found contacts sampling missed in {} free-by-sampling cases and earlier than sampling in {} cases; \
         {} samples; pipeline {:.2} s, first_only {:.2} s, reference {:.2} s, wall {:.2} s on {threads} threads; \
         certifier: {} free cases proven, {} left unproven ({} proven with the clearance's pairs apart, {} with the search's), {:.2} s; \
         the certified method: {} whole reports and {} first answers certified, {:.2} s",
        tally.cases,
        tally.mesh_pairs,
        tally.colliding,
        tally.at_start,
        tally.free,
        tally.events,
        tally.transversal_compared,
        tally.max_toc_error,
        tally.worst_case,
        tally.pipeline_only,
        tally.pipeline_earlier,
        tally.samples,
        tally.pipeline_seconds,
        tally.first_only_seconds,
        tally.reference_seconds,
        started.elapsed().as_secs_f64(),
        tally.certified,
        tally.unproven,
        tally.certified_with_clearance,
        tally.certified_with_search,
        tally.certifier_seconds,
        tally.certified_by_method[0],
        tally.certified_by_method[1],
        tally.method_seconds
    );
    tally.slowest.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (secs, seed, what) in tally.slowest.iter().take(3) {
        println!("slow: {secs:.3} s seed {seed}: {what}");
    }
    println!(
        "{} events and {} samples within {NEAR:e} m, not confirmed (the discrete test's noise); {} of {} normals wrong:",
        tally.near_events, tally.near_samples, tally.bad_normals, tally.normals
    );
    for n in tally.notes.iter().take(10) {
        println!("  {n}");
    }
    if !tally.failures.is_empty() {
        tally.failures.sort_by_key(|f| f.0);
        let shown: Vec<&str> = tally.failures.iter().take(5).map(|f| f.1.as_str()).collect();
        panic!("{} of {} cases fail:\n{}", tally.failures.len(), tally.cases, shown.join("\n"));
    }
    if only.is_none() {
        let (colliding, free) = (tally.colliding as f64 / tally.cases as f64, tally.free as f64 / tally.cases as f64);
        let least = if cfg!(debug_assertions) { 0.15 } else { 0.3 };
        assert!(colliding >= least && free >= least, "unhealthy mix: {colliding:.2} colliding, {free:.2} free");
        assert!(tally.transversal_compared * 4 >= tally.colliding, "too few transversal contacts compared");
    }
}

// ---------------------------------------------------------------------------------------
// Hand-made cases with closed-form answers.

fn mesh_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_meshes(dir.path());
    dir
}

fn slider_robot(geometry: &str, origin_rpy: [f64; 3]) -> String {
    format!(
        r#"<robot name="slider">
  <link name="base"/>
  <link name="body"><collision><origin xyz="0 0 0" rpy="{}"/><geometry>{geometry}</geometry></collision></link>
  <joint name="x" type="prismatic"><parent link="base"/><child link="body"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"#,
        fmt3(origin_rpy)
    )
}

fn run(input: &CheckInput) -> PipelineResult {
    run_pipeline(&input.world, &input.motion, &PipelineOptions::default())
}

fn run_first_only(input: &CheckInput) -> PipelineResult {
    run_pipeline(&input.world, &input.motion, &PipelineOptions { first_only: true, ..PipelineOptions::default() })
}

const BOARD: &str = "objects:\n  - id: board\n    type: box\n    dimensions: [0.002, 0.4, 0.4]\n    pose: {position: [0.2, 0, 0]}\n";
/// x: -0.5 -> 0.5 over [0, 1], then 0.5 -> 0.6 over [1, 2]; both waypoints free.
const ACROSS: &str = "joint_names: [x]\npoints:\n  - {positions: [-0.5], time_from_start: 0}\n  - {positions: [0.5], time_from_start: 1}\n  - {positions: [0.6], time_from_start: 2}\n";

/// A body whose extent along +x (from its centre) is `lead` and along -x is `trail`
/// crosses the board's faces x = 0.199 and 0.201: contact when x + lead = 0.199,
/// separation when x - trail = 0.201, with x = -0.5 + t.
fn assert_crosses_board(input: &CheckInput, lead: f64, trail: f64, what: &str) {
    let mut checker = StateChecker::new(&input.world);
    for q in &input.motion.waypoints {
        assert!(checker.contacts(q, false).is_empty(), "{what}: waypoints must be free");
    }
    let result = run(input);
    assert_eq!(result.contacts.len(), 1, "{what}: {:?}", result.contacts);
    let c = &result.contacts[0];
    let (toc, tos) = (0.199 - lead + 0.5, 0.201 + trail + 0.5);
    assert!((c.time_of_contact - toc).abs() < 1e-6, "{what}: toc {} expected {toc}", c.time_of_contact);
    assert!((c.time_of_separation.unwrap() - tos).abs() < 1e-6, "{what}: tos {:?} expected {tos}", c.time_of_separation);
    assert_eq!((c.link, c.other, c.segment), (1, Body::Obstacle(0), 0), "{what}");
    assert!((c.point.x - 0.199).abs() < 1e-4, "{what}: point {:?}", c.point);
    if let Some(n) = c.normal {
        assert!(n.x < -0.99, "{what}: normal {n:?} should point from the board to the link (-x)");
    }
    let first = run_first_only(input);
    assert_eq!(first.contacts.len(), 1);
    assert!((first.contacts[0].time_of_contact - toc).abs() < 1e-6, "{what}: first_only toc {}", first.contacts[0].time_of_contact);
}

#[test]
fn ball_and_meshes_cross_a_2mm_board_between_free_waypoints() {
    let dir = mesh_dir();
    let ball = build_input(dir.path(), &slider_robot("<sphere radius=\"0.05\"/>", [0.0; 3]), BOARD, ACROSS, None);
    assert_crosses_board(&ball, 0.05, 0.05, "sphere");
    // A cube mesh, faces parallel to the board (every vertex of the face at once).
    let cube = build_input(dir.path(), &slider_robot("<mesh filename=\"cube.obj\" scale=\"0.1 0.1 0.1\"/>", [0.0; 3]), BOARD, ACROSS, None);
    assert_crosses_board(&cube, 0.05, 0.05, "cube mesh");
    // A turned icosahedron from STL: one vertex leads. Its extents from the loaded vertices.
    let rpy = [0.3, 0.2, 0.5];
    let rotation = ccd_guard::math::UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]);
    let xs: Vec<f64> = icosahedron_mesh().0.iter().map(|v| (rotation * ccd_guard::math::Vector3::from(v.map(as_loaded)) * 0.2).x).collect();
    let (lead, trail) = (xs.iter().copied().fold(f64::MIN, f64::max), -xs.iter().copied().fold(f64::MAX, f64::min));
    let ico = build_input(dir.path(), &slider_robot("<mesh filename=\"icosahedron.stl\" scale=\"0.2 0.2 0.2\"/>", rpy), BOARD, ACROSS, None);
    assert_crosses_board(&ico, lead, trail, "icosahedron mesh");
    // A capsule lying along y, and a cylinder turned so its rim leads.
    let capsule =
        build_input(dir.path(), &slider_robot("<capsule radius=\"0.03\" length=\"0.1\"/>", [std::f64::consts::FRAC_PI_2, 0.0, 0.0]), BOARD, ACROSS, None);
    assert_crosses_board(&capsule, 0.03, 0.03, "capsule");
    let tilt: f64 = 0.4;
    let (r, h) = (0.04, 0.03); // radius, half length
    let extent = r * tilt.cos() + h * tilt.sin();
    let cylinder = build_input(dir.path(), &slider_robot("<cylinder radius=\"0.04\" length=\"0.06\"/>", [0.0, tilt, 0.0]), BOARD, ACROSS, None);
    assert_crosses_board(&cylinder, extent, extent, "tilted cylinder");
}

/// A closed mesh of two 0.3 m cubes (the second beside the first, at (0.5, 0.5, 0), so
/// that the mesh's hull reaches the sheet below before the first cube does) slides
/// through a sheet (0.1 m square, 1e-10 m thick) parallel to the first cube's leading
/// face: the face crosses the sheet in 1e-10 s, far within the solver's time tolerance,
/// so at every instant its bisection tests the sheet lies outside the cube or wholly
/// inside it, no surfaces meeting. The contact is found by containment, at the instant
/// the face reaches the sheet (the discrete test over the leaves the solver kept without
/// the containment test after them misses it).
#[test]
fn mesh_swallowing_a_sheet_within_the_time_tolerance() {
    let dir = mesh_dir();
    let (v, t) = cube_mesh();
    let second: Vec<[f64; 3]> = v.iter().map(|p| [p[0] + 5.0 / 3.0, p[1] + 5.0 / 3.0, p[2]]).collect();
    let two = ([v, second].concat(), [t.clone(), t.iter().map(|f| f.map(|i| i + 8)).collect()].concat());
    write_obj(&dir.path().join("two_cubes.obj"), &two);
    let sheet = "objects:\n  - id: sheet\n    type: box\n    dimensions: [1.0e-10, 0.1, 0.1]\n    pose: {position: [0.2, 0, 0]}\n";
    let input = build_input(dir.path(), &slider_robot("<mesh filename=\"two_cubes.obj\" scale=\"0.3 0.3 0.3\"/>", [0.0; 3]), sheet, ACROSS, None);
    let result = run(&input);
    assert_eq!(result.contacts.len(), 1, "{:?}", result.contacts);
    let c = &result.contacts[0];
    // Contact when x + 0.15 = 0.2, separation when x - 0.15 = 0.2, with x = -0.5 + t.
    assert!((c.time_of_contact - 0.55).abs() < 1e-6, "toc {}", c.time_of_contact);
    assert!((c.time_of_separation.unwrap() - 0.85).abs() < 1e-6, "tos {:?}", c.time_of_separation);
    let first = run_first_only(&input);
    assert!((first.contacts[0].time_of_contact - 0.55).abs() < 1e-6, "first only: toc {}", first.contacts[0].time_of_contact);
}

#[test]
fn pipeline_method_reports_what_the_pipeline_finds() {
    use ccd_guard::check::pipeline_method::check_pipeline;
    let dir = mesh_dir();
    // Collision in the first segment of three waypoints.
    let input = build_input(dir.path(), &slider_robot("<sphere radius=\"0.05\"/>", [0.0; 3]), BOARD, ACROSS, None);
    let (report, stats) = check_pipeline(&input, &PipelineOptions::default(), 0.001);
    assert_eq!((report.verdict, report.method.name(), report.certified), (Verdict::Collision, "pipeline", false));
    assert!((report.time_of_contact.unwrap() - 0.649).abs() < 1e-6, "{:?}", report.time_of_contact);
    assert_eq!(report.segment_index, Some(0));
    assert_eq!(stats.segments, 2);
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let c = &json["contacts"][0];
    assert_eq!((c["link"].as_str(), c["other"].as_str()), (Some("body"), Some("board")));
    assert!((c["time_of_separation"].as_f64().unwrap() - 0.751).abs() < 1e-6, "{c}");
    let n: Vec<f64> = c["normal"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap()).collect();
    assert!((n[0] + 1.0).abs() < 1e-6 && n[1].abs() < 1e-6 && n[2].abs() < 1e-6, "{n:?}");
    // Free: the verdict is collision_free (not certified) with no time of contact.
    let (input, _) = turning_box(1e-4);
    let (report, _) = check_pipeline(&input, &PipelineOptions::default(), 0.001);
    assert_eq!((report.verdict, report.time_of_contact, report.segment_index), (Verdict::CollisionFree, None, None));
    assert!(report.contacts.is_empty() && !report.certified);
}

/// A box 0.2 x 0.1 x 0.05 turning about z at its centre: its vertical edges sweep the
/// circle of radius R = sqrt(0.1^2 + 0.05^2); a ball of radius 0.03 stands at
/// (R + 0.03 + gap, 0, 0).
fn turning_box(gap: f64) -> (CheckInput, f64) {
    // q: -1 -> 1 over [0, 1].
    turning_box_along(gap, "joint_names: [q]\npoints:\n  - {positions: [-1.0], time_from_start: 0}\n  - {positions: [1.0], time_from_start: 1}\n")
}

/// [`turning_box`] along trajectory `traj` (of joint `q`).
fn turning_box_along(gap: f64, traj: &str) -> (CheckInput, f64) {
    let dir = mesh_dir();
    let urdf = r#"<robot name="turner">
  <link name="base"/>
  <link name="paddle"><collision><geometry><box size="0.2 0.1 0.05"/></geometry></collision></link>
  <joint name="q" type="revolute"><parent link="base"/><child link="paddle"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>"#;
    let big_r = (0.1f64 * 0.1 + 0.05 * 0.05).sqrt();
    let x = big_r + 0.03 + gap;
    let scene = format!("objects:\n  - id: ball\n    type: sphere\n    dimensions: [0.03]\n    pose: {{position: [{x}, 0, 0]}}\n");
    (build_input(dir.path(), urdf, &scene, traj, None), x)
}

#[test]
fn turning_box_edge_passes_an_obstacle_at_a_tenth_of_a_millimetre() {
    let (input, _) = turning_box(1e-4);
    let r = reference(&input.world, &input.motion, 5000, 5000);
    assert!(r.t_sample.is_none());
    let result = run(&input);
    assert!(result.contacts.is_empty(), "{:?}", result.contacts);
    // And 1e-6 m.
    let (input, _) = turning_box(1e-6);
    assert!(run(&input).contacts.is_empty());
}

/// The certifier (Schröcker & Weber) proves a pass at twice its tolerance free, and leaves a pass
/// closer than its tolerance unproven rather than calling it either way.
#[test]
fn certifier_proves_a_pass_at_twice_the_tolerance() {
    let options = CertifyOptions::default();
    let (input, _) = turning_box(2.0 * options.tolerance);
    assert!(certify_motion(&input.world, &input.motion, &options, &[]).0.is_ok(), "a pass at 2 mm is not certified");
    let (input, _) = turning_box(0.2 * options.tolerance);
    assert!(run(&input).contacts.is_empty());
    assert!(certify_motion(&input.world, &input.motion, &options, &[]).0.is_err(), "a pass at 0.2 mm is certified with a 1 mm tolerance");
    let (input, _) = turning_box(-1e-3);
    assert!(certify_motion(&input.world, &input.motion, &options, &[]).0.is_err(), "a collision is certified free");
}

/// The certified method: a pass at 0.7 of the tolerance is proven free by the clearance
/// search's bound (at least half the tolerance); a pass at 0.2 of it goes to the
/// certifier, which leaves it unproven; a collision is a collision.
#[test]
fn certified_method_takes_pairs_the_clearance_proves_apart() {
    let options = CertifyOptions::default();
    let check = |gap: f64| check_certified(&turning_box(gap).0, &PipelineOptions::default(), &options, true);
    let pass = check(0.7 * options.tolerance);
    assert_eq!((pass.report.verdict, pass.report.certified), (Verdict::CollisionFree, true));
    let clearance = pass.clearance.and_then(|c| c.combined()).expect("measured on the way");
    assert!((clearance.closest.distance - 0.7 * options.tolerance).abs() < 1e-4, "{}", clearance.closest.distance);
    assert_eq!(pass.certifier.time_cells, 0, "the certifier had a pair left");
    // With every pair proven apart, neither the pipeline nor the certifier runs; so too
    // for a first answer, whose search proves the pairs that may touch apart.
    assert_eq!(pass.pipeline.segments, 0, "the pipeline ran on a motion the search proved free");
    let first_only = PipelineOptions { first_only: true, ..PipelineOptions::default() };
    let first = check_certified(&turning_box(0.7 * options.tolerance).0, &first_only, &options, false);
    assert_eq!((first.report.verdict, first.report.certified, first.pipeline.segments), (Verdict::CollisionFree, true, 0));
    let close = check(0.2 * options.tolerance);
    assert_eq!((close.report.verdict, close.report.certified), (Verdict::Uncertain, false));
    assert!(close.certifier.time_cells > 0 && close.pipeline.segments > 0);
    let hit = check(-1e-3);
    assert_eq!((hit.report.verdict, hit.report.certified), (Verdict::Collision, false));
    let first = check_certified(&turning_box(-1e-3).0, &first_only, &options, false);
    assert_eq!((first.report.verdict, first.report.certified), (Verdict::Collision, false));
    // A motion of one waypoint, there in contact (the box's corner 1 mm into the ball)
    // or 0.7 of the tolerance from it: no segment lists its pairs, and it is checked.
    let corner_on_x = -0.05f64.atan2(0.1);
    let at = |gap: f64| turning_box_along(gap, &format!("joint_names: [q]\npoints:\n  - {{positions: [{corner_on_x}], time_from_start: 0}}\n")).0;
    for (gap, verdict) in [(-1e-3, Verdict::Collision), (0.7 * options.tolerance, Verdict::CollisionFree)] {
        for pipeline in [PipelineOptions::default(), first_only] {
            let report = check_certified(&at(gap), &pipeline, &options, !pipeline.first_only).report;
            assert_eq!(report.verdict, verdict, "one waypoint {gap} m from the ball, first only: {}", pipeline.first_only);
        }
    }
}

#[test]
fn turning_box_edge_hits_an_obstacle_a_millimetre_deep() {
    let (input, x) = turning_box(-1e-3);
    // The edge (radius R, at angle atan2(0.05, 0.1) + q in the box) meets the ball when
    // |R e^{i phi} - x| = 0.03, i.e. cos phi = (R^2 + x^2 - 0.03^2) / (2 R x), coming
    // from below: q = -phi - atan2(0.05, 0.1), t = (q + 1) / 2.
    let big_r = (0.1f64 * 0.1 + 0.05 * 0.05).sqrt();
    let phi = ((big_r * big_r + x * x - 0.03 * 0.03) / (2.0 * big_r * x)).acos();
    let toc = (-phi - 0.05f64.atan2(0.1) + 1.0) / 2.0;
    let result = run(&input);
    assert!(!result.contacts.is_empty());
    let c = &result.contacts[0];
    assert!((c.time_of_contact - toc).abs() < 1e-6, "toc {} expected {toc}", c.time_of_contact);
    let r = reference(&input.world, &input.motion, 5000, 5000);
    assert!((r.t_ref.unwrap() - toc).abs() < 1e-8, "reference {:?}", r.t_ref);
    // The edge leaves the ball (the face between the edges stays 0.1 from the axis,
    // farther than the ball's 0.1108), then the next edge, at angle -atan2(0.05, 0.1) + q,
    // comes: a second event from q = -phi + atan2(0.05, 0.1).
    let toc2 = (-phi + 0.05f64.atan2(0.1) + 1.0) / 2.0;
    assert_eq!(result.contacts.len(), 2, "{:?}", result.contacts);
    assert!((result.contacts[1].time_of_contact - toc2).abs() < 1e-6, "second toc {} expected {toc2}", result.contacts[1].time_of_contact);
}

#[test]
fn contact_at_the_start_then_separation_and_reentry() {
    let dir = mesh_dir();
    let urdf = slider_robot("<sphere radius=\"0.05\"/>", [0.0; 3]);
    // A block spanning x in [0.03, 0.13]; the ball starts at x = 0, overlapping it.
    let scene = "objects:\n  - id: block\n    type: box\n    dimensions: [0.1, 0.3, 0.3]\n    pose: {position: [0.08, 0, 0]}\n";
    // x: 0 -> -0.3 over [0.5, 1.5], then -0.3 -> 0.3 over [1.5, 2.5].
    let traj = "joint_names: [x]\npoints:\n  - {positions: [0.0], time_from_start: 0.5}\n  - {positions: [-0.3], time_from_start: 1.5}\n  - {positions: [0.3], time_from_start: 2.5}\n";
    let input = build_input(dir.path(), &urdf, scene, traj, None);
    let result = run(&input);
    let events: Vec<(f64, Option<f64>, usize)> = result.contacts.iter().map(|c| (c.time_of_contact, c.time_of_separation, c.segment)).collect();
    assert_eq!(events.len(), 2, "{events:?}");
    // At the start exactly, until x + 0.05 = 0.03.
    assert_eq!(events[0].0, 0.5);
    assert_eq!(events[0].2, 0);
    assert!((events[0].1.unwrap() - (0.5 + 0.02 / 0.3)).abs() < 1e-6, "{events:?}");
    // Back in when x = -0.02, out when x - 0.05 = 0.13.
    assert!((events[1].0 - (1.5 + 0.28 / 0.6)).abs() < 1e-6, "{events:?}");
    assert!((events[1].1.unwrap() - 2.3).abs() < 1e-6, "{events:?}");
    assert_eq!(events[1].2, 1);
    let first = run_first_only(&input);
    assert_eq!(first.contacts.len(), 1);
    assert_eq!(first.contacts[0].time_of_contact, 0.5);
}

/// A cube mesh on a slider and a mesh post on a fixed joint, both children of a base
/// whose only geometry is far below: the slider's cube (half 0.05) meets the post's
/// leading feature at x = 0.4 - `reach`, with x = 0.4 t.
fn self_collision_robot(post: &str) -> String {
    format!(
        r#"<robot name="pair">
  <link name="base"><collision><origin xyz="0 0 -0.5"/><geometry><sphere radius="0.03"/></geometry></collision></link>
  <link name="slider"><collision><geometry><mesh filename="cube.obj" scale="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="post">{post}</link>
  <joint name="x" type="prismatic"><parent link="base"/><child link="slider"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="mount" type="fixed"><parent link="base"/><child link="post"/><origin xyz="0.4 0 0"/></joint>
</robot>"#
    )
}

/// x: 0 -> 0.4 over [0, 1]: the slider's cube ends centred on the post, around it.
const SLIDE: &str = "joint_names: [x]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [0.4], time_from_start: 1}\n";

#[test]
fn mesh_mesh_self_collision_and_disabled_pairs() {
    let dir = mesh_dir();
    // How far the post's mesh reaches towards -x from its centre.
    let reach = |mesh: &(Vec<[f64; 3]>, Vec<[usize; 3]>), rpy: [f64; 3]| {
        let rotation = ccd_guard::math::UnitQuaternion::from_euler_angles(rpy[0], rpy[1], rpy[2]);
        mesh.0.iter().map(|v| -(rotation * ccd_guard::math::Vector3::from(v.map(as_loaded)) * 0.1).x).fold(f64::MIN, f64::max)
    };
    let posts = [
        // Octahedron vertex first (vertex-face).
        ("octahedron.obj", [0.0, 0.0, 0.0], reach(&octahedron_mesh(), [0.0; 3])),
        // Cube turned 45 degrees about z: a vertical edge first (edge-face, parallel).
        ("cube.obj", [0.0, 0.0, std::f64::consts::FRAC_PI_4], 0.05 * 2f64.sqrt()),
        // Cube turned generically: one vertex first.
        ("cube.obj", [0.3, 0.6, 0.9], reach(&cube_mesh(), [0.3, 0.6, 0.9])),
        // Octahedron turned generically.
        ("octahedron.obj", [0.7, -0.4, 0.2], reach(&octahedron_mesh(), [0.7, -0.4, 0.2])),
    ];
    for (mesh, rpy, reach) in posts {
        let post = format!("<collision><origin rpy=\"{}\"/><geometry><mesh filename=\"{mesh}\" scale=\"0.1 0.1 0.1\"/></geometry></collision>", fmt3(rpy));
        let post = post.as_str();
        let urdf = self_collision_robot(post);
        let toc = (0.4 - reach - 0.05) / 0.4;
        // Without an SRDF: slider and post are not adjacent (the base has geometry).
        let input = build_input(dir.path(), &urdf, "objects: []\n", SLIDE, None);
        let (slider, post_link) = (input.world.robot.link_named("slider").unwrap(), input.world.robot.link_named("post").unwrap());
        let result = run(&input);
        assert_eq!(result.contacts.len(), 1, "{post}: {:?}", result.contacts);
        let c = &result.contacts[0];
        assert_eq!((c.link, c.other), (slider.min(post_link), Body::Link(slider.max(post_link))));
        assert!((c.time_of_contact - toc).abs() < 1e-6, "{post}: toc {} expected {toc}", c.time_of_contact);
        // At the end the posts stick out of the cube or lie inside it (solid containment).
        assert_eq!(c.time_of_separation, None, "{post}: still in contact at the end");
        let r = reference(&input.world, &input.motion, 5000, 5000);
        assert!((r.t_ref.unwrap() - c.time_of_contact).abs() < 1e-6, "reference {:?}", r.t_ref);
        // Disabled by an SRDF-like pair: nothing (the SRDF replaces the adjacency rule,
        // and the base's ball is far from both).
        let disabled = [DisabledPair { link1: "post".into(), link2: "slider".into(), reason: Some("Never".into()) }];
        let input = build_input(dir.path(), &urdf, "objects: []\n", SLIDE, Some(&disabled));
        assert!(run(&input).contacts.is_empty());
        // Disabling another pair keeps this one.
        let other = [DisabledPair { link1: "base".into(), link2: "post".into(), reason: None }];
        let input = build_input(dir.path(), &urdf, "objects: []\n", SLIDE, Some(&other));
        let result = run(&input);
        assert_eq!(result.contacts.len(), 1);
        assert!((result.contacts[0].time_of_contact - toc).abs() < 1e-6);
    }
}

#[test]
fn first_only_gives_exactly_the_earliest_contact() {
    let dir = mesh_dir();
    let urdf = r#"<robot name="two">
  <link name="base"/>
  <link name="body"><collision><geometry><sphere radius="0.05"/></geometry></collision>
    <collision><origin xyz="0 0.3 0"/><geometry><mesh filename="icosahedron.stl" scale="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="arm"><collision><origin xyz="0 -0.3 0"/><geometry><box size="0.05 0.05 0.05"/></geometry></collision></link>
  <joint name="x" type="prismatic"><parent link="base"/><child link="body"/><axis xyz="1 0 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="fix" type="fixed"><parent link="body"/><child link="arm"/></joint>
</robot>"#;
    // The later obstacles first in the file, so index order is not time order.
    let scene = "objects:\n  \
                 - {id: far_board, type: box, dimensions: [0.003, 0.2, 0.2], pose: {position: [0.35, 0, 0]}}\n  \
                 - {id: cone, type: cone, dimensions: [0.1, 0.04], pose: {position: [0.3, -0.3, 0]}}\n  \
                 - {id: near_board, type: box, dimensions: [0.003, 0.2, 0.2], pose: {position: [0.2, 0.3, 0]}}\n";
    let input = build_input(dir.path(), urdf, scene, ACROSS, None);
    let full = run(&input);
    assert!(full.contacts.len() >= 3, "{:?}", full.contacts);
    assert!(full.contacts.windows(2).all(|w| w[0].time_of_contact <= w[1].time_of_contact));
    let first = run_first_only(&input);
    assert_eq!(first.contacts.len(), 1, "{:?}", first.contacts);
    let (f, c) = (&full.contacts[0], &first.contacts[0]);
    assert_eq!((c.link, c.other), (f.link, f.other));
    assert_eq!(input.world.body_name(c.other), "near_board");
    assert!((c.time_of_contact - f.time_of_contact).abs() < 1e-9);
    // The icosahedron meets the near board's face x = 0.1985 when its leading vertex does.
    let lead = icosahedron_mesh().0.iter().map(|v| as_loaded(v[0]) * 0.1).fold(f64::MIN, f64::max);
    let toc = 0.1985 - lead + 0.5;
    assert!((c.time_of_contact - toc).abs() < 1e-6, "toc {} expected {toc}", c.time_of_contact);
    let r = reference(&input.world, &input.motion, 3000, 3000);
    assert!((r.t_ref.unwrap() - f.time_of_contact).abs() < 1e-6);
    // In contact at the start: first_only gives one contact, at the start.
    let traj = "joint_names: [x]\npoints:\n  - {positions: [0.16], time_from_start: 0}\n  - {positions: [0.5], time_from_start: 1}\n";
    let input = build_input(dir.path(), urdf, scene, traj, None);
    let first = run_first_only(&input);
    assert_eq!(first.contacts.len(), 1, "{:?}", first.contacts);
    assert_eq!(first.contacts[0].time_of_contact, 0.0);
    assert_eq!(input.world.body_name(first.contacts[0].other), "near_board");
}

// ---------------------------------------------------------------------------------------
// Bugs found by the random test, reduced and pinned (regression tests).

/// Found by `random_worlds_against_dense_sampling` (case seed 17904395431685621898,
/// reduced): an icosahedron mesh on a 3-joint arm (quintic motion) leaves a cone at
/// t = 1.85426143. Near that separation the discrete mesh-cone test flickers
/// (touch / free / touch over ~6e-8 s, with GJK distances of 0 to 2e-8 m). The
/// separation march stops at one free instant, the solver restarts the pair from there
/// and at once "enters" again, so one contact becomes two events, the second
/// [1.8542614705, 1.8542614741] (3.5 ns), which the discrete checker confirms nowhere
/// on [toc, toc + 1e-6] (distance ~1.5e-8 m).
/// Expected: 2 events of l4-cone (the second [1.5737, 1.85426143]); got 3 before
/// 5bfae50 (which merges a re-entry within 1e-6 s of the exit into the event).
#[test]
fn event_split_by_the_discrete_tests_noise() {
    let urdf = r#"<robot name="random">
  <link name="l0"/>
  <link name="l1"/>
  <joint name="j1" type="revolute"><parent link="l0"/><child link="l1"/><origin xyz="0 0 0.1" rpy="0.34651550566725664 -0.2938442483804745 2.6149333331437457"/><axis xyz="0 0 1"/><limit lower="-2.668173937228172" upper="1.5465248028331378" effort="1" velocity="1"/></joint>
  <link name="l2"/>
  <joint name="j2" type="continuous"><parent link="l1"/><child link="l2"/><origin xyz="-0.13067679697451895 -0.1579370159281067 0.07020918770573087" rpy="-0.24584906484061603 -0.3047551425390273 -1.9383974952411318"/><axis xyz="0.33129246746486873 -0.45736679765248445 0.8252641476558583"/></joint>
  <link name="l3"/>
  <joint name="j3" type="revolute"><parent link="l2"/><child link="l3"/><origin xyz="-0.1452794249481964 -0.0040995667606156866 0.07036936494662221" rpy="0.22239235586007688 0.33906802485897125 -2.8008738209031536"/><axis xyz="-0.4729652371587286 -0.4002070209972913 0.7849447272157838"/><limit lower="-2.164106403749049" upper="2.2356556108553374" effort="1" velocity="1"/></joint>
  <link name="l4"><collision><origin xyz="0.2589250505408601 0.09762604886903857 0.07440915604302506" rpy="0.6744725634965212 -0.7584298065760184 2.264139557914558"/><geometry><mesh filename="icosahedron.stl" scale="0.15848010650575436 0.1378671002068257 0.1025070270859475"/></geometry></collision></link>
  <joint name="j4" type="fixed"><parent link="l3"/><child link="l4"/><origin xyz="-0.02987516923450544 -0.1272736250822919 0.06635149231466156" rpy="0.2703393092262758 0.3620099492174944 0.9386245341861801"/></joint>
</robot>"#;
    let scene = "objects:\n  - id: cone\n    type: cone\n    dimensions: [0.09225916669813564, 0.08355047488105823]\n    \
                 pose: {position: [-0.0420701724682063, -0.47457329137964943, 0.2274104401719579], orientation: [0.4859858666450327, 0.30050487474630483, 0.7792271486441206, 0.2575259375110354]}\n";
    let traj = "joint_names: [j1, j2, j3]\npoints:\n  \
                - {positions: [-2.566857095340527, -2.964453707503252, -1.4985530460159162], velocities: [0, 0, 0], accelerations: [0, 0, 0], time_from_start: 0.5575956346387946}\n  \
                - {positions: [-2.520124586191301, -2.186605012726247, -1.0124640544058405], velocities: [-0.879162189937156, -0.09353242642098403, 0.3196250454642735], accelerations: [0.9589142139037903, -1.585035101942864, -2.465053760866453], time_from_start: 1.2833976975688384}\n  \
                - {positions: [-2.668173937228172, -3.1631008486380225, -2.164106403749049], velocities: [0, 0, 0], accelerations: [0, 0, 0], time_from_start: 2.19498304755418}\n";
    let dir = mesh_dir();
    let input = build_input(dir.path(), urdf, scene, traj, None);
    let result = run(&input);
    let events: Vec<(f64, Option<f64>)> = result.contacts.iter().map(|c| (c.time_of_contact, c.time_of_separation)).collect();
    let mut checker = StateChecker::new(&input.world);
    for c in &result.contacts {
        assert!(
            touches_right_after(&mut checker, &input.motion, (c.link, c.other), c.time_of_contact),
            "event at {} is confirmed nowhere on [toc, toc + 1e-6]; events {events:?}",
            c.time_of_contact
        );
    }
    for w in events.windows(2) {
        assert!(w[1].0 - w[0].1.unwrap() > 1e-6, "an event restarts {:e} s after the previous one ends: {events:?}", w[1].0 - w[0].1.unwrap());
    }
    assert_eq!(events.len(), 2, "{events:?}");
}

/// Found by `random_worlds_against_dense_sampling` (NaN normals in 4 of 200 cases,
/// normals that do not part the pair in 12 more), reduced to two balls: a ball of
/// radius 0.05 slides along x from 0 to 0.5 over [0, 1]; an obstacle ball of radius
/// 0.04 stands at (0.3, y, z). The time of contact is right (closed form
/// (0.3 - sqrt(0.09^2 - y^2 - z^2)) / 0.5 to 1e-15), the normal is not: it should be
/// (centre of the link's ball - obstacle's centre) / 0.09 at contact. Got, e.g.:
/// (0.03, 0.02): [0, -1, 0] instead of [-0.916, -0.333, -0.222];
/// (0.02, 0.04) and (0.04, 0.01): [NaN, NaN, NaN].
/// The solver's `normal_at` normalises `point_a - point_b` of GJK's closest points at
/// the free instant just before contact, where the distance is ~1e-16 m: that
/// difference is rounding noise (or exactly zero: NaN, which the JSON report prints as
/// null). Fixed in 5bfae50 (the normal is taken where the distance is resolvable).
#[test]
fn contact_normals_point_from_the_obstacle_to_the_link() {
    let dir = mesh_dir();
    let urdf = slider_robot("<sphere radius=\"0.05\"/>", [0.0; 3]);
    let traj = "joint_names: [x]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [0.5], time_from_start: 1}\n";
    let mut wrong = Vec::new();
    for (y, z) in [(0.0, 0.0), (0.03, 0.0), (0.03, 0.02), (0.01, 0.02), (0.05, 0.05), (0.02, 0.04), (0.04, 0.01), (0.06, 0.0)] {
        let scene = format!("objects:\n  - id: o\n    type: sphere\n    dimensions: [0.04]\n    pose: {{position: [0.3, {y}, {z}]}}\n");
        let input = build_input(dir.path(), &urdf, &scene, traj, None);
        let result = run(&input);
        assert_eq!(result.contacts.len(), 1);
        let c = &result.contacts[0];
        let toc = (0.3 - (0.09f64 * 0.09 - y * y - z * z).sqrt()) / 0.5;
        assert!((c.time_of_contact - toc).abs() < 1e-9, "({y}, {z}): toc {} expected {toc}", c.time_of_contact);
        let expected = Vector3::new(0.5 * toc - 0.3, -y, -z).normalize();
        match c.normal {
            Some(n) if (n - expected).norm() < 1e-3 => {}
            n => wrong.push(format!("ball at (0.3, {y}, {z}): normal {:?}, expected {:?}", n.map(|n| n.as_slice().to_vec()), expected.as_slice())),
        }
    }
    // What a user sees: `--method pipeline --format json` prints the NaN normal as nulls.
    let scene = "objects:\n  - id: o\n    type: sphere\n    dimensions: [0.04]\n    pose: {position: [0.3, 0.02, 0.04]}\n";
    let input = build_input(dir.path(), &urdf, scene, traj, None);
    let (report, _) = ccd_guard::check::pipeline_method::check_pipeline(&input, &PipelineOptions::default(), 0.001);
    let json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let normal = &json["contacts"][0]["normal"];
    if !normal.as_array().is_some_and(|n| n.iter().all(|x| x.is_f64())) {
        wrong.push(format!("JSON report: \"normal\": {normal}"));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
