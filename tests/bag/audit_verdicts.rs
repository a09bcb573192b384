//! The audit's verdicts: those the node's guard gives live on the same messages, those
//! `ccd_guard check` gives on the same plan and world, in bag order, with the world
//! replayed in time order across storage formats, split files and bags.
use super::recording::{DEMO_VERDICTS, Recording, SECOND, T0, demo_args, demo_recording, display, intruder};
use crate::common::cli::{ccd_guard, run};
use crate::common::demo::{demo, demo_guard, demo_trajectory};
use ccd_guard::bag::audit::{AuditSettings, AuditedPlan, audit_bags};
use ccd_guard::bag::message::RecordedKind;
use ccd_guard::moveit::cdr::from_cdr;
use ccd_guard::moveit::guard::{GuardSettings, TrajectoryJob};
use ccd_guard::moveit::msg;
use ccd_guard::moveit::scene_input::SceneInput;
use std::path::{Path, PathBuf};

pub fn demo_settings(jobs: usize) -> AuditSettings {
    let file = |f: &str| Some(demo(f).display().to_string());
    AuditSettings {
        guard: GuardSettings { urdf_file: file("robot.urdf"), srdf_file: file("robot.srdf"), scene_file: file("scene.yaml"), ..GuardSettings::default() },
        scene: None,
        jobs,
    }
}

pub fn audit(bags: &[PathBuf], jobs: usize) -> Vec<AuditedPlan> {
    let mut plans = Vec::new();
    let summary = audit_bags(bags, &demo_settings(jobs), |plan| plans.push(plan)).unwrap();
    assert!(summary.damaged.is_empty(), "{:?}", summary.damaged);
    assert_eq!(summary.plans, plans.len());
    plans
}

fn verdicts(plans: &[AuditedPlan]) -> Vec<&'static str> {
    plans.iter().map(|p| p.report.verdict.name()).collect()
}

#[test]
fn the_demo_recording_gets_its_verdicts_in_bag_order() {
    let dir = tempfile::tempdir().unwrap();
    let bag = dir.path().join("demo.mcap");
    demo_recording().write_mcap(&bag);
    for jobs in [1, 2, 4] {
        let plans = audit(std::slice::from_ref(&bag), jobs);
        assert_eq!(verdicts(&plans), DEMO_VERDICTS, "jobs {jobs}");
        assert_eq!(plans.iter().map(|p| p.index).collect::<Vec<_>>(), (0..7).collect::<Vec<_>>());
        let seconds: Vec<u64> = plans.iter().map(|p| (p.stamp - T0) / SECOND).collect();
        assert_eq!(seconds, [2, 3, 4, 6, 8, 9, 10]);
        assert_eq!(&*plans[1].topic, "/display_planned_path");
        assert!(plans[0].report.certified, "the free plan is proven free");
        let foreign = plans[5].report.error.as_deref().unwrap();
        assert!(foreign.contains("other_robot_joint_1"), "{foreign}");
        let garbage = plans[6].report.error.as_deref().unwrap();
        assert!(garbage.contains("could not be read"), "{garbage}");
    }
}

/// The node's guard, fed the recording's messages as the node's worker feeds them.
fn live_verdicts(recording: &Recording) -> Vec<msg::CollisionVerdict> {
    let mut guard = demo_guard();
    let mut verdicts = Vec::new();
    for m in &recording.messages {
        let job = match RecordedKind::of_type(&m.type_name) {
            Some(RecordedKind::JointTrajectory) => from_cdr(&m.data).map(|t| TrajectoryJob::from_joint_trajectory(&m.topic, t)),
            Some(RecordedKind::DisplayTrajectory) => from_cdr(&m.data).map(|t| TrajectoryJob::from_display_trajectory(&m.topic, t)),
            Some(RecordedKind::CollisionObject) => {
                guard.take_in(SceneInput::CollisionObject(&from_cdr(&m.data).unwrap())).unwrap();
                continue;
            }
            Some(RecordedKind::JointState) => {
                guard.take_in(SceneInput::JointState(&from_cdr(&m.data).unwrap())).unwrap();
                continue;
            }
            _ => continue,
        };
        match job {
            Ok(job) => verdicts.push(guard.check(&job).verdict),
            Err(_) => verdicts.push(msg::CollisionVerdict { verdict: "invalid".into(), ..Default::default() }),
        }
    }
    verdicts
}

#[test]
fn verdicts_are_those_the_node_gives_live() {
    let dir = tempfile::tempdir().unwrap();
    let bag = dir.path().join("demo.mcap");
    let recording = demo_recording();
    recording.write_mcap(&bag);
    let plans = audit(&[bag], 2);
    let live = live_verdicts(&recording);
    assert_eq!(plans.len(), live.len());
    for (plan, live) in plans.iter().zip(&live) {
        let audited = &plan.verdict;
        assert_eq!(audited.verdict, live.verdict, "plan {}", plan.index);
        if live.verdict == "invalid" {
            continue;
        }
        assert_eq!(audited.certified, live.certified);
        assert_eq!(audited.time_of_contact.to_bits(), live.time_of_contact.to_bits());
        assert_eq!(audited.segment_index, live.segment_index);
        let pairs = |v: &msg::CollisionVerdict| v.contacts.iter().map(|c| (c.link.clone(), c.other.clone())).collect::<Vec<_>>();
        assert_eq!(pairs(audited), pairs(live));
        assert_eq!(audited.source, plan.topic.to_string());
        assert_eq!(audited.header.stamp, ccd_guard::bag::audit::time_of(plan.stamp), "the verdict stands at the plan's bag time");
    }
}

#[test]
fn verdicts_are_those_check_gives_on_the_same_plan_and_world() {
    let dir = tempfile::tempdir().unwrap();
    let bag = dir.path().join("demo.mcap");
    demo_recording().write_mcap(&bag);
    let plans = audit(&[bag], 2);
    // Plans 0, 1, 2 and 4 are the demo files in the demo scene (the intruder removed).
    for (index, file) in [(0, "traj_free.yaml"), (1, "traj_collide.yaml"), (2, "traj_thin.yaml"), (4, "traj_free.yaml")] {
        let (_, stdout, stderr) = run(ccd_guard().args(["check", "--format", "json", "--trajectory"]).arg(demo(file)).args(demo_args()));
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout} {stderr}"));
        let audited = serde_json::to_value(&plans[index].report).unwrap();
        for key in ["verdict", "certified", "time_of_contact", "segment_index"] {
            assert_eq!(audited[key], report[key], "plan {index} ({file}): {key}");
        }
        assert_eq!(audited["contacts"][0]["other"], report["contacts"][0]["other"], "plan {index}");
        assert_eq!(audited["contacts"].as_array().map(Vec::len), report["contacts"].as_array().map(Vec::len), "plan {index}");
    }
}

#[test]
fn storage_formats_split_files_and_folders_give_the_same_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let recording = demo_recording();
    let single_db3 = dir.path().join("demo.db3");
    recording.write_sqlite(&single_db3);
    let zstd = dir.path().join("zstd.mcap");
    recording.write_mcap_zstd(&zstd);
    let mcap_folder = dir.path().join("mcap_bag");
    recording.write_folder(&mcap_folder, "mcap", 3);
    let sqlite_folder = dir.path().join("sqlite_bag");
    recording.write_folder(&sqlite_folder, "sqlite3", 2);
    // A recording cut off before rosbag2 wrote its metadata.yaml.
    let unfinished = dir.path().join("unfinished_bag");
    recording.write_folder(&unfinished, "mcap", 4);
    std::fs::remove_file(unfinished.join("metadata.yaml")).unwrap();
    for bag in [single_db3, zstd, mcap_folder, sqlite_folder, unfinished] {
        let plans = audit(std::slice::from_ref(&bag), 2);
        assert_eq!(verdicts(&plans), DEMO_VERDICTS, "{}", bag.display());
        assert!(plans.iter().all(|p| &*p.bag == bag.as_path()));
    }
}

#[test]
fn several_bags_are_read_in_order_as_one_recording() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: u64| T0 + s * SECOND;
    let mut first = Recording::default();
    first.add("/planned_trajectory", t(1), &demo_trajectory("traj_free.yaml"));
    first.add("/collision_object", t(2), &intruder(msg::CollisionObject::ADD));
    let mut second = Recording::default();
    second.add("/display_planned_path", t(3), &display("traj_free.yaml"));
    let (a, b) = (dir.path().join("a.mcap"), dir.path().join("b.db3"));
    first.write_mcap(&a);
    second.write_sqlite(&b);
    let plans = audit(&[a.clone(), b.clone()], 2);
    assert_eq!(verdicts(&plans), ["collision_free", "collision"], "the object added in the first bag stands in the second");
    assert_eq!(plans[1].index, 1);
    assert_eq!(&*plans[1].bag, b.as_path());
    assert_eq!(plans[1].report.contacts[0].other, "intruder");
}

#[test]
fn the_latest_joint_state_holds_the_joints_a_plan_leaves_out() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: u64| T0 + s * SECOND;
    // The free plan without joint2: joint2 is held where the latest joint state put it
    // (1.2 rad brings link3 down onto the table).
    let mut plan = demo_trajectory("traj_free.yaml");
    plan.joint_names.remove(1);
    for point in &mut plan.points {
        point.positions.remove(1);
    }
    let joint2 = |position: f64| msg::JointState { name: vec!["joint2".into()], position: vec![position], ..Default::default() };
    let mut r = Recording::default();
    r.add("/planned_trajectory", t(1), &plan);
    r.add("/joint_states", t(2), &joint2(1.2));
    r.add("/planned_trajectory", t(3), &plan);
    r.add("/joint_states", t(4), &joint2(-0.5));
    r.add("/planned_trajectory", t(5), &plan);
    // A DisplayTrajectory's trajectory_start comes before the latest joint state.
    let mut display = display("traj_free.yaml");
    display.trajectory[0].joint_trajectory = plan.clone();
    display.trajectory_start.joint_state = joint2(1.2);
    r.add("/display_planned_path", t(6), &display);
    let bag = dir.path().join("partial.mcap");
    r.write_mcap(&bag);
    let plans = audit(&[bag], 2);
    assert_eq!(verdicts(&plans), ["collision_free", "collision", "collision_free", "collision"]);
    assert_eq!((plans[1].report.contacts[0].link.as_str(), plans[1].report.contacts[0].other.as_str()), ("link3", "table"));
}

#[test]
fn a_scene_message_that_does_not_decode_leaves_no_plan_certified_until_a_whole_scene() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: u64| T0 + s * SECOND;
    let mut r = Recording::default();
    r.add("/planned_trajectory", t(1), &demo_trajectory("traj_free.yaml"));
    r.add_raw("/monitored_planning_scene", "moveit_msgs/msg/PlanningScene", t(2), vec![0, 1, 0, 0, 9]);
    r.add("/planned_trajectory", t(3), &demo_trajectory("traj_free.yaml"));
    let whole = msg::PlanningScene { is_diff: false, ..Default::default() };
    r.add("/monitored_planning_scene", t(4), &whole);
    r.add("/planned_trajectory", t(5), &demo_trajectory("traj_free.yaml"));
    let bag = dir.path().join("scene.mcap");
    r.write_mcap(&bag);
    let plans = audit(&[bag], 2);
    assert_eq!(verdicts(&plans), ["collision_free", "uncertain", "collision_free"]);
    let why = plans[1].report.error.as_deref().unwrap();
    assert!(why.contains("monitored_planning_scene"), "{why}");
}

/// World messages the audit cannot take in leave a gap, never an absence: a
/// PlanningScene with a bad robot state, a CollisionObject in another encoding.
#[test]
fn world_messages_that_cannot_be_taken_in_leave_no_plan_certified() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: u64| T0 + s * SECOND;
    let mut bad_state = msg::PlanningScene { is_diff: true, ..Default::default() };
    bad_state.robot_state.joint_state = msg::JointState { name: vec!["joint1".into()], position: vec![f64::NAN], ..Default::default() };
    bad_state.world.collision_objects.push(intruder(msg::CollisionObject::ADD));
    let mut r = Recording::default();
    r.add("/monitored_planning_scene", t(1), &bad_state);
    r.add("/planned_trajectory", t(2), &demo_trajectory("traj_free.yaml"));
    r.add("/monitored_planning_scene", t(3), &msg::PlanningScene { is_diff: false, ..Default::default() });
    r.add("/planned_trajectory", t(4), &demo_trajectory("traj_free.yaml"));
    r.add_raw("/collision_object", "moveit_msgs/msg/CollisionObject", t(5), b"{\"id\": \"crate\"}".to_vec());
    r.add("/planned_trajectory", t(6), &demo_trajectory("traj_free.yaml"));
    for (k, m) in r.messages.iter_mut().enumerate() {
        if k == 4 {
            m.encoding = "json".into();
        }
    }
    let bag = dir.path().join("gaps.mcap");
    r.write_mcap(&bag);
    let plans = audit(&[bag], 2);
    assert_eq!(verdicts(&plans), ["uncertain", "collision_free", "uncertain"]);
    assert!(plans[0].report.error.as_deref().unwrap().contains("robot state"), "{:?}", plans[0].report.error);
    assert!(plans[2].report.error.as_deref().unwrap().contains("not CDR"), "{:?}", plans[2].report.error);
}

#[test]
fn the_command_prints_json_lines_a_summary_and_the_exit_status() {
    let dir = tempfile::tempdir().unwrap();
    let bag = dir.path().join("demo.mcap");
    demo_recording().write_mcap(&bag);
    let (code, stdout, stderr) = run(ccd_guard().arg("audit").arg(&bag).args(demo_args()).args(["--format", "json"]));
    assert_eq!(code, 1, "a collision: {stderr}");
    assert_eq!(stderr, "", "the reasons are in the lines");
    let lines: Vec<serde_json::Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 8);
    assert!(stdout.lines().take(7).all(|l| l.starts_with(r#"{"topic":"#)), "the contract's order: {stdout}");
    for (k, line) in lines[..7].iter().enumerate() {
        let keys: Vec<&str> = line.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["bag", "index", "report", "stamp", "topic"]);
        assert_eq!(line["index"], k);
        assert_eq!(line["report"]["verdict"], DEMO_VERDICTS[k]);
    }
    assert_eq!(lines[0]["stamp"], T0 + 2 * SECOND);
    let summary = &lines[7]["summary"];
    assert_eq!((summary["plans"].as_u64(), summary["collision_free"].as_u64(), summary["collision"].as_u64()), (Some(7), Some(2), Some(3)));
    assert_eq!((summary["uncertain"].as_u64(), summary["invalid"].as_u64()), (Some(0), Some(2)));
    assert!(summary["elapsed_ms"].as_f64().unwrap() > 0.0);

    let (code, table, _) = run(ccd_guard().arg("audit").arg(&bag).args(demo_args()));
    assert_eq!(code, 1);
    assert!(table.contains("/display_planned_path") && table.contains("7 plans: 2 collision_free, 3 collision, 0 uncertain, 2 invalid"), "{table}");
}

#[test]
fn the_scene_may_be_given_as_check_takes_it() {
    let dir = tempfile::tempdir().unwrap();
    let bag = dir.path().join("demo.mcap");
    demo_recording().write_mcap(&bag);
    // The demo scene's shelf board as MoveIt's .scene text, and as a PlanningScene echo.
    let scene_text = "demo\n* shelf_board\n1\nbox\n0.25 0.4 0.003\n1.045 0 0.25\n0 0 0 1\n0 0 0 0\n.\n";
    let echo = "is_diff: false\nworld:\n  collision_objects:\n  - id: shelf_board\n    header: {frame_id: base_link}\n    primitives:\n    - {type: 1, dimensions: [0.25, 0.4, 0.003]}\n    primitive_poses:\n    - {position: {x: 1.045, y: 0.0, z: 0.25}, orientation: {x: 0.0, y: 0.0, z: 0.0, w: 1.0}}\n    operation: 0\n";
    for (name, text) in [("shelf.scene", scene_text), ("shelf.yaml", echo)] {
        let scene = dir.path().join(name);
        std::fs::write(&scene, text).unwrap();
        let args = ["--urdf", "robot.urdf", "--srdf", "robot.srdf"].map(|a| if a.starts_with("--") { a.into() } else { demo(a).display().to_string() });
        let (_, audited, stderr) = run(ccd_guard().arg("audit").arg(&bag).args(args.clone()).arg("--scene").arg(&scene).args(["--format", "json"]));
        let (_, checked, _) =
            run(ccd_guard().args(["check", "--format", "json", "--trajectory"]).arg(demo("traj_thin.yaml")).args(args).arg("--scene").arg(&scene));
        let thin: serde_json::Value = serde_json::from_str(audited.lines().nth(2).unwrap_or_else(|| panic!("{stderr}"))).unwrap();
        let checked: serde_json::Value = serde_json::from_str(&checked).unwrap();
        assert_eq!(thin["report"]["verdict"], "collision", "{name}");
        assert_eq!(thin["report"]["time_of_contact"], checked["time_of_contact"], "{name}");
        assert_eq!(thin["report"]["contacts"][0]["other"], "shelf_board");
    }
}

/// The exit status over all plans, as `check`'s.
#[test]
fn the_exit_status_ranks_the_verdicts() {
    let dir = tempfile::tempdir().unwrap();
    let t = |s: u64| T0 + s * SECOND;
    let bag = |name: &str, files: &[&str]| -> PathBuf {
        let mut r = Recording::default();
        for (k, file) in files.iter().enumerate() {
            r.add("/planned_trajectory", t(k as u64), &demo_trajectory(file));
        }
        let path = dir.path().join(name);
        r.write_mcap(&path);
        path
    };
    let status = |bag: &Path, extra: &[&str]| run(ccd_guard().arg("audit").arg(bag).args(demo_args()).args(extra)).0;
    let onto_itself = dir.path().join("itself.mcap");
    demo_recording().write_mcap(&onto_itself);
    let before = std::fs::read(&onto_itself).unwrap();
    assert_eq!(status(&onto_itself, &["--mcap-out", onto_itself.to_str().unwrap()]), 2, "the output may not be the bag");
    assert_eq!(std::fs::read(&onto_itself).unwrap(), before, "the bag is left as it was");
    let free = bag("free.mcap", &["traj_free.yaml", "traj_free.yaml"]);
    assert_eq!(status(&free, &[]), 0);
    assert_eq!(status(&free, &["--min-clearance", "5"]), 4);
    assert_eq!(status(&free, &["--method", "sampled"]), 3, "sampling never proves");
    assert_eq!(status(&bag("mixed.mcap", &["traj_free.yaml", "traj_collide.yaml"]), &[]), 1);
    assert_eq!(status(&free, &["--tolerance", "-1"]), 2);
    let mut foreign = demo_trajectory("traj_free.yaml");
    foreign.joint_names[0] = "no_such_joint".into();
    let mut r = Recording::default();
    r.add("/planned_trajectory", t(0), &foreign);
    let invalid = dir.path().join("invalid.mcap");
    r.write_mcap(&invalid);
    assert_eq!(status(&invalid, &[]), 2, "a plan that cannot be checked");
}
