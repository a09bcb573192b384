//! The ROS node's logic without DDS (issue 6): the command line, names, parameters,
//! discovery settings, the work queue, the planning scene, the guard and its markers.
//! The transport is tested against a Cyclone DDS peer in `interop/python`.

use crate::common::demo::{demo, demo_guard, demo_trajectory};
use ccd_guard::check::Method;
use ccd_guard::collision::Body;
use ccd_guard::moveit::guard::TrajectoryJob;
use ccd_guard::moveit::msg;
use ccd_guard::moveit::planning_scene::PlanningSceneState;
use ccd_guard::node::arguments::RosArguments;
use ccd_guard::node::discovery::{Discovery, DiscoveryRange};
use ccd_guard::node::names::NodeNames;
use ccd_guard::node::parameters::NodeParameters;
use ccd_guard::node::work_queue::{Pushed, Work, WorkQueue};
use std::path::{Path, PathBuf};

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn ros_arguments_as_ros2_launch_passes_them() {
    let args = RosArguments::parse(&strings(&[
        "--ros-args",
        "-r",
        "__node:=guard",
        "-r",
        "__ns:=/cell",
        "--params-file",
        "/tmp/p.yaml",
        "-r",
        "joint_states:=/robot/joint_states",
        "-r",
        "guard:planned_trajectory:=plan",
        "-r",
        "other:x:=y",
        "-p",
        "tolerance:=0.002",
        "--log-level",
        "guard:=debug",
        "--enclave",
        "/e",
        "--disable-rosout-logs",
        "--",
        "extra",
    ]))
    .unwrap();
    assert_eq!(args.node_name.as_deref(), Some("guard"));
    assert_eq!(args.namespace.as_deref(), Some("/cell"));
    assert_eq!(args.params_files, vec![PathBuf::from("/tmp/p.yaml")]);
    assert_eq!(args.parameters, vec![("tolerance".to_string(), "0.002".to_string())]);
    assert_eq!(args.unparsed, vec!["extra".to_string()]);
    assert_eq!(args.log_level("guard"), Some(log::LevelFilter::Debug));
    assert_eq!(args.log_level("someone_else"), None);
    let names = NodeNames::new("ccd_guard", &args).unwrap();
    assert_eq!(names.fully_qualified(), "/cell/guard");
    assert_eq!(names.resolve("joint_states").unwrap(), "/robot/joint_states");
    assert_eq!(names.resolve("planned_trajectory").unwrap(), "/cell/plan");
    assert_eq!(names.resolve("x").unwrap(), "/cell/x", "a rule for another node does not apply");
    assert_eq!(names.resolve("~/verdict").unwrap(), "/cell/guard/verdict");
    assert_eq!(names.resolve("/robot_description").unwrap(), "/robot_description");
}

#[test]
fn bad_ros_arguments_are_clear_errors() {
    for (args, expected) in [
        (vec!["--ros-args", "--frobnicate"], "unknown ROS argument '--frobnicate'"),
        (vec!["--ros-args", "-p"], "-p needs a value"),
        (vec!["--ros-args", "-p", "tolerance"], "not name:=value"),
        (vec!["--ros-args", "-r", "a:="], "empty side"),
    ] {
        let e = RosArguments::parse(&strings(&args)).unwrap_err().to_string();
        assert!(e.contains(expected), "{args:?}: {e}");
    }
    let args = RosArguments::parse(&strings(&["--ros-args", "-r", "__node:=9lives"])).unwrap();
    assert!(NodeNames::new("ccd_guard", &args).unwrap_err().to_string().contains("starts with a digit"));
    let args = RosArguments::parse(&strings(&["--ros-args", "-r", "__ns:=/a//b"])).unwrap();
    assert!(NodeNames::new("ccd_guard", &args).is_err());
}

#[test]
fn params_files_match_the_node_and_p_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("params.yaml");
    std::fs::write(
        &file,
        "/**:\n  ros__parameters:\n    tolerance: 0.005\n    use_sim_time: false\n\
         /cell/guard:\n  ros__parameters:\n    method: pipeline\n    queue_size: 7\n    package_dirs: [\"cell=/opt/cell\"]\n\
         /other/node:\n  ros__parameters:\n    method: sampled\n    nonsense: 1\n\
         /*/guard:\n  ros__parameters:\n    first_only: true\n",
    )
    .unwrap();
    let args = RosArguments::parse(&strings(&[
        "--ros-args",
        "-r",
        "__node:=guard",
        "-r",
        "__ns:=/cell",
        "--params-file",
        file.to_str().unwrap(),
        "-p",
        "tolerance:=0.002",
        "-p",
        "planning_frame:=world",
    ]))
    .unwrap();
    let names = NodeNames::new("ccd_guard", &args).unwrap();
    let p = NodeParameters::load(&args, &names).unwrap();
    assert_eq!(p.guard.check.method, Method::Pipeline);
    assert_eq!(p.guard.check.tolerance, 0.002, "-p comes after the file");
    assert!(p.guard.check.first_only);
    assert_eq!(p.queue_size, 7);
    assert_eq!(p.guard.planning_frame, "world");
    assert_eq!(p.guard.package_dirs, vec![("cell".to_string(), PathBuf::from("/opt/cell"))]);

    for (param, expected) in [
        ("tolerance:=-1", "parameter 'tolerance' must be a positive number of metres"),
        ("method:=exact", "certified, pipeline or sampled"),
        ("queue_size:=0", "an integer from 1 to 1024"),
        ("speed:=3", "unknown parameter 'speed'"),
    ] {
        let args = RosArguments::parse(&strings(&["--ros-args", "-p", param])).unwrap();
        let names = NodeNames::new("ccd_guard", &args).unwrap();
        let e = NodeParameters::load(&args, &names).unwrap_err().to_string();
        assert!(e.contains(expected), "{param}: {e}");
    }
}

#[test]
fn the_shipped_params_file_loads() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("config/ccd_guard.yaml");
    let args = RosArguments::parse(&strings(&["--ros-args", "--params-file", file.to_str().unwrap()])).unwrap();
    let names = NodeNames::new("ccd_guard", &args).unwrap();
    let p = NodeParameters::load(&args, &names).unwrap();
    assert_eq!(p.guard.check.method, Method::Certified);
    assert_eq!(p.guard.check.tolerance, 0.001);
    assert!(p.guard.publish_markers);
}

#[test]
fn discovery_follows_the_rmw_environment() {
    let vars = |pairs: &'static [(&'static str, &'static str)]| move |name: &str| pairs.iter().find(|(k, _)| *k == name).map(|(_, v)| v.to_string());
    let d = |pairs: &'static [(&'static str, &'static str)]| Discovery::from_vars(vars(pairs));
    assert_eq!(d(&[]).unwrap(), Discovery { domain_id: 0, range: DiscoveryRange::Subnet });
    assert_eq!(d(&[("ROS_DOMAIN_ID", "42")]).unwrap().domain_id, 42);
    assert_eq!(d(&[("ROS_LOCALHOST_ONLY", "1")]).unwrap().range, DiscoveryRange::Localhost);
    assert_eq!(d(&[("ROS_LOCALHOST_ONLY", "0")]).unwrap().range, DiscoveryRange::Subnet);
    assert_eq!(d(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "localhost")]).unwrap().range, DiscoveryRange::Localhost);
    assert_eq!(d(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "OFF")]).unwrap().range, DiscoveryRange::Off);
    // Jazzy: the range, when set, wins over the deprecated variable.
    assert_eq!(d(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "SUBNET"), ("ROS_LOCALHOST_ONLY", "1")]).unwrap().range, DiscoveryRange::Subnet);
    assert_eq!(d(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "SYSTEM_DEFAULT"), ("ROS_LOCALHOST_ONLY", "1")]).unwrap().range, DiscoveryRange::Localhost);
    assert!(d(&[("ROS_DOMAIN_ID", "300")]).unwrap_err().to_string().contains("ROS_DOMAIN_ID"));
    assert!(d(&[("ROS_DOMAIN_ID", "x")]).is_err());
    assert!(d(&[("ROS_AUTOMATIC_DISCOVERY_RANGE", "GALAXY")]).is_err());
}

#[test]
fn the_work_queue_is_bounded_and_keeps_the_newest() {
    let q: WorkQueue<&str, u32, u32> = WorkQueue::new(2);
    assert_eq!(q.push(Work::Trajectory(1)).0, Pushed::Queued);
    assert_eq!(q.push(Work::Update("object")).0, Pushed::Queued);
    assert_eq!(q.push(Work::Trajectory(2)).0, Pushed::Queued);
    assert_eq!(q.push(Work::Trajectory(3)).0, Pushed::DroppedOldest);
    assert_eq!(q.push(Work::JointState("q1")).0, Pushed::Queued);
    assert_eq!(q.push(Work::JointState("q2")).0, Pushed::Queued, "joint states coalesce");
    assert_eq!(q.dropped(), 1);
    let order: Vec<String> = std::iter::from_fn(|| q.pop(std::time::Duration::ZERO)).map(|w| format!("{w:?}")).collect();
    assert_eq!(order, ["Update(\"object\")", "Trajectory(2)", "Trajectory(3)", "JointState(\"q2\")"]);
    // Calls are never dropped for topic work; past the bound they are refused.
    assert_eq!(q.push(Work::Call(1)).0, Pushed::Queued);
    assert_eq!(q.push(Work::Call(2)).0, Pushed::Queued);
    let (pushed, back) = q.push(Work::Call(3));
    assert_eq!(pushed, Pushed::Refused);
    assert!(matches!(back, Some(Work::Call(3))));
    assert_eq!(q.push(Work::Trajectory(4)).0, Pushed::Refused);
    assert_eq!(q.dropped(), 2);
    // A withdrawn call (a gated goal a newer one superseded) makes room for the next.
    assert_eq!(q.withdraw_calls(|&c| c == 1), 1);
    assert_eq!(q.withdraw_calls(|&c| c == 1), 0, "withdrawn once");
    assert_eq!(q.push(Work::Call(3)).0, Pushed::Queued);
    let order: Vec<String> = std::iter::from_fn(|| q.pop(std::time::Duration::ZERO)).map(|w| format!("{w:?}")).collect();
    assert_eq!(order, ["Call(2)", "Call(3)"]);
    assert_eq!(q.push(Work::Call(4)).0, Pushed::Queued);
    q.close();
    assert!(q.pop(std::time::Duration::from_secs(5)).is_some());
}

fn demo_scene() -> PlanningSceneState {
    let resolver = ccd_guard::robot::resources::ResourceResolver::from_env(Vec::new());
    let robot = ccd_guard::robot::urdf::load_urdf(&demo("robot.urdf"), &resolver).unwrap();
    let srdf = std::fs::read_to_string(demo("robot.srdf")).unwrap();
    let disabled = ccd_guard::robot::srdf::parse_disabled_pairs(&srdf, &demo("robot.srdf")).unwrap();
    let scene = ccd_guard::scene::load_scene(&demo("scene.yaml"), &resolver).unwrap();
    PlanningSceneState::new(robot, Some(disabled), scene, "")
}

fn box_object(id: &str, frame: &str, at: [f64; 3], operation: u8) -> msg::CollisionObject {
    msg::CollisionObject {
        header: msg::Header { frame_id: frame.into(), ..Default::default() },
        id: id.into(),
        pose: msg::Pose { position: msg::Point { x: at[0], y: at[1], z: at[2] }, ..Default::default() },
        primitives: vec![msg::SolidPrimitive { kind: msg::SolidPrimitive::BOX, dimensions: vec![0.1, 0.1, 0.1], ..Default::default() }],
        primitive_poses: vec![msg::Pose::default()],
        operation,
        ..Default::default()
    }
}

fn obstacle_centres(scene: &PlanningSceneState, id: &str) -> Vec<[f64; 3]> {
    let world = scene.collision_world();
    world.scene.objects.iter().filter(|o| o.id == id).map(|o| o.pose.translation.vector.into()).collect()
}

#[test]
fn collision_objects_add_append_move_remove_in_the_right_frames() {
    let mut scene = demo_scene();
    assert_eq!(scene.planning_frame(), "world", "the scene file's frame");
    scene.apply_collision_object(&box_object("crate", "world", [1.0, 0.0, 0.5], msg::CollisionObject::ADD)).unwrap();
    assert_eq!(obstacle_centres(&scene, "crate"), vec![[1.0, 0.0, 0.5]]);
    scene.apply_collision_object(&box_object("crate", "", [1.0, 0.2, 0.5], msg::CollisionObject::APPEND)).unwrap();
    assert_eq!(obstacle_centres(&scene, "crate"), vec![[1.0, 0.0, 0.5], [1.0, 0.2, 0.5]]);
    let mut moved = box_object("crate", "world", [0.0, 1.0, 0.5], msg::CollisionObject::MOVE);
    moved.primitives.clear();
    moved.primitive_poses.clear();
    scene.apply_collision_object(&moved).unwrap();
    let centres = obstacle_centres(&scene, "crate");
    assert!((centres[1][0] - 0.0).abs() < 1e-12 && (centres[1][1] - 1.2).abs() < 1e-12, "{centres:?}");
    // In a link's frame: placed at the current joint values.
    scene.update_joints(&["joint1".into()], &[std::f64::consts::FRAC_PI_2]).unwrap();
    scene.apply_collision_object(&box_object("tool", "gripper", [0.0, 0.0, 0.0], msg::CollisionObject::ADD)).unwrap();
    let world = scene.collision_world();
    let q = {
        let mut q = world.robot.default_positions();
        q[world.robot.variable_of_joint("joint1").unwrap()] = std::f64::consts::FRAC_PI_2;
        q
    };
    let gripper = world.robot.link_poses(&q)[world.robot.link_named("gripper").unwrap()].translation.vector;
    let tool = obstacle_centres(&scene, "tool")[0];
    assert!((gripper - nalgebra::Vector3::from(tool)).norm() < 1e-12);
    scene.apply_collision_object(&box_object("crate", "", [0.0; 3], msg::CollisionObject::REMOVE)).unwrap();
    assert!(obstacle_centres(&scene, "crate").is_empty());
    for (bad, expected) in [
        (box_object("x", "elsewhere", [0.0; 3], 0), "frame 'elsewhere'"),
        (box_object("", "", [0.0; 3], 0), "needs an id"),
        (
            msg::CollisionObject {
                id: "p".into(),
                planes: vec![msg::Plane { coef: [0.0, 0.0, 1.0, 0.0] }],
                plane_poses: vec![Default::default()],
                ..Default::default()
            },
            "planes",
        ),
        (box_object("ghost", "", [0.0; 3], msg::CollisionObject::MOVE), "does not have"),
        (
            {
                let mut o = box_object("q", "", [0.0; 3], 0);
                o.pose.orientation = msg::Quaternion { x: 0.0, y: 0.0, z: 0.0, w: 0.0 };
                o
            },
            "quaternion",
        ),
        (
            {
                let mut o = box_object("d", "", [0.0; 3], 0);
                o.primitives[0].dimensions = vec![0.1, -0.1, 0.1];
                o
            },
            "positive",
        ),
    ] {
        let e = scene.apply_collision_object(&bad).unwrap_err().to_string();
        assert!(e.contains(expected), "{e}");
    }
}

#[test]
fn the_allowed_collision_matrix_and_attached_objects() {
    let mut scene = demo_scene();
    let table = msg::PlanningScene {
        is_diff: true,
        allowed_collision_matrix: msg::AllowedCollisionMatrix {
            entry_names: vec!["gripper".into(), "box".into()],
            entry_values: vec![msg::AllowedCollisionEntry { enabled: vec![false, true] }, msg::AllowedCollisionEntry { enabled: vec![true, false] }],
            ..Default::default()
        },
        ..Default::default()
    };
    scene.apply_planning_scene(&table).unwrap();
    let world = scene.collision_world();
    let gripper = Body::Link(world.robot.link_named("gripper").unwrap());
    let box_body = Body::Obstacle(world.scene.objects.iter().position(|o| o.id == "box").unwrap());
    let table_body = Body::Obstacle(world.scene.objects.iter().position(|o| o.id == "table").unwrap());
    assert!(!world.is_checked(gripper, box_body));
    assert!(world.is_checked(gripper, table_body));

    // An object in the gripper: a link of its own, touching the gripper allowed, the
    // rest of the robot and the world checked.
    let attached = msg::AttachedCollisionObject {
        link_name: "gripper".into(),
        object: box_object("part", "gripper", [0.0, 0.0, 0.05], msg::CollisionObject::ADD),
        touch_links: vec!["link6".into()],
        ..Default::default()
    };
    let diff = msg::PlanningScene {
        is_diff: true,
        robot_state: msg::RobotState { attached_collision_objects: vec![attached], is_diff: true, ..Default::default() },
        ..Default::default()
    };
    scene.apply_planning_scene(&diff).unwrap();
    let world = scene.collision_world();
    let part = Body::Link(world.robot.link_named("part").unwrap());
    assert!(!world.is_checked(part, gripper));
    assert!(!world.is_checked(part, Body::Link(world.robot.link_named("link6").unwrap())));
    assert!(world.is_checked(part, Body::Link(world.robot.link_named("base_link").unwrap())));
    assert!(world.is_checked(part, table_body));
    // A bad matrix allows nothing (every pair is checked) and is listed as rejected; the
    // diff's empty robot state leaves the attached object.
    let bad = msg::PlanningScene {
        is_diff: true,
        allowed_collision_matrix: msg::AllowedCollisionMatrix { entry_names: vec!["a".into()], entry_values: vec![], ..Default::default() },
        ..Default::default()
    };
    assert!(scene.apply_planning_scene(&bad).unwrap_err().to_string().contains("not 1 x 1"));
    let world = scene.collision_world();
    assert!(world.robot.link_named("part").is_some());
    assert!(world.is_checked(gripper, box_body));
    assert!(scene.missing().any(|(part, _)| part == "allowed_collision_matrix"));
    // A full scene replaces the world and drops the attached object.
    scene.apply_planning_scene(&msg::PlanningScene::default()).unwrap();
    assert!(scene.collision_world().scene.objects.is_empty());
    assert!(scene.collision_world().robot.link_named("part").is_none());
}

/// The display URIs of the demo robot's collision meshes.
fn guard_robot_meshes() -> Vec<String> {
    let resolver = ccd_guard::robot::resources::ResourceResolver::from_env(Vec::new());
    let robot = ccd_guard::robot::urdf::load_urdf(&demo("robot.urdf"), &resolver).unwrap();
    robot.links.iter().flat_map(|l| l.collision.iter().filter_map(|c| c.mesh_source.as_ref().map(|m| m.uri.clone()))).collect()
}

#[test]
fn a_plan_in_parts_is_checked_as_one_motion() {
    let mut guard = demo_guard();
    let whole = demo_trajectory("traj_collide.yaml");
    let single = guard.check(&TrajectoryJob::from_joint_trajectory("planned_trajectory", whole.clone()));
    assert_eq!(single.verdict.verdict, "collision");
    let split = 2;
    let t0 = whole.points[split].time_from_start.seconds();
    let second = msg::JointTrajectory {
        points: whole.points[split..]
            .iter()
            .map(|p| msg::JointTrajectoryPoint { time_from_start: msg::Duration::from_seconds(p.time_from_start.seconds() - t0), ..p.clone() })
            .collect(),
        ..whole.clone()
    };
    let first = msg::JointTrajectory { points: whole.points[..=split].to_vec(), ..whole.clone() };
    let display = msg::DisplayTrajectory {
        trajectory: vec![
            msg::RobotTrajectory { joint_trajectory: first, ..Default::default() },
            msg::RobotTrajectory { joint_trajectory: second, ..Default::default() },
        ],
        ..Default::default()
    };
    let parts = guard.check(&TrajectoryJob::from_display_trajectory("display_planned_path", display));
    assert_eq!(parts.verdict.verdict, single.verdict.verdict);
    assert!((parts.verdict.time_of_contact - single.verdict.time_of_contact).abs() < 1e-9);
    assert_eq!(parts.verdict.contacts.len(), single.verdict.contacts.len());
    // Multi-DOF joints are refused, not ignored.
    let mut display = msg::DisplayTrajectory { trajectory: vec![msg::RobotTrajectory { joint_trajectory: whole, ..Default::default() }], ..Default::default() };
    display.trajectory[0].multi_dof_joint_trajectory =
        msg::MultiDofJointTrajectory { joint_names: vec!["virtual".into()], points: vec![Default::default()], ..Default::default() };
    let refused = guard.check(&TrajectoryJob::from_display_trajectory("display_planned_path", display));
    assert_eq!(refused.verdict.verdict, "invalid");
    assert!(refused.verdict.error.contains("multi-DOF"));
}

#[test]
fn markers_show_the_contact_and_sweeps_that_hold_the_link() {
    let mut guard = demo_guard();
    let result = guard.check(&TrajectoryJob::from_joint_trajectory("planned_trajectory", demo_trajectory("traj_collide.yaml")));
    let markers = result.markers.expect("markers on").markers;
    assert_eq!(markers[0].action, msg::Marker::DELETEALL);
    let count = |ns: &str| markers.iter().filter(|m| m.ns == ns).count();
    assert_eq!(count("contact_points"), result.verdict.contacts.len());
    assert_eq!(count("contact_normals"), result.verdict.contacts.len());
    assert!(count("links_at_contact") >= 1);
    // Mesh links are drawn from their files (rviz resolves file:// and package://).
    let upper_arm = guard_robot_meshes();
    assert!(!upper_arm.is_empty() && upper_arm.iter().all(|uri| uri.starts_with("file://") && uri.ends_with(".stl")), "{upper_arm:?}");
    // The swept boxes of the gripper hold its geometry at sampled instants of the event.
    let contact = &result.verdict.contacts[0];
    let sweeps: Vec<_> = markers.iter().filter(|m| m.ns == "swept_bounds").collect();
    assert!(!sweeps.is_empty());
    let resolver = ccd_guard::robot::resources::ResourceResolver::from_env(Vec::new());
    let input = ccd_guard::check::CheckInput::load(
        &ccd_guard::check::InputFiles {
            urdf: demo("robot.urdf"),
            srdf: Some(demo("robot.srdf")),
            scene: Some(demo("scene.yaml")),
            trajectory: demo("traj_collide.yaml"),
            start_state: None,
        },
        &resolver,
    )
    .unwrap();
    let gripper = input.world.robot.link_named(&contact.link).unwrap();
    for k in 0..=50 {
        let t = contact.time_of_contact + (contact.time_of_separation - contact.time_of_contact) * k as f64 / 50.0;
        let poses = input.world.robot.link_poses(&input.motion.positions_at(t));
        for element in input.world.elements.iter().filter(|e| e.body == Body::Link(gripper)) {
            for corner in element.body_obb.corners() {
                let p = poses[gripper] * corner;
                let inside = sweeps.iter().any(|m| {
                    let c = m.pose.position;
                    (p.x - c.x).abs() <= m.scale.x / 2.0 + 1e-9 && (p.y - c.y).abs() <= m.scale.y / 2.0 + 1e-9 && (p.z - c.z).abs() <= m.scale.z / 2.0 + 1e-9
                });
                assert!(inside, "corner {p:?} at t = {t} outside every swept box");
            }
        }
    }
}

#[test]
fn nothing_is_proven_free_while_the_scene_lacks_an_object() {
    let mut guard = demo_guard();
    let job = TrajectoryJob::from_joint_trajectory("planned_trajectory", demo_trajectory("traj_free.yaml"));
    assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
    let plane = msg::CollisionObject {
        id: "floor".into(),
        planes: vec![msg::Plane { coef: [0.0, 0.0, 1.0, 0.0] }],
        plane_poses: vec![Default::default()],
        ..Default::default()
    };
    assert!(guard.apply_collision_object(&plane).unwrap_err().to_string().contains("planes"));
    let v = guard.check(&job).verdict;
    assert_eq!((v.verdict.as_str(), v.certified), ("uncertain", false));
    assert!(v.error.contains("'floor'"), "{}", v.error);
    // Collisions are still reported as they are.
    let hit = guard.check(&TrajectoryJob::from_joint_trajectory("planned_trajectory", demo_trajectory("traj_collide.yaml")));
    assert_eq!(hit.verdict.verdict, "collision");
    guard.apply_collision_object(&msg::CollisionObject { id: "floor".into(), operation: msg::CollisionObject::REMOVE, ..Default::default() }).unwrap();
    assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
    // A robot description that cannot be read leaves no robot, not the old one.
    assert!(
        guard
            .set_robot_description(
                "<robot name='x'><link name='a'><collision><geometry><mesh filename='file:///nonexistent.stl'/></geometry></collision></link></robot>"
            )
            .is_err()
    );
    let v = guard.check(&job).verdict;
    assert_eq!(v.verdict, "invalid");
    assert!(v.error.contains("rejected") && v.error.contains("nonexistent.stl"), "{}", v.error);
}

#[test]
fn joint_states_fill_the_joints_a_trajectory_leaves_out() {
    let mut guard = demo_guard();
    let full = demo_trajectory("traj_collide.yaml");
    // The same motion without joint1, which holds still at its first value.
    let mut held = full.clone();
    let q1 = full.points[0].positions[0];
    for p in &mut held.points {
        p.positions[0] = q1;
    }
    let mut partial = held.clone();
    partial.joint_names.remove(0);
    for p in &mut partial.points {
        p.positions.remove(0);
    }
    let state = msg::JointState { name: vec!["joint1".into(), "not_a_joint".into()], position: vec![q1, 3.0], ..Default::default() };
    guard.update_joint_states(&state).unwrap();
    let expected = guard.check(&TrajectoryJob::from_joint_trajectory("planned_trajectory", held)).verdict;
    let got = guard.check(&TrajectoryJob::from_joint_trajectory("planned_trajectory", partial.clone())).verdict;
    assert_eq!((got.verdict.as_str(), got.segment_index), (expected.verdict.as_str(), expected.segment_index));
    assert!((got.time_of_contact - expected.time_of_contact).abs() < 1e-12 || (got.time_of_contact.is_nan() && expected.time_of_contact.is_nan()));
    assert!((got.min_clearance - expected.min_clearance).abs() < 1e-12);
    // A start state in the request wins over joint_states.
    let mut job = TrajectoryJob::from_joint_trajectory("check_trajectory", partial);
    job.start_state = Some(msg::JointState { name: vec!["joint1".into()], position: vec![q1 + 1.0], ..Default::default() });
    let moved = guard.check(&job).verdict;
    assert!(moved.time_of_contact != got.time_of_contact || moved.verdict != got.verdict, "{moved:?}");
    assert!(
        guard
            .update_joint_states(&msg::JointState { name: vec!["joint1".into()], position: vec![f64::NAN], ..Default::default() })
            .unwrap_err()
            .to_string()
            .contains("not finite")
    );
}

#[test]
fn nothing_is_proven_free_while_the_scene_holds_an_octomap_the_node_cannot_take_in() {
    let mut guard = demo_guard();
    let job = TrajectoryJob::from_joint_trajectory("planned_trajectory", demo_trajectory("traj_free.yaml"));
    assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
    let with_map = |id: &str, data: Vec<i8>, is_diff: bool| msg::PlanningScene {
        is_diff,
        world: msg::PlanningSceneWorld {
            octomap: msg::OctomapWithPose {
                octomap: msg::Octomap { binary: true, id: id.into(), resolution: 0.02, data, ..Default::default() },
                ..Default::default()
            },
            ..Default::default()
        },
        ..Default::default()
    };
    // A map of a kind the node does not read, then garbage under the right id.
    for (id, data) in [("ColorOcTree", vec![0x55_i8, 0x55]), ("OcTree", vec![-1_i8, -1, -1])] {
        assert!(guard.apply_planning_scene(&with_map(id, data, true)).unwrap_err().to_string().contains("octomap"));
        let v = guard.check(&job).verdict;
        assert_eq!((v.verdict.as_str(), v.certified), ("uncertain", false), "{id}");
        assert!(v.error.contains("'<octomap>'"), "{}", v.error);
        // A diff without a map keeps it, and so does removing every collision object.
        guard.apply_planning_scene(&msg::PlanningScene { is_diff: true, ..Default::default() }).unwrap();
        assert_eq!(guard.check(&job).verdict.verdict, "uncertain");
        guard.apply_collision_object(&msg::CollisionObject { operation: msg::CollisionObject::REMOVE, ..Default::default() }).unwrap();
        assert_eq!(guard.check(&job).verdict.verdict, "uncertain");
        // A full scene without one removes it.
        guard.apply_planning_scene(&with_map("OcTree", Vec::new(), false)).unwrap();
        assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
    }
}

/// octomap's `writeBinaryData` stream of a tree whose occupied leaves are the given
/// finest-depth keys (a test encoder; the reader is checked against octomap's own
/// writer in `tests/check/octomap_stream.rs`).
fn binary_octomap_stream(keys: &[[u16; 3]]) -> Vec<i8> {
    fn node(keys: &[[u16; 3]], depth: u32, out: &mut Vec<u8>) {
        let bit = 15 - depth;
        let child = |k: &[u16; 3]| ((k[0] >> bit) & 1) | (((k[1] >> bit) & 1) << 1) | (((k[2] >> bit) & 1) << 2);
        let parts: Vec<Vec<[u16; 3]>> = (0..8).map(|i| keys.iter().copied().filter(|k| child(k) == i).collect()).collect();
        let mut bytes = [0u8; 2];
        for (i, part) in parts.iter().enumerate() {
            let code = match (part.is_empty(), depth == 15) {
                (true, _) => 0b00,
                (false, true) => 0b10, // bit 2i+1: occupied leaf
                (false, false) => 0b11,
            };
            bytes[i / 4] |= code << (2 * (i % 4));
        }
        out.extend(bytes);
        if depth < 15 {
            for part in parts.iter().filter(|p| !p.is_empty()) {
                node(part, depth + 1, out);
            }
        }
    }
    let mut out = Vec::new();
    node(keys, 0, &mut out);
    out.into_iter().map(|b| b as i8).collect()
}

#[test]
fn a_planning_scene_octomap_is_part_of_the_world() {
    let mut guard = demo_guard();
    let trajectory = demo_trajectory("traj_free.yaml");
    let job = TrajectoryJob::from_joint_trajectory("planned_trajectory", trajectory.clone());
    assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
    // Voxels (5 cm) around where the free motion's last link passes at 1.25 s.
    let resolver = ccd_guard::robot::resources::ResourceResolver::from_env(Vec::new());
    let robot = ccd_guard::robot::urdf::load_urdf(&demo("robot.urdf"), &resolver).unwrap();
    let motion = ccd_guard::motion::JointMotion::new(&robot, &ccd_guard::motion::load_trajectory(&demo("traj_free.yaml")).unwrap(), None).unwrap();
    let poses = robot.link_poses(&motion.positions_at(1.25));
    let tip = poses.last().unwrap().translation.vector;
    let resolution = 0.05;
    let key = |x: f64| ((x / resolution).floor() as i32 + 32768) as u16;
    let mut keys = Vec::new();
    for dx in -1..=1 {
        for dy in -1..=1 {
            for dz in -1..=1 {
                keys.push([key(tip.x).wrapping_add_signed(dx), key(tip.y).wrapping_add_signed(dy), key(tip.z).wrapping_add_signed(dz)]);
            }
        }
    }
    let scene = |data: Vec<i8>, is_diff: bool| msg::PlanningScene {
        is_diff,
        world: msg::PlanningSceneWorld {
            octomap: msg::OctomapWithPose {
                header: msg::Header { frame_id: "world".into(), ..Default::default() },
                octomap: msg::Octomap { binary: true, id: "OcTree".into(), resolution, data, ..Default::default() },
                ..Default::default()
            },
            ..Default::default()
        },
        ..Default::default()
    };
    guard.apply_planning_scene(&scene(binary_octomap_stream(&keys), true)).unwrap();
    let v = guard.check(&job).verdict;
    assert_eq!(v.verdict, "collision", "{}", v.error);
    assert!(v.contacts.iter().all(|c| c.other == "<octomap>"), "{:?}", v.contacts);
    assert!(v.time_of_contact < 1.25 && v.max_penetration_depth > 0.0);
    // rviz shows the cubes each contact touches.
    let markers = guard.check(&job).markers.expect("markers on").markers;
    let cubes: Vec<_> = markers.iter().filter(|m| m.ns == "voxels_at_contact").collect();
    assert!(!cubes.is_empty() && cubes.iter().all(|m| m.kind == msg::Marker::CUBE_LIST && !m.points.is_empty() && m.scale.x == resolution));
    for p in cubes.iter().flat_map(|m| &m.points) {
        let centre = |k: u16| ((k as i32 - 32768) as f64 + 0.5) * resolution;
        assert!(keys.iter().any(|k| (centre(k[0]) - p.x).abs() < 1e-9 && (centre(k[1]) - p.y).abs() < 1e-9 && (centre(k[2]) - p.z).abs() < 1e-9), "{p:?}");
    }
    // The map moves with its origin: 2 m up it is out of reach.
    let mut lifted = scene(binary_octomap_stream(&keys), true);
    lifted.world.octomap.origin.position.z = 2.0;
    guard.apply_planning_scene(&lifted).unwrap();
    assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
    // Removing every collision object keeps the map, as in MoveIt.
    guard.apply_planning_scene(&scene(binary_octomap_stream(&keys), true)).unwrap();
    let remove_all = msg::CollisionObject { operation: msg::CollisionObject::REMOVE, ..Default::default() };
    guard.apply_collision_object(&remove_all).unwrap();
    assert_eq!(guard.check(&job).verdict.verdict, "collision");
    // A full scene without a map removes it.
    guard.apply_planning_scene(&scene(binary_octomap_stream(&keys), false)).unwrap();
    assert_eq!(guard.check(&job).verdict.verdict, "collision");
    guard.apply_planning_scene(&scene(Vec::new(), false)).unwrap();
    assert_eq!(guard.check(&job).verdict.verdict, "collision_free");
}

#[test]
fn what_the_allowed_collision_matrix_allows_is_not_a_collision() {
    // The gripper drives into the box; with the box allowed against everything (a default
    // entry, as MoveIt sets for an object about to be grasped) that is no contact, in the
    // pipeline's culling as in the discrete checks.
    let mut guard = demo_guard();
    let job = TrajectoryJob::from_joint_trajectory("planned_trajectory", demo_trajectory("traj_collide.yaml"));
    let hit = guard.check(&job).verdict;
    assert!(hit.contacts.iter().any(|c| c.other == "box"), "{:?}", hit.contacts);
    let allow_box = msg::PlanningScene {
        is_diff: true,
        allowed_collision_matrix: msg::AllowedCollisionMatrix {
            default_entry_names: vec!["box".into()],
            default_entry_values: vec![true],
            ..Default::default()
        },
        ..Default::default()
    };
    guard.apply_planning_scene(&allow_box).unwrap();
    let allowed = guard.check(&job).verdict;
    assert!(allowed.contacts.iter().all(|c| c.other != "box"), "{:?}", allowed.contacts);
}

#[test]
fn objects_the_start_state_holds_are_part_of_the_world() {
    // A DisplayTrajectory whose trajectory_start holds a long bar in the gripper: the free
    // demo motion swings it into the cell. Left out, the motion would be certified free.
    let mut guard = demo_guard();
    let plan = msg::DisplayTrajectory {
        trajectory: vec![msg::RobotTrajectory { joint_trajectory: demo_trajectory("traj_free.yaml"), ..Default::default() }],
        ..Default::default()
    };
    let free = guard.check(&TrajectoryJob::from_display_trajectory("display_planned_path", plan.clone())).verdict;
    assert_eq!((free.verdict.as_str(), free.certified), ("collision_free", true));
    let mut holding = plan;
    let mut bar = box_object("bar", "gripper", [0.0, 0.0, 0.0], msg::CollisionObject::ADD);
    bar.primitives[0].dimensions = vec![0.05, 0.05, 1.2];
    holding.trajectory_start.attached_collision_objects = vec![msg::AttachedCollisionObject { link_name: "gripper".into(), object: bar, ..Default::default() }];
    let v = guard.check(&TrajectoryJob::from_display_trajectory("display_planned_path", holding)).verdict;
    assert_ne!(v.verdict, "collision_free", "{:?}", v.contacts);
    assert!(v.contacts.iter().any(|c| c.link == "bar"), "{:?}", v.contacts);
}
