//! MoveIt's formats at the command line (issue 15, item 6): what `ros2 topic echo --once`
//! prints of a JointTrajectory, RobotTrajectory, DisplayTrajectory and PlanningScene,
//! and MoveIt's `.scene` text (both its formats), give the same reports as the
//! contract's files with the same content.
use std::fs;
use std::path::Path;

use crate::common::cli::{ccd_guard, run};
use crate::common::demo::demo;

/// `ccd_guard check` on the demo robot; (exit status, report, stderr).
fn check(scene: Option<&Path>, trajectory: &Path, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut command = ccd_guard();
    command.args(["check", "--urdf"]).arg(demo("robot.urdf")).arg("--srdf").arg(demo("robot.srdf")).arg("--trajectory").arg(trajectory).args(extra);
    if let Some(scene) = scene {
        command.arg("--scene").arg(scene);
    }
    let (status, stdout, stderr) = run(&mut command);
    (status, serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null), stderr)
}

fn duration(t: f64) -> String {
    format!("sec: {}\n    nanosec: {}", t.floor() as i64, ((t - t.floor()) * 1e9).round() as u64)
}

/// A JointTrajectory as `ros2 topic echo` prints it, indented by `pad`.
fn joint_trajectory_echo(names: &[String], points: &[(Vec<f64>, f64)], pad: &str) -> String {
    let mut s = String::from("header:\n  stamp:\n    sec: 1700000000\n    nanosec: 5\n  frame_id: world\njoint_names:\n");
    for n in names {
        s += &format!("- {n}\n");
    }
    s += "points:\n";
    for (q, t) in points {
        s += "- positions:\n";
        for v in q {
            s += &format!("  - {v}\n");
        }
        s += &format!("  velocities: []\n  accelerations: []\n  effort: []\n  time_from_start:\n    {}\n", duration(*t));
    }
    s.lines().map(|l| format!("{pad}{l}\n")).collect()
}

fn demo_points(file: &str) -> (Vec<String>, Vec<(Vec<f64>, f64)>) {
    let t = ccd_guard::motion::load_trajectory(&demo(file)).unwrap();
    (t.joint_names.clone(), t.points.iter().map(|p| (p.positions.clone(), p.time_from_start)).collect())
}

fn same_report(a: &serde_json::Value, b: &serde_json::Value) {
    for key in ["verdict", "certified", "time_of_contact", "segment_index"] {
        assert_eq!(a[key], b[key], "{key}: {a} against {b}");
    }
    let pairs = |r: &serde_json::Value| r["contacts"].as_array().unwrap().iter().map(|c| (c["link"].clone(), c["other"].clone())).collect::<Vec<_>>();
    assert_eq!(pairs(a), pairs(b));
}

#[test]
fn trajectory_echoes() {
    let dir = tempfile::tempdir().unwrap();
    let scene = demo("scene.yaml");
    for file in ["traj_collide.yaml", "traj_free.yaml"] {
        let (_, reference, _) = check(Some(&scene), &demo(file), &[]);
        let (names, points) = demo_points(file);
        // JointTrajectory, with the echo's trailing `---`.
        let path = dir.path().join("joint.yaml");
        fs::write(&path, joint_trajectory_echo(&names, &points, "") + "---\n").unwrap();
        let (code, report, err) = check(Some(&scene), &path, &[]);
        assert_ne!(code, 2, "{err}");
        same_report(&report, &reference);
        // RobotTrajectory.
        let robot = format!(
            "joint_trajectory:\n{}multi_dof_joint_trajectory:\n  header:\n    stamp:\n      sec: 0\n      nanosec: 0\n    frame_id: ''\n  joint_names: []\n  points: []\n---\n",
            joint_trajectory_echo(&names, &points, "  ")
        );
        let path = dir.path().join("robot.yaml");
        fs::write(&path, robot).unwrap();
        let (code, report, err) = check(Some(&scene), &path, &[]);
        assert_ne!(code, 2, "{err}");
        same_report(&report, &reference);
        // DisplayTrajectory in two parts (the second's times from 0, its first point the
        // first's last), as move_group publishes a plan of several stages.
        let split = points.len() / 2;
        let first = &points[..=split];
        let offset = points[split].1;
        let second: Vec<(Vec<f64>, f64)> = points[split..].iter().map(|(q, t)| (q.clone(), t - offset)).collect();
        let part = |p: &[(Vec<f64>, f64)]| {
            format!("- joint_trajectory:\n{}  multi_dof_joint_trajectory:\n    joint_names: []\n    points: []\n", joint_trajectory_echo(&names, p, "    "))
        };
        let display = format!(
            "model_id: demo_arm\ntrajectory:\n{}{}trajectory_start:\n  joint_state:\n    header:\n      stamp:\n        sec: 0\n        nanosec: 0\n      frame_id: ''\n    name: []\n    position: []\n    velocity: []\n    effort: []\n  attached_collision_objects: []\n  is_diff: false\n---\n",
            part(first),
            part(&second)
        );
        let path = dir.path().join("display.yaml");
        fs::write(&path, display).unwrap();
        let (code, report, err) = check(Some(&scene), &path, &[]);
        assert_ne!(code, 2, "{err}");
        same_report(&report, &reference);
    }
}

/// The scene of the test: a box in the path of the demo's free trajectory (the tool
/// at its second waypoint) and the table; as the contract's YAML.
const WALL: [f64; 3] = [0.36, 0.2, 0.25];

fn contract_scene() -> String {
    format!(
        "objects:\n  - id: wall\n    type: box\n    dimensions: [0.1, 0.1, 0.1]\n    pose: {{position: [{}, {}, {}], orientation: [0, 0, 0.3826834, 0.9238795]}}\n  - id: post\n    type: cylinder\n    dimensions: [0.6, 0.04]\n    pose: {{position: [-0.4, 0.3, 0.3]}}\n",
        WALL[0], WALL[1], WALL[2]
    )
}

#[test]
fn planning_scene_echo_and_scene_text() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        fs::write(&path, text).unwrap();
        path
    };
    let yaml = write("scene.yaml", &contract_scene());
    let trajectory = demo("traj_free.yaml");
    let (_, reference, _) = check(Some(&yaml), &trajectory, &[]);
    assert_eq!(reference["verdict"], "collision", "the wall is in the way: {reference}");
    let pose = |x: f64, y: f64, z: f64, q: [f64; 4], pad: &str| {
        format!(
            "{pad}position:\n{pad}  x: {x}\n{pad}  y: {y}\n{pad}  z: {z}\n{pad}orientation:\n{pad}  x: {}\n{pad}  y: {}\n{pad}  z: {}\n{pad}  w: {}\n",
            q[0], q[1], q[2], q[3]
        )
    };
    let object = |id: &str, kind: u8, dims: &[f64], at: (f64, f64, f64), q: [f64; 4]| {
        let mut s = format!(
            "  - header:\n      stamp:\n        sec: 0\n        nanosec: 0\n      frame_id: base_link\n    pose:\n{}",
            pose(at.0, at.1, at.2, q, "      ")
        );
        s += &format!("    id: {id}\n    type:\n      key: ''\n      db: ''\n    primitives:\n    - type: {kind}\n      dimensions:\n");
        for d in dims {
            s += &format!("      - {d}\n");
        }
        s += &format!(
            "      polygon:\n        points: []\n    primitive_poses:\n    -\n{}    meshes: []\n    mesh_poses: []\n    planes: []\n    plane_poses: []\n    subframe_names: []\n    subframe_poses: []\n    operation: 0\n",
            pose(0.0, 0.0, 0.0, [0.0, 0.0, 0.0, 1.0], "      ")
        );
        s
    };
    let q45 = [0.0, 0.0, 0.3826834, 0.9238795];
    let objects =
        object("wall", 1, &[0.1, 0.1, 0.1], (WALL[0], WALL[1], WALL[2]), q45) + &object("post", 3, &[0.6, 0.04], (-0.4, 0.3, 0.3), [0.0, 0.0, 0.0, 1.0]);
    let planning_scene = |acm: &str| {
        format!(
            "name: cell\nrobot_state:\n  joint_state:\n    header:\n      stamp:\n        sec: 0\n        nanosec: 0\n      frame_id: ''\n    name: []\n    position: []\n    velocity: []\n    effort: []\n  attached_collision_objects: []\n  is_diff: false\nrobot_model_name: demo_arm\nfixed_frame_transforms: []\nallowed_collision_matrix:\n{acm}link_padding: []\nlink_scale: []\nobject_colors: []\nworld:\n  collision_objects:\n{objects}  octomap:\n    header:\n      stamp:\n        sec: 0\n        nanosec: 0\n      frame_id: ''\n    origin:\n{}    octomap:\n      header:\n        stamp:\n          sec: 0\n          nanosec: 0\n        frame_id: ''\n      binary: false\n      id: ''\n      resolution: 0.0\n      data: []\nis_diff: false\n---\n",
            pose(0.0, 0.0, 0.0, [0.0, 0.0, 0.0, 1.0], "      ")
        )
    };
    let empty_acm = "  entry_names: []\n  entry_values: []\n  default_entry_names: []\n  default_entry_values: []\n";
    let echo = write("scene_echo.yaml", &planning_scene(empty_acm));
    let (code, report, err) = check(Some(&echo), &trajectory, &[]);
    assert_ne!(code, 2, "{err}");
    same_report(&report, &reference);
    // The allowed collision matrix: the wall allowed against everything is no contact.
    let allow_wall = "  entry_names: []\n  entry_values: []\n  default_entry_names:\n  - wall\n  default_entry_values:\n  - true\n";
    let allowed = write("scene_allowed.yaml", &planning_scene(allow_wall));
    let (_, report, err) = check(Some(&allowed), &trajectory, &[]);
    assert_eq!(report["verdict"], "collision_free", "{report} {err}");
    // MoveIt's .scene text, both formats: the object pose and shape pose (new), or the
    // shape pose in the world (old).
    let new_format = format!(
        "(noname)+\n* wall\n{} {} {}\n0 0 0.3826834 0.9238795\n1\nbox\n0.1 0.1 0.1\n0 0 0\n0 0 0 1\n0 0 0 0\n0\n* post\n-0.4 0.3 0.2\n0 0 0 1\n1\ncylinder\n0.04 0.6\n0 0 0.1\n0 0 0 1\n0.5 0.5 0.5 1\n1\ntop\n0 0 0.3\n0 0 0 1\n.\n",
        WALL[0], WALL[1], WALL[2]
    );
    let old_format = format!(
        "my cell\n* wall\n1\nbox\n0.1 0.1 0.1\n{} {} {}\n0 0 0.3826834 0.9238795\n0 0 0 0\n* post\n1\ncylinder\n0.04 0.6\n-0.4 0.3 0.3\n0 0 0 1\n0 0 0 0\n.\n",
        WALL[0], WALL[1], WALL[2]
    );
    for (name, text) in [("new.scene", new_format), ("old.scene", old_format)] {
        let path = write(name, &text);
        let (code, report, err) = check(Some(&path), &trajectory, &[]);
        assert_ne!(code, 2, "{name}: {err}");
        same_report(&report, &reference);
        assert_eq!(report["min_clearance"], reference["min_clearance"], "{name}");
    }
}

#[test]
fn bad_moveit_files_are_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let trajectory = demo("traj_free.yaml");
    for (text, words) in [
        ("(noname)\n* wall\n0 0 0\n0 0 0 1\n1\nbox\n0.1 0.1\n", "ends before"),
        ("(noname)\n* wall\n0 0 0\n0 0 0 1\n1\nprism\n0.1\n0 0 0\n0 0 0 1\n0 0 0 0\n0\n.\n", "line 6: unknown shape 'prism'"),
        ("(noname)\n* wall\n0 0 0\n0 0 0 1\n1\nbox\n0.1 x 0.1\n0 0 0\n0 0 0 1\n0 0 0 0\n0\n.\n", "line 7: box size x y z (2 of 3) 'x'"),
        ("(noname)\n* floor\n0 0 0\n0 0 0 1\n1\nplane\n0 0 1 0\n0 0 0\n0 0 0 1\n0 0 0 0\n0\n.\n", "plane"),
        ("(noname)\n* m\n0 0 0\n0 0 0 1\n1\nmesh\n3 1\n0 0 0\n1 0 0\n0 1 0\n0 1 7\n0 0 0\n0 0 0 1\n0 0 0 0\n0\n.\n", "vertex index 7"),
    ] {
        let path = dir.path().join("bad.scene");
        fs::write(&path, text).unwrap();
        let (code, _, err) = check(Some(&path), &trajectory, &[]);
        assert_eq!(code, 2, "{text}");
        assert!(err.contains("bad.scene") && err.contains(words), "'{words}' in {err}");
    }
    let path = dir.path().join("display.yaml");
    fs::write(
        &path,
        "trajectory:\n- joint_trajectory:\n    joint_names: [joint1]\n    points:\n    - positions: [.nan]\n      time_from_start: {sec: 0, nanosec: 0}\n",
    )
    .unwrap();
    let (code, _, err) = check(None, &path, &[]);
    assert_eq!(code, 2);
    assert!(err.contains("display.yaml") && err.contains("not finite"), "{err}");
}

/// A DisplayTrajectory whose start state holds an object: the object is part of the
/// world (never left out while the motion is certified).
#[test]
fn a_display_trajectory_start_state_holds_objects() {
    let dir = tempfile::tempdir().unwrap();
    let (names, points) = demo_points("traj_free.yaml");
    let part = format!("- joint_trajectory:\n{}", joint_trajectory_echo(&names, &points, "    "));
    let bar = "  attached_collision_objects:\n  - link_name: gripper\n    object:\n      header:\n        frame_id: gripper\n      id: bar\n      primitives:\n      - type: 1\n        dimensions: [0.05, 0.05, 1.2]\n      primitive_poses:\n      - {}\n      operation: 0\n";
    let path = dir.path().join("display.yaml");
    fs::write(&path, format!("trajectory:\n{part}trajectory_start:\n{bar}---\n")).unwrap();
    let (code, report, err) = check(Some(&demo("scene.yaml")), &path, &[]);
    assert_eq!(code, 1, "{report} {err}");
    assert!(report["contacts"].as_array().unwrap().iter().any(|c| c["link"] == "bar"), "{report}");
    fs::write(&path, format!("trajectory:\n{part}---\n")).unwrap();
    assert_eq!(check(Some(&demo("scene.yaml")), &path, &[]).0, 0);
}

/// An attached object named as a robot link (or whose attachment joint would be named
/// as a robot joint) is bad input: as a link of its own it would take the real link's
/// place, its collision exemptions with it (issue 40, item 5). Refused with the reason,
/// in a DisplayTrajectory's start state and in a PlanningScene.
#[test]
fn an_attached_object_named_as_a_link_or_joint_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (names, points) = demo_points("traj_free.yaml");
    let part = format!("- joint_trajectory:\n{}", joint_trajectory_echo(&names, &points, "    "));
    let attached = |id: &str| {
        format!(
            "  attached_collision_objects:\n  - link_name: gripper\n    object:\n      header:\n        frame_id: gripper\n      id: {id}\n      primitives:\n      - type: 1\n        dimensions: [0.05, 0.05, 0.3]\n      primitive_poses:\n      - {{}}\n      operation: 0\n"
        )
    };
    let path = dir.path().join("display.yaml");
    fs::write(&path, format!("trajectory:\n{part}trajectory_start:\n{}---\n", attached("link4"))).unwrap();
    let (code, report, err) = check(Some(&demo("scene.yaml")), &path, &[]);
    assert_eq!(code, 2, "{report} {err}");
    assert!(err.contains("attached object 'link4'") && err.contains("names a link of the robot"), "{err}");
    // A robot whose joint is named as the attachment joint of an object `probe`.
    let urdf = dir.path().join("robot.urdf");
    let text = fs::read_to_string(demo("robot.urdf")).unwrap();
    assert!(text.contains("\"tool0_fixed_joint\""));
    let meshes = format!("filename=\"{}/", demo("meshes").parent().unwrap().display());
    fs::write(&urdf, text.replace("\"tool0_fixed_joint\"", "\"probe_attachment\"").replace("filename=\"", &meshes)).unwrap();
    fs::write(&path, format!("trajectory:\n{part}trajectory_start:\n{}---\n", attached("probe"))).unwrap();
    let mut command = ccd_guard();
    command.args(["check", "--urdf"]).arg(&urdf).arg("--srdf").arg(demo("robot.srdf")).arg("--trajectory").arg(&path);
    let (code, _, err) = run(&mut command);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("attached object 'probe'") && err.contains("attachment joint 'probe_attachment'"), "{err}");
    // The same link's name in a PlanningScene's robot state.
    let scene = dir.path().join("scene.yaml");
    fs::write(&scene, format!("name: cell\nrobot_state:\n{}is_diff: false\n---\n", attached("link4"))).unwrap();
    fs::write(&path, format!("trajectory:\n{part}---\n")).unwrap();
    let (code, report, err) = check(Some(&scene), &path, &[]);
    assert_eq!(code, 2, "{report} {err}");
    assert!(err.contains("attached object 'link4'") && err.contains("names a link of the robot"), "{err}");
}
