//! The node's worker survives its own bugs (issue 17): a panic inside a check, a gated
//! goal, the re-check of a running goal or a scene update is answered as an internal
//! error, and the worker goes on serving. Driven here without DDS, through the same
//! [`Worker::handle`] the node's worker thread runs; the panics are injected
//! ([`Guard::inject_panic`]).

use crate::common::demo::{demo_guard, demo_trajectory};
use ccd_guard::moveit::gate::{GateDecision, GateGoal, GateOptions, GoalKey};
use ccd_guard::moveit::guard::{InjectedPanic, TrajectoryJob};
use ccd_guard::moveit::msg;
use ccd_guard::node::work_queue::Work;
use ccd_guard::node::worker::{CallId, Output, Request, Update, Worker};
use std::time::Instant;

type Item = Work<Update, TrajectoryJob, Request>;

/// What the worker sends for one item.
fn handled(worker: &mut Worker, item: Item) -> Vec<Output> {
    let mut outputs = Vec::new();
    worker.handle(item, &mut |o| outputs.push(o));
    outputs
}

fn free_job() -> Item {
    Work::Trajectory(TrajectoryJob::from_joint_trajectory("planned_trajectory", demo_trajectory("traj_free.yaml")))
}

/// The one verdict among `outputs` (published or as a service response).
fn verdict(outputs: &[Output]) -> &msg::CollisionVerdict {
    let verdicts: Vec<&msg::CollisionVerdict> = outputs
        .iter()
        .filter_map(|o| match o {
            Output::Verdict(result) => Some(&result.verdict),
            Output::Response(_, verdict) => Some(verdict),
            _ => None,
        })
        .collect();
    assert_eq!(verdicts.len(), 1, "{outputs:?}");
    verdicts[0]
}

fn assert_internal_error(v: &msg::CollisionVerdict) {
    assert_eq!(v.verdict, "invalid", "{v:?}");
    assert!(!v.certified);
    assert!(v.error.starts_with("internal error: a panic injected for a test"), "{}", v.error);
}

fn assert_certified_free(v: &msg::CollisionVerdict) {
    assert_eq!((v.verdict.as_str(), v.certified), ("collision_free", true), "{v:?}");
}

fn box_object(id: &str, at: [f64; 3]) -> msg::CollisionObject {
    msg::CollisionObject {
        header: msg::Header { frame_id: "world".into(), ..Default::default() },
        id: id.into(),
        pose: msg::Pose { position: msg::Point { x: at[0], y: at[1], z: at[2] }, ..Default::default() },
        primitives: vec![msg::SolidPrimitive { kind: msg::SolidPrimitive::BOX, dimensions: vec![0.1, 0.1, 0.1], ..Default::default() }],
        primitive_poses: vec![msg::Pose::default()],
        operation: msg::CollisionObject::ADD,
        ..Default::default()
    }
}

#[test]
fn a_panic_in_a_check_is_an_internal_error_and_the_next_check_runs() {
    let mut worker = Worker::new(demo_guard(), GateOptions::default());
    assert_certified_free(verdict(&handled(&mut worker, free_job())));

    // A trajectory from a topic.
    worker.guard_mut().inject_panic(InjectedPanic::Check);
    assert_internal_error(verdict(&handled(&mut worker, free_job())));
    assert_certified_free(verdict(&handled(&mut worker, free_job())));

    // A service call gets its response (a caller would otherwise wait forever).
    let call = |n: u64| {
        let job = TrajectoryJob::from_joint_trajectory("check_trajectory", demo_trajectory("traj_free.yaml"));
        Work::Call(Request::Service(CallId(n), Ok(job)))
    };
    worker.guard_mut().inject_panic(InjectedPanic::Check);
    let outputs = handled(&mut worker, call(1));
    assert!(matches!(outputs.as_slice(), [Output::Response(id, _)] if id.0 == 1), "{outputs:?}");
    assert_internal_error(verdict(&outputs));
    assert_certified_free(verdict(&handled(&mut worker, call(2))));
}

#[test]
fn a_panic_in_the_gate_refuses_the_goal_or_stops_the_running_one() {
    let mut worker = Worker::new(demo_guard(), GateOptions::default());
    let trajectory = demo_trajectory("traj_free.yaml");
    let joints = msg::JointState { name: trajectory.joint_names.clone(), position: trajectory.points[0].positions.clone(), ..Default::default() };
    let measured = handled(&mut worker, Work::JointState(Update::JointState(joints)));
    assert!(measured.iter().all(|o| matches!(o, Output::Verdict(r) if r.verdict.verdict == "collision_free")), "{measured:?}");
    let goal = GateGoal {
        key: GoalKey { controller: 0, goal_id: msg::Uuid { uuid: [7; 16] } },
        source: "/ccd_guard/arm_controller/follow_joint_trajectory".into(),
        goal: msg::FollowJointTrajectoryGoal { trajectory, ..Default::default() },
    };
    let decision = |outputs: &[Output]| {
        outputs.iter().find_map(|o| if let Output::GoalDecided(key, decision) = o { Some((*key, decision.clone())) } else { None }).expect("a decision")
    };

    worker.guard_mut().inject_panic(InjectedPanic::Check);
    let outputs = handled(&mut worker, Work::Call(Request::Goal(goal.clone())));
    assert_internal_error(verdict(&outputs));
    match decision(&outputs) {
        (key, GateDecision::Refuse(result)) => {
            assert_eq!(key, goal.key);
            assert_eq!(result.error_code, msg::FollowJointTrajectoryResult::INVALID_GOAL);
            assert!(result.error_string.starts_with("ccd_guard: internal error:"), "{}", result.error_string);
        }
        other => panic!("a goal whose check panicked must never reach the controller: {other:?}"),
    }
    assert_eq!(decision(&handled(&mut worker, Work::Call(Request::Goal(goal.clone())))), (goal.key, GateDecision::Forward));

    // The re-check of a running goal: stopped.
    assert!(handled(&mut worker, Work::Update(Update::GoalStarted(Box::new(goal.clone()), Instant::now()))).is_empty());
    let mut outputs = Vec::new();
    worker.recheck_running(&mut |o| outputs.push(o));
    assert!(outputs.is_empty(), "still certified free: {outputs:?}");
    worker.guard_mut().inject_panic(InjectedPanic::Check);
    worker.recheck_running(&mut |o| outputs.push(o));
    match outputs.as_slice() {
        [Output::StopGoal(key, reason)] => {
            assert_eq!(*key, goal.key);
            assert!(reason.starts_with("ccd_guard: internal error:"), "{reason}");
        }
        other => panic!("the running goal must be stopped: {other:?}"),
    }
}

#[test]
fn a_scene_update_that_panics_halfway_keeps_the_node_from_certifying_until_it_is_taken_in() {
    let mut worker = Worker::new(demo_guard(), GateOptions::default());
    let far_away = box_object("crate", [-2.0, -2.0, 0.05]);
    for update in [
        Update::CollisionObject(Box::new(far_away.clone())),
        Update::PlanningScene(Box::new(msg::PlanningScene {
            is_diff: true,
            world: msg::PlanningSceneWorld { collision_objects: vec![far_away.clone()], ..Default::default() },
            ..Default::default()
        })),
    ] {
        let part = match &update {
            Update::CollisionObject(_) => "'crate'",
            _ => "'monitored_planning_scene'",
        };
        worker.guard_mut().inject_panic(InjectedPanic::SceneUpdate);
        assert_internal_error(verdict(&handled(&mut worker, Work::Update(update))));
        // The update may have been half applied: not certified, and it says what is missing.
        let v = handled(&mut worker, free_job());
        assert_eq!((verdict(&v).verdict.as_str(), verdict(&v).certified), ("uncertain", false), "{v:?}");
        assert!(verdict(&v).error.contains(part) && verdict(&v).error.contains("internal error"), "{}", verdict(&v).error);
        // Taken in again: certified again.
        let retake = match part {
            "'crate'" => Update::CollisionObject(Box::new(far_away.clone())),
            _ => Update::PlanningScene(Box::new(msg::PlanningScene { is_diff: false, ..Default::default() })),
        };
        assert!(handled(&mut worker, Work::Update(retake)).is_empty());
        assert_certified_free(verdict(&handled(&mut worker, free_job())));
    }

    // A robot description that panics: no robot (invalid verdicts) until the next one.
    worker.guard_mut().inject_panic(InjectedPanic::SceneUpdate);
    let meshes = format!("filename=\"file://{}/", crate::common::demo::demo("").display());
    let urdf = std::fs::read_to_string(crate::common::demo::demo("robot.urdf")).unwrap().replace("filename=\"", &meshes);
    assert_internal_error(verdict(&handled(&mut worker, Work::Update(Update::RobotDescription(urdf.clone())))));
    let v = handled(&mut worker, free_job());
    assert_eq!(verdict(&v).verdict, "invalid");
    assert!(verdict(&v).error.contains("the last robot_description could not be taken in: internal error"), "{}", verdict(&v).error);
    assert!(handled(&mut worker, Work::Update(Update::RobotDescription(urdf))).is_empty());
    // The new robot comes with the scene file's objects only: what the topics had brought
    // (the crate) is gone, so nothing is certified until a whole scene brings it back.
    let v = handled(&mut worker, free_job());
    assert_eq!((verdict(&v).verdict.as_str(), verdict(&v).certified), ("uncertain", false), "{v:?}");
    assert!(verdict(&v).error.contains("'planning scene'") && verdict(&v).error.contains("loaded anew"), "{}", verdict(&v).error);
    let whole =
        msg::PlanningScene { is_diff: false, world: msg::PlanningSceneWorld { collision_objects: vec![far_away], ..Default::default() }, ..Default::default() };
    assert!(handled(&mut worker, Work::Update(Update::PlanningScene(Box::new(whole)))).is_empty());
    assert_certified_free(verdict(&handled(&mut worker, free_job())));
}

/// Parameters that load the robot or scene anew (issue 40): the robot from the
/// `robot_description` topic stays the robot, and what the topics had brought is marked
/// lost until a whole planning scene arrives, which nothing else clears (not an object
/// named as the mark, not a removal of every object).
#[test]
fn a_reload_keeps_the_topics_robot_and_certifies_nothing_until_a_whole_scene_comes() {
    use ccd_guard::node::parameters::NodeParameters;
    let guard = demo_guard();
    let mut parameters = NodeParameters { guard: guard.parameters().clone(), ..Default::default() };
    let mut worker = Worker::new(guard, GateOptions::default());
    // The robot comes on the topic; the file's robot is then taken away.
    let meshes = format!("filename=\"file://{}/", crate::common::demo::demo("").display());
    let urdf = std::fs::read_to_string(crate::common::demo::demo("robot.urdf")).unwrap().replace("filename=\"", &meshes);
    assert!(handled(&mut worker, Work::Update(Update::RobotDescription(urdf))).is_empty());
    assert!(handled(&mut worker, Work::Update(Update::CollisionObject(Box::new(box_object("crate", [-2.0, -2.0, 0.05]))))).is_empty());
    parameters.guard.check.tolerance = 0.002;
    assert!(handled(&mut worker, Work::Update(Update::Parameters(Box::new(parameters.clone())))).is_empty(), "nothing to say: no change of robot or scene");
    let v = handled(&mut worker, free_job());
    assert_certified_free(verdict(&v));
    assert_eq!(verdict(&v).tolerance, 0.002, "the next check runs with the new tolerance");
    // The file's robot and the scene file are taken away: a reload.
    parameters.guard.urdf_file = None;
    parameters.guard.scene_file = None;
    assert!(handled(&mut worker, Work::Update(Update::Parameters(Box::new(parameters)))).is_empty());
    // Still the topic's robot (a verdict, not `invalid` for want of one), but the crate is gone.
    let uncertain = |worker: &mut Worker| {
        let v = handled(worker, free_job());
        assert_eq!((verdict(&v).verdict.as_str(), verdict(&v).certified), ("uncertain", false), "{v:?}");
        assert!(verdict(&v).error.contains("'planning scene'"), "{}", verdict(&v).error);
    };
    uncertain(&mut worker);
    // Neither an object named as the mark nor a removal of every object clears it.
    // (In the planning frame: without the scene file, that is the URDF's root link.)
    let named_as_the_mark = msg::CollisionObject { header: msg::Header::default(), ..box_object("planning scene", [-2.0, 2.0, 0.05]) };
    let said = handled(&mut worker, Work::Update(Update::CollisionObject(Box::new(named_as_the_mark))));
    assert!(said.is_empty(), "{said:?}");
    uncertain(&mut worker);
    let remove_all = msg::CollisionObject { operation: msg::CollisionObject::REMOVE, ..Default::default() };
    assert!(handled(&mut worker, Work::Update(Update::CollisionObject(Box::new(remove_all)))).is_empty());
    uncertain(&mut worker);
    let whole = msg::PlanningScene { is_diff: false, ..Default::default() };
    assert!(handled(&mut worker, Work::Update(Update::PlanningScene(Box::new(whole)))).is_empty());
    assert_certified_free(verdict(&handled(&mut worker, free_job())));
}

/// A scene message that cannot be read (issue 40 review): said on `~/verdict`, and the
/// scene counts as lacking it until a whole planning scene arrives.
#[test]
fn an_unreadable_scene_message_certifies_nothing_until_a_whole_scene_comes() {
    let mut worker = Worker::new(demo_guard(), GateOptions::default());
    let said = handled(&mut worker, Work::Update(Update::Unreadable { topic: "monitored_planning_scene", why: "truncated CDR".into() }));
    assert_eq!(verdict(&said).verdict, "invalid");
    let v = handled(&mut worker, free_job());
    assert_eq!(verdict(&v).verdict, "uncertain", "{v:?}");
    assert!(verdict(&v).error.contains("monitored_planning_scene") && verdict(&v).error.contains("truncated CDR"), "{}", verdict(&v).error);
    let whole = msg::PlanningScene { is_diff: false, ..Default::default() };
    assert!(handled(&mut worker, Work::Update(Update::PlanningScene(Box::new(whole)))).is_empty());
    assert_certified_free(verdict(&handled(&mut worker, free_job())));
}
