//! What the node does with what it hears, apart from any transport: it keeps the
//! planning scene, checks trajectories, and makes verdicts and markers. The node's
//! worker (`crate::node::worker`) feeds it messages in arrival order, and a transport
//! sends what it returns.
use super::convert::{self, PlanError};
use super::internal_error::InternalError;
use super::msg;
use super::planning_scene::{PlanningSceneError, PlanningSceneState};
use super::prepared_check::{PreparedCheck, VerdictLabel, distrust};
use crate::check::{CheckInput, CheckOptions, Method, Report};
use crate::collision::{CollisionWorld, StateChecker};
use crate::error::InputError;
use crate::motion::{JointState, Trajectory};
use crate::robot::description::{self, DescriptionError, DescriptionSource};
use crate::robot::resources::{ResolveError, ResourceResolver};
use crate::scene::{Scene, load_scene};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Why a trajectory job cannot be checked, whatever the scene.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum JobError {
    #[error("multi-DOF joints are not supported: {0:?}")]
    MultiDof(Vec<String>),
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Trajectory(InputError),
    #[error("start state: {0}")]
    StartState(InputError),
    /// A `CheckTrajectory` request's method that is none of the three.
    #[error("method '{0}' is not certified, pipeline or sampled")]
    Method(String),
}

/// Why a robot (its URDF, its SRDF, the scene file) could not be loaded.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RobotLoadError {
    /// A `urdf_file` or `srdf_file` URI that names no file.
    #[error("{uri}: {problem}")]
    Uri { uri: String, problem: ResolveError },
    #[error(transparent)]
    Read(InputError),
    #[error("robot description: {0}")]
    Urdf(InputError),
    #[error(transparent)]
    Srdf(InputError),
    #[error("scene_file {uri}: {problem}")]
    SceneFileUri { uri: String, problem: ResolveError },
    #[error(transparent)]
    SceneFile(InputError),
}

impl From<DescriptionError> for RobotLoadError {
    fn from(error: DescriptionError) -> Self {
        match error {
            DescriptionError::Uri { uri, problem } => RobotLoadError::Uri { uri, problem },
            DescriptionError::Read(e) => RobotLoadError::Read(e),
            DescriptionError::Urdf(e) => RobotLoadError::Urdf(e),
            DescriptionError::Srdf(e) => RobotLoadError::Srdf(e),
        }
    }
}

/// Why the node has no robot: every check is `invalid` and says this.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum NoRobot {
    #[error("no robot description yet (parameter robot_description or urdf_file, or the robot_description topic)")]
    NotYet,
    /// The parameters' robot could not be loaded.
    #[error(transparent)]
    Unloadable(#[from] RobotLoadError),
    #[error("the last robot_description was rejected: {0}")]
    Rejected(RobotLoadError),
    /// Taking in the last robot description panicked.
    #[error("the last robot_description could not be taken in: {0}")]
    Lost(InternalError),
}

/// Why the guard could not take in a message or check a motion.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GuardError {
    #[error(transparent)]
    NoRobot(#[from] NoRobot),
    #[error(transparent)]
    RobotDescription(#[from] RobotLoadError),
    #[error(transparent)]
    Scene(#[from] PlanningSceneError),
    #[error(transparent)]
    Job(#[from] JobError),
    /// The objects a plan's start state holds.
    #[error("trajectory_start: {0}")]
    TrajectoryStart(PlanningSceneError),
    /// The motion does not fit the world (its joints, its values).
    #[error(transparent)]
    Motion(InputError),
}

/// A trajectory to check, whatever brought it.
#[derive(Clone, Debug)]
pub struct TrajectoryJob {
    /// The topic it came on, or the service.
    pub source: String,
    pub stamp: msg::Time,
    /// Consecutive parts of one motion (a `DisplayTrajectory` has several).
    pub parts: Vec<msg::JointTrajectory>,
    /// Joint values for the joints the trajectory leaves out (else the latest
    /// `joint_states`).
    pub start_state: Option<msg::JointState>,
    /// Multi-DOF joints the plan moves (not supported: the verdict says so).
    pub multi_dof_joints: Vec<String>,
    /// Objects the start state holds (a DisplayTrajectory's `trajectory_start`): part of
    /// the world for this motion.
    pub attached: Vec<msg::AttachedCollisionObject>,
    /// The method asked for; `None`: the node's parameter.
    pub method: Option<Method>,
}

impl TrajectoryJob {
    pub fn from_joint_trajectory(source: &str, trajectory: msg::JointTrajectory) -> Self {
        Self {
            source: source.into(),
            stamp: trajectory.header.stamp,
            parts: vec![trajectory],
            start_state: None,
            multi_dof_joints: Vec::new(),
            attached: Vec::new(),
            method: None,
        }
    }

    /// move_group's `DisplayTrajectory`: its parts in order, from `trajectory_start`.
    pub fn from_display_trajectory(source: &str, display: msg::DisplayTrajectory) -> Self {
        let stamp = display.trajectory.first().map(|t| t.joint_trajectory.header.stamp).unwrap_or_default();
        let multi_dof_joints = display
            .trajectory
            .iter()
            .filter(|t| !t.multi_dof_joint_trajectory.points.is_empty())
            .flat_map(|t| t.multi_dof_joint_trajectory.joint_names.clone())
            .collect();
        let start = display.trajectory_start.joint_state;
        Self {
            source: source.into(),
            stamp,
            parts: display.trajectory.into_iter().map(|t| t.joint_trajectory).collect(),
            start_state: (!start.name.is_empty()).then_some(start),
            multi_dof_joints,
            attached: display.trajectory_start.attached_collision_objects.clone(),
            method: None,
        }
    }

    /// The motion's trajectory (its parts as one) and the start state it gives, or why it
    /// cannot be checked.
    pub fn trajectory(&self) -> Result<(Trajectory, Option<JointState>), JobError> {
        if !self.multi_dof_joints.is_empty() {
            return Err(JobError::MultiDof(self.multi_dof_joints.clone()));
        }
        let trajectory = convert::concatenate(&self.parts)?;
        let trajectory = convert::trajectory(&trajectory).map_err(JobError::Trajectory)?;
        let start = match &self.start_state {
            Some(given) => Some(convert::joint_state(given).map_err(JobError::StartState)?),
            None => None,
        };
        Ok((trajectory, start))
    }

    /// The `CheckTrajectory` service's request.
    pub fn from_request(request: msg::CheckTrajectoryRequest) -> Result<Self, JobError> {
        let method = match request.method.as_str() {
            "" => None,
            m => Some(<Method as clap::ValueEnum>::from_str(m, false).map_err(|_| JobError::Method(m.to_string()))?),
        };
        let start = request.start_state;
        let mut job = Self::from_joint_trajectory("check_trajectory", request.trajectory);
        job.start_state = (!start.name.is_empty()).then_some(start);
        job.method = method;
        Ok(job)
    }
}

/// What a check gives the transport to send.
#[derive(Debug)]
pub struct CheckResult {
    pub verdict: msg::CollisionVerdict,
    pub markers: Option<msg::MarkerArray>,
}

/// What the guard is configured with (the node's parameters of the same names).
#[derive(Clone, Debug, PartialEq)]
pub struct GuardSettings {
    /// The URDF as text (`robot_description`, as MoveIt's launch files pass it).
    pub robot_description: Option<String>,
    /// The SRDF as text (`robot_description_semantic`).
    pub robot_description_semantic: Option<String>,
    /// The URDF, SRDF and scene as files (a path or `package://` URI).
    pub urdf_file: Option<String>,
    pub srdf_file: Option<String>,
    pub scene_file: Option<String>,
    /// `NAME=DIR` package roots for `package://` URIs.
    pub package_dirs: Vec<(String, PathBuf)>,
    pub check: CheckOptions,
    /// Check the configuration of every `joint_states` message (discrete).
    pub check_current_state: bool,
    /// The planning frame: collision objects in it (or the URDF root link, or no frame)
    /// are taken as they are. Empty: the URDF root link.
    pub planning_frame: String,
    pub publish_markers: bool,
}

impl Default for GuardSettings {
    fn default() -> Self {
        Self {
            robot_description: None,
            robot_description_semantic: None,
            urdf_file: None,
            srdf_file: None,
            scene_file: None,
            package_dirs: Vec::new(),
            check: CheckOptions::default(),
            check_current_state: true,
            planning_frame: String::new(),
            publish_markers: true,
        }
    }
}

/// The node's state and logic.
pub struct Guard {
    params: GuardSettings,
    resolver: ResourceResolver,
    /// `Err`: why there is no robot yet (no description, or a bad one).
    scene: Result<PlanningSceneState, NoRobot>,
    /// The world of the current scene, built on first use after a change.
    world: Option<Arc<CollisionWorld>>,
    /// Whether the latest joint state collided (the current-state check).
    current_state_colliding: Option<bool>,
    /// A panic to raise on the next check or scene update (for the tests that the node
    /// survives one).
    injected_panic: Option<InjectedPanic>,
    /// Whether the scene holds what topics brought (collision objects, planning scenes),
    /// which a reload of the robot or scene file loses.
    scene_from_topics: bool,
    /// The URDF text the robot was last loaded from on the topic (the same text again
    /// changes nothing; a reload keeps it as the robot).
    topic_description: Option<String>,
    /// The latest `joint_states` (a reload keeps the measured joint values).
    last_joint_state: Option<msg::JointState>,
}

/// The part of the scene marked as not taken in after a reload lost what topics had
/// brought.
pub const LOST_TOPIC_SCENE: &str = "planning scene";

/// Where [`Guard::inject_panic`] makes the guard panic, once.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InjectedPanic {
    /// Preparing the next check (of a trajectory, a goal, or the rest of a running goal).
    Check,
    /// After applying the next collision object or planning scene, as if halfway.
    SceneUpdate,
}

impl Guard {
    /// The robot from the parameters (`robot_description`, else `urdf_file`), the SRDF
    /// and the scene file. Without a robot the node still serves: each verdict is
    /// `invalid` and says why, until `robot_description` brings one.
    pub fn new(params: GuardSettings) -> Self {
        let resolver = ResourceResolver::from_env(params.package_dirs.clone());
        let mut guard = Self {
            params,
            resolver,
            scene: Err(NoRobot::NotYet),
            world: None,
            current_state_colliding: None,
            injected_panic: None,
            scene_from_topics: false,
            topic_description: None,
            last_joint_state: None,
        };
        let urdf = match (&guard.params.robot_description, &guard.params.urdf_file) {
            (Some(text), _) => Some(DescriptionSource::Text { text, name: Path::new("robot_description") }),
            (None, Some(uri)) => Some(DescriptionSource::Uri(uri)),
            (None, None) => None,
        };
        if let Some(urdf) = urdf {
            guard.scene = guard.load_scene(urdf).map_err(NoRobot::from);
        }
        if let Err(e) = &guard.scene {
            log::error!("{e}");
        }
        guard
    }

    /// The robot and scene in a line (for the node's start-up log), or why there is no robot.
    pub fn summary(&self) -> String {
        match &self.scene {
            Ok(scene) => {
                let robot = scene.robot();
                let objects: Vec<&str> = scene.object_ids().collect();
                let scene = match objects.len() {
                    0 => "no objects".to_string(),
                    n => format!("{n} objects ({})", objects.join(", ")),
                };
                format!("robot '{}' ({} joints), scene: {scene}", robot.name, robot.variables.len())
            }
            Err(e) => format!("no robot yet: {e}"),
        }
    }

    pub fn parameters(&self) -> &GuardSettings {
        &self.params
    }

    /// New settings while the node runs (the parameter services): the check's options
    /// and what is published take effect on the next check; a new robot, SRDF, scene
    /// file, package roots or planning frame loads the robot and the scene anew. A robot
    /// that came on the `robot_description` topic stays the robot, and the latest joint
    /// values are kept; what the topics had brought to the scene is marked lost.
    pub fn reconfigure(&mut self, settings: GuardSettings) {
        let sources = |p: &GuardSettings| {
            (
                p.robot_description.clone(),
                p.robot_description_semantic.clone(),
                p.urdf_file.clone(),
                p.srdf_file.clone(),
                p.scene_file.clone(),
                p.package_dirs.clone(),
                p.planning_frame.clone(),
            )
        };
        let reload = sources(&self.params) != sources(&settings);
        self.params = settings;
        self.world = None;
        if !reload {
            return;
        }
        let lost_topic_scene = self.scene_from_topics;
        let (topic_description, last_joint_state) = (self.topic_description.take(), self.last_joint_state.take());
        *self = Guard::new(self.params.clone());
        if let Some(text) = topic_description
            && let Err(e) = self.set_robot_description(&text)
        {
            log::error!("robot_description: {e}");
        }
        self.last_joint_state = last_joint_state;
        self.keep_joint_values();
        log::info!("parameters: {}", self.summary());
        if lost_topic_scene {
            self.mark_topic_scene_lost();
        }
    }

    /// After a reload, what topics had brought to the scene is gone: until a whole
    /// planning scene brings it again, no trajectory is certified free.
    fn mark_topic_scene_lost(&mut self) {
        self.mark_scene_incomplete(
            LOST_TOPIC_SCENE,
            "what the topics had brought before the robot or scene was loaded anew; a whole PlanningScene brings it back",
        );
        self.scene_from_topics = true;
    }

    /// After a reload, the latest measured joint values stand again (those the robot has).
    fn keep_joint_values(&mut self) {
        if let (Some(state), Ok(scene)) = (&self.last_joint_state, &mut self.scene) {
            let _ = scene.update_joints(&state.name, &state.position);
        }
    }

    /// The planning scene of a URDF: the robot, the SRDF's pairs, the scene file (the
    /// robot by the command line's path, [`description::load_robot`]).
    fn load_scene(&self, urdf: DescriptionSource) -> Result<PlanningSceneState, RobotLoadError> {
        let srdf = match (&self.params.robot_description_semantic, &self.params.srdf_file) {
            (Some(text), _) => Some(DescriptionSource::Text { text, name: Path::new("robot_description_semantic") }),
            (None, Some(uri)) => Some(DescriptionSource::Uri(uri)),
            (None, None) => None,
        };
        let (robot, disabled) = description::load_robot(urdf, srdf, &self.resolver)?;
        let scene = match &self.params.scene_file {
            Some(uri) => {
                let path = self.resolver.resolve(uri, Path::new("")).map_err(|problem| RobotLoadError::SceneFileUri { uri: uri.to_string(), problem })?;
                load_scene(&path, &self.resolver).map_err(RobotLoadError::SceneFile)?
            }
            None => Scene::default(),
        };
        Ok(PlanningSceneState::new(robot, disabled, scene, &self.params.planning_frame))
    }

    /// A new URDF from the `robot_description` topic: it replaces the robot; the scene's
    /// world objects and joint values start afresh from the parameters, and what the
    /// topics had brought is marked lost (nothing certified free until a whole planning
    /// scene brings it back). The same text again changes nothing.
    /// A description that cannot be read leaves no robot (checks say why) rather than a
    /// robot that may no longer be the real one.
    pub fn set_robot_description(&mut self, urdf_text: &str) -> Result<(), RobotLoadError> {
        if self.scene.is_ok() && self.topic_description.as_deref() == Some(urdf_text) {
            return Ok(());
        }
        self.world = None;
        self.topic_description = None;
        let scene = match self.load_scene(DescriptionSource::Text { text: urdf_text, name: Path::new("robot_description") }) {
            Ok(scene) => scene,
            Err(e) => {
                self.scene = Err(NoRobot::Rejected(e.clone()));
                return Err(e);
            }
        };
        self.raise_injected(InjectedPanic::SceneUpdate);
        log::info!("robot description: robot '{}' with {} links", scene.robot().name, scene.robot().links.len());
        self.scene = Ok(scene);
        self.topic_description = Some(urdf_text.to_string());
        self.keep_joint_values();
        if self.scene_from_topics {
            self.mark_topic_scene_lost();
        }
        Ok(())
    }

    fn scene_mut(&mut self) -> Result<&mut PlanningSceneState, NoRobot> {
        self.world = None;
        self.scene.as_mut().map_err(|e| e.clone())
    }

    pub fn apply_collision_object(&mut self, object: &msg::CollisionObject) -> Result<(), GuardError> {
        self.scene_from_topics = true;
        let applied = self.scene_mut()?.apply_collision_object(object);
        self.raise_injected(InjectedPanic::SceneUpdate);
        applied.map_err(GuardError::from)
    }

    pub fn apply_planning_scene(&mut self, scene: &msg::PlanningScene) -> Result<(), GuardError> {
        self.scene_from_topics = true;
        let applied = self.scene_mut()?.apply_planning_scene(scene);
        self.raise_injected(InjectedPanic::SceneUpdate);
        applied.map_err(GuardError::from)
    }

    /// After a scene update that failed inside (a panic), perhaps half applied: the part
    /// `id` (an object, or the planning scene) counts as not taken in, so no trajectory
    /// is certified free until an update of it succeeds (a whole planning scene clears
    /// it too).
    pub fn reject_scene_part(&mut self, id: &str, why: &str) {
        self.world = None;
        if let Ok(scene) = &mut self.scene {
            scene.reject(id, why);
        }
    }

    /// The scene lacks something as a whole (`what` lost it: a planning scene message
    /// that could not be read, or was half applied): no trajectory is certified free
    /// until a whole planning scene arrives.
    pub fn mark_scene_incomplete(&mut self, what: &str, why: &str) {
        self.world = None;
        if let Ok(scene) = &mut self.scene {
            scene.mark_incomplete(what, why);
        }
    }

    /// After a robot description that failed inside (a panic): no robot until the next
    /// one, every verdict `invalid` and saying why.
    pub fn lose_scene(&mut self, internal: InternalError) {
        let why = NoRobot::Lost(internal);
        log::error!("{why}");
        self.world = None;
        self.scene = Err(why);
    }

    /// Makes the guard panic once, at `at` (for the tests that the node survives it).
    #[doc(hidden)]
    pub fn inject_panic(&mut self, at: InjectedPanic) {
        self.injected_panic = Some(at);
    }

    fn raise_injected(&mut self, at: InjectedPanic) {
        if self.injected_panic == Some(at) {
            self.injected_panic = None;
            panic!("a panic injected for a test ({at:?})");
        }
    }

    /// The latest joint values; with `check_current_state`, a verdict when the current
    /// configuration starts or stops colliding (discrete check of one state).
    pub fn update_joint_states(&mut self, state: &msg::JointState) -> Result<Option<msg::CollisionVerdict>, GuardError> {
        let scene = self.scene.as_mut().map_err(|e| e.clone())?;
        scene.update_joints(&state.name, &state.position)?;
        self.last_joint_state = Some(state.clone());
        if !self.params.check_current_state {
            return Ok(None);
        }
        let world = self.world()?;
        let q = self.scene.as_ref().expect("scene").current_positions();
        let mut checker = StateChecker::new(&world);
        let contacts = checker.contacts(&q, true);
        let colliding = !contacts.is_empty();
        if self.current_state_colliding == Some(colliding) {
            return Ok(None);
        }
        self.current_state_colliding = Some(colliding);
        // The verdict on one configuration (method `current_state`): collision, or
        // collision_free for this state alone (never certified: no motion was checked).
        let verdict = if colliding { crate::check::Verdict::Collision } else { crate::check::Verdict::CollisionFree };
        let report = Report {
            contacts: contacts.iter().map(|c| crate::check::ContactEvent::from_state_contact(&world, c, 0.0)).collect(),
            time_of_contact: colliding.then_some(0.0),
            ..Report::new(crate::check::ReportMethod::CurrentState, verdict, 0.0)
        };
        if colliding {
            log::warn!("current state: {} touches {}", report.contacts[0].link, report.contacts[0].other);
        }
        Ok(Some(self.verdict_message(&report, "joint_states", state.header.stamp)))
    }

    fn world(&mut self) -> Result<Arc<CollisionWorld>, NoRobot> {
        if self.world.is_none() {
            let scene = self.scene.as_ref().map_err(|e| e.clone())?;
            self.world = Some(Arc::new(scene.collision_world()));
        }
        Ok(self.world.clone().expect("built"))
    }

    /// Checks a trajectory: the verdict (invalid, and why, for anything wrong with the
    /// input) and, when it collides and markers are on, the markers.
    pub fn check(&mut self, job: &TrajectoryJob) -> CheckResult {
        self.prepare_check(job).run().result
    }

    /// Everything a check of `job` needs from the guard's present scene, taken now: the
    /// check itself ([`PreparedCheck::run`]) may then run later, on another thread, while
    /// the scene goes on changing (the audit of recorded bags checks plans in parallel).
    pub fn prepare_check(&mut self, job: &TrajectoryJob) -> PreparedCheck {
        let options = CheckOptions { method: job.method.unwrap_or(self.params.check.method), ..self.params.check };
        let started = std::time::Instant::now();
        let label = VerdictLabel { source: job.source.clone(), stamp: job.stamp, frame: self.planning_frame().to_string() };
        match self.prepare(job) {
            Ok(input) => PreparedCheck::ready(input, options, self.scene_lacks(), self.params.publish_markers, label),
            Err(error) => {
                log::warn!("{}: invalid trajectory: {error}", job.source);
                let mut report = Report::invalid(options.method.into(), options.tolerance, error.to_string());
                report.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
                PreparedCheck::invalid(report, label)
            }
        }
    }

    /// What the scene lacks (it could not take it in), said as a verdict says it; `None`
    /// when the scene is whole.
    fn scene_lacks(&self) -> Option<String> {
        let scene = self.scene.as_ref().ok().filter(|scene| scene.is_incomplete())?;
        let missing: Vec<String> = scene.missing().map(|(id, why)| format!("'{id}' ({why})")).collect();
        Some(format!("the node's scene lacks what it could not take in: {}", missing.join(", ")))
    }

    /// A scene that lacks objects move_group has cannot prove a trajectory free: such a
    /// verdict becomes `uncertain`, and says what is missing.
    pub(super) fn distrust_incomplete_scene(&self, report: &mut Report) {
        if let Some(lacks) = self.scene_lacks() {
            distrust(report, lacks);
        }
    }

    /// The world and the motion of a job, or why not.
    fn prepare(&mut self, job: &TrajectoryJob) -> Result<CheckInput, GuardError> {
        let (trajectory, start) = job.trajectory()?;
        let mut input = self.prepare_motion(&trajectory, start.as_ref())?;
        if !job.attached.is_empty() {
            // The start state's attached objects join the scene for this motion (they add
            // fixed joints only, so the motion fits the world they make).
            let world = self.scene()?.with_attached(start.as_ref(), &job.attached).map_err(GuardError::TrajectoryStart)?;
            input.world = Arc::new(world);
        }
        Ok(input)
    }

    /// The world and the motion along `trajectory`: the joints it leaves out hold their
    /// values from `start`, else from the latest `joint_states`.
    pub(super) fn prepare_motion(&mut self, trajectory: &Trajectory, start: Option<&JointState>) -> Result<CheckInput, GuardError> {
        self.raise_injected(InjectedPanic::Check);
        let world = self.world()?;
        let scene = self.scene.as_ref().map_err(|e| e.clone())?;
        let mut held = scene.current_state();
        if let Some(given) = start {
            held.overlay(given);
        }
        CheckInput::new(world, trajectory, Some(&held)).map_err(GuardError::Motion)
    }

    /// The scene (robot, objects, latest joint values), or why there is none.
    pub fn scene(&self) -> Result<&PlanningSceneState, NoRobot> {
        self.scene.as_ref().map_err(|e| e.clone())
    }

    pub(super) fn planning_frame(&self) -> &str {
        self.scene.as_ref().map(|s| s.planning_frame()).unwrap_or("")
    }

    pub(super) fn verdict_message(&self, report: &Report, source: &str, stamp: msg::Time) -> msg::CollisionVerdict {
        VerdictLabel { source: source.to_string(), stamp, frame: self.planning_frame().to_string() }.verdict(report)
    }
}
