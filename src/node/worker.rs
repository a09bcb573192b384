//! The worker: applies scene updates and checks trajectories, service calls and gated
//! goals, in arrival order, off the transport's thread; re-checks the rest of every running gated
//! goal after each scene change and on the gate's timer.
//!
//! A panic in any of this (a bug of ours, met by some input) is contained per item: the
//! item is answered as an internal error (an `invalid` verdict, a refused goal, a stopped
//! motion), logged at ERROR, and the worker goes on serving. A scene update that panics
//! halfway may have left the scene half changed, so the part it was about is marked as
//! not taken in: no trajectory is certified free until it is taken in again.
use crate::moveit::clock;
use crate::moveit::convert;
use crate::moveit::gate::{GateDecision, GateGoal, GateOptions, GoalKey};
use crate::moveit::guard::{CheckResult, Guard, JobError, TrajectoryJob};
use crate::moveit::internal_error::contained;
use crate::moveit::msg::{self, FollowJointTrajectoryResult};
use crate::moveit::scene_input::SceneInput;
use crate::node::parameters::NodeParameters;
use crate::node::work_queue::{Work, WorkQueue};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What changes the worker's state, applied in arrival order: the scene, and the gated
/// goals that controllers run.
#[derive(Debug)]
pub enum Update {
    RobotDescription(String),
    CollisionObject(Box<msg::CollisionObject>),
    PlanningScene(Box<msg::PlanningScene>),
    JointState(msg::JointState),
    /// The parameter services changed the node's parameters.
    Parameters(Box<NodeParameters>),
    /// A `collision_object` or `monitored_planning_scene` message that could not be read
    /// (`topic`, and why).
    Unreadable {
        topic: &'static str,
        why: String,
    },
    /// A gated goal that its controller runs from the instant given.
    GoalStarted(Box<GateGoal>, Instant),
    GoalEnded(GoalKey),
}

/// A service call's identity, as the transport that took it numbers it (the transport
/// keeps what its middleware needs to answer it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallId(pub u64);

/// What asks for an answer: a service call, or a gated goal.
#[derive(Debug)]
pub enum Request {
    Service(CallId, Result<TrajectoryJob, JobError>),
    Goal(GateGoal),
}

pub type Queue = WorkQueue<Update, TrajectoryJob, Request>;

/// What the worker hands back to the transport.
#[derive(Debug)]
pub enum Output {
    Verdict(CheckResult),
    Response(CallId, msg::CollisionVerdict),
    /// The gate's decision on a goal.
    GoalDecided(GoalKey, GateDecision),
    /// A running goal that a re-check no longer certifies free.
    StopGoal(GoalKey, String),
}

/// The worker's state: the guard, the gate's options, and the gated goals that
/// controllers run.
pub struct Worker {
    guard: Guard,
    gate: GateOptions,
    /// The running goals, each with its start on the ROS clock and on the steady clock.
    running: BTreeMap<GoalKey, (GateGoal, GoalStart)>,
    last_recheck: Instant,
}

impl Worker {
    pub fn new(guard: Guard, gate: GateOptions) -> Self {
        Self { guard, gate, running: BTreeMap::new(), last_recheck: Instant::now() }
    }

    pub fn guard_mut(&mut self) -> &mut Guard {
        &mut self.guard
    }

    /// Runs the worker over `queue` until it is closed, handing each output to `send`.
    pub fn run(mut self, queue: &Queue, mut send: impl FnMut(Output)) {
        loop {
            // Read each time: `gate_recheck_period` may change.
            let period = self.gate.recheck_period;
            let wait = match (self.running.is_empty(), period > 0.0) {
                (false, true) => Duration::from_secs_f64(period).min(Duration::from_millis(500)),
                _ => Duration::from_millis(500),
            };
            let scene_changed = match queue.pop(wait) {
                None if queue.is_closed() => return,
                None => false,
                Some(item) => self.handle(item, &mut send),
            };
            let due = period > 0.0 && self.last_recheck.elapsed().as_secs_f64() >= period;
            if scene_changed || due {
                self.recheck_running(&mut send);
            }
        }
    }

    /// Handles one item; returns whether it changed the scene.
    pub fn handle(&mut self, item: Work<Update, TrajectoryJob, Request>, send: &mut impl FnMut(Output)) -> bool {
        let guard = &mut self.guard;
        match item {
            Work::Update(Update::GoalStarted(goal, start)) | Work::JointState(Update::GoalStarted(goal, start)) => {
                self.running.insert(goal.key, (*goal, GoalStart { ros: ros_time_of(start), steady: start }));
                false
            }
            Work::Update(Update::GoalEnded(key)) | Work::JointState(Update::GoalEnded(key)) => {
                self.running.remove(&key);
                false
            }
            Work::Update(Update::Unreadable { topic, why }) | Work::JointState(Update::Unreadable { topic, why }) => {
                // A scene message that could not be read: the scene lacks what it said.
                send(Output::Verdict(CheckResult { verdict: guard.take_in_unreadable(topic, &why), markers: None }));
                true
            }
            Work::Update(Update::Parameters(parameters)) | Work::JointState(Update::Parameters(parameters)) => {
                self.gate = parameters.gate;
                if let Err(internal) = contained("parameters", || guard.reconfigure(parameters.guard)) {
                    guard.lose_scene(internal);
                }
                true
            }
            Work::Update(update) | Work::JointState(update) => {
                let input = match &update {
                    Update::RobotDescription(text) => SceneInput::RobotDescription(text),
                    Update::CollisionObject(object) => SceneInput::CollisionObject(object),
                    Update::PlanningScene(scene) => SceneInput::PlanningScene(scene),
                    Update::JointState(state) => SceneInput::JointState(state),
                    Update::GoalStarted(..) | Update::GoalEnded(_) | Update::Parameters(_) | Update::Unreadable { .. } => return false,
                };
                match guard.take_in(input) {
                    Ok(Some(verdict)) => send(Output::Verdict(CheckResult { verdict, markers: None })),
                    Ok(None) => {}
                    // Scene input that cannot be taken in: said on ~/verdict too.
                    Err(e) if input.changes_world() => {
                        send(Output::Verdict(CheckResult { verdict: convert::invalid_verdict(input.topic(), &guard.parameters().check, e), markers: None }))
                    }
                    Err(e) => log::warn!("{}: {e}", input.topic()),
                }
                input.changes_world()
            }
            Work::Trajectory(job) => {
                let result = contained(&job.source, || guard.check(&job)).unwrap_or_else(|internal| CheckResult {
                    verdict: convert::invalid_verdict(&job.source, &guard.parameters().check, internal),
                    markers: None,
                });
                send(Output::Verdict(result));
                false
            }
            Work::Call(Request::Service(id, job)) => {
                let verdict = match job {
                    Ok(job) => contained("check_trajectory", || guard.check(&job).verdict)
                        .unwrap_or_else(|internal| convert::invalid_verdict("check_trajectory", &guard.parameters().check, internal)),
                    Err(e) => convert::invalid_verdict("check_trajectory", &guard.parameters().check, e),
                };
                send(Output::Response(id, verdict));
                false
            }
            Work::Call(Request::Goal(goal)) => {
                let options = self.gate;
                match contained(&goal.source, || guard.check_goal(&goal, &options)) {
                    Ok(checked) => {
                        send(Output::Verdict(checked.result));
                        send(Output::GoalDecided(goal.key, checked.decision));
                    }
                    Err(internal) => {
                        let refusal = FollowJointTrajectoryResult {
                            error_code: FollowJointTrajectoryResult::INVALID_GOAL,
                            error_string: format!("ccd_guard: {internal}"),
                        };
                        send(Output::Verdict(CheckResult {
                            verdict: convert::invalid_verdict(&goal.source, &guard.parameters().check, internal),
                            markers: None,
                        }));
                        send(Output::GoalDecided(goal.key, GateDecision::Refuse(refusal)));
                    }
                }
                false
            }
        }
    }

    /// Re-checks the rest of every running gated goal; stops those no longer certified
    /// free (and those whose re-check fails).
    pub fn recheck_running(&mut self, send: &mut impl FnMut(Output)) {
        if self.running.is_empty() {
            return;
        }
        self.last_recheck = Instant::now();
        let options = self.gate;
        let mut stopped = Vec::new();
        for (key, (goal, start)) in &self.running {
            let elapsed = start.elapsed();
            let guard = &mut self.guard;
            let reason = contained(&goal.source, || guard.recheck_execution(goal, elapsed, &options))
                .unwrap_or_else(|internal| Some(format!("ccd_guard: {internal} (re-checking the rest of the motion)")));
            if let Some(reason) = reason {
                send(Output::StopGoal(*key, reason));
                stopped.push(*key);
            }
        }
        for key in stopped {
            self.running.remove(&key);
        }
    }
}

/// An instant (now, or ahead for a goal stamped in the future) on the ROS clock: the gate
/// times a running motion by it, so that with `use_sim_time` it follows `/clock`. An
/// instant just past counts as now (the motion then seems to have gone less far: safe).
fn ros_time_of(instant: Instant) -> msg::Time {
    clock::later(msg::Time::now(), instant.saturating_duration_since(Instant::now()).as_secs_f64())
}

/// When a gated goal's motion started, on both clocks.
#[derive(Clone, Copy, Debug)]
struct GoalStart {
    ros: msg::Time,
    steady: Instant,
}

impl GoalStart {
    /// How far along its motion the robot is, in seconds: the ROS clock's time since the
    /// start (so that with `use_sim_time` it follows `/clock`), never more than the
    /// steady clock's. Too little is safe (a re-check then covers more of the motion than
    /// is left); too much would leave part of it unchecked, which a jump of `/clock`, or
    /// a switch of clocks, must not do.
    fn elapsed(&self) -> f64 {
        let ros = clock::seconds_between(self.ros, msg::Time::now());
        let steady = Instant::now().saturating_duration_since(self.steady).as_secs_f64();
        ros.min(steady).max(0.0)
    }
}
