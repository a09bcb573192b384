//! The execution gate's decisions, apart from DDS (issue 14): which goals go to the
//! controller and what a refused one is told. The action protocol itself is tested
//! through DDS with a Cyclone DDS peer (`interop/python/test_gate_cyclonedds.py`).

use crate::common::demo::{demo, demo_guard, demo_trajectory};
use ccd_guard::motion::{Trajectory, TrajectoryPoint};
use ccd_guard::moveit::gate::goal_check::controller_motion;
use ccd_guard::moveit::gate::{GateDecision, GateGoal, GateOptions, GoalKey};
use ccd_guard::moveit::guard::Guard;
use ccd_guard::moveit::msg;
use ccd_guard::node::parameters::NodeParameters;
use std::path::Path;

/// The robot measured where `trajectory` starts (plus `offset` on its first joint).
fn at_start(guard: &mut Guard, trajectory: &msg::JointTrajectory, offset: f64) {
    let mut position = trajectory.points[0].positions.clone();
    position[0] += offset;
    guard.update_joint_states(&msg::JointState { name: trajectory.joint_names.clone(), position, ..Default::default() }).unwrap();
}

fn goal(trajectory: msg::JointTrajectory) -> GateGoal {
    GateGoal {
        key: GoalKey { controller: 0, goal_id: msg::Uuid { uuid: [7; 16] } },
        source: "/ccd_guard/arm_controller/follow_joint_trajectory".into(),
        goal: msg::FollowJointTrajectoryGoal { trajectory, ..Default::default() },
    }
}

fn refusal(decision: &GateDecision) -> &msg::FollowJointTrajectoryResult {
    match decision {
        GateDecision::Refuse(result) => result,
        GateDecision::Forward => panic!("forwarded"),
    }
}

#[test]
fn a_certified_goal_is_forwarded_and_a_colliding_one_refused_with_the_pair_time_and_depth() {
    let mut guard = demo_guard();
    let options = GateOptions::default();
    let free = demo_trajectory("traj_free.yaml");
    at_start(&mut guard, &free, 0.0);
    let checked = guard.check_goal(&goal(free), &options);
    assert_eq!(checked.decision, GateDecision::Forward);
    assert_eq!((checked.result.verdict.verdict.as_str(), checked.result.verdict.certified), ("collision_free", true));
    assert_eq!(checked.result.verdict.source, "/ccd_guard/arm_controller/follow_joint_trajectory");

    let colliding = demo_trajectory("traj_collide.yaml");
    let checked = guard.check_goal(&goal(colliding), &options);
    let refused = refusal(&checked.decision);
    assert_eq!(refused.error_code, msg::FollowJointTrajectoryResult::INVALID_GOAL);
    let reason = &refused.error_string;
    assert!(reason.starts_with("ccd_guard: collision: "), "{reason}");
    let contact = &checked.result.verdict.contacts[0];
    assert!(reason.contains(&format!("{} touches {}", contact.link, contact.other)), "{reason}");
    assert!(reason.contains(&format!("t={:.4} s", contact.time_of_contact)), "{reason}");
    let depth = contact.max_penetration_depth;
    assert!(depth > 0.0 && reason.contains(&format!("depth {:.1} mm", depth * 1e3)), "{reason} ({depth})");
    assert!(checked.result.markers.is_some(), "a refused goal's contact is shown in rviz");
}

#[test]
fn the_start_is_the_measured_state_within_the_start_tolerance() {
    let mut guard = demo_guard();
    let options = GateOptions::default();
    let free = demo_trajectory("traj_free.yaml");
    // No joint_states yet: the gate cannot know where the controller starts.
    let reason = refusal(&guard.check_goal(&goal(free.clone()), &options).decision).error_string.clone();
    assert!(reason.starts_with("ccd_guard: invalid: ") && reason.contains("no joint_states value of 'joint1'"), "{reason}");
    at_start(&mut guard, &free, 0.02);
    let reason = refusal(&guard.check_goal(&goal(free.clone()), &options).decision).error_string.clone();
    assert!(reason.contains("'joint1'") && reason.contains("gate_start_tolerance 0.01"), "{reason}");
    at_start(&mut guard, &free, 0.009);
    assert_eq!(guard.check_goal(&goal(free.clone()), &options).decision, GateDecision::Forward);
    // Unknown joints and multi-DOF goals are refused with a reason.
    let mut unknown = free.clone();
    unknown.joint_names[2] = "elbow".into();
    let reason = refusal(&guard.check_goal(&goal(unknown), &options).decision).error_string.clone();
    assert!(reason.contains("unknown joint 'elbow'"), "{reason}");
    let mut multi = goal(free);
    multi.goal.multi_dof_trajectory.joint_names = vec!["base".into()];
    multi.goal.multi_dof_trajectory.points = vec![Default::default()];
    let reason = refusal(&guard.check_goal(&multi, &options).decision).error_string.clone();
    assert!(reason.contains("multi-DOF"), "{reason}");
}

#[test]
fn a_goal_closer_than_the_required_clearance_is_refused_by_how_much() {
    let mut guard = demo_guard();
    let free = demo_trajectory("traj_free.yaml");
    at_start(&mut guard, &free, 0.0);
    // Without a required clearance the gate answers the verdict alone, as a first-only
    // check does: no clearance measured (NaN, the message's null).
    let unmeasured = guard.check_goal(&goal(free.clone()), &GateOptions::default()).result.verdict.min_clearance;
    assert!(unmeasured.is_nan(), "{unmeasured}");
    let any = GateOptions { min_clearance: 1e-9, ..GateOptions::default() };
    let proven = guard.check_goal(&goal(free.clone()), &any).result.verdict.min_clearance;
    assert!(proven > 0.005, "{proven}");
    let near = GateOptions { min_clearance: proven * 0.9, ..GateOptions::default() };
    assert_eq!(guard.check_goal(&goal(free.clone()), &near).decision, GateDecision::Forward);
    let far = GateOptions { min_clearance: proven + 0.01, ..GateOptions::default() };
    let reason = refusal(&guard.check_goal(&goal(free), &far).decision).error_string.clone();
    assert!(reason.starts_with("ccd_guard: clearance: ") && reason.contains("below gate_min_clearance"), "{reason}");
}

#[test]
fn a_subset_of_the_joints_holds_the_others_where_they_are() {
    let mut guard = demo_guard();
    let options = GateOptions::default();
    let free = demo_trajectory("traj_free.yaml");
    at_start(&mut guard, &free, 0.0);
    // Joint 1 alone, turning the arm from home towards the box while the others hold
    // their home values: free. With joint 2 lowered it drives into the table or box.
    let single = |guard: &mut Guard, j2: f64| {
        guard.update_joint_states(&msg::JointState { name: vec!["joint2".into()], position: vec![j2], ..Default::default() }).unwrap();
        let mut t = msg::JointTrajectory { joint_names: vec!["joint1".into()], ..Default::default() };
        for (k, q) in [0.0, 0.6].iter().enumerate() {
            t.points.push(msg::JointTrajectoryPoint {
                positions: vec![*q],
                time_from_start: msg::Duration::from_seconds(k as f64 * 2.0),
                ..Default::default()
            });
        }
        t
    };
    let home = single(&mut guard, -0.5);
    assert_eq!(guard.check_goal(&goal(home), &options).decision, GateDecision::Forward);
    let low = single(&mut guard, 1.2);
    let checked = guard.check_goal(&goal(low), &options);
    assert_ne!(checked.result.verdict.verdict, "collision_free", "the held joint 2 is where the robot is");
}

#[test]
fn the_controller_starts_from_the_measured_state() {
    let point =
        |q: f64, t: f64, v: Option<f64>| TrajectoryPoint { positions: vec![q], velocities: v.map(|v| vec![v]), accelerations: None, time_from_start: t };
    let later = Trajectory { joint_names: vec!["j".into()], points: vec![point(0.1, 0.5, None), point(1.0, 1.5, None)] };
    let (motion, delay) = controller_motion(&later, &[0.095]);
    assert_eq!(delay, 0.0);
    assert_eq!(motion.points.len(), 3);
    assert_eq!((motion.points[0].positions[0], motion.points[0].time_from_start), (0.095, 0.0));
    assert_eq!(motion.points[1].time_from_start, 0.5);
    // A first point at time 0: reached from the measured state in a millisecond, so the
    // path between them is checked too; velocities stay cubic from rest.
    let now = Trajectory { joint_names: vec!["j".into()], points: vec![point(0.1, 0.0, Some(0.0)), point(1.0, 1.0, Some(0.0))] };
    let (motion, delay) = controller_motion(&now, &[0.095]);
    assert_eq!(delay, 1e-3);
    assert_eq!(motion.points[0].velocities, Some(vec![0.0]));
    assert_eq!(motion.points[1].time_from_start, 1e-3);
    assert_eq!(motion.points[2].time_from_start, 1.0 + 1e-3);
}

#[test]
fn a_running_goal_is_rechecked_from_where_the_robot_is() {
    let mut guard = demo_guard();
    let options = GateOptions::default();
    let free = demo_trajectory("traj_free.yaml");
    at_start(&mut guard, &free, 0.0);
    let running = goal(free.clone());
    assert_eq!(guard.check_goal(&running, &options).decision, GateDecision::Forward);
    assert_eq!(guard.recheck_execution(&running, 1.0, &options), None);
    // A box appears where the rest of the motion passes (the second waypoint's tool).
    let poses = ccd_guard::robot::urdf::load_urdf(&demo("robot.urdf"), &ccd_guard::robot::resources::ResourceResolver::from_env(Vec::new())).unwrap();
    let q: Vec<f64> = free.points[2].positions.clone();
    let tool = poses.link_poses(&q)[poses.link_named("tool0").unwrap()].translation.vector;
    let block = msg::CollisionObject {
        id: "intruder".into(),
        pose: msg::Pose { position: msg::Point { x: tool.x, y: tool.y, z: tool.z }, ..Default::default() },
        primitives: vec![msg::SolidPrimitive { kind: msg::SolidPrimitive::BOX, dimensions: vec![0.1, 0.1, 0.1], ..Default::default() }],
        primitive_poses: vec![msg::Pose::default()],
        operation: msg::CollisionObject::ADD,
        ..Default::default()
    };
    guard.apply_collision_object(&block).unwrap();
    let reason = guard.recheck_execution(&running, 1.0, &options).expect("no longer free");
    assert!(reason.starts_with("ccd_guard: collision: ") && reason.contains("intruder"), "{reason}");
    // Past the last point nothing is left to check.
    assert_eq!(guard.recheck_execution(&running, 100.0, &options), None);
}

#[test]
fn gate_parameters_from_params_files_and_the_command_line() {
    use ccd_guard::node::arguments::RosArguments;
    use ccd_guard::node::names::NodeNames;
    let load = |args: &[&str]| {
        let args = RosArguments::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap();
        let names = NodeNames::new("ccd_guard", &args).unwrap();
        NodeParameters::load(&args, &names)
    };
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/ccd_guard.yaml");
    let p = load(&["--ros-args", "--params-file", shipped.to_str().unwrap()]).unwrap();
    assert!(p.gate_controllers.is_empty(), "no gate unless asked for");
    assert_eq!(p.gate, GateOptions::default());
    let p = load(&["--ros-args", "-p", "gate_controllers:=[arm_controller, left/arm]", "-p", "gate_min_clearance:=0.02", "-p", "gate_start_tolerance:=0.05"])
        .unwrap();
    assert_eq!(p.gate_controllers, vec!["arm_controller".to_string(), "left/arm".to_string()]);
    assert_eq!(p.gate, GateOptions { start_tolerance: 0.05, min_clearance: 0.02, recheck_period: 0.5 });
    assert_eq!(load(&["--ros-args", "-p", "gate_controllers:=a,b"]).unwrap().gate_controllers, vec!["a".to_string(), "b".to_string()]);
    for (args, words) in [
        (["--ros-args", "-p", "gate_controllers:=[/abs]"], "not a controller name"),
        (["--ros-args", "-p", "gate_controllers:=[a, b, a]"], "'a' is named twice (entries 1 and 3)"),
        (["--ros-args", "-p", "gate_min_clearance:=-1"], "gate_min_clearance"),
        (["--ros-args", "-p", "gate_recheck_period:=x"], "gate_recheck_period"),
    ] {
        let e = load(&args).unwrap_err().to_string();
        assert!(e.contains(words), "{args:?}: {e}");
    }
}

#[test]
fn the_interpolation_is_the_controllers() {
    // Two points at home, at rest, or leaving and coming back with velocities towards the
    // pose inside the box of the colliding demo: the linear motion stays home (free), the
    // cubic one (q + v s - v s^2 for v = 4 (box - home), T = 1 s) reaches that pose half
    // way and collides.
    let mut guard = demo_guard();
    let free = demo_trajectory("traj_free.yaml");
    at_start(&mut guard, &free, 0.0);
    let home = free.points[0].positions.clone();
    let inside = demo_trajectory("traj_collide.yaml").points[2].positions.clone();
    let out: Vec<f64> = home.iter().zip(&inside).map(|(h, b)| 4.0 * (b - h)).collect();
    let back: Vec<f64> = out.iter().map(|v| -v).collect();
    let trajectory = |v0: Vec<f64>, v1: Vec<f64>| {
        let point = |t: f64, v: Vec<f64>| msg::JointTrajectoryPoint {
            positions: home.clone(),
            velocities: v,
            time_from_start: msg::Duration::from_seconds(t),
            ..Default::default()
        };
        msg::JointTrajectory { joint_names: free.joint_names.clone(), points: vec![point(0.0, v0), point(1.0, v1)], ..Default::default() }
    };
    let still = guard.check_goal(&goal(trajectory(vec![], vec![])), &GateOptions::default());
    assert_eq!(still.decision, GateDecision::Forward);
    let swing = guard.check_goal(&goal(trajectory(out, back)), &GateOptions::default());
    assert_eq!(swing.result.verdict.verdict, "collision", "{}", refusal(&swing.decision).error_string);
    let t = swing.result.verdict.time_of_contact;
    assert!(t > 0.05 && t < 0.5, "on the way out: {t}");
}
