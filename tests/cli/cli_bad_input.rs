//! Bad input gets one clear line on stderr naming the file (and field), exit
//! status 2, an `invalid` report, and never a panic.
use std::fs;
use std::path::PathBuf;

use crate::common::cli::{ccd_guard, run};

const URDF: &str = r#"<robot name="two">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.1"/></geometry></collision></link>
  <link name="arm"><collision><origin xyz="0.25 0 0"/><geometry><mesh filename="meshes/arm.obj"/></geometry></collision></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/>
    <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
</robot>"#;
const ARM_OBJ: &str = "v -0.2 -0.02 -0.02\nv 0.2 -0.02 -0.02\nv 0.2 0.02 -0.02\nv -0.2 0.02 -0.02\n\
v -0.2 -0.02 0.02\nv 0.2 -0.02 0.02\nv 0.2 0.02 0.02\nv -0.2 0.02 0.02\n\
f 1 3 2\nf 1 4 3\nf 5 6 7\nf 5 7 8\nf 1 2 6\nf 1 6 5\nf 2 3 7\nf 2 7 6\nf 3 4 8\nf 3 8 7\nf 4 1 5\nf 4 5 8\n";
const SRDF: &str = r#"<robot name="two"><disable_collisions link1="base" link2="arm" reason="Adjacent"/></robot>"#;
const SCENE: &str = "objects:\n  - id: post\n    type: cylinder\n    dimensions: [0.5, 0.05]\n    pose: {position: [0.4, 0.3, 0.1]}\n";
const TRAJ: &str = "joint_names: [j1]\npoints:\n  - positions: [0.0]\n    time_from_start: 0.0\n  - positions: [1.5]\n    time_from_start: 1.0\n";

struct Case {
    dir: tempfile::TempDir,
}

impl Case {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("meshes")).unwrap();
        let case = Self { dir };
        case.write("robot.urdf", URDF);
        case.write("meshes/arm.obj", ARM_OBJ);
        case.write("robot.srdf", SRDF);
        case.write("scene.yaml", SCENE);
        case.write("traj.yaml", TRAJ);
        case.write("start.yaml", "name: [j1]\nposition: [0.2]\n");
        case
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) {
        fs::write(self.path(name), text).unwrap();
    }

    fn run(&self, trajectory: &str, extra: &[&str]) -> (i32, String, String) {
        run(ccd_guard()
            .arg("check")
            .args(if extra.contains(&"--method") { &[][..] } else { &["--method", "sampled"][..] })
            .arg("--urdf")
            .arg(self.path("robot.urdf"))
            .arg("--srdf")
            .arg(self.path("robot.srdf"))
            .arg("--scene")
            .arg(self.path("scene.yaml"))
            .arg("--trajectory")
            .arg(self.path(trajectory))
            .args(extra))
    }
}

/// Runs and asserts exit 2, one stderr line naming `file` and containing `words`.
fn assert_rejected(case: &Case, trajectory: &str, extra: &[&str], file: &str, words: &[&str]) {
    let (code, stdout, stderr) = case.run(trajectory, extra);
    assert_eq!(code, 2, "exit status; stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(file), "names {file}: {stderr}");
    for w in words {
        assert!(stderr.contains(w), "mentions '{w}': {stderr}");
    }
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("an invalid report on stdout");
    assert_eq!(report["verdict"], "invalid");
    assert!(report["error"].as_str().unwrap().contains(file));
}

#[test]
fn the_valid_case_runs() {
    let case = Case::new();
    let (code, stdout, stderr) = case.run("traj.yaml", &["--start-state", case.path("start.yaml").to_str().unwrap()]);
    assert!(code == 1 || code == 3, "{stdout} {stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["method"], "sampled");
}

#[test]
fn missing_and_unreadable_files() {
    let case = Case::new();
    fs::remove_file(case.path("robot.urdf")).unwrap();
    assert_rejected(&case, "traj.yaml", &[], "robot.urdf", &["cannot read"]);
    let case = Case::new();
    assert_rejected(&case, "nope.yaml", &[], "nope.yaml", &["cannot read"]);
    let case = Case::new();
    fs::create_dir(case.path("dir.yaml")).unwrap();
    assert_rejected(&case, "dir.yaml", &[], "dir.yaml", &["cannot read"]);
}

#[test]
fn malformed_files() {
    let case = Case::new();
    case.write("robot.urdf", "<robot name='x'><link name='a'>");
    assert_rejected(&case, "traj.yaml", &[], "robot.urdf", &["malformed URDF"]);
    let case = Case::new();
    case.write("robot.srdf", "<robot><disable_collisions link1='a'");
    assert_rejected(&case, "traj.yaml", &[], "robot.srdf", &["malformed SRDF"]);
    let case = Case::new();
    case.write("scene.yaml", "objects: [ {id: a, type: box");
    assert_rejected(&case, "traj.yaml", &[], "scene.yaml", &["malformed scene"]);
    let case = Case::new();
    case.write("scene.yaml", "objects:\n  - {id: a, type: pyramid, dimensions: [1]}\n");
    assert_rejected(&case, "traj.yaml", &[], "scene.yaml", &["objects[0]", "pyramid"]);
    let case = Case::new();
    case.write("scene.yaml", "objects:\n  - {id: a, type: box, dimensions: [1, 1]}\n");
    assert_rejected(&case, "traj.yaml", &[], "scene.yaml", &["objects[0]", "3 dimensions"]);
    let case = Case::new();
    case.write("scene.yaml", "objects:\n  - {id: a, type: sphere, dimensions: [1], pose: {orientation: [0, 0, 0, 0]}}\n");
    assert_rejected(&case, "traj.yaml", &[], "scene.yaml", &["orientation", "unit quaternion"]);
    let case = Case::new();
    case.write("t.json", "{\"joint_names\": [\"j1\"], \"points\": [");
    assert_rejected(&case, "t.json", &[], "t.json", &["malformed trajectory"]);
    let case = Case::new();
    case.write("start.yaml", "name: [j1]\nposition: [.nan]\n");
    assert_rejected(&case, "traj.yaml", &["--start-state", case.path("start.yaml").to_str().unwrap()], "start.yaml", &["not finite"]);
}

#[test]
fn bad_trajectories() {
    let cases: &[(&str, &[&str])] = &[
        ("joint_names: [j1, elbow]\npoints:\n  - {positions: [0, 0], time_from_start: 0}\n", &["unknown joint 'elbow'"]),
        ("joint_names: [j1]\npoints:\n  - {positions: [0, 1], time_from_start: 0}\n", &["points[0].positions", "2 values"]),
        (
            "joint_names: [j1]\npoints:\n  - {positions: [0], time_from_start: 1}\n  - {positions: [1], time_from_start: 1}\n",
            &["points[1].time_from_start", "does not increase"],
        ),
        ("joint_names: [j1]\npoints:\n  - {positions: [.nan], time_from_start: 0}\n", &["points[0].positions", "not finite"]),
        ("joint_names: [j1]\npoints:\n  - {positions: [0], velocities: [.inf], time_from_start: 0}\n", &["points[0].velocities", "not finite"]),
        // Far beyond any robot (a mutated message once sent 3e284 rad, and the check never ended).
        (
            "joint_names: [j1]\npoints:\n  - {positions: [0], time_from_start: 0}\n  - {positions: [2.97e284], time_from_start: 3}\n",
            &["points[1].positions", "beyond 1e4"],
        ),
        ("joint_names: [j1]\npoints:\n  - {positions: [0], accelerations: [-1.5e4], time_from_start: 0}\n", &["points[0].accelerations", "beyond 1e4"]),
        (
            "joint_names: [j1]\npoints:\n  - {positions: [0], time_from_start: 0}\n  - {positions: [1], time_from_start: 2e6}\n",
            &["points[1].time_from_start", "from 0 to 1e6 s"],
        ),
        ("joint_names: [j1]\npoints: []\n", &["no points"]),
        (
            "joint_names: [j1]\npoints:\n  - {positions: [0], time_from_start: {sec: 1, nanosec: 0}}\n  - {positions: [1], time_from_start: 0.5}\n",
            &["does not increase"],
        ),
    ];
    for (text, words) in cases {
        let case = Case::new();
        case.write("bad.yaml", text);
        assert_rejected(&case, "bad.yaml", &[], "bad.yaml", words);
    }
}

#[test]
fn bad_meshes() {
    let case = Case::new();
    fs::remove_file(case.path("meshes/arm.obj")).unwrap();
    assert_rejected(&case, "traj.yaml", &[], "arm.obj", &["cannot read", "link 'arm'"]);
    let case = Case::new();
    case.write("robot.urdf", &URDF.replace("meshes/arm.obj", "meshes/arm.stl"));
    fs::write(case.path("meshes/arm.stl"), [1u8, 2, 3, 4, 5]).unwrap();
    assert_rejected(&case, "traj.yaml", &[], "arm.stl", &["cannot parse mesh"]);
    let case = Case::new();
    case.write("robot.urdf", &URDF.replace("meshes/arm.obj", "package://no_such_pkg/arm.obj"));
    assert_rejected(&case, "traj.yaml", &[], "robot.urdf", &["no_such_pkg"]);
}

#[test]
fn bad_options() {
    let case = Case::new();
    let (code, _, stderr) = case.run("traj.yaml", &["--tolerance", "-1"]);
    assert_eq!(code, 2, "{stderr}");
    let (code, _, stderr) = case.run("traj.yaml", &["--method", "bogus"]);
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn a_resolution_that_asks_for_too_many_states() {
    let case = Case::new();
    case.write("long.yaml", "joint_names: [j1]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [1.5], time_from_start: 1}\n");
    let (code, stdout, stderr) = case.run("long.yaml", &["--resolution", "1e-12"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("states"), "{stderr}");
    assert!(stdout.contains("\"invalid\""));
}

#[test]
fn plot_and_clearance_in_the_report() {
    let case = Case::new();
    let svg = case.path("clearance.svg");
    let (code, stdout, stderr) = case.run("traj.yaml", &["--plot", svg.to_str().unwrap()]);
    assert!(code == 0 || code == 1 || code == 3, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let clearance = report["min_clearance"].as_f64().expect("min_clearance is a number");
    assert!(clearance >= 0.0);
    assert!(report["max_penetration_depth"].as_f64().is_some(), "{stdout}");
    let plot = fs::read_to_string(&svg).expect("the plot is written");
    assert!(plot.starts_with("<svg") && plot.contains("clearance"), "{}", &plot[..200.min(plot.len())]);
    let (_, text, _) = case.run("traj.yaml", &["--format", "text"]);
    assert!(text.contains("min clearance:"), "{text}");
}

#[test]
fn an_unwritable_plot_is_a_clear_error() {
    let case = Case::new();
    let target = case.path("no_such_dir/clearance.svg");
    let (code, stdout, stderr) = case.run("traj.yaml", &["--plot", target.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("clearance.svg"), "{stderr}");
    assert!(stdout.contains("\"invalid\""), "{stdout}");
}

/// `--min-clearance` (the contract): a collision-free motion proven closer than it exits
/// with status 4 and `clearance_ok: false`; at or under its proven clearance, 0 and true;
/// a colliding motion keeps exit 1; a negative value is a usage error.
#[test]
fn min_clearance_exit_status() {
    let case = Case::new();
    // A quarter turn away from the post: free, some 10 cm from it at the end.
    case.write("free.yaml", "joint_names: [j1]\npoints:\n  - positions: [0.0]\n    time_from_start: 0.0\n  - positions: [0.3]\n    time_from_start: 1.0\n");
    let (status, out, err) = case.run("free.yaml", &["--method", "certified"]);
    assert_eq!(status, 0, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert!(report.get("clearance_ok").is_none(), "only with --min-clearance: {out}");
    let proven = report["closest_approach"]["lower_bound"].as_f64().unwrap();
    assert!(proven > 0.01, "{out}");
    let under = format!("{}", proven * 0.99);
    let over = format!("{}", proven * 1.01);
    let (status, out, _) = case.run("free.yaml", &["--method", "certified", "--min-clearance", &under]);
    assert_eq!(status, 0, "{out}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap()["clearance_ok"], true);
    let (status, out, _) = case.run("free.yaml", &["--method", "certified", "--min-clearance", &over]);
    assert_eq!(status, 4, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(report["clearance_ok"], false);
    assert_eq!(report["verdict"], "collision_free");
    let (status, out, _) = case.run("free.yaml", &["--method", "certified", "--min-clearance", &over, "--format", "text"]);
    assert_eq!(status, 4);
    assert!(out.contains("closer than the required clearance"), "{out}");
    // --first-only answers the verdict alone: no clearance, unless one is required.
    let (status, out, _) = case.run("free.yaml", &["--method", "certified", "--first-only"]);
    assert_eq!(status, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((report["certified"].clone(), report["min_clearance"].clone()), (true.into(), serde_json::Value::Null), "{out}");
    assert!(report.get("closest_approach").is_none_or(|c| c.is_null()), "{out}");
    for (required, status_wanted) in [(&under, 0), (&over, 4)] {
        let (status, out, _) = case.run("free.yaml", &["--method", "certified", "--first-only", "--min-clearance", required]);
        assert_eq!(status, status_wanted, "{out}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["closest_approach"]["lower_bound"].as_f64(), Some(proven), "{out}");
    }
    // Through the post: a collision stays exit 1 whatever the required clearance.
    case.write("through.yaml", "joint_names: [j1]\npoints:\n  - positions: [0.0]\n    time_from_start: 0.0\n  - positions: [1.2]\n    time_from_start: 1.0\n");
    case.write("scene.yaml", "objects:\n  - id: post\n    type: cylinder\n    dimensions: [0.5, 0.05]\n    pose: {position: [0.3, 0.2, 0.1]}\n");
    let (status, out, _) = case.run("through.yaml", &["--method", "certified", "--min-clearance", "0.01"]);
    assert_eq!(status, 1, "{out}");
    assert_eq!(serde_json::from_str::<serde_json::Value>(&out).unwrap()["clearance_ok"], false);
    let (status, _, err) = case.run("free.yaml", &["--method", "certified", "--min-clearance", "-1"]);
    assert_eq!(status, 2);
    assert!(err.contains("--min-clearance"), "{err}");
}

/// `--help` lists the exit statuses and points to the contract (issue 15, item 9).
#[test]
fn help_lists_the_exit_statuses() {
    for args in [&["--help"][..], &["check", "--help"][..]] {
        let out = ccd_guard().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let text = String::from_utf8_lossy(&out.stdout);
        for words in ["0 collision_free", "1 collision", "2 bad input", "3 uncertain", "4 collision-free but closer than --min-clearance", "docs/cli.md"] {
            assert!(text.contains(words), "{args:?}: '{words}' in {text}");
        }
    }
}

/// Joint limits (issue 15, item 4): a waypoint outside the URDF's position limits and a
/// cubic that overshoots them between waypoints are `invalid` (exit 2), named; a motion
/// faster than the velocity limit is checked, with a warning.
#[test]
fn joint_limits() {
    let case = Case::new();
    case.write("outside.yaml", "joint_names: [j1]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [3.5], time_from_start: 4}\n");
    let (code, stdout, stderr) = case.run("outside.yaml", &["--method", "certified"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(stderr.contains("points[1]") && stderr.contains("j1 = 3.5 is outside its limits [-3, 3]"), "{stderr}");
    // Within the margin for rounding: accepted.
    case.write("edge.yaml", "joint_names: [j1]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [-3.00005], time_from_start: 4}\n");
    assert_ne!(case.run("edge.yaml", &["--method", "certified"]).0, 2);
    // Both points inside, the cubic between them not: q = 2.9 + 3 s - 3 s^2 peaks at 3.65.
    case.write("overshoot.yaml", "joint_names: [j1]\npoints:\n  - {positions: [2.9], velocities: [3.0], time_from_start: 0}\n  - {positions: [2.9], velocities: [-3.0], time_from_start: 1}\n");
    let (code, _, stderr) = case.run("overshoot.yaml", &["--method", "certified"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("j1 leaves its limits [-3, 3] between waypoints: 3.650000 at t = 0.500000 s"), "{stderr}");
    // The same points linearly: inside.
    case.write("linear.yaml", "joint_names: [j1]\npoints:\n  - {positions: [2.9], time_from_start: 0}\n  - {positions: [2.95], time_from_start: 1}\n");
    assert_ne!(case.run("linear.yaml", &["--method", "certified"]).0, 2);
    // 1.5 rad in 1 s against a limit of 1 rad/s: checked, with a warning.
    let (code, stdout, _) = case.run("traj.yaml", &["--method", "certified"]);
    assert_ne!(code, 2, "{stdout}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    let warning = report["warnings"][0].as_str().unwrap_or_default();
    assert!(warning.contains("j1 moves at 1.5000") && warning.contains("above its velocity limit 1"), "{stdout}");
    // At 1 rad/s exactly: no warning.
    case.write("slow.yaml", "joint_names: [j1]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [1.5], time_from_start: 1.5}\n");
    let (_, stdout, _) = case.run("slow.yaml", &["--method", "certified"]);
    assert!(serde_json::from_str::<serde_json::Value>(&stdout).unwrap().get("warnings").is_none(), "{stdout}");
}

/// An SRDF must belong to the robot (issue 15, item 5): another robot's name, or pairs
/// of links the URDF lacks, are an exit-2 error naming both robots.
#[test]
fn an_srdf_of_another_robot() {
    let case = Case::new();
    case.write("robot.srdf", r#"<robot name="ur5"><disable_collisions link1="base" link2="arm" reason="Adjacent"/></robot>"#);
    let (code, _, stderr) = case.run("traj.yaml", &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("robot.srdf") && stderr.contains("robot 'ur5'") && stderr.contains("robot 'two'"), "{stderr}");
    case.write("robot.srdf", r#"<robot name="two"><disable_collisions link1="base" link2="shoulder_link" reason="Adjacent"/></robot>"#);
    let (code, _, stderr) = case.run("traj.yaml", &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("link 'shoulder_link'") && stderr.contains("robot 'two'"), "{stderr}");
}

/// The plot of a 10,000-point trajectory stays readable (issue 15, item 8): sampled
/// evenly, every 100th waypoint marked, one line per closest pair with a legend.
#[test]
fn the_plot_of_a_long_trajectory() {
    let case = Case::new();
    let mut text = String::from("joint_names: [j1]\npoints:\n");
    for k in 0..10_000 {
        text += &format!("  - {{positions: [{}], time_from_start: {}}}\n", 1.2 * k as f64 / 9999.0, k as f64 * 0.002);
    }
    case.write("long.yaml", &text);
    let svg = case.path("long.svg");
    let (code, out, err) = case.run("long.yaml", &["--method", "certified", "--plot", svg.to_str().unwrap()]);
    assert!(code == 0 || code == 1, "{out}{err}");
    let plot = fs::read_to_string(&svg).unwrap();
    assert!(plot.len() < 400_000, "{} bytes", plot.len());
    assert!(plot.contains("waypoints (every 100th of 10000)"), "the waypoints are thinned");
    assert!(plot.contains("arm / post") || plot.contains("arm / base"), "a line per pair, named in the legend");
    assert!(plot.matches("<polygon").count() <= 2 * 101 + 10, "{} polygons", plot.matches("<polygon").count());
}
