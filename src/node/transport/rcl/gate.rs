//! The gate on rcl through r2r: for each gated controller C, the action server
//! `~/C/follow_joint_trajectory` that MoveIt sends goals to, and the action client of
//! the controller's own action. It runs on the rcl thread and never waits.
//!
//! What happens to a goal is [`GoalLife`]'s, as for the pure-Rust transport; this file
//! turns r2r's goal requests, cancel requests, answers, feedback and results into its
//! events and carries out its commands. r2r keeps rcl_action's goal states and answers
//! result requests itself, so: a goal the gate accepts is asked for its result at once
//! (the result goes out when the goal ends), statuses are r2r's to publish, and r2r sends
//! a controller goal under an id of its own (feedback and results come per goal).
use super::RclError;
use super::wire::{from_r2r, to_r2r};
use crate::moveit::gate::{CancelCode, GateDecision, GateWork, GoalCommand, GoalEvent, GoalKey, GoalLife, GoalStatusCode};
use crate::moveit::msg::{self, FollowJointTrajectoryFeedback as Feedback, FollowJointTrajectoryGoal as Goal, FollowJointTrajectoryResult as Outcome};
use futures::{Future, FutureExt, Stream, StreamExt};
use r2r::control_msgs::action::FollowJointTrajectory;
use r2r::{ActionServerCancelRequest, ActionServerGoal, ActionServerGoalRequest};
use std::collections::BTreeMap;
use std::pin::Pin;
use std::time::Instant;

type Action = FollowJointTrajectory::Action;
type GoalRequests = Box<dyn Stream<Item = ActionServerGoalRequest<Action>> + Unpin + Send>;
type CancelRequests = Box<dyn Stream<Item = ActionServerCancelRequest> + Unpin + Send>;
type Answer = Pin<Box<dyn Future<Output = r2r::Result<ControllerGoal>>>>;
type ResultFuture = Pin<Box<dyn Future<Output = r2r::Result<(r2r::GoalStatus, FollowJointTrajectory::Result)>>>>;
type FeedbackStream = Box<dyn Stream<Item = FollowJointTrajectory::Feedback> + Unpin>;
type ControllerGoal = (r2r::ActionClientGoal<Action>, ResultFuture, FeedbackStream);
type CancelAnswer = Pin<Box<dyn Future<Output = r2r::Result<()>>>>;

/// One gated controller: the gate's action server and the controller's action client.
struct GatedController {
    action: String,
    controller_action: String,
    goal_requests: GoalRequests,
    client: r2r::ActionClient<Action>,
}

/// A gated goal the gate accepted, while it lasts.
struct ServedGoal {
    handle: ActionServerGoal<Action>,
    cancels: CancelRequests,
    /// A client's cancel was accepted: rcl_action has the goal CANCELING, and r2r can
    /// end it only as cancelled.
    cancel_accepted: bool,
}

/// A goal sent to a controller: its answer awaited, or running there.
enum AtController {
    Sent(Answer),
    Running { handle: r2r::ActionClientGoal<Action>, result: ResultFuture, feedback: FeedbackStream },
}

/// Every gated controller, its goals' life cycle, and the requests in hand (numbered
/// for [`GoalLife`], which only hands the numbers back).
pub struct RclGate {
    controllers: Vec<GatedController>,
    life: GoalLife<u64>,
    next_request: u64,
    goal_requests: BTreeMap<u64, ActionServerGoalRequest<Action>>,
    cancel_requests: BTreeMap<u64, (GoalKey, ActionServerCancelRequest)>,
    /// Result requests the gate made for the goals it accepted.
    result_requests: BTreeMap<u64, GoalKey>,
    served: BTreeMap<GoalKey, ServedGoal>,
    at_controller: BTreeMap<GoalKey, AtController>,
    /// Cancels asked of controllers, until they answer.
    stopping: Vec<(GoalKey, CancelAnswer)>,
}

impl RclGate {
    /// The action servers and clients of `controllers`: each `(C, gate action, controller
    /// action)` with names already resolved.
    pub fn new(node: &mut r2r::Node, controllers: &[(String, String, String)]) -> Result<Self, RclError> {
        let mut gated = Vec::new();
        for (_name, action, controller_action) in controllers {
            let goal_requests = node.create_action_server::<Action>(action).map_err(|problem| RclError::Endpoint { name: action.clone(), problem })?;
            let client =
                node.create_action_client::<Action>(controller_action).map_err(|problem| RclError::Endpoint { name: controller_action.clone(), problem })?;
            gated.push(GatedController {
                action: action.clone(),
                controller_action: controller_action.clone(),
                goal_requests: Box::new(goal_requests),
                client,
            });
        }
        let life = GoalLife::new(gated.iter().map(|c| (c.action.clone(), c.controller_action.clone())).collect());
        Ok(Self {
            controllers: gated,
            life,
            next_request: 0,
            goal_requests: BTreeMap::new(),
            cancel_requests: BTreeMap::new(),
            result_requests: BTreeMap::new(),
            served: BTreeMap::new(),
            at_controller: BTreeMap::new(),
            stopping: Vec::new(),
        })
    }

    /// The gate's action names (for the start-up log).
    pub fn action_names(&self) -> impl Iterator<Item = &str> {
        self.controllers.iter().map(|c| c.action.as_str())
    }

    /// Reads what arrived on every gated action and from every controller; returns the
    /// work for the worker.
    pub fn read(&mut self) -> Vec<GateWork> {
        let mut work = Vec::new();
        for k in 0..self.controllers.len() {
            self.read_goals(k, &mut work);
        }
        self.read_cancels(&mut work);
        self.read_controllers(&mut work);
        self.event(GoalEvent::Tick, &mut work);
        work
    }

    pub fn decided(&mut self, key: GoalKey, decision: GateDecision, work: &mut Vec<GateWork>) {
        self.event(GoalEvent::Decided { key, decision }, work);
    }

    pub fn stop(&mut self, key: GoalKey, reason: String, work: &mut Vec<GateWork>) {
        self.event(GoalEvent::Stop { key, reason }, work);
    }

    pub fn refuse_busy(&mut self, key: GoalKey, work: &mut Vec<GateWork>) {
        self.event(GoalEvent::QueueRefused { key }, work);
    }

    fn request_id(&mut self) -> u64 {
        self.next_request += 1;
        self.next_request
    }

    /// Hands an event to the goals' life cycle and carries out what it answers
    /// ([`GoalLife::drive`]); on a tick, forgets the controller goals of goals that ended
    /// on a deadline without the controller's answer.
    fn event(&mut self, event: GoalEvent<u64>, work: &mut Vec<GateWork>) {
        let is_tick = matches!(event, GoalEvent::Tick);
        let mut life = std::mem::replace(&mut self.life, GoalLife::new(Vec::new()));
        life.drive(event, Instant::now(), |command| self.carry_out(command, work));
        self.life = life;
        if is_tick {
            let life = &self.life;
            self.at_controller.retain(|key, _| life.awaits_controller(key));
        }
    }

    /// Carries out one command; returns the event it raises, if any.
    fn carry_out(&mut self, command: GoalCommand<u64>, work: &mut Vec<GateWork>) -> Option<GoalEvent<u64>> {
        match command {
            GoalCommand::AnswerGoal { controller, request, accepted, .. } => return self.answer_goal(controller, request, accepted),
            GoalCommand::Worker(item) => {
                if let GateWork::Withdrawn(key) = *item {
                    work.retain(|w| !matches!(w, GateWork::Check(goal) if goal.key == key));
                }
                work.push(*item);
            }
            GoalCommand::Forward { key, goal } => return self.forward(key, &goal),
            // r2r asks for the result as soon as the controller accepts.
            GoalCommand::RequestResult { .. } => {}
            GoalCommand::CancelAtController { key } => {
                if let Some(AtController::Running { handle, .. }) = self.at_controller.get(&key) {
                    match handle.cancel() {
                        Ok(answer) => self.stopping.push((key, Box::pin(answer))),
                        Err(e) => log::error!("{}: cancelling the controller's goal: {e}", self.controllers[key.controller].controller_action),
                    }
                }
            }
            GoalCommand::SendResult { request, status, result, .. } => self.send_result(request, status, &result),
            GoalCommand::AnswerCancel { request, goals_canceling, code, .. } => {
                if let Some((key, cancel)) = self.cancel_requests.remove(&request) {
                    match code == CancelCode::None && !goals_canceling.is_empty() {
                        true => {
                            cancel.accept();
                            if let Some(served) = self.served.get_mut(&key) {
                                served.cancel_accepted = true;
                            }
                        }
                        false => cancel.reject(),
                    }
                }
            }
            GoalCommand::SendFeedback { controller, goal_id, feedback } => {
                if let Some(served) = self.served.get(&GoalKey { controller, goal_id })
                    && let Ok(feedback) = to_r2r::<FollowJointTrajectory::Feedback>(&*feedback)
                {
                    let _ = served.handle.publish_feedback(feedback);
                }
            }
            // r2r publishes the statuses of its goals itself.
            GoalCommand::PublishStatuses { .. } => {}
        }
        None
    }

    /// Accepts or rejects a goal request; an accepted goal's result is asked for at once.
    fn answer_goal(&mut self, controller: usize, request: u64, accepted: bool) -> Option<GoalEvent<u64>> {
        let goal_request = self.goal_requests.remove(&request)?;
        let goal_id = msg::Uuid { uuid: *goal_request.uuid.as_bytes() };
        if !accepted {
            if let Err(e) = goal_request.reject() {
                log::error!("{}: rejecting a goal: {e}", self.controllers[controller].action);
            }
            return None;
        }
        match goal_request.accept() {
            Ok((handle, cancels)) => {
                let key = GoalKey { controller, goal_id };
                self.served.insert(key, ServedGoal { handle, cancels: Box::new(cancels), cancel_accepted: false });
                let request = self.request_id();
                self.result_requests.insert(request, key);
                Some(GoalEvent::ResultRequested { controller, request, goal_id })
            }
            Err(e) => {
                log::error!("{}: accepting a goal: {e}", self.controllers[controller].action);
                None
            }
        }
    }

    fn forward(&mut self, key: GoalKey, goal: &Goal) -> Option<GoalEvent<u64>> {
        let c = &self.controllers[key.controller];
        let sent =
            to_r2r::<FollowJointTrajectory::Goal>(goal).map_err(|e| e.to_string()).and_then(|goal| c.client.send_goal_request(goal).map_err(|e| e.to_string()));
        match sent {
            Ok(answer) => {
                let answer =
                    answer.map(|r| r.map(|(handle, result, feedback)| (handle, Box::pin(result) as ResultFuture, Box::new(feedback) as FeedbackStream)));
                self.at_controller.insert(key, AtController::Sent(Box::pin(answer)));
                None
            }
            Err(e) => Some(GoalEvent::ForwardFailed { key, why: format!("ccd_guard: the goal could not be sent to {}: {e}", c.controller_action) }),
        }
    }

    /// Ends a served goal with the controller's (or the gate's) result.
    fn send_result(&mut self, request: u64, status: GoalStatusCode, result: &Outcome) {
        let Some(key) = self.result_requests.remove(&request) else { return };
        let Some(mut served) = self.served.remove(&key) else { return };
        let Ok(result) = to_r2r::<FollowJointTrajectory::Result>(result) else { return };
        // rcl_action ends a goal being cancelled only as cancelled, and cancels no other:
        // a goal the gate itself ended otherwise (preempted, stopped) is aborted.
        let ended = match (served.cancel_accepted, status) {
            (true, _) => served.handle.cancel(result),
            (false, GoalStatusCode::Succeeded) => served.handle.succeed(result),
            (false, _) => served.handle.abort(result),
        };
        if let Err(e) = ended {
            log::error!("{}: ending a goal: {e}", self.controllers[key.controller].action);
        }
    }

    fn read_goals(&mut self, k: usize, work: &mut Vec<GateWork>) {
        while let Some(Some(goal_request)) = self.controllers[k].goal_requests.next().now_or_never() {
            let goal = match from_r2r::<Goal>(&goal_request.goal) {
                Ok(goal) => goal,
                Err(e) => {
                    log::warn!("{}: unreadable goal: {e}", self.controllers[k].action);
                    let _ = goal_request.reject();
                    continue;
                }
            };
            let goal_id = msg::Uuid { uuid: *goal_request.uuid.as_bytes() };
            let request = self.request_id();
            self.goal_requests.insert(request, goal_request);
            let source = self.controllers[k].action.clone();
            let event = GoalEvent::GoalReceived { controller: k, request, goal_id, goal: Box::new(goal), source, stamp: msg::Time::now() };
            self.event(event, work);
        }
    }

    fn read_cancels(&mut self, work: &mut Vec<GateWork>) {
        let mut asked = Vec::new();
        for (key, served) in &mut self.served {
            while let Some(Some(cancel)) = served.cancels.next().now_or_never() {
                asked.push((*key, cancel));
            }
        }
        for (key, cancel) in asked {
            let request = self.request_id();
            self.cancel_requests.insert(request, (key, cancel));
            let goal_info = msg::GoalInfo { goal_id: key.goal_id, stamp: msg::Time::default() };
            self.event(GoalEvent::CancelRequested { controller: key.controller, request, goal_info }, work);
        }
    }

    /// The controllers' answers to forwarded goals, their feedback and their results,
    /// and their answers to cancels.
    fn read_controllers(&mut self, work: &mut Vec<GateWork>) {
        let controllers = &self.controllers;
        self.stopping.retain_mut(|(key, answer)| match answer.now_or_never() {
            None => true,
            Some(Ok(())) => false,
            Some(Err(e)) => {
                log::error!("{}: the controller did not cancel goal {}: {e}", controllers[key.controller].controller_action, key.goal_id);
                false
            }
        });
        let mut events = Vec::new();
        for (key, at) in &mut self.at_controller {
            match at {
                AtController::Sent(answer) => match answer.now_or_never() {
                    None => {}
                    Some(Ok((handle, result, feedback))) => {
                        events.push(GoalEvent::ControllerAnswered { key: *key, accepted: true });
                        *at = AtController::Running { handle, result, feedback };
                    }
                    Some(Err(r2r::Error::RCL_RET_ACTION_GOAL_REJECTED)) => events.push(GoalEvent::ControllerAnswered { key: *key, accepted: false }),
                    Some(Err(e)) => events.push(GoalEvent::ForwardFailed { key: *key, why: format!("ccd_guard: the controller's answer: {e}") }),
                },
                AtController::Running { result, feedback, .. } => {
                    while let Some(Some(message)) = feedback.next().now_or_never() {
                        if let Ok(feedback) = from_r2r::<Feedback>(&message) {
                            events.push(GoalEvent::ControllerFeedback { controller: key.controller, goal_id: key.goal_id, feedback: Box::new(feedback) });
                        }
                    }
                    match result.now_or_never() {
                        None => {}
                        Some(Ok((status, outcome))) => match from_r2r::<Outcome>(&outcome) {
                            Ok(outcome) => events.push(GoalEvent::ControllerResult { key: *key, status: status_code(status), result: outcome }),
                            Err(e) => events.push(GoalEvent::ForwardFailed { key: *key, why: format!("ccd_guard: the controller's result: {e}") }),
                        },
                        Some(Err(e)) => events.push(GoalEvent::ForwardFailed { key: *key, why: format!("ccd_guard: the controller's result: {e}") }),
                    }
                }
            }
        }
        for event in events {
            if let GoalEvent::ControllerResult { key, .. } | GoalEvent::ForwardFailed { key, .. } | GoalEvent::ControllerAnswered { key, accepted: false } =
                &event
            {
                self.at_controller.remove(key);
            }
            self.event(event, work);
        }
    }
}

fn status_code(status: r2r::GoalStatus) -> GoalStatusCode {
    match status {
        r2r::GoalStatus::Accepted => GoalStatusCode::Accepted,
        r2r::GoalStatus::Executing => GoalStatusCode::Executing,
        r2r::GoalStatus::Canceling => GoalStatusCode::Canceling,
        r2r::GoalStatus::Succeeded => GoalStatusCode::Succeeded,
        r2r::GoalStatus::Canceled => GoalStatusCode::Canceled,
        r2r::GoalStatus::Aborted => GoalStatusCode::Aborted,
        _ => GoalStatusCode::Unknown,
    }
}
