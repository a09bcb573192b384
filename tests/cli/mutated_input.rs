//! Mutated input for every reader we own or configure (issue 17): the URDF and SRDF
//! readers, the scene, trajectory (YAML and JSON) files, STL, OBJ and COLLADA meshes,
//! and the CDR of every message type the node and its gate receive, each decoded
//! message then handed to the node's worker as the transport would. (Octomap streams
//! have their own in `tests/check/octomap_stream.rs`.)
//!
//! Inputs are valid seeds with bits flipped, truncated, ranges duplicated, spliced with
//! another seed and garbage appended ([`crate::common::mutate`]). A reader passes when no input
//! makes it panic, none takes longer than [`HANG`], and the process's peak memory stays
//! under [`MEMORY`]. `MUTATED_INPUT_CASES=N` runs N inputs per reader (300 by default);
//! a failing input is saved under the cargo target's test directory, and
//! `MUTATED_INPUT_TRACE=<reader>` saves each input of that reader before it is read (to
//! catch one that hangs).

use crate::common::demo::{demo, demo_guard, demo_trajectory};
use crate::common::mutate::mutate;
use crate::common::rng::Rng;
use ccd_guard::moveit::cdr::{from_cdr, to_cdr};
use ccd_guard::moveit::gate::{GateGoal, GateOptions, GoalKey};
use ccd_guard::moveit::guard::TrajectoryJob;
use ccd_guard::moveit::msg;
use ccd_guard::node::work_queue::Work;
use ccd_guard::node::worker::{Output, Request, Update, Worker};
use ccd_guard::robot::load_mesh;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::{srdf, urdf};
use ccd_guard::scene::parse_scene;
use ccd_guard::{math::Vector3, motion::parse_trajectory};
use serde::Serialize;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Longest any one input may take.
const HANG: Duration = Duration::from_secs(10);
/// Peak resident memory the whole test process may reach.
const MEMORY: u64 = 4 << 30;

fn cases() -> usize {
    std::env::var("MUTATED_INPUT_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(300)
}

/// Feeds `cases()` mutations of `seeds` to `read` (after checking that every seed reads):
/// no panic, no input slower than [`HANG`]; some inputs must be rejected with a message.
fn run_reader(name: &str, seeds: &[Vec<u8>], mut read: impl FnMut(&[u8]) -> Result<(), String>) {
    for (k, seed) in seeds.iter().enumerate() {
        if let Err(e) = read(seed) {
            panic!("{name}: seed {k} does not read: {e}");
        }
    }
    let mut rng = Rng::new(name.bytes().fold(17, |h, b| h.wrapping_mul(31).wrapping_add(b as u64)));
    let (mut accepted, mut rejected, mut slowest) = (0, 0, Duration::ZERO);
    let started = Instant::now();
    for case in 0..cases() {
        let mut bytes = seeds[case % seeds.len()].clone();
        mutate(&mut rng, seeds, &mut bytes);
        if std::env::var("MUTATED_INPUT_TRACE").is_ok_and(|n| n == name) {
            let _ = std::fs::write(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("mutated_input_{name}_current.bin")), &bytes);
            eprintln!("{name}: case {case}");
        }
        let start = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| read(&bytes)));
        let took = start.elapsed();
        slowest = slowest.max(took);
        let failure = match outcome {
            Ok(Ok(())) => {
                accepted += 1;
                None
            }
            Ok(Err(e)) if e.trim().is_empty() => Some("rejected without a message".to_string()),
            Ok(Err(_)) => {
                rejected += 1;
                None
            }
            Err(payload) => Some(format!(
                "panicked: {}",
                payload.downcast_ref::<String>().cloned().or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default()
            )),
        };
        let failure = failure.or_else(|| (took > HANG).then(|| format!("took {took:?}")));
        if let Some(failure) = failure {
            let saved = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("mutated_input_{name}_{case}.bin"));
            let _ = std::fs::write(&saved, &bytes);
            panic!("{name}: case {case} {failure} (input in {})", saved.display());
        }
    }
    eprintln!("{name}: {} inputs in {:.2?}: {accepted} read, {rejected} rejected with a message; slowest {slowest:.2?}", cases(), started.elapsed());
    assert!(rejected > 0, "{name}: no mutation was rejected; the mutations do not reach the reader");
    assert_peak_memory();
}

/// The process's peak resident memory (Linux), under [`MEMORY`].
fn assert_peak_memory() {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return };
    let peak_kib: u64 = status.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()).unwrap_or(0);
    assert!(peak_kib * 1024 < MEMORY, "peak memory {peak_kib} KiB");
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn file(name: &str) -> Vec<u8> {
    std::fs::read(demo(name)).unwrap()
}

#[test]
fn mutated_robot_descriptions_fail_cleanly() {
    let resolver = ResourceResolver::from_env(Vec::new());
    let urdf_path = demo("robot.urdf");
    run_reader("urdf", &[file("robot.urdf")], |b| urdf::parse_urdf(&text(b), &urdf_path, &resolver).map(drop).map_err(|e| e.to_string()));
    let robot = urdf::load_urdf(&urdf_path, &resolver).unwrap();
    let srdf_path = demo("robot.srdf");
    run_reader("srdf", &[file("robot.srdf")], |b| {
        srdf::parse_disabled_pairs(&text(b), &srdf_path).map_err(|e| e.to_string())?;
        srdf::parse_for_robot(&text(b), &srdf_path, &robot).map(drop).map_err(|e| e.to_string())
    });
}

#[test]
fn mutated_scene_and_trajectory_files_fail_cleanly() {
    let resolver = ResourceResolver::from_env(Vec::new());
    let scene_path = demo("scene.yaml");
    run_reader("scene", &[file("scene.yaml")], |b| parse_scene(&text(b), &scene_path, &resolver).map(drop).map_err(|e| e.to_string()));
    let yaml: Vec<Vec<u8>> = ["traj_free.yaml", "traj_collide.yaml", "traj_thin.yaml"].iter().map(|f| file(f)).collect();
    run_reader("trajectory_yaml", &yaml, |b| parse_trajectory(&text(b), Path::new("t.yaml")).map(drop).map_err(|e| e.to_string()));
    let json: Vec<Vec<u8>> = yaml
        .iter()
        .map(|y| {
            let value: serde_json::Value = serde_norway::from_str(&text(y)).unwrap();
            serde_json::to_vec_pretty(&value).unwrap()
        })
        .collect();
    run_reader("trajectory_json", &json, |b| parse_trajectory(&text(b), Path::new("t.json")).map(drop).map_err(|e| e.to_string()));
}

/// A small closed mesh (a tetrahedron) as ASCII STL, OBJ and COLLADA.
fn tetrahedron_files() -> [(&'static str, Vec<u8>); 3] {
    let v = [[0.0, 0.0, 0.0], [0.1, 0.0, 0.0], [0.0, 0.1, 0.0], [0.0, 0.0, 0.1]];
    let faces = [[0, 2, 1], [0, 1, 3], [1, 2, 3], [0, 3, 2]];
    let mut stl = String::from("solid t\n");
    for f in faces {
        stl += "  facet normal 0 0 0\n    outer loop\n";
        for i in f {
            stl += &format!("      vertex {} {} {}\n", v[i][0], v[i][1], v[i][2]);
        }
        stl += "    endloop\n  endfacet\n";
    }
    stl += "endsolid t\n";
    let obj = v
        .iter()
        .map(|p| format!("v {} {} {}\n", p[0], p[1], p[2]))
        .chain(faces.iter().map(|f| format!("f {} {} {}\n", f[0] + 1, f[1] + 1, f[2] + 1)))
        .collect::<String>();
    let positions = v.iter().flatten().map(|x| x.to_string()).collect::<Vec<_>>().join(" ");
    let indices = faces.iter().flatten().map(|i| i.to_string()).collect::<Vec<_>>().join(" ");
    let dae = format!(
        r##"<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="meter" meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries>
    <geometry id="t" name="t">
      <mesh>
        <source id="t-positions">
          <float_array id="t-positions-array" count="12">{positions}</float_array>
          <technique_common>
            <accessor source="#t-positions-array" count="4" stride="3">
              <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
            </accessor>
          </technique_common>
        </source>
        <vertices id="t-vertices"><input semantic="POSITION" source="#t-positions"/></vertices>
        <triangles count="4"><input semantic="VERTEX" source="#t-vertices" offset="0"/><p>{indices}</p></triangles>
      </mesh>
    </geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="s"><node id="n"><instance_geometry url="#t"/></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"##
    );
    [("stl", stl.into_bytes()), ("obj", obj.into_bytes()), ("dae", dae.into_bytes())]
}

#[test]
fn mutated_meshes_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let resolver = ResourceResolver::from_env(Vec::new());
    let [ascii_stl, obj, dae] = tetrahedron_files();
    let binary_stl = vec![file("meshes/upper_arm.stl"), file("meshes/forearm.stl")];
    for (name, extension, seeds) in
        [("stl_binary", "stl", binary_stl), ("stl_ascii", "stl", vec![ascii_stl.1]), ("obj", "obj", vec![obj.1]), ("dae", "dae", vec![dae.1])]
    {
        let path = dir.path().join(format!("mesh.{extension}"));
        run_reader(name, &seeds, |b| {
            std::fs::write(&path, b).unwrap();
            load_mesh(&resolver, &path, Vector3::new(1.0, 1.0, 1.0)).map(drop).map_err(|e| e.to_string())
        });
    }
}

fn cdr<T: Serialize>(message: &T) -> Vec<u8> {
    to_cdr(message).unwrap()
}

/// Decodes `bytes` as `T` (the node's CDR reader) and, when that works, hands the
/// message to `worker` as the transport would; the worker's answers must name an
/// `invalid` input or be a verdict.
fn decode_and_handle<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    worker: &mut Worker,
    work: impl FnOnce(T) -> Work<Update, TrajectoryJob, Request>,
) -> Result<(), String> {
    let message: T = from_cdr(bytes).map_err(|e| e.to_string())?;
    let mut outputs = Vec::new();
    worker.handle(work(message), &mut |o| outputs.push(o));
    for output in &outputs {
        if let Output::Verdict(r) = output
            && r.verdict.verdict == "invalid"
            && r.verdict.error.starts_with("internal error")
        {
            return Err(format!("PANIC CONTAINED BY THE WORKER: {}", r.verdict.error));
        }
    }
    Ok(())
}

#[test]
fn mutated_messages_fail_cleanly() {
    let trajectory = demo_trajectory("traj_free.yaml");
    let joints = msg::JointState { name: trajectory.joint_names.clone(), position: trajectory.points[0].positions.clone(), ..Default::default() };
    let object = msg::CollisionObject {
        header: msg::Header { frame_id: "world".into(), ..Default::default() },
        id: "crate".into(),
        pose: msg::Pose { position: msg::Point { x: -2.0, y: -2.0, z: 0.05 }, ..Default::default() },
        primitives: vec![msg::SolidPrimitive { kind: msg::SolidPrimitive::BOX, dimensions: vec![0.1, 0.1, 0.1], ..Default::default() }],
        primitive_poses: vec![msg::Pose::default()],
        operation: msg::CollisionObject::ADD,
        ..Default::default()
    };
    let scene = msg::PlanningScene {
        is_diff: true,
        world: msg::PlanningSceneWorld { collision_objects: vec![object.clone()], ..Default::default() },
        ..Default::default()
    };
    let display =
        msg::DisplayTrajectory { trajectory: vec![msg::RobotTrajectory { joint_trajectory: trajectory.clone(), ..Default::default() }], ..Default::default() };
    let meshes = format!("filename=\"file://{}/", demo("").display());
    let description = msg::StringMessage { data: String::from_utf8(file("robot.urdf")).unwrap().replace("filename=\"", &meshes) };
    let request = msg::CheckTrajectoryRequest { trajectory: trajectory.clone(), start_state: joints.clone(), method: String::new() };
    let goal = msg::FollowJointTrajectoryGoal { trajectory: trajectory.clone(), ..Default::default() };
    let gate_goal =
        |goal: msg::FollowJointTrajectoryGoal| GateGoal { key: GoalKey { controller: 0, goal_id: msg::Uuid { uuid: [1; 16] } }, source: "gate".into(), goal };

    // The worker keeps its state across inputs, as the node does.
    let mut worker = Worker::new(demo_guard(), GateOptions::default());
    run_reader("cdr_joint_trajectory", &[cdr(&trajectory)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::JointTrajectory| Work::Trajectory(TrajectoryJob::from_joint_trajectory("planned_trajectory", m)))
    });
    run_reader("cdr_display_trajectory", &[cdr(&display)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::DisplayTrajectory| Work::Trajectory(TrajectoryJob::from_display_trajectory("display_planned_path", m)))
    });
    run_reader("cdr_joint_state", &[cdr(&joints)], |b| decode_and_handle(b, &mut worker, |m: msg::JointState| Work::JointState(Update::JointState(m))));
    run_reader("cdr_check_trajectory_request", &[cdr(&request)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::CheckTrajectoryRequest| Work::Call(Request::Service(Default::default(), TrajectoryJob::from_request(m))))
    });
    run_reader("cdr_follow_joint_trajectory_goal", &[cdr(&goal)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::FollowJointTrajectoryGoal| Work::Call(Request::Goal(gate_goal(m))))
    });
    run_reader("cdr_collision_object", &[cdr(&object)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::CollisionObject| Work::Update(Update::CollisionObject(Box::new(m))))
    });
    run_reader("cdr_planning_scene", &[cdr(&scene)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::PlanningScene| Work::Update(Update::PlanningScene(Box::new(m))))
    });
    run_reader("cdr_robot_description", &[cdr(&description)], |b| {
        decode_and_handle(b, &mut worker, |m: msg::StringMessage| Work::Update(Update::RobotDescription(m.data)))
    });
    // What the gate's action client and server decode besides the goal.
    let result = msg::FollowJointTrajectoryResult { error_code: -4, error_string: "ccd_guard: stopped".into() };
    run_reader("cdr_follow_joint_trajectory_result", &[cdr(&result)], |b| from_cdr::<msg::FollowJointTrajectoryResult>(b).map(drop).map_err(|e| e.to_string()));
    let feedback = msg::FollowJointTrajectoryFeedback { joint_names: trajectory.joint_names.clone(), ..Default::default() };
    run_reader("cdr_follow_joint_trajectory_feedback", &[cdr(&feedback)], |b| {
        from_cdr::<msg::FollowJointTrajectoryFeedback>(b).map(drop).map_err(|e| e.to_string())
    });
    run_reader("cdr_cancel_goal_request", &[cdr(&msg::CancelGoalRequest::default())], |b| {
        from_cdr::<msg::CancelGoalRequest>(b).map(drop).map_err(|e| e.to_string())
    });
    run_reader("cdr_goal_status_array", &[cdr(&msg::GoalStatusArray::default())], |b| from_cdr::<msg::GoalStatusArray>(b).map(drop).map_err(|e| e.to_string()));
}
