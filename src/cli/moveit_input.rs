//! MoveIt's own formats at the command line: `--trajectory` also reads what
//! `ros2 topic echo --once` prints of a `trajectory_msgs/JointTrajectory`, a
//! `moveit_msgs/RobotTrajectory` or a `moveit_msgs/DisplayTrajectory` (its parts as one
//! motion, `trajectory_start` as the start state); `--scene` also reads a
//! `moveit_msgs/PlanningScene` echo (objects, attached objects, the allowed collision
//! matrix, the robot state) and MoveIt's `.scene` text (what the scene panel saves).
//!
//! They are read into the node's messages and go through the node's own code
//! ([`TrajectoryJob`], [`PlanningSceneState`]), so that the CLI and the node take them in
//! alike.
use ccd_guard::check::inputs::load_robot;
use ccd_guard::check::{CheckInput, InputFiles};
use ccd_guard::collision::CollisionWorld;
use ccd_guard::error::{InputError, InputResult};
use ccd_guard::motion::{JointState, Trajectory, load_joint_state, parse_trajectory};
use ccd_guard::moveit::guard::TrajectoryJob;
use ccd_guard::moveit::msg;
use ccd_guard::moveit::planning_scene::PlanningSceneState;
use ccd_guard::moveit::scene_text::parse_scene_text;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::scene::{Scene, load_scene};
use serde_norway::Value;
use std::path::Path;

/// The world and motion of a `check` run, whatever formats its files are in. The start
/// state is `--start-state`'s, else the trajectory's (a DisplayTrajectory's
/// `trajectory_start`), else the scene's robot state (a PlanningScene's), each filling
/// in the joints the trajectory leaves out.
pub fn load_input(files: &InputFiles, resolver: &ResourceResolver) -> InputResult<CheckInput> {
    let (robot, disabled) = load_robot(files, resolver)?;
    let (trajectory, trajectory_start, attached) = load_trajectory_any(&files.trajectory)?;
    let (state, scene_state) = match &files.scene {
        Some(path) => load_world(path, resolver, robot, disabled.clone())?,
        None => (SceneWorld::Plain(CollisionWorld::new(robot, Scene::default(), disabled.as_deref())), None),
    };
    let world = match (state, attached.is_empty()) {
        (SceneWorld::Plain(world), true) => world,
        (SceneWorld::Planning(state), true) => state.collision_world(),
        (state, false) => {
            // Objects the plan's start state holds join the scene, through the node's code.
            let state = match state {
                SceneWorld::Planning(state) => state,
                SceneWorld::Plain(world) => PlanningSceneState::new(world.robot, disabled, world.scene, ""),
            };
            state.with_attached(trajectory_start.as_ref(), &attached).map_err(|e| InputError::in_file(&files.trajectory, format!("trajectory_start: {e}")))?
        }
    };
    let mut start = scene_state.unwrap_or_default();
    for given in [trajectory_start, files.start_state.as_deref().map(load_joint_state).transpose()?].into_iter().flatten() {
        start.overlay(&given);
    }
    CheckInput::from_parts(world, &trajectory, Some(&start)).map_err(|e| e.with_file(&files.trajectory))
}

/// The first YAML document of an echo: `ros2 topic echo` ends each message with `---`.
fn first_document(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty() || l.trim() == "---");
    lines.by_ref().take_while(|l| l.trim_end() != "---").collect::<Vec<_>>().join("\n")
}

fn malformed(path: &Path, what: &str, e: impl std::fmt::Display) -> InputError {
    InputError::in_file(path, format!("malformed {what}: {e}"))
}

/// A scene as a world, or as the node's planning scene where a MoveIt message built it.
enum SceneWorld {
    Plain(CollisionWorld),
    Planning(PlanningSceneState),
}

/// A trajectory file: the contract's format (which a JointTrajectory echo also is), or a
/// RobotTrajectory or DisplayTrajectory echo; with the start state and the objects it
/// holds that the latter gives.
type TrajectoryParts = (Trajectory, Option<JointState>, Vec<msg::AttachedCollisionObject>);

fn load_trajectory_any(path: &Path) -> InputResult<TrajectoryParts> {
    let text = first_document(&ccd_guard::error::read_text(path)?);
    let value: Value = serde_norway::from_str(&text).map_err(|e| malformed(path, "trajectory", e))?;
    let display = if value.get("trajectory").is_some_and(Value::is_sequence) {
        serde_norway::from_value::<msg::DisplayTrajectory>(value).map_err(|e| malformed(path, "moveit_msgs/DisplayTrajectory", e))?
    } else if value.get("joint_trajectory").is_some() {
        let part = serde_norway::from_value::<msg::RobotTrajectory>(value).map_err(|e| malformed(path, "moveit_msgs/RobotTrajectory", e))?;
        msg::DisplayTrajectory { trajectory: vec![part], ..Default::default() }
    } else {
        return Ok((parse_trajectory(&text, path)?, None, Vec::new()));
    };
    let job = TrajectoryJob::from_display_trajectory(&path.display().to_string(), display);
    let (trajectory, start) = job.trajectory().map_err(|e| InputError::in_file(path, e.to_string()))?;
    Ok((trajectory, start, job.attached))
}

/// The world of a scene file: the contract's YAML, a PlanningScene echo or MoveIt's
/// `.scene` text; with the robot state a PlanningScene gives.
fn load_world(
    path: &Path,
    resolver: &ResourceResolver,
    robot: ccd_guard::robot::Robot,
    disabled: Option<Vec<ccd_guard::robot::srdf::DisabledPair>>,
) -> InputResult<(SceneWorld, Option<JointState>)> {
    let Some(scene) = scene_message(path)? else {
        return Ok((SceneWorld::Plain(CollisionWorld::new(robot, load_scene(path, resolver)?, disabled.as_deref())), None));
    };
    let mut state = PlanningSceneState::new(robot, disabled, Scene::default(), "");
    // Nothing may be left out: what the node would reject (and not certify around) is
    // an error here.
    state.apply_planning_scene(&scene).map_err(|e| InputError::in_file(path, e.to_string()))?;
    let joints = state.current_state();
    Ok((SceneWorld::Planning(state), (!joints.name.is_empty()).then_some(joints)))
}

/// A scene file that is a MoveIt message (a PlanningScene echo, or `.scene` text as a
/// PlanningScene diff); `None` for the contract's scene YAML.
pub fn scene_message(path: &Path) -> InputResult<Option<msg::PlanningScene>> {
    if path.extension().is_some_and(|e| e == "scene") {
        let objects = parse_scene_text(&ccd_guard::error::read_text(path)?).map_err(|e| InputError::in_file(path, e.to_string()))?;
        let world = msg::PlanningSceneWorld { collision_objects: objects, ..Default::default() };
        return Ok(Some(msg::PlanningScene { is_diff: true, world, ..Default::default() }));
    }
    let text = first_document(&ccd_guard::error::read_text(path)?);
    let value: Value = serde_norway::from_str(&text).map_err(|e| malformed(path, "scene", e))?;
    let is_message = value.get("objects").is_none() && ["world", "robot_state", "allowed_collision_matrix", "is_diff"].iter().any(|k| value.get(k).is_some());
    if !is_message {
        return Ok(None);
    }
    serde_norway::from_value(value).map(Some).map_err(|e| malformed(path, "moveit_msgs/PlanningScene", e))
}
