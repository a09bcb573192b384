//! Shared by the benchmarks: the Panda of `example-robot-data` (from the project's
//! `.venv`) in a seeded 20-object scene, and free and colliding configurations.
#![allow(dead_code)]
use ccd_guard::check::sampled::{SampledOptions, check_sampled};
use ccd_guard::check::{CheckInput, Verdict};
use ccd_guard::collision::{CollisionWorld, StateChecker};
use ccd_guard::motion::{JointMotion, Trajectory, TrajectoryPoint};
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{srdf, urdf};
use ccd_guard::scene::parse_scene;
use std::path::{Path, PathBuf};

pub struct PandaBench {
    pub world: CollisionWorld,
    pub free: Vec<Vec<f64>>,
    pub colliding: Vec<Vec<f64>>,
    pub scene_json: String,
    pub urdf: PathBuf,
    pub srdf: PathBuf,
    pub prefix: PathBuf,
}

/// xorshift64*: a deterministic generator without another dependency.
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.max(1))
    }
    pub fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = (self.0.wrapping_mul(0x2545F4914F6CDD1D) >> 11) as f64 / (1u64 << 53) as f64;
        lo + (hi - lo) * x
    }
}

/// Runs a Python peer of the project's venv (`benches/SCRIPT`) on `request`, written to
/// a temporary JSON file whose path is its argument, and reads the JSON it prints
/// (`None`, with its error on stderr, when it cannot run).
pub fn run_python_peer(script: &str, request: &serde_json::Value) -> Option<serde_json::Value> {
    let dir = tempfile::tempdir().ok()?;
    let path = dir.path().join("request.json");
    std::fs::write(&path, request.to_string()).ok()?;
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::process::Command::new(format!("{root}/.venv/bin/python")).arg(format!("{root}/benches/{script}")).arg(&path).output().ok()?;
    if !out.status.success() {
        eprintln!("{script} failed: {}", String::from_utf8_lossy(&out.stderr));
        return None;
    }
    serde_json::from_slice(&out.stdout).ok()
}

/// `cmeel.prefix` of the project's venv (made by `scripts/setup_python.sh`).
pub fn cmeel_prefix() -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let lib = root.join(".venv/lib");
    let python = std::fs::read_dir(&lib)
        .unwrap_or_else(|_| panic!("{} missing: run `bash scripts/setup_python.sh` first", lib.display()))
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().starts_with("python"))
        .expect("a python dir in .venv/lib");
    python.path().join("site-packages/cmeel.prefix")
}

/// A seeded scene of 20 boxes, spheres and cylinders around the Panda, as scene-file
/// JSON (which is also YAML).
pub fn scene_json(seed: u64) -> String {
    scene_objects(&mut Rng::new(seed), 20).to_string()
}

/// `count` boxes, spheres and cylinders in a robot's reach (outside 0.25 m of its base
/// axis), drawn from `rng`, as a scene file's JSON value.
pub fn scene_objects(rng: &mut Rng, count: usize) -> serde_json::Value {
    let mut objects = Vec::new();
    for i in 0..count {
        let (x, y, z) = loop {
            let (x, y, z) = (rng.uniform(-0.8, 0.8), rng.uniform(-0.8, 0.8), rng.uniform(0.0, 1.1));
            if (x * x + y * y).sqrt() > 0.25 {
                break (x, y, z);
            }
        };
        let q = [rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)];
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        let (kind, dimensions) = match i % 3 {
            0 => ("box", vec![rng.uniform(0.04, 0.25), rng.uniform(0.04, 0.25), rng.uniform(0.04, 0.25)]),
            1 => ("sphere", vec![rng.uniform(0.02, 0.12)]),
            _ => ("cylinder", vec![rng.uniform(0.05, 0.3), rng.uniform(0.02, 0.08)]),
        };
        objects.push(serde_json::json!({
            "id": format!("obj{i}"), "type": kind, "dimensions": dimensions,
            "pose": {"position": [x, y, z], "orientation": q.map(|v| v / n)},
        }));
    }
    serde_json::json!({ "objects": objects })
}

pub fn load(states: usize) -> PandaBench {
    let prefix = cmeel_prefix();
    let robots = prefix.join("share/example-robot-data/robots/panda_description");
    let urdf_path = robots.join("urdf/panda.urdf");
    let srdf_path = robots.join("srdf/panda.srdf");
    let resolver = ResourceResolver { ament_prefix_path: vec![prefix.clone()], ..ResourceResolver::default() };
    let robot = urdf::load_urdf(&urdf_path, &resolver).expect("panda loads");
    let disabled = srdf::parse_disabled_pairs(&std::fs::read_to_string(&srdf_path).unwrap(), &srdf_path).unwrap();
    let yaml = scene_json(7);
    let scene = parse_scene(&yaml, Path::new("bench_scene.yaml"), &resolver).unwrap();
    let world = CollisionWorld::new(robot, scene, Some(&disabled));
    let mut rng = Rng::new(11);
    let (mut free, mut colliding) = (Vec::new(), Vec::new());
    {
        let mut checker = StateChecker::new(&world);
        while free.len() < states || colliding.len() < states {
            let q: Vec<f64> = world
                .robot
                .variables
                .iter()
                .map(|&j| {
                    let joint = &world.robot.joints[j];
                    rng.uniform(joint.lower.max(-3.0), joint.upper.min(3.0))
                })
                .collect();
            let hit = !checker.contacts(&q, true).is_empty();
            let bucket = if hit { &mut colliding } else { &mut free };
            if bucket.len() < states {
                bucket.push(q);
            }
        }
    }
    PandaBench { world, free, colliding, scene_json: yaml, urdf: urdf_path, srdf: srdf_path, prefix }
}

/// Waypoints `q0 → q1` cut into segments of at most `step` per joint, 0.1 s apart.
pub fn straight_move(world: &CollisionWorld, q0: &[f64], q1: &[f64], step: f64) -> JointMotion {
    let names: Vec<String> = world.robot.variable_names().map(str::to_string).collect();
    let largest = q0.iter().zip(q1).map(|(a, b)| (b - a).abs()).fold(0.0, f64::max);
    let n = ((largest / step).ceil() as usize).max(1);
    let points = (0..=n)
        .map(|k| {
            let f = k as f64 / n as f64;
            let positions = q0.iter().zip(q1).map(|(a, b)| a + f * (b - a)).collect();
            TrajectoryPoint { positions, velocities: None, accelerations: None, time_from_start: 0.1 * k as f64 }
        })
        .collect();
    JointMotion::new(&world.robot, &Trajectory { joint_names: names, points }, None).expect("valid trajectory")
}

/// `count` free and colliding moves of up to `reach` rad per joint from free
/// configurations, in segments of `step`: the free ones are free under sampling at
/// 0.001 rad; of a colliding one, the segment where it first touches, on its own.
pub fn moves(bench: &PandaBench, reach: f64, step: f64, seed: u64, count: usize) -> (Vec<JointMotion>, Vec<JointMotion>) {
    let world = &bench.world;
    let mut rng = Rng::new(seed);
    let (mut free, mut colliding) = (Vec::new(), Vec::new());
    for q0 in bench.free.iter().cycle().take(20000) {
        if free.len() >= count && colliding.len() >= count {
            break;
        }
        let q1: Vec<f64> = q0
            .iter()
            .zip(&world.robot.variables)
            .map(|(q, &j)| (q + rng.uniform(-reach, reach)).clamp(world.robot.joints[j].lower, world.robot.joints[j].upper))
            .collect();
        let motion = straight_move(world, q0, &q1, step);
        let input = CheckInput { world: world.clone().into(), motion };
        let dense = check_sampled(&input, &SampledOptions { resolution: 0.001, first_only: true, tolerance: 0.001 });
        match dense.verdict {
            Verdict::Collision if colliding.len() < count => {
                // The segment of first contact, on its own (it starts free).
                let t = dense.contacts.first().expect("a contact").time_of_contact;
                let k = input.motion.segment_at(t).expect("within the motion");
                colliding.push(straight_move(world, &input.motion.waypoints[k], &input.motion.waypoints[k + 1], step));
            }
            Verdict::Uncertain if free.len() < count => free.push(input.motion),
            _ => {}
        }
    }
    (free, colliding)
}
