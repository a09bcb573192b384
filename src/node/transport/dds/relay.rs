//! The gate on the ROS graph: for each gated controller C, the action server
//! `~/C/follow_joint_trajectory` that MoveIt sends goals to, and the action client of
//! the controller's own `/C/follow_joint_trajectory`. It runs on the DDS thread and never
//! waits: a goal is accepted at once and handed to the worker ([`GateWork::Check`]);
//! its decision comes back ([`Relay::decided`]) and the goal is forwarded or aborted;
//! the controller's answers, feedback and result are relayed as they arrive, and so are
//! the client's cancel requests.
//!
//! The action protocol (rcl_action's goal state machine) is kept here: goal statuses
//! on `_action/status`, results held for late `get_result` requests, cancel requests by
//! goal id or stamp.
use crate::moveit::cdr;
use crate::moveit::gate::{GateDecision, GateGoal, GoalKey};
use crate::moveit::msg::{self, FollowJointTrajectoryFeedback as Feedback, FollowJointTrajectoryGoal as Goal, FollowJointTrajectoryResult as Outcome};
use ros2_client::action::{
    ActionClient, ActionClientQosPolicies, ActionServer, ActionServerQosPolicies, GetResultResponse, GoalId, GoalInfo, GoalStatusEnum, SendGoalRequest,
    SendGoalResponse,
};
use ros2_client::action_msgs::{CancelGoalResponse, CancelGoalResponseEnum, GoalStatus, GoalStatusArray};
use ros2_client::builtin_interfaces::Time;
use ros2_client::dds::rustdds::mio1::{Interest, Registry, Token};
use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::service::RmwRequestId;
use ros2_client::{ActionTypeName, Name, Node, QosProfile, ServiceMapping};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// What the gate hands the worker.
#[derive(Debug)]
pub enum GateWork {
    /// Check a new goal (a call: never dropped for topic work).
    Check(GateGoal),
    /// The controller runs the goal from `start` (later than now for a future stamp):
    /// re-check what is left of it on scene changes and on the timer.
    Started { goal: GateGoal, start: Instant },
    /// The goal ended: no more re-checks.
    Ended(GoalKey),
    /// A newer goal superseded this one before it was decided: take its check back.
    Withdrawn(GoalKey),
}

/// Why the gate's action servers and clients could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    #[error("action name {name}: {problem:?}")]
    ActionName { name: String, problem: ros2_client::names::NameError },
    #[error("action server {action}: {problem:?}")]
    Server { action: String, problem: ros2_client::error::CreateError },
    #[error("action client {action}: {problem:?}")]
    Client { action: String, problem: ros2_client::error::CreateError },
}

/// Requests taken from one reader per wake-up, at most.
const TAKE_LIMIT: usize = 64;
/// How long a controller may take to answer a forwarded goal before the gate gives up
/// on it (its action server is missing or gone).
const CONTROLLER_ANSWER: Duration = Duration::from_secs(5);
/// How long past its planned end (and its goal time tolerance) an executing goal may go
/// without a result from the controller.
const CONTROLLER_RESULT_GRACE: Duration = Duration::from_secs(10);
/// How long a finished goal's result waits for a late `get_result` request.
const RESULT_KEPT: Duration = Duration::from_secs(60);

/// Where a goal is.
#[derive(Debug)]
enum Stage {
    /// Accepted; the worker checks it.
    Checking,
    /// Sent to the controller under `controller_goal`; its answer awaited since `since`.
    Forwarding { request: RmwRequestId, controller_goal: GoalId, since: Instant },
    /// The controller runs it; its result is requested with `request`, expected by `deadline`.
    Executing { controller_goal: GoalId, request: RmwRequestId, deadline: Instant },
    /// Ended (`ended` for how long its result is kept).
    Done { status: GoalStatusEnum, outcome: Outcome, ended: Instant },
}

struct GoalEntry {
    gate: GateGoal,
    info: GoalInfo,
    stage: Stage,
    /// `get_result` requests waiting for the end.
    waiting: Vec<RmwRequestId>,
    /// Set when the goal must end as this (a client's cancel, a failed re-check) once
    /// the controller has let go of it.
    ending: Option<(GoalStatusEnum, Outcome)>,
}

impl GoalEntry {
    fn status(&self) -> GoalStatusEnum {
        match (&self.stage, &self.ending) {
            (Stage::Done { status, .. }, _) => *status,
            (_, Some(_)) => GoalStatusEnum::Canceling,
            (Stage::Checking, None) => GoalStatusEnum::Accepted,
            (Stage::Forwarding { .. } | Stage::Executing { .. }, None) => GoalStatusEnum::Executing,
        }
    }

    fn is_active(&self) -> bool {
        !matches!(self.stage, Stage::Done { .. })
    }
}

/// One gated controller: the gate's action server and the controller's action client.
struct GatedController {
    name: String,
    /// The gate's action, e.g. `/ccd_guard/panda_arm_controller/follow_joint_trajectory`.
    action: String,
    /// The controller's action, e.g. `/panda_arm_controller/follow_joint_trajectory`.
    controller_action: String,
    server: ActionServer<Goal, Outcome, Feedback>,
    client: ActionClient<Goal, Outcome, Feedback>,
}

/// Every gated controller and its goals.
pub struct Relay {
    controllers: Vec<GatedController>,
    goals: BTreeMap<GoalKey, GoalEntry>,
}

/// rcl_action's default QoS: services reliable, volatile, keep last 10; status
/// transient local, keep last 1.
fn service_qos() -> QosProfile {
    QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::Volatile).history(History::KeepLast { depth: 10 })
}

fn status_qos() -> QosProfile {
    QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::TransientLocal).history(History::KeepLast { depth: 1 })
}

fn server_qos() -> ActionServerQosPolicies {
    ActionServerQosPolicies {
        goal_service: service_qos(),
        result_service: service_qos(),
        cancel_service: service_qos(),
        feedback_publisher: service_qos(),
        status_publisher: status_qos(),
    }
}

fn client_qos() -> ActionClientQosPolicies {
    ActionClientQosPolicies {
        goal_service: service_qos(),
        result_service: service_qos(),
        cancel_service: service_qos(),
        feedback_subscription: service_qos(),
        status_subscription: status_qos(),
    }
}

/// The client's goal id as the worker keys it.
fn uuid_of(goal_id: &GoalId) -> msg::Uuid {
    msg::Uuid { uuid: *goal_id.uuid.as_bytes() }
}

fn outcome(error_code: i32, error_string: impl Into<String>) -> Outcome {
    Outcome { error_code, error_string: error_string.into() }
}

impl Relay {
    /// The action servers and clients of `controllers`: each `(C, gate action, controller
    /// action)` with names already resolved.
    pub fn new(node: &mut Node, mapping: ServiceMapping, controllers: &[(String, String, String)]) -> Result<Self, RelayError> {
        let action_type = ActionTypeName::new("control_msgs", "FollowJointTrajectory");
        let mut gated = Vec::new();
        for (name, action, controller_action) in controllers {
            let parse = |n: &str| Name::parse(n).map_err(|problem| RelayError::ActionName { name: n.to_string(), problem });
            let server = node
                .create_action_server(mapping, &parse(action)?, &action_type, server_qos())
                .map_err(|problem| RelayError::Server { action: action.clone(), problem })?;
            let client = node
                .create_action_client(mapping, &parse(controller_action)?, &action_type, client_qos())
                .map_err(|problem| RelayError::Client { action: controller_action.clone(), problem })?;
            gated.push(GatedController { name: name.clone(), action: action.clone(), controller_action: controller_action.clone(), server, client });
        }
        Ok(Self { controllers: gated, goals: BTreeMap::new() })
    }

    /// The gate's action names (for the start-up log).
    pub fn action_names(&self) -> impl Iterator<Item = &str> {
        self.controllers.iter().map(|c| c.action.as_str())
    }

    /// Registers the gate's servers (the controllers' clients are polled: ros2-client
    /// lends them out only shared).
    pub fn register(&mut self, registry: &Registry, first_token: usize) -> std::io::Result<()> {
        for (k, c) in self.controllers.iter_mut().enumerate() {
            let token = |part: usize| Token(first_token + 3 * k + part);
            registry.register(c.server.goal_server(), token(0), Interest::READABLE)?;
            registry.register(c.server.cancel_server(), token(1), Interest::READABLE)?;
            registry.register(c.server.result_server(), token(2), Interest::READABLE)?;
        }
        Ok(())
    }

    /// Whether a goal is under way (the transport then polls the controllers often).
    pub fn busy(&self) -> bool {
        self.goals.values().any(GoalEntry::is_active)
    }

    /// Reads what arrived on every gated action and from every controller; returns the
    /// work for the worker.
    pub fn read(&mut self) -> Vec<GateWork> {
        let mut work = Vec::new();
        for k in 0..self.controllers.len() {
            self.read_goals(k, &mut work);
            self.read_cancels(k, &mut work);
            self.read_result_requests(k);
            self.read_controller(k, &mut work);
        }
        self.check_deadlines(&mut work);
        self.forget_old_results();
        work
    }

    fn read_goals(&mut self, k: usize, work: &mut Vec<GateWork>) {
        let mut received_any = false;
        for _ in 0..TAKE_LIMIT {
            let received = self.controllers[k].server.receive_goal();
            let (request_id, request) = match received {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable goal: {e:?}", self.controllers[k].action);
                    continue;
                }
            };
            received_any = true;
            let c = &self.controllers[k];
            let key = GoalKey { controller: k, goal_id: uuid_of(&request.goal_id) };
            if self.goals.contains_key(&key) {
                // A repeated id: rcl_action rejects it.
                log::warn!("{}: goal {:?} sent twice; rejected", c.action, request.goal_id);
                let _ = c.server.send_goal_response(request_id, SendGoalResponse { accepted: false, stamp: Time::now() });
                continue;
            }
            let info = GoalInfo { goal_id: request.goal_id, stamp: Time::now() };
            if let Err(e) = c.server.send_goal_response(request_id, SendGoalResponse { accepted: true, stamp: info.stamp }) {
                log::error!("{}: accepting a goal: {e:?}", c.action);
            }
            let gate = GateGoal { key, source: c.action.clone(), goal: request.goal };
            log::info!("{}: goal {:?} ({} points) accepted for checking", c.action, request.goal_id, gate.goal.trajectory.points.len());
            self.supersede_undecided(key, work);
            self.goals.insert(key, GoalEntry { gate: gate.clone(), info, stage: Stage::Checking, waiting: Vec::new(), ending: None });
            work.push(GateWork::Check(gate));
        }
        if received_any {
            self.publish_statuses(k);
        }
    }

    /// A new goal for a controller supersedes that controller's goals still waiting for
    /// their decision: whatever the new one's verdict, they would be preempted when it is
    /// decided (by the controller, or by [`Self::decided`]), so they end now, cancelled as
    /// preempted, and their checks are taken back. A burst of goals thus costs one check
    /// each for the first and the newest, and never fills the worker's queue; a goal
    /// already forwarded keeps running until the newer one is decided.
    fn supersede_undecided(&mut self, newer: GoalKey, work: &mut Vec<GateWork>) {
        let undecided: Vec<GoalKey> =
            self.goals.iter().filter(|(k, e)| k.controller == newer.controller && matches!(e.stage, Stage::Checking)).map(|(k, _)| *k).collect();
        for key in undecided {
            work.retain(|w| !matches!(w, GateWork::Check(goal) if goal.key == key));
            work.push(GateWork::Withdrawn(key));
            let preempted = outcome(Outcome::SUCCESSFUL, "ccd_guard: preempted by a newer goal before it was checked");
            self.finish(key, GoalStatusEnum::Canceled, preempted, work);
        }
    }

    /// The worker's decision on a goal: forward it to the controller, or abort it.
    pub fn decided(&mut self, key: GoalKey, decision: GateDecision, work: &mut Vec<GateWork>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        if !matches!(entry.stage, Stage::Checking) {
            return;
        }
        if let Some((status, outcome)) = entry.ending.take() {
            // Cancelled while it was checked: it never reaches the controller.
            self.finish(key, status, outcome, work);
            return;
        }
        match decision {
            GateDecision::Refuse(outcome) => {
                // A newer goal preempts the running one, as in the controller; a refused
                // one leaves the robot holding where it is.
                self.preempt_others(key, "ccd_guard: preempted by a newer goal, which the gate refused");
                self.finish(key, GoalStatusEnum::Aborted, outcome, work);
            }
            GateDecision::Forward => {
                let c = &self.controllers[key.controller];
                // Under the client's own goal id: one id from MoveIt to the controller.
                let controller_goal = entry.info.goal_id;
                match c.client.goal_client().send_request(SendGoalRequest { goal_id: controller_goal, goal: entry.gate.goal.clone() }) {
                    Ok(request) => {
                        entry.stage = Stage::Forwarding { request, controller_goal, since: Instant::now() };
                        // The controller preempts the running goal itself; its result is relayed.
                        self.publish_statuses(key.controller);
                    }
                    Err(e) => {
                        let why = format!("ccd_guard: the goal could not be sent to {}: {e:?}", c.controller_action);
                        self.finish(key, GoalStatusEnum::Aborted, outcome(Outcome::INVALID_GOAL, why), work);
                    }
                }
            }
        }
    }

    /// Stops a running goal that a re-check no longer certifies: the controller's goal
    /// is cancelled, and the client's ends aborted with `PATH_TOLERANCE_VIOLATED`.
    pub fn stop(&mut self, key: GoalKey, reason: String, work: &mut Vec<GateWork>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        if !entry.is_active() {
            return;
        }
        log::warn!("{}: stopping goal: {reason}", entry.gate.source);
        entry.ending = Some((GoalStatusEnum::Aborted, outcome(Outcome::PATH_TOLERANCE_VIOLATED, reason)));
        self.let_go(key, work);
    }

    /// Ends the goal as it is meant to end (`entry.ending`): at once where the controller
    /// does not have it, else after cancelling it there (when its result comes back).
    fn let_go(&mut self, key: GoalKey, work: &mut Vec<GateWork>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        let c = &self.controllers[key.controller];
        match &entry.stage {
            Stage::Executing { controller_goal, .. } => {
                if let Err(e) = c.client.cancel_goal(*controller_goal) {
                    log::error!("{}: cancelling the controller's goal: {e:?}", c.controller_action);
                }
                self.publish_statuses(key.controller);
            }
            // Cancelled once the controller accepts it.
            Stage::Forwarding { .. } | Stage::Checking => self.publish_statuses(key.controller),
            Stage::Done { .. } => {}
        }
        if matches!(self.goals[&key].stage, Stage::Checking) {
            // The worker's answer will find it ending; nothing waits on the controller.
            let (status, outcome) = self.goals.get_mut(&key).and_then(|e| e.ending.take()).expect("ending set");
            self.finish(key, status, outcome, work);
        }
    }

    /// Preempts every other running goal of the same controller (see [`Self::decided`]).
    fn preempt_others(&mut self, key: GoalKey, reason: &str) {
        let others: Vec<GoalKey> =
            self.goals.iter().filter(|(k, e)| **k != key && k.controller == key.controller && e.is_active() && e.ending.is_none()).map(|(k, _)| *k).collect();
        let mut ignored = Vec::new();
        for other in others {
            if let Some(entry) = self.goals.get_mut(&other) {
                entry.ending = Some((GoalStatusEnum::Canceled, outcome(Outcome::SUCCESSFUL, reason)));
            }
            self.let_go(other, &mut ignored);
        }
    }

    fn read_cancels(&mut self, k: usize, work: &mut Vec<GateWork>) {
        for _ in 0..TAKE_LIMIT {
            let received = self.controllers[k].server.receive_cancel_request();
            let (request_id, request) = match received {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable cancel request: {e:?}", self.controllers[k].action);
                    continue;
                }
            };
            // ros2-client keeps the request's fields to itself: read them from its CDR.
            let request: Option<msg::CancelGoalRequest> = cdr::to_cdr(&request).and_then(|bytes| cdr::from_cdr(&bytes)).ok();
            let Some(request) = request else { continue };
            let info = request.goal_info;
            let all = info.goal_id == msg::Uuid::default();
            let before = (info.stamp != msg::Time::default()).then(|| Time::new(info.stamp.sec, info.stamp.nanosec));
            let chosen: Vec<GoalKey> = self
                .goals
                .iter()
                .filter(|(key, e)| {
                    key.controller == k && ((all && before.is_none()) || key.goal_id == info.goal_id || before.is_some_and(|b| e.info.stamp <= b))
                })
                .map(|(key, _)| *key)
                .collect();
            let canceling: Vec<GoalKey> = chosen.iter().copied().filter(|key| self.goals[key].is_active()).collect();
            let return_code = match (chosen.is_empty(), canceling.is_empty()) {
                (true, _) => CancelGoalResponseEnum::UnknownGoal,
                (false, true) => CancelGoalResponseEnum::GoalTerminated,
                (false, false) => CancelGoalResponseEnum::None,
            };
            let goals_canceling = canceling.iter().map(|key| self.goals[key].info.clone()).collect();
            if let Err(e) = self.controllers[k].server.send_cancel_response(request_id, CancelGoalResponse { return_code, goals_canceling }) {
                log::error!("{}: cancel response: {e:?}", self.controllers[k].action);
            }
            for key in canceling {
                log::info!("{}: goal cancelled by its client", self.controllers[k].action);
                if let Some(entry) = self.goals.get_mut(&key)
                    && entry.ending.is_none()
                {
                    entry.ending = Some((GoalStatusEnum::Canceled, outcome(Outcome::SUCCESSFUL, "ccd_guard: cancelled by the client")));
                }
                self.let_go(key, work);
            }
        }
    }

    fn read_result_requests(&mut self, k: usize) {
        for _ in 0..TAKE_LIMIT {
            let received = self.controllers[k].server.receive_result_request();
            let (request_id, request) = match received {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable result request: {e:?}", self.controllers[k].action);
                    continue;
                }
            };
            let key = GoalKey { controller: k, goal_id: uuid_of(&request.goal_id) };
            match self.goals.get_mut(&key) {
                Some(GoalEntry { stage: Stage::Done { status, outcome, .. }, .. }) => {
                    let response = GetResultResponse { status: *status, result: outcome.clone() };
                    let _ = self.controllers[k].server.send_result(request_id, response);
                }
                Some(entry) => entry.waiting.push(request_id),
                None => {
                    let response = GetResultResponse { status: GoalStatusEnum::Unknown, result: outcome(Outcome::INVALID_GOAL, "ccd_guard: unknown goal") };
                    let _ = self.controllers[k].server.send_result(request_id, response);
                }
            }
        }
    }

    /// The controller's answers to forwarded goals, its feedback and its results.
    fn read_controller(&mut self, k: usize, work: &mut Vec<GateWork>) {
        loop {
            let answer = self.controllers[k].client.goal_client().receive_response();
            let (request, response) = match answer {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable goal response: {e:?}", self.controllers[k].controller_action);
                    continue;
                }
            };
            let Some(key) = self.goals.iter().find(|(_, e)| matches!(e.stage, Stage::Forwarding { request: r, .. } if r == request)).map(|(key, _)| *key)
            else {
                continue;
            };
            self.controller_answered(key, response.accepted, work);
        }
        loop {
            let answer = self.controllers[k].client.result_client().receive_response();
            let (request, response) = match answer {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable result: {e:?}", self.controllers[k].controller_action);
                    continue;
                }
            };
            let Some(key) = self.goals.iter().find(|(_, e)| matches!(e.stage, Stage::Executing { request: r, .. } if r == request)).map(|(key, _)| *key) else {
                continue;
            };
            let ending = self.goals.get_mut(&key).and_then(|e| e.ending.take());
            // The controller's own result, unless the gate ended the goal (cancel, re-check).
            let (status, outcome) = ending.unwrap_or((response.status, response.result));
            self.finish(key, status, outcome, work);
        }
        loop {
            match self.controllers[k].client.feedback_subscription().take() {
                Ok(Some((message, _))) => {
                    let entry = self.goals.values().find(|e| matches!(e.stage, Stage::Executing { controller_goal, .. } if controller_goal == message.goal_id));
                    if let Some(entry) = entry {
                        let _ = self.controllers[k].server.send_feedback(entry.info.goal_id, message.feedback);
                    }
                }
                Ok(None) => break,
                Err(e) => log::debug!("{}: unreadable feedback: {e:?}", self.controllers[k].controller_action),
            }
        }
        // Statuses and cancel answers are not needed: drain them.
        while let Ok(Some(_)) = self.controllers[k].client.status_subscription().take() {}
        while let Ok(Some(_)) = self.controllers[k].client.cancel_client().receive_response() {}
    }

    fn controller_answered(&mut self, key: GoalKey, accepted: bool, work: &mut Vec<GateWork>) {
        let c = &self.controllers[key.controller];
        let entry = self.goals.get_mut(&key).expect("found");
        let Stage::Forwarding { controller_goal, .. } = entry.stage else { return };
        if !accepted {
            let why = format!("ccd_guard: the controller {} rejected the certified goal", c.controller_action);
            let (status, outcome) = entry.ending.take().unwrap_or((GoalStatusEnum::Aborted, outcome(Outcome::INVALID_GOAL, why)));
            self.finish(key, status, outcome, work);
            return;
        }
        let request = match c.client.request_result(controller_goal) {
            Ok(request) => request,
            Err(e) => {
                log::error!("{}: result request: {e:?}", c.controller_action);
                RmwRequestId::default()
            }
        };
        let goal = &entry.gate.goal;
        let planned = goal.trajectory.points.last().map_or(0.0, |p| p.time_from_start.seconds()) + goal.goal_time_tolerance.seconds();
        let delay = start_delay(goal.trajectory.header.stamp);
        let start = Instant::now() + delay;
        let deadline = start + Duration::from_secs_f64(planned.clamp(0.0, 1e6)) + CONTROLLER_RESULT_GRACE;
        entry.stage = Stage::Executing { controller_goal, request, deadline };
        log::info!("{}: the controller runs goal {:?}", entry.gate.source, entry.info.goal_id);
        work.push(GateWork::Started { goal: entry.gate.clone(), start });
        if entry.ending.is_some() {
            self.let_go(key, work);
        } else {
            self.publish_statuses(key.controller);
        }
    }

    /// Goals the controller does not answer in time (its action server is missing or gone).
    fn check_deadlines(&mut self, work: &mut Vec<GateWork>) {
        let now = Instant::now();
        let late: Vec<(GoalKey, String)> = self
            .goals
            .iter()
            .filter_map(|(key, e)| {
                let c = &self.controllers[key.controller];
                match e.stage {
                    Stage::Forwarding { since, .. } if now - since > CONTROLLER_ANSWER => Some((
                        *key,
                        format!(
                            "ccd_guard: the controller's action {} did not answer within {} s (is the controller running?)",
                            c.controller_action,
                            CONTROLLER_ANSWER.as_secs()
                        ),
                    )),
                    Stage::Executing { deadline, .. } if now > deadline => Some((
                        *key,
                        format!(
                            "ccd_guard: no result from the controller's action {} long after the motion's end (is the controller still running?)",
                            c.controller_action
                        ),
                    )),
                    _ => None,
                }
            })
            .collect();
        for (key, why) in late {
            log::error!("{why}");
            let ending = self.goals.get_mut(&key).and_then(|e| e.ending.take());
            let (status, outcome) = ending.unwrap_or((GoalStatusEnum::Aborted, outcome(Outcome::INVALID_GOAL, why)));
            self.finish(key, status, outcome, work);
        }
    }

    /// Ends a goal: its result to every waiting `get_result`, its status published.
    fn finish(&mut self, key: GoalKey, status: GoalStatusEnum, result: Outcome, work: &mut Vec<GateWork>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        let was_running = matches!(entry.stage, Stage::Executing { .. });
        let c = &self.controllers[key.controller];
        log::info!("{}: goal {:?} ends {status:?} ({}): {}", c.action, entry.info.goal_id, result.error_code, result.error_string);
        for request in entry.waiting.drain(..) {
            let _ = c.server.send_result(request, GetResultResponse { status, result: result.clone() });
        }
        entry.stage = Stage::Done { status, outcome: result, ended: Instant::now() };
        entry.ending = None;
        if was_running {
            work.push(GateWork::Ended(key));
        }
        self.publish_statuses(key.controller);
    }

    /// Aborts a goal the worker's queue had no room for.
    pub fn refuse_busy(&mut self, key: GoalKey, work: &mut Vec<GateWork>) {
        if !self.goals.get(&key).is_some_and(|e| matches!(e.stage, Stage::Checking)) {
            return;
        }
        self.finish(key, GoalStatusEnum::Aborted, outcome(Outcome::INVALID_GOAL, "ccd_guard: busy: too many goals wait to be checked"), work);
    }

    fn forget_old_results(&mut self) {
        let now = Instant::now();
        self.goals.retain(|_, e| !matches!(e.stage, Stage::Done { ended, .. } if now - ended > RESULT_KEPT));
    }

    fn publish_statuses(&self, k: usize) {
        let status_list =
            self.goals.iter().filter(|(key, _)| key.controller == k).map(|(_, e)| GoalStatus { goal_info: e.info.clone(), status: e.status() }).collect();
        if let Err(e) = self.controllers[k].server.send_goal_statuses(GoalStatusArray { status_list }) {
            log::error!("{}: goal statuses: {e:?}", self.controllers[k].action);
        }
    }

    /// The gated controllers' names, in `gate_controllers` order.
    pub fn controller_names(&self) -> impl Iterator<Item = &str> {
        self.controllers.iter().map(|c| c.name.as_str())
    }
}

/// How long after now a goal's `header.stamp` starts it (zero: now, or a past stamp).
fn start_delay(stamp: msg::Time) -> Duration {
    if stamp == msg::Time::default() {
        return Duration::ZERO;
    }
    let at = std::time::UNIX_EPOCH + Duration::new(stamp.sec.max(0) as u64, stamp.nanosec.min(999_999_999));
    at.duration_since(std::time::SystemTime::now()).unwrap_or(Duration::ZERO)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_in_the_future_delays_the_start() {
        assert_eq!(start_delay(msg::Time::default()), Duration::ZERO, "zero: now");
        let now = msg::Time::now();
        assert_eq!(start_delay(msg::Time { sec: now.sec - 10, ..now }), Duration::ZERO, "a past stamp starts now");
        let later = start_delay(msg::Time { sec: now.sec + 3, ..now });
        assert!(later > Duration::from_millis(2900) && later <= Duration::from_secs(3), "{later:?}");
    }
}
