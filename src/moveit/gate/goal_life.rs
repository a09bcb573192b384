//! The gated goals' life cycle, apart from any transport: a state machine that takes the
//! events of the `FollowJointTrajectory` action protocol on both sides of the gate (the
//! client's goals, cancels and result requests; the controller's answers, feedback and
//! results; the worker's decisions; the passing of time) and answers each with the
//! commands a transport carries out ([`GoalCommand`]).
//!
//! It keeps rcl_action's goal state machine as the client sees it (ACCEPTED while the
//! goal is checked, EXECUTING once forwarded, CANCELING while the gate ends it, then
//! SUCCEEDED, CANCELED or ABORTED), results held for late `get_result` requests, cancel
//! requests by goal id or stamp, and the gate's own rules: a goal is forwarded only
//! when the worker certifies it ([`GateDecision::Forward`]); a newer goal supersedes the
//! same controller's goals still being checked and preempts its running one; a
//! controller that does not answer in time, or sends no result long after the motion's
//! planned end, ends the goal aborted.
//!
//! `R` is the transport's handle of a request it must answer (a goal, cancel or result
//! request); the state machine only hands it back.
use super::goal_check::{GateDecision, GateGoal, GoalKey};
use crate::moveit::msg::{self, FollowJointTrajectoryFeedback as Feedback, FollowJointTrajectoryGoal as Goal, FollowJointTrajectoryResult as Outcome};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// How long a controller may take to answer a forwarded goal before the gate gives up
/// on it (its action server is missing or gone).
pub const CONTROLLER_ANSWER: Duration = Duration::from_secs(5);
/// How long past its planned end (and its goal time tolerance) an executing goal may go
/// without a result from the controller.
pub const CONTROLLER_RESULT_GRACE: Duration = Duration::from_secs(10);
/// How long a finished goal's result waits for a late `get_result` request.
pub const RESULT_KEPT: Duration = Duration::from_secs(60);

/// A goal's status (`action_msgs/msg/GoalStatus`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
pub enum GoalStatusCode {
    Unknown = 0,
    Accepted = 1,
    Executing = 2,
    Canceling = 3,
    Succeeded = 4,
    Canceled = 5,
    Aborted = 6,
}

impl GoalStatusCode {
    /// The status of a `GoalStatus.status` value (`Unknown` for a value it does not name).
    pub fn from_code(code: i8) -> Self {
        match code {
            1 => Self::Accepted,
            2 => Self::Executing,
            3 => Self::Canceling,
            4 => Self::Succeeded,
            5 => Self::Canceled,
            6 => Self::Aborted,
            _ => Self::Unknown,
        }
    }
}

/// A cancel request's answer (`action_msgs/srv/CancelGoal_Response.return_code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i8)]
pub enum CancelCode {
    /// Every goal named is being cancelled.
    None = 0,
    UnknownGoal = 2,
    GoalTerminated = 3,
}

/// What happens to the gate's goals.
#[derive(Debug)]
pub enum GoalEvent<R> {
    /// A client sent a goal to the gated controller `controller`'s action (`stamp`: now,
    /// as the goal's acceptance time).
    GoalReceived { controller: usize, request: R, goal_id: msg::Uuid, goal: Box<Goal>, source: String, stamp: msg::Time },
    /// The worker decided on a goal.
    Decided { key: GoalKey, decision: GateDecision },
    /// A re-check no longer certifies what is left of a running goal.
    Stop { key: GoalKey, reason: String },
    /// A client asks to cancel goals (a zero id: every goal; a non-zero stamp: also every
    /// goal accepted at or before it).
    CancelRequested { controller: usize, request: R, goal_info: msg::GoalInfo },
    /// A client asks for a goal's result.
    ResultRequested { controller: usize, request: R, goal_id: msg::Uuid },
    /// The worker's queue had no room for a goal's check.
    QueueRefused { key: GoalKey },
    /// A forwarded goal could not be sent to the controller (`why` says so).
    ForwardFailed { key: GoalKey, why: String },
    /// The controller accepted or rejected a forwarded goal.
    ControllerAnswered { key: GoalKey, accepted: bool },
    /// The controller's result of a goal.
    ControllerResult { key: GoalKey, status: GoalStatusCode, result: Outcome },
    /// The controller's feedback on the goal `goal_id`.
    ControllerFeedback { controller: usize, goal_id: msg::Uuid, feedback: Box<Feedback> },
    /// Time passes: deadlines, and old results forgotten.
    Tick,
}

/// What the worker is handed.
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

/// What a transport does, in order.
#[derive(Debug)]
pub enum GoalCommand<R> {
    /// Answer a client's goal request.
    AnswerGoal { controller: usize, request: R, accepted: bool, stamp: msg::Time },
    /// Hand work to the worker.
    Worker(Box<GateWork>),
    /// Send the goal to the controller under the client's goal id (one id from MoveIt to
    /// the controller); answer with [`GoalEvent::ControllerAnswered`], or
    /// [`GoalEvent::ForwardFailed`] when it cannot be sent.
    Forward { key: GoalKey, goal: Box<Goal> },
    /// Ask the controller for the result of the goal it accepted; answer with
    /// [`GoalEvent::ControllerResult`].
    RequestResult { key: GoalKey },
    /// Ask the controller to cancel the goal.
    CancelAtController { key: GoalKey },
    /// Answer a client's result request.
    SendResult { controller: usize, request: R, status: GoalStatusCode, result: Outcome },
    /// Answer a client's cancel request.
    AnswerCancel { controller: usize, request: R, code: CancelCode, goals_canceling: Vec<msg::GoalInfo> },
    /// Relay the controller's feedback to the client.
    SendFeedback { controller: usize, goal_id: msg::Uuid, feedback: Box<Feedback> },
    /// Publish the statuses of every goal the controller's gate action keeps.
    PublishStatuses { controller: usize, statuses: Vec<msg::GoalStatus> },
}

/// Where a goal is.
#[derive(Debug)]
enum Stage {
    /// Accepted; the worker checks it.
    Checking,
    /// Sent to the controller; its answer awaited since `since`.
    Forwarding { since: Instant },
    /// The controller runs it; its result is expected by `deadline` on the steady clock
    /// and by `ros_deadline` on the ROS clock (with `use_sim_time`, a simulation slower
    /// than real time still runs it).
    Executing { deadline: Instant, ros_deadline: msg::Time },
    /// Ended (`ended` for how long its result is kept).
    Done { status: GoalStatusCode, outcome: Outcome, ended: Instant },
}

#[derive(Debug)]
struct GoalEntry<R> {
    gate: GateGoal,
    info: msg::GoalInfo,
    stage: Stage,
    /// `get_result` requests waiting for the end.
    waiting: Vec<R>,
    /// Set when the goal must end as this (a client's cancel, a failed re-check) once
    /// the controller has let go of it.
    ending: Option<(GoalStatusCode, Outcome)>,
}

impl<R> GoalEntry<R> {
    fn status(&self) -> GoalStatusCode {
        match (&self.stage, &self.ending) {
            (Stage::Done { status, .. }, _) => *status,
            (_, Some(_)) => GoalStatusCode::Canceling,
            (Stage::Checking, None) => GoalStatusCode::Accepted,
            (Stage::Forwarding { .. } | Stage::Executing { .. }, None) => GoalStatusCode::Executing,
        }
    }

    fn is_active(&self) -> bool {
        !matches!(self.stage, Stage::Done { .. })
    }
}

fn outcome(error_code: i32, error_string: impl Into<String>) -> Outcome {
    Outcome { error_code, error_string: error_string.into() }
}

/// A stamp in nanoseconds, for ordering.
fn nanos(t: msg::Time) -> i64 {
    t.sec as i64 * 1_000_000_000 + t.nanosec as i64
}

/// Every gated goal, by controller and client goal id.
#[derive(Debug)]
pub struct GoalLife<R> {
    /// Each gated controller's action (for the log and the refusal reasons): the gate's
    /// own and the controller's.
    actions: Vec<(String, String)>,
    goals: BTreeMap<GoalKey, GoalEntry<R>>,
}

impl<R: std::fmt::Debug> GoalLife<R> {
    /// The life cycle of goals for the gated controllers, each given as `(gate action,
    /// controller action)`.
    pub fn new(actions: Vec<(String, String)>) -> Self {
        Self { actions, goals: BTreeMap::new() }
    }

    /// Whether a goal is under way (the transport then polls the controllers often).
    pub fn busy(&self) -> bool {
        self.goals.values().any(GoalEntry::is_active)
    }

    /// Whether the goal waits on its controller (forwarded, or running): the transport
    /// keeps the requests it made for it until then.
    pub fn awaits_controller(&self, key: &GoalKey) -> bool {
        self.goals.get(key).is_some_and(|e| matches!(e.stage, Stage::Forwarding { .. } | Stage::Executing { .. }))
    }

    /// Takes `event` at `now` and carries out what it answers, in order, through
    /// `carry_out`; an event that carrying out a command raises (a goal that could not be
    /// sent) is taken after the rest of the answer, so that what a transport publishes
    /// last is the goal's latest state.
    pub fn drive(&mut self, event: GoalEvent<R>, now: Instant, mut carry_out: impl FnMut(GoalCommand<R>) -> Option<GoalEvent<R>>) {
        let mut pending = std::collections::VecDeque::from([event]);
        while let Some(event) = pending.pop_front() {
            for command in self.handle(event, now) {
                pending.extend(carry_out(command));
            }
        }
    }

    /// Takes one event at `now`; returns what the transport must do, in order.
    pub fn handle(&mut self, event: GoalEvent<R>, now: Instant) -> Vec<GoalCommand<R>> {
        let mut out = Vec::new();
        match event {
            GoalEvent::GoalReceived { controller, request, goal_id, goal, source, stamp } => {
                self.receive_goal(GateGoal { key: GoalKey { controller, goal_id }, source, goal: *goal }, request, stamp, now, &mut out)
            }
            GoalEvent::Decided { key, decision } => self.decided(key, decision, now, &mut out),
            GoalEvent::Stop { key, reason } => self.stop(key, reason, now, &mut out),
            GoalEvent::CancelRequested { controller, request, goal_info } => self.cancel(controller, request, goal_info, now, &mut out),
            GoalEvent::ResultRequested { controller, request, goal_id } => self.result_requested(controller, request, goal_id, &mut out),
            GoalEvent::QueueRefused { key } => {
                if self.goals.get(&key).is_some_and(|e| matches!(e.stage, Stage::Checking)) {
                    let why = outcome(Outcome::INVALID_GOAL, "ccd_guard: busy: too many goals wait to be checked");
                    self.finish(key, GoalStatusCode::Aborted, why, now, &mut out);
                }
            }
            GoalEvent::ForwardFailed { key, why } => {
                if self.goals.get(&key).is_some_and(|e| matches!(e.stage, Stage::Forwarding { .. })) {
                    self.finish(key, GoalStatusCode::Aborted, outcome(Outcome::INVALID_GOAL, why), now, &mut out);
                }
            }
            GoalEvent::ControllerAnswered { key, accepted } => self.controller_answered(key, accepted, now, &mut out),
            GoalEvent::ControllerResult { key, status, result } => {
                if self.goals.get(&key).is_some_and(|e| matches!(e.stage, Stage::Executing { .. })) {
                    // The controller's own result, unless the gate ended the goal (cancel, re-check).
                    let (status, result) = self.ending_or(key, status, result);
                    self.finish(key, status, result, now, &mut out);
                }
            }
            GoalEvent::ControllerFeedback { controller, goal_id, feedback } => {
                let key = GoalKey { controller, goal_id };
                if self.goals.get(&key).is_some_and(|e| matches!(e.stage, Stage::Executing { .. })) {
                    out.push(GoalCommand::SendFeedback { controller, goal_id, feedback });
                }
            }
            GoalEvent::Tick => {
                self.check_deadlines(now, &mut out);
                self.goals.retain(|_, e| !matches!(e.stage, Stage::Done { ended, .. } if now.saturating_duration_since(ended) > RESULT_KEPT));
            }
        }
        out
    }

    /// The goal's pending ending (a cancel, a failed re-check), taken; else the one given.
    fn ending_or(&mut self, key: GoalKey, status: GoalStatusCode, result: Outcome) -> (GoalStatusCode, Outcome) {
        self.goals.get_mut(&key).and_then(|e| e.ending.take()).unwrap_or((status, result))
    }

    fn receive_goal(&mut self, gate: GateGoal, request: R, stamp: msg::Time, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let key = gate.key;
        let action = &self.actions[key.controller].0;
        if self.goals.contains_key(&key) {
            // A repeated id: rcl_action rejects it.
            log::warn!("{action}: goal {} sent twice; rejected", key.goal_id);
            out.push(GoalCommand::AnswerGoal { controller: key.controller, request, accepted: false, stamp });
            return;
        }
        out.push(GoalCommand::AnswerGoal { controller: key.controller, request, accepted: true, stamp });
        log::info!("{action}: goal {} ({} points) accepted for checking", key.goal_id, gate.goal.trajectory.points.len());
        self.supersede_undecided(key, now, out);
        let info = msg::GoalInfo { goal_id: key.goal_id, stamp };
        self.goals.insert(key, GoalEntry { gate: gate.clone(), info, stage: Stage::Checking, waiting: Vec::new(), ending: None });
        out.push(GoalCommand::Worker(Box::new(GateWork::Check(gate))));
        self.publish_statuses(key.controller, out);
    }

    /// A new goal for a controller supersedes that controller's goals still waiting for
    /// their decision: whatever the new one's verdict, they would be preempted when it is
    /// decided (by the controller, or by [`Self::decided`]), so they end now, cancelled as
    /// preempted, and their checks are taken back. A burst of goals thus costs one check
    /// each for the first and the newest, and never fills the worker's queue; a goal
    /// already forwarded keeps running until the newer one is decided.
    fn supersede_undecided(&mut self, newer: GoalKey, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let undecided: Vec<GoalKey> =
            self.goals.iter().filter(|(k, e)| k.controller == newer.controller && matches!(e.stage, Stage::Checking)).map(|(k, _)| *k).collect();
        for key in undecided {
            out.push(GoalCommand::Worker(Box::new(GateWork::Withdrawn(key))));
            let preempted = outcome(Outcome::SUCCESSFUL, "ccd_guard: preempted by a newer goal before it was checked");
            self.finish(key, GoalStatusCode::Canceled, preempted, now, out);
        }
    }

    /// The worker's decision on a goal: forward it to the controller, or abort it.
    fn decided(&mut self, key: GoalKey, decision: GateDecision, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        if !matches!(entry.stage, Stage::Checking) {
            return;
        }
        if let Some((status, result)) = entry.ending.take() {
            // Cancelled while it was checked: it never reaches the controller.
            self.finish(key, status, result, now, out);
            return;
        }
        match decision {
            GateDecision::Refuse(result) => {
                // A newer goal preempts the running one, as in the controller; a refused
                // one leaves the robot holding where it is.
                self.preempt_others(key, "ccd_guard: preempted by a newer goal, which the gate refused", now, out);
                self.finish(key, GoalStatusCode::Aborted, result, now, out);
            }
            GateDecision::Forward => {
                entry.stage = Stage::Forwarding { since: now };
                out.push(GoalCommand::Forward { key, goal: Box::new(entry.gate.goal.clone()) });
                // The controller preempts the running goal itself; its result is relayed.
                self.publish_statuses(key.controller, out);
            }
        }
    }

    /// Stops a running goal that a re-check no longer certifies: the controller's goal
    /// is cancelled, and the client's ends aborted with `PATH_TOLERANCE_VIOLATED`.
    fn stop(&mut self, key: GoalKey, reason: String, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        if !entry.is_active() {
            return;
        }
        log::warn!("{}: stopping goal: {reason}", entry.gate.source);
        entry.ending = Some((GoalStatusCode::Aborted, outcome(Outcome::PATH_TOLERANCE_VIOLATED, reason)));
        self.let_go(key, now, out);
    }

    /// Ends the goal as it is meant to end (`entry.ending`): at once where the controller
    /// does not have it, else after cancelling it there (when its result comes back).
    fn let_go(&mut self, key: GoalKey, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        match entry.stage {
            Stage::Executing { .. } => {
                out.push(GoalCommand::CancelAtController { key });
                self.publish_statuses(key.controller, out);
            }
            // Cancelled once the controller accepts it.
            Stage::Forwarding { .. } => self.publish_statuses(key.controller, out),
            Stage::Checking => {
                // The worker's answer will find it ended; nothing waits on the controller.
                self.publish_statuses(key.controller, out);
                if let Some((status, result)) = self.goals.get_mut(&key).and_then(|e| e.ending.take()) {
                    self.finish(key, status, result, now, out);
                }
            }
            Stage::Done { .. } => {}
        }
    }

    /// Preempts every other running goal of the same controller (see [`Self::decided`]).
    fn preempt_others(&mut self, key: GoalKey, reason: &str, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let others: Vec<GoalKey> =
            self.goals.iter().filter(|(k, e)| **k != key && k.controller == key.controller && e.is_active() && e.ending.is_none()).map(|(k, _)| *k).collect();
        for other in others {
            if let Some(entry) = self.goals.get_mut(&other) {
                entry.ending = Some((GoalStatusCode::Canceled, outcome(Outcome::SUCCESSFUL, reason)));
            }
            self.let_go(other, now, out);
        }
    }

    fn cancel(&mut self, controller: usize, request: R, info: msg::GoalInfo, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let all = info.goal_id == msg::Uuid::default();
        let before = (info.stamp != msg::Time::default()).then(|| nanos(info.stamp));
        let chosen: Vec<GoalKey> = self
            .goals
            .iter()
            .filter(|(key, e)| {
                key.controller == controller && ((all && before.is_none()) || key.goal_id == info.goal_id || before.is_some_and(|b| nanos(e.info.stamp) <= b))
            })
            .map(|(key, _)| *key)
            .collect();
        let canceling: Vec<GoalKey> = chosen.iter().copied().filter(|key| self.goals[key].is_active()).collect();
        let code = match (chosen.is_empty(), canceling.is_empty()) {
            (true, _) => CancelCode::UnknownGoal,
            (false, true) => CancelCode::GoalTerminated,
            (false, false) => CancelCode::None,
        };
        let goals_canceling = canceling.iter().map(|key| self.goals[key].info).collect();
        out.push(GoalCommand::AnswerCancel { controller, request, code, goals_canceling });
        for key in canceling {
            log::info!("{}: goal cancelled by its client", self.actions[controller].0);
            if let Some(entry) = self.goals.get_mut(&key)
                && entry.ending.is_none()
            {
                entry.ending = Some((GoalStatusCode::Canceled, outcome(Outcome::SUCCESSFUL, "ccd_guard: cancelled by the client")));
            }
            self.let_go(key, now, out);
        }
    }

    fn result_requested(&mut self, controller: usize, request: R, goal_id: msg::Uuid, out: &mut Vec<GoalCommand<R>>) {
        match self.goals.get_mut(&GoalKey { controller, goal_id }) {
            Some(GoalEntry { stage: Stage::Done { status, outcome, .. }, .. }) => {
                out.push(GoalCommand::SendResult { controller, request, status: *status, result: outcome.clone() })
            }
            Some(entry) => entry.waiting.push(request),
            None => {
                let result = outcome(Outcome::INVALID_GOAL, "ccd_guard: unknown goal");
                out.push(GoalCommand::SendResult { controller, request, status: GoalStatusCode::Unknown, result })
            }
        }
    }

    fn controller_answered(&mut self, key: GoalKey, accepted: bool, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        let Stage::Forwarding { .. } = entry.stage else { return };
        if !accepted {
            let why = format!("ccd_guard: the controller {} rejected the certified goal", self.actions[key.controller].1);
            let (status, result) = self.ending_or(key, GoalStatusCode::Aborted, outcome(Outcome::INVALID_GOAL, why));
            self.finish(key, status, result, now, out);
            return;
        }
        out.push(GoalCommand::RequestResult { key });
        let goal = &entry.gate.goal;
        let planned = goal.trajectory.points.last().map_or(0.0, |p| p.time_from_start.seconds()) + goal.goal_time_tolerance.seconds();
        let start = now + start_delay(goal.trajectory.header.stamp);
        let allowed = Duration::from_secs_f64(planned.clamp(0.0, 1e6)) + CONTROLLER_RESULT_GRACE;
        let deadline = start + allowed;
        let ros_deadline = crate::moveit::clock::later(msg::Time::now(), (deadline - now).as_secs_f64());
        entry.stage = Stage::Executing { deadline, ros_deadline };
        log::info!("{}: the controller runs goal {}", entry.gate.source, entry.info.goal_id);
        out.push(GoalCommand::Worker(Box::new(GateWork::Started { goal: entry.gate.clone(), start })));
        if entry.ending.is_some() {
            self.let_go(key, now, out);
        } else {
            self.publish_statuses(key.controller, out);
        }
    }

    /// Goals the controller does not answer in time (its action server is missing or gone).
    fn check_deadlines(&mut self, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let late: Vec<(GoalKey, String)> = self
            .goals
            .iter()
            .filter_map(|(key, e)| {
                let controller_action = &self.actions[key.controller].1;
                match e.stage {
                    Stage::Forwarding { since } if now.saturating_duration_since(since) > CONTROLLER_ANSWER => Some((
                        *key,
                        format!(
                            "ccd_guard: the controller's action {controller_action} did not answer within {} s (is the controller running?)",
                            CONTROLLER_ANSWER.as_secs()
                        ),
                    )),
                    Stage::Executing { deadline, ros_deadline } if now > deadline && ros_time_past(ros_deadline) => Some((
                        *key,
                        format!("ccd_guard: no result from the controller's action {controller_action} long after the motion's end (is the controller still running?)"),
                    )),
                    _ => None,
                }
            })
            .collect();
        for (key, why) in late {
            log::error!("{why}");
            // Whatever the controller does with the goal now, the gate no longer watches
            // it: the controller is asked to stop.
            out.push(GoalCommand::CancelAtController { key });
            let (status, result) = self.ending_or(key, GoalStatusCode::Aborted, outcome(Outcome::INVALID_GOAL, why));
            self.finish(key, status, result, now, out);
        }
    }

    /// Ends a goal: its result to every waiting `get_result`, its status published.
    fn finish(&mut self, key: GoalKey, status: GoalStatusCode, result: Outcome, now: Instant, out: &mut Vec<GoalCommand<R>>) {
        let Some(entry) = self.goals.get_mut(&key) else { return };
        let was_running = matches!(entry.stage, Stage::Executing { .. });
        log::info!("{}: goal {} ends {status:?} ({}): {}", self.actions[key.controller].0, entry.info.goal_id, result.error_code, result.error_string);
        for request in entry.waiting.drain(..) {
            out.push(GoalCommand::SendResult { controller: key.controller, request, status, result: result.clone() });
        }
        entry.stage = Stage::Done { status, outcome: result, ended: now };
        entry.ending = None;
        if was_running {
            out.push(GoalCommand::Worker(Box::new(GateWork::Ended(key))));
        }
        self.publish_statuses(key.controller, out);
    }

    fn publish_statuses(&self, controller: usize, out: &mut Vec<GoalCommand<R>>) {
        let statuses = self
            .goals
            .iter()
            .filter(|(key, _)| key.controller == controller)
            .map(|(_, e)| msg::GoalStatus { goal_info: e.info, status: e.status() as i8 })
            .collect();
        out.push(GoalCommand::PublishStatuses { controller, statuses });
    }
}

/// Whether the ROS clock is past `time`; always, when it is the system clock (the
/// steady clock's deadline is then the one that counts).
fn ros_time_past(time: msg::Time) -> bool {
    !crate::moveit::clock::is_simulated() || crate::moveit::clock::seconds_between(time, msg::Time::now()) > 0.0
}

/// How long after now, on the ROS clock, a goal's `header.stamp` starts it (zero: now,
/// or a past stamp).
fn start_delay(stamp: msg::Time) -> Duration {
    if stamp == msg::Time::default() {
        return Duration::ZERO;
    }
    let ahead = crate::moveit::clock::seconds_between(msg::Time::now(), stamp);
    Duration::try_from_secs_f64(ahead).unwrap_or(Duration::ZERO)
}

#[cfg(test)]
mod tests;
