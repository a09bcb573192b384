//! The gate on the ROS graph through ros2-client: for each gated controller C, the
//! action server `~/C/follow_joint_trajectory` that MoveIt sends goals to, and the action
//! client of the controller's own `/C/follow_joint_trajectory`. It runs on the DDS thread
//! and never waits.
//!
//! What happens to a goal is [`GoalLife`]'s (the moveit floor's state machine): this
//! file only turns what arrives on either side into its events, and carries out the
//! commands it answers with (answers, statuses, forwarded goals, cancels, results, and
//! work for the worker).
use crate::moveit::cdr;
use crate::moveit::gate::{CancelCode, GateDecision, GateWork, GoalCommand, GoalEvent, GoalKey, GoalLife, GoalStatusCode};
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
use std::time::Instant;

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

/// One gated controller: the gate's action server and the controller's action client.
struct GatedController {
    /// The gate's action, e.g. `/ccd_guard/panda_arm_controller/follow_joint_trajectory`.
    action: String,
    /// The controller's action, e.g. `/panda_arm_controller/follow_joint_trajectory`.
    controller_action: String,
    server: ActionServer<Goal, Outcome, Feedback>,
    client: ActionClient<Goal, Outcome, Feedback>,
}

/// Every gated controller, its goals' life cycle, and the controllers' requests in flight.
pub struct Relay {
    controllers: Vec<GatedController>,
    life: GoalLife<RmwRequestId>,
    /// Goals sent to a controller, by the request that sent them.
    forwarded: BTreeMap<RmwRequestId, GoalKey>,
    /// Results asked of a controller, by the request that asked.
    results_asked: BTreeMap<RmwRequestId, GoalKey>,
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

/// A goal id as the gate keys it.
fn uuid_of(goal_id: &GoalId) -> msg::Uuid {
    msg::Uuid { uuid: *goal_id.uuid.as_bytes() }
}

fn goal_id_of(uuid: msg::Uuid) -> GoalId {
    GoalId { uuid: uuid::Uuid::from_bytes(uuid.uuid) }
}

fn time_of(stamp: msg::Time) -> Time {
    Time::new(stamp.sec, stamp.nanosec)
}

fn stamp_of(time: Time) -> msg::Time {
    let nanos = time.to_nanos();
    msg::Time { sec: nanos.div_euclid(1_000_000_000) as i32, nanosec: nanos.rem_euclid(1_000_000_000) as u32 }
}

fn goal_info_of(info: msg::GoalInfo) -> GoalInfo {
    GoalInfo { goal_id: goal_id_of(info.goal_id), stamp: time_of(info.stamp) }
}

fn status_enum(status: GoalStatusCode) -> GoalStatusEnum {
    match status {
        GoalStatusCode::Unknown => GoalStatusEnum::Unknown,
        GoalStatusCode::Accepted => GoalStatusEnum::Accepted,
        GoalStatusCode::Executing => GoalStatusEnum::Executing,
        GoalStatusCode::Canceling => GoalStatusEnum::Canceling,
        GoalStatusCode::Succeeded => GoalStatusEnum::Succeeded,
        GoalStatusCode::Canceled => GoalStatusEnum::Canceled,
        GoalStatusCode::Aborted => GoalStatusEnum::Aborted,
    }
}

fn cancel_enum(code: CancelCode) -> CancelGoalResponseEnum {
    match code {
        CancelCode::None => CancelGoalResponseEnum::None,
        CancelCode::UnknownGoal => CancelGoalResponseEnum::UnknownGoal,
        CancelCode::GoalTerminated => CancelGoalResponseEnum::GoalTerminated,
    }
}

impl Relay {
    /// The action servers and clients of `controllers`: each `(C, gate action, controller
    /// action)` with names already resolved.
    pub fn new(node: &mut Node, mapping: ServiceMapping, controllers: &[(String, String, String)]) -> Result<Self, RelayError> {
        let action_type = ActionTypeName::new("control_msgs", "FollowJointTrajectory");
        let mut gated = Vec::new();
        for (_name, action, controller_action) in controllers {
            let parse = |n: &str| Name::parse(n).map_err(|problem| RelayError::ActionName { name: n.to_string(), problem });
            let server = node
                .create_action_server(mapping, &parse(action)?, &action_type, server_qos())
                .map_err(|problem| RelayError::Server { action: action.clone(), problem })?;
            let client = node
                .create_action_client(mapping, &parse(controller_action)?, &action_type, client_qos())
                .map_err(|problem| RelayError::Client { action: controller_action.clone(), problem })?;
            gated.push(GatedController { action: action.clone(), controller_action: controller_action.clone(), server, client });
        }
        let life = GoalLife::new(gated.iter().map(|c| (c.action.clone(), c.controller_action.clone())).collect());
        Ok(Self { controllers: gated, life, forwarded: BTreeMap::new(), results_asked: BTreeMap::new() })
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
        self.life.busy()
    }

    /// Reads what arrived on every gated action and from every controller; returns the
    /// work for the worker.
    pub fn read(&mut self) -> Vec<GateWork> {
        let mut work = Vec::new();
        for k in 0..self.controllers.len() {
            self.read_goals(k, &mut work);
            self.read_cancels(k, &mut work);
            self.read_result_requests(k, &mut work);
            self.read_controller(k, &mut work);
        }
        self.event(GoalEvent::Tick, &mut work);
        work
    }

    /// The worker's decision on a goal: forward it to the controller, or abort it.
    pub fn decided(&mut self, key: GoalKey, decision: GateDecision, work: &mut Vec<GateWork>) {
        self.event(GoalEvent::Decided { key, decision }, work);
    }

    /// Stops a running goal that a re-check no longer certifies.
    pub fn stop(&mut self, key: GoalKey, reason: String, work: &mut Vec<GateWork>) {
        self.event(GoalEvent::Stop { key, reason }, work);
    }

    /// Aborts a goal the worker's queue had no room for.
    pub fn refuse_busy(&mut self, key: GoalKey, work: &mut Vec<GateWork>) {
        self.event(GoalEvent::QueueRefused { key }, work);
    }

    /// Hands an event to the goals' life cycle and carries out what it answers
    /// ([`GoalLife::drive`]); on a tick, forgets the requests of goals that ended on a
    /// deadline without the controller's answer.
    fn event(&mut self, event: GoalEvent<RmwRequestId>, work: &mut Vec<GateWork>) {
        let is_tick = matches!(event, GoalEvent::Tick);
        let mut life = std::mem::replace(&mut self.life, GoalLife::new(Vec::new()));
        life.drive(event, Instant::now(), |command| self.carry_out(command, work));
        self.life = life;
        if is_tick {
            let life = &self.life;
            self.forwarded.retain(|_, key| life.awaits_controller(key));
            self.results_asked.retain(|_, key| life.awaits_controller(key));
        }
    }

    /// Carries out one command; returns the event it raises, if any.
    fn carry_out(&mut self, command: GoalCommand<RmwRequestId>, work: &mut Vec<GateWork>) -> Option<GoalEvent<RmwRequestId>> {
        match command {
            GoalCommand::AnswerGoal { controller, request, accepted, stamp } => {
                let c = &self.controllers[controller];
                if let Err(e) = c.server.send_goal_response(request, SendGoalResponse { accepted, stamp: time_of(stamp) }) {
                    log::error!("{}: answering a goal: {e:?}", c.action);
                }
            }
            GoalCommand::Worker(item) => {
                if let GateWork::Withdrawn(key) = *item {
                    // A check not yet handed over is simply not handed over.
                    work.retain(|w| !matches!(w, GateWork::Check(goal) if goal.key == key));
                }
                work.push(*item);
            }
            GoalCommand::Forward { key, goal } => {
                let c = &self.controllers[key.controller];
                match c.client.goal_client().send_request(SendGoalRequest { goal_id: goal_id_of(key.goal_id), goal: *goal }) {
                    Ok(request) => {
                        self.forwarded.insert(request, key);
                    }
                    Err(e) => {
                        let why = format!("ccd_guard: the goal could not be sent to {}: {e:?}", c.controller_action);
                        return Some(GoalEvent::ForwardFailed { key, why });
                    }
                }
            }
            GoalCommand::RequestResult { key } => {
                let c = &self.controllers[key.controller];
                match c.client.request_result(goal_id_of(key.goal_id)) {
                    Ok(request) => {
                        self.results_asked.insert(request, key);
                    }
                    // No result will come: the goal's deadline ends it.
                    Err(e) => log::error!("{}: result request: {e:?}", c.controller_action),
                }
            }
            GoalCommand::CancelAtController { key } => {
                let c = &self.controllers[key.controller];
                if let Err(e) = c.client.cancel_goal(goal_id_of(key.goal_id)) {
                    log::error!("{}: cancelling the controller's goal: {e:?}", c.controller_action);
                }
            }
            GoalCommand::SendResult { controller, request, status, result } => {
                let _ = self.controllers[controller].server.send_result(request, GetResultResponse { status: status_enum(status), result });
            }
            GoalCommand::AnswerCancel { controller, request, code, goals_canceling } => {
                let response = CancelGoalResponse { return_code: cancel_enum(code), goals_canceling: goals_canceling.into_iter().map(goal_info_of).collect() };
                if let Err(e) = self.controllers[controller].server.send_cancel_response(request, response) {
                    log::error!("{}: cancel response: {e:?}", self.controllers[controller].action);
                }
            }
            GoalCommand::SendFeedback { controller, goal_id, feedback } => {
                let _ = self.controllers[controller].server.send_feedback(goal_id_of(goal_id), *feedback);
            }
            GoalCommand::PublishStatuses { controller, statuses } => {
                let status_list = statuses
                    .into_iter()
                    .map(|s| GoalStatus { goal_info: goal_info_of(s.goal_info), status: status_enum(GoalStatusCode::from_code(s.status)) })
                    .collect();
                if let Err(e) = self.controllers[controller].server.send_goal_statuses(GoalStatusArray { status_list }) {
                    log::error!("{}: goal statuses: {e:?}", self.controllers[controller].action);
                }
            }
        }
        None
    }

    fn read_goals(&mut self, k: usize, work: &mut Vec<GateWork>) {
        for _ in 0..TAKE_LIMIT {
            let (request, goal) = match self.controllers[k].server.receive_goal() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable goal: {e:?}", self.controllers[k].action);
                    continue;
                }
            };
            let source = self.controllers[k].action.clone();
            let event = GoalEvent::GoalReceived {
                controller: k,
                request,
                goal_id: uuid_of(&goal.goal_id),
                goal: Box::new(goal.goal),
                source,
                stamp: stamp_of(Time::now()),
            };
            self.event(event, work);
        }
    }

    fn read_cancels(&mut self, k: usize, work: &mut Vec<GateWork>) {
        for _ in 0..TAKE_LIMIT {
            let (request, cancel) = match self.controllers[k].server.receive_cancel_request() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable cancel request: {e:?}", self.controllers[k].action);
                    continue;
                }
            };
            // ros2-client keeps the request's fields to itself: read them from its CDR.
            let cancel: Option<msg::CancelGoalRequest> = cdr::to_cdr(&cancel).and_then(|bytes| cdr::from_cdr(&bytes)).ok();
            let Some(cancel) = cancel else { continue };
            self.event(GoalEvent::CancelRequested { controller: k, request, goal_info: cancel.goal_info }, work);
        }
    }

    fn read_result_requests(&mut self, k: usize, work: &mut Vec<GateWork>) {
        for _ in 0..TAKE_LIMIT {
            let (request, asked) = match self.controllers[k].server.receive_result_request() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable result request: {e:?}", self.controllers[k].action);
                    continue;
                }
            };
            self.event(GoalEvent::ResultRequested { controller: k, request, goal_id: uuid_of(&asked.goal_id) }, work);
        }
    }

    /// The controller's answers to forwarded goals, its feedback and its results.
    fn read_controller(&mut self, k: usize, work: &mut Vec<GateWork>) {
        loop {
            let (request, response) = match self.controllers[k].client.goal_client().receive_response() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable goal response: {e:?}", self.controllers[k].controller_action);
                    continue;
                }
            };
            if let Some(key) = self.forwarded.remove(&request) {
                self.event(GoalEvent::ControllerAnswered { key, accepted: response.accepted }, work);
            }
        }
        loop {
            let (request, response) = match self.controllers[k].client.result_client().receive_response() {
                Ok(Some(r)) => r,
                Ok(None) => break,
                Err(e) => {
                    log::warn!("{}: unreadable result: {e:?}", self.controllers[k].controller_action);
                    continue;
                }
            };
            if let Some(key) = self.results_asked.remove(&request) {
                let status = GoalStatusCode::from_code(response.status as i8);
                self.event(GoalEvent::ControllerResult { key, status, result: response.result }, work);
            }
        }
        loop {
            match self.controllers[k].client.feedback_subscription().take() {
                Ok(Some((message, _))) => {
                    let event = GoalEvent::ControllerFeedback { controller: k, goal_id: uuid_of(&message.goal_id), feedback: Box::new(message.feedback) };
                    self.event(event, work);
                }
                Ok(None) => break,
                Err(e) => log::debug!("{}: unreadable feedback: {e:?}", self.controllers[k].controller_action),
            }
        }
        // Statuses and cancel answers are not needed: drain them.
        while let Ok(Some(_)) = self.controllers[k].client.status_subscription().take() {}
        while let Ok(Some(_)) = self.controllers[k].client.cancel_client().receive_response() {}
    }
}
