//! The node as `ros2 launch` runs it (issue 15, items 2 and 3): it logs as rcl does, says
//! once at INFO that it is ready, logs a bad robot as an ERROR, and stops cleanly with
//! exit status 0 on SIGINT and SIGTERM. Each node runs in a private network namespace
//! when `unshare` is there (the test command installs it), else with
//! `ROS_LOCALHOST_ONLY=1`.
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::cli::CCD_GUARD;

/// The path of `file` in `assets/demo`, as an argument.
fn demo(file: &str) -> String {
    crate::common::demo::demo(file).display().to_string()
}

fn has(program: &str) -> bool {
    Command::new("sh").args(["-c", &format!("command -v {program}")]).stdout(Stdio::null()).status().is_ok_and(|s| s.success())
}

/// Starts the node with `args`; its stderr lines come through the receiver.
fn start(args: &[&str]) -> (Child, mpsc::Receiver<String>) {
    let binary = CCD_GUARD;
    let mut command = if has("unshare") && has("ip") {
        let mut c = Command::new("unshare");
        c.args(["--net", "sh", "-c", "ip link set lo up; exec \"$0\" \"$@\"", binary]);
        c
    } else {
        let mut c = Command::new(binary);
        c.env("ROS_LOCALHOST_ONLY", "1");
        c
    };
    command.args(args).env_remove("RUST_LOG").stdout(Stdio::null()).stderr(Stdio::piped());
    let mut child = command.spawn().expect("the node starts");
    let stderr = child.stderr.take().expect("stderr");
    let (lines, received) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    (child, received)
}

/// Lines until one contains `wanted` (or the time is up); all of them.
fn lines_until(received: &mpsc::Receiver<String>, wanted: &str, within: Duration) -> Vec<String> {
    let deadline = Instant::now() + within;
    let mut out = Vec::new();
    while let Some(left) = deadline.checked_duration_since(Instant::now()) {
        match received.recv_timeout(left) {
            Ok(line) => {
                let done = line.contains(wanted);
                out.push(line);
                if done {
                    break;
                }
            }
            Err(_) => break,
        }
    }
    out
}

fn exit_status(child: &mut Child, within: Duration) -> Option<i32> {
    let deadline = Instant::now() + within;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("wait") {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    None
}

fn signal(child: &Child, name: &str) {
    assert!(Command::new("kill").args([&format!("-{name}"), &child.id().to_string()]).status().unwrap().success());
}

#[test]
fn the_node_says_it_is_ready_and_stops_cleanly_on_sigint_and_sigterm() {
    for name in ["INT", "TERM"] {
        let (mut child, received) = start(&[
            "--ros-args",
            "-p",
            &format!("urdf_file:={}", demo("robot.urdf")),
            "-p",
            &format!("scene_file:={}", demo("scene.yaml")),
            "-p",
            "gate_controllers:=[arm_controller]",
        ]);
        let lines = lines_until(&received, "ready:", Duration::from_secs(30));
        let ready = lines.iter().find(|l| l.contains("ready:")).unwrap_or_else(|| panic!("no ready line: {lines:?}"));
        assert!(ready.starts_with("[INFO] ["), "rcl's format: {ready}");
        for words in [
            "[ccd_guard]:",
            "/ccd_guard on domain",
            "robot 'demo_arm' (6 joints)",
            "scene: ",
            "box",
            "/ccd_guard/verdict",
            "service: /ccd_guard/check_trajectory",
            "/ccd_guard/arm_controller/follow_joint_trajectory",
        ] {
            assert!(ready.contains(words), "'{words}' in {ready}");
        }
        assert_eq!(lines.iter().filter(|l| l.contains("ready:")).count(), 1);
        signal(&child, name);
        assert_eq!(exit_status(&mut child, Duration::from_secs(10)), Some(0), "SIG{name} ends the node with status 0");
    }
}

#[test]
fn log_levels_and_a_bad_robot_at_start_up() {
    // A robot file that is not there: an ERROR line, and the node still serves.
    let (mut child, received) = start(&["--ros-args", "-p", "urdf_file:=/nonexistent/robot.urdf"]);
    let lines = lines_until(&received, "ready:", Duration::from_secs(30));
    let error = lines.iter().find(|l| l.contains("/nonexistent/robot.urdf")).unwrap_or_else(|| panic!("{lines:?}"));
    assert!(error.starts_with("[ERROR] ["), "{error}");
    assert!(lines.iter().any(|l| l.contains("ready:") && l.contains("no robot yet")), "{lines:?}");
    signal(&child, "INT");
    assert_eq!(exit_status(&mut child, Duration::from_secs(10)), Some(0));
    // At --log-level warn the ready line is not printed.
    let (mut child, received) = start(&["--ros-args", "--log-level", "ccd_guard:=warn", "-p", &format!("urdf_file:={}", demo("robot.urdf"))]);
    let lines = lines_until(&received, "ready:", Duration::from_secs(3));
    assert!(!lines.iter().any(|l| l.contains("ready:")), "{lines:?}");
    signal(&child, "TERM");
    assert_eq!(exit_status(&mut child, Duration::from_secs(10)), Some(0));
}

/// `--log-level` and rcl's format however the node is started: bare (`ros2 run`, launch)
/// and as `ccd_guard node` (issue 40, item 3: the command line's own logger was started
/// first and kept).
#[test]
fn the_log_level_holds_however_the_node_is_started() {
    let urdf = format!("urdf_file:={}", demo("robot.urdf"));
    for prefix in [&[][..], &["node"][..]] {
        let with = |level: &'static str| -> Vec<String> {
            prefix.iter().copied().chain(["--ros-args", "--log-level", level, "-p", &urdf]).map(String::from).collect()
        };
        let args = with("info");
        let (mut child, received) = start(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let lines = lines_until(&received, "ready:", Duration::from_secs(30));
        let ready = lines.iter().find(|l| l.contains("ready:")).unwrap_or_else(|| panic!("{prefix:?}: no ready line: {lines:?}"));
        assert!(ready.starts_with("[INFO] [") && ready.contains("[ccd_guard]: ready:"), "{prefix:?}: rcl's format: {ready}");
        signal(&child, "INT");
        assert_eq!(exit_status(&mut child, Duration::from_secs(10)), Some(0));
        let args = with("ccd_guard:=warn");
        let (mut child, received) = start(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let lines = lines_until(&received, "ready:", Duration::from_secs(3));
        assert!(!lines.iter().any(|l| l.contains("ready:")), "{prefix:?}: {lines:?}");
        signal(&child, "TERM");
        assert_eq!(exit_status(&mut child, Duration::from_secs(10)), Some(0));
    }
}
