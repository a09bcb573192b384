//! The goal life cycle through its events alone: no transport, no worker, time given.
use super::*;

type Life = GoalLife<u32>;
type Commands = Vec<GoalCommand<u32>>;

fn life() -> Life {
    GoalLife::new(vec![("/ccd_guard/arm/follow_joint_trajectory".into(), "/arm/follow_joint_trajectory".into())])
}

fn id(n: u8) -> msg::Uuid {
    msg::Uuid { uuid: [n; 16] }
}

fn key(n: u8) -> GoalKey {
    GoalKey { controller: 0, goal_id: id(n) }
}

fn stamp(sec: i32) -> msg::Time {
    msg::Time { sec, nanosec: 0 }
}

/// A goal of two seconds' motion.
fn goal() -> Box<Goal> {
    let mut goal = Goal::default();
    goal.trajectory.points.push(msg::JointTrajectoryPoint { time_from_start: msg::Duration { sec: 2, nanosec: 0 }, ..Default::default() });
    Box::new(goal)
}

fn receive(life: &mut Life, n: u8, request: u32, now: Instant) -> Commands {
    let event = GoalEvent::GoalReceived { controller: 0, request, goal_id: id(n), goal: goal(), source: "gate".into(), stamp: stamp(n as i32) };
    life.handle(event, now)
}

/// The last statuses published, by goal.
fn statuses(commands: &Commands) -> Vec<(msg::Uuid, GoalStatusCode)> {
    let last = commands.iter().rev().find_map(|c| match c {
        GoalCommand::PublishStatuses { statuses, .. } => Some(statuses),
        _ => None,
    });
    last.expect("statuses published").iter().map(|s| (s.goal_info.goal_id, GoalStatusCode::from_code(s.status))).collect()
}

fn results(commands: &Commands) -> Vec<(u32, GoalStatusCode, i32)> {
    commands
        .iter()
        .filter_map(|c| match c {
            GoalCommand::SendResult { request, status, result, .. } => Some((*request, *status, result.error_code)),
            _ => None,
        })
        .collect()
}

fn worker(commands: &Commands) -> Vec<&GateWork> {
    commands
        .iter()
        .filter_map(|c| match c {
            GoalCommand::Worker(w) => Some(w.as_ref()),
            _ => None,
        })
        .collect()
}

/// A goal received, certified, forwarded and accepted by the controller at `now`.
fn running(life: &mut Life, n: u8, now: Instant) {
    receive(life, n, 100 + n as u32, now);
    life.handle(GoalEvent::Decided { key: key(n), decision: GateDecision::Forward }, now);
    life.handle(GoalEvent::ControllerAnswered { key: key(n), accepted: true }, now);
}

#[test]
fn a_goal_is_accepted_and_checked_then_forwarded_and_its_result_relayed() {
    let (mut life, t0) = (life(), Instant::now());
    let out = receive(&mut life, 1, 7, t0);
    assert!(matches!(out[0], GoalCommand::AnswerGoal { request: 7, accepted: true, .. }), "{out:?}");
    assert!(matches!(worker(&out)[..], [GateWork::Check(g)] if g.key == key(1)));
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Accepted)]);
    assert!(life.busy());

    // A result asked for early waits for the end.
    assert!(results(&life.handle(GoalEvent::ResultRequested { controller: 0, request: 8, goal_id: id(1) }, t0)).is_empty());
    let out = life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    assert!(matches!(&out[0], GoalCommand::Forward { key: k, .. } if *k == key(1)));
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Executing)]);

    let out = life.handle(GoalEvent::ControllerAnswered { key: key(1), accepted: true }, t0);
    assert!(matches!(out[0], GoalCommand::RequestResult { key: k } if k == key(1)));
    assert!(matches!(worker(&out)[..], [GateWork::Started { start, .. }] if *start == t0));

    let feedback = life.handle(GoalEvent::ControllerFeedback { controller: 0, goal_id: id(1), feedback: Box::default() }, t0);
    assert!(matches!(feedback[..], [GoalCommand::SendFeedback { goal_id, .. }] if goal_id == id(1)));

    let done = Outcome { error_code: Outcome::SUCCESSFUL, error_string: String::new() };
    let out = life.handle(GoalEvent::ControllerResult { key: key(1), status: GoalStatusCode::Succeeded, result: done }, t0);
    assert_eq!(results(&out), [(8, GoalStatusCode::Succeeded, 0)]);
    assert!(matches!(worker(&out)[..], [GateWork::Ended(k)] if *k == key(1)));
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Succeeded)]);
    assert!(!life.busy());
    // Feedback after the end is not relayed.
    assert!(life.handle(GoalEvent::ControllerFeedback { controller: 0, goal_id: id(1), feedback: Box::default() }, t0).is_empty());
}

#[test]
fn a_repeated_goal_id_is_rejected() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 7, t0);
    let out = receive(&mut life, 1, 9, t0);
    assert!(matches!(out[..], [GoalCommand::AnswerGoal { request: 9, accepted: false, .. }]), "{out:?}");
}

#[test]
fn a_refused_goal_ends_aborted_with_the_reason_and_preempts_the_running_one() {
    let (mut life, t0) = (life(), Instant::now());
    running(&mut life, 1, t0);
    receive(&mut life, 2, 20, t0);
    let refusal = Outcome { error_code: Outcome::INVALID_GOAL, error_string: "ccd_guard: collision".into() };
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 21, goal_id: id(2) }, t0);
    let out = life.handle(GoalEvent::Decided { key: key(2), decision: GateDecision::Refuse(refusal) }, t0);
    assert!(out.iter().any(|c| matches!(c, GoalCommand::CancelAtController { key: k } if *k == key(1))), "{out:?}");
    assert_eq!(results(&out), [(21, GoalStatusCode::Aborted, Outcome::INVALID_GOAL)]);
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Canceling), (id(2), GoalStatusCode::Aborted)]);
    // The running goal ends cancelled when the controller gives it back.
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 11, goal_id: id(1) }, t0);
    let aborted = Outcome { error_code: Outcome::SUCCESSFUL, error_string: String::new() };
    let out = life.handle(GoalEvent::ControllerResult { key: key(1), status: GoalStatusCode::Canceled, result: aborted }, t0);
    assert_eq!(results(&out), [(11, GoalStatusCode::Canceled, Outcome::SUCCESSFUL)]);
}

#[test]
fn a_newer_goal_supersedes_one_still_being_checked() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 11, goal_id: id(1) }, t0);
    let out = receive(&mut life, 2, 20, t0);
    let work = worker(&out);
    assert!(matches!(work[..], [GateWork::Withdrawn(k), GateWork::Check(g)] if *k == key(1) && g.key == key(2)), "{work:?}");
    assert_eq!(results(&out), [(11, GoalStatusCode::Canceled, Outcome::SUCCESSFUL)]);
    // The withdrawn goal's late decision changes nothing.
    assert!(life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0).is_empty());
}

#[test]
fn cancels_name_goals_by_id_or_stamp_and_answer_as_rcl_action_does() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    let unknown =
        life.handle(GoalEvent::CancelRequested { controller: 0, request: 1, goal_info: msg::GoalInfo { goal_id: id(9), stamp: msg::Time::default() } }, t0);
    assert!(matches!(&unknown[..], [GoalCommand::AnswerCancel { code: CancelCode::UnknownGoal, goals_canceling, .. }] if goals_canceling.is_empty()));

    // By stamp: every goal accepted at or before it (goal 1 was stamped 1 s).
    let out = life.handle(GoalEvent::CancelRequested { controller: 0, request: 2, goal_info: msg::GoalInfo { goal_id: id(0), stamp: stamp(1) } }, t0);
    assert!(matches!(&out[0], GoalCommand::AnswerCancel { request: 2, code: CancelCode::None, goals_canceling, .. } if goals_canceling.len() == 1));
    // Cancelled while it was checked: it ends at once and never reaches the controller.
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Canceled)]);
    assert!(life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0).is_empty());

    let again =
        life.handle(GoalEvent::CancelRequested { controller: 0, request: 3, goal_info: msg::GoalInfo { goal_id: id(1), stamp: msg::Time::default() } }, t0);
    assert!(matches!(&again[..], [GoalCommand::AnswerCancel { code: CancelCode::GoalTerminated, .. }]));
}

#[test]
fn a_goal_cancelled_while_forwarded_is_cancelled_at_the_controller_once_it_accepts() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    let cancel =
        life.handle(GoalEvent::CancelRequested { controller: 0, request: 2, goal_info: msg::GoalInfo { goal_id: id(1), stamp: msg::Time::default() } }, t0);
    assert_eq!(statuses(&cancel), [(id(1), GoalStatusCode::Canceling)]);
    let out = life.handle(GoalEvent::ControllerAnswered { key: key(1), accepted: true }, t0);
    assert!(out.iter().any(|c| matches!(c, GoalCommand::CancelAtController { key: k } if *k == key(1))), "{out:?}");
    let result = Outcome { error_code: Outcome::SUCCESSFUL, error_string: String::new() };
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 3, goal_id: id(1) }, t0);
    let out = life.handle(GoalEvent::ControllerResult { key: key(1), status: GoalStatusCode::Canceled, result }, t0);
    let ended: Vec<_> = results(&out);
    assert_eq!(ended, [(3, GoalStatusCode::Canceled, Outcome::SUCCESSFUL)]);
}

#[test]
fn a_stopped_goal_ends_aborted_as_a_path_tolerance_violation() {
    let (mut life, t0) = (life(), Instant::now());
    running(&mut life, 1, t0);
    let out = life.handle(GoalEvent::Stop { key: key(1), reason: "ccd_guard: collision at 0.4 s".into() }, t0);
    assert!(matches!(out[0], GoalCommand::CancelAtController { key: k } if k == key(1)));
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 5, goal_id: id(1) }, t0);
    // Whatever the controller says, the goal ends as the gate stopped it.
    let said = Outcome { error_code: Outcome::SUCCESSFUL, error_string: String::new() };
    let out = life.handle(GoalEvent::ControllerResult { key: key(1), status: GoalStatusCode::Canceled, result: said }, t0);
    assert_eq!(results(&out), [(5, GoalStatusCode::Aborted, Outcome::PATH_TOLERANCE_VIOLATED)]);
}

#[test]
fn a_controller_that_does_not_answer_or_finish_in_time_ends_the_goal_aborted() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    assert!(results(&life.handle(GoalEvent::Tick, t0 + CONTROLLER_ANSWER)).is_empty(), "not late yet");
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 3, goal_id: id(1) }, t0);
    let out = life.handle(GoalEvent::Tick, t0 + CONTROLLER_ANSWER + Duration::from_millis(1));
    assert_eq!(results(&out), [(3, GoalStatusCode::Aborted, Outcome::INVALID_GOAL)]);

    // Executing: two seconds of motion, then the grace.
    running(&mut life, 2, t0);
    let end = t0 + Duration::from_secs(2) + CONTROLLER_RESULT_GRACE;
    assert!(worker(&life.handle(GoalEvent::Tick, end)).is_empty(), "not late yet");
    let out = life.handle(GoalEvent::Tick, end + Duration::from_millis(1));
    assert!(matches!(worker(&out)[..], [GateWork::Ended(k)] if *k == key(2)));
    // The controller is asked to stop what the gate no longer watches.
    assert!(out.iter().any(|c| matches!(c, GoalCommand::CancelAtController { key: k } if *k == key(2))), "{out:?}");
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Aborted), (id(2), GoalStatusCode::Aborted)]);
}

#[test]
fn a_goal_the_queue_has_no_room_for_ends_aborted_as_busy() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 3, goal_id: id(1) }, t0);
    let out = life.handle(GoalEvent::QueueRefused { key: key(1) }, t0);
    assert_eq!(results(&out), [(3, GoalStatusCode::Aborted, Outcome::INVALID_GOAL)]);
    assert!(matches!(&out[0], GoalCommand::SendResult { result, .. } if result.error_string.contains("busy")));
}

#[test]
fn results_are_kept_a_while_for_late_requests_then_forgotten() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::QueueRefused { key: key(1) }, t0);
    let late = life.handle(GoalEvent::ResultRequested { controller: 0, request: 4, goal_id: id(1) }, t0 + RESULT_KEPT);
    assert_eq!(results(&late), [(4, GoalStatusCode::Aborted, Outcome::INVALID_GOAL)]);
    life.handle(GoalEvent::Tick, t0 + RESULT_KEPT + Duration::from_millis(1));
    let gone = life.handle(GoalEvent::ResultRequested { controller: 0, request: 5, goal_id: id(1) }, t0 + RESULT_KEPT);
    assert_eq!(results(&gone), [(5, GoalStatusCode::Unknown, Outcome::INVALID_GOAL)]);
}

#[test]
fn a_controller_that_rejects_a_certified_goal_ends_it_aborted() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 3, goal_id: id(1) }, t0);
    let out = life.handle(GoalEvent::ControllerAnswered { key: key(1), accepted: false }, t0);
    assert!(matches!(&out[0], GoalCommand::SendResult { result, .. } if result.error_string.contains("rejected")));
    let failed = life.handle(GoalEvent::ForwardFailed { key: key(1), why: "late".into() }, t0);
    assert!(failed.is_empty(), "an ended goal stays ended");
}

#[test]
fn a_stamp_in_the_future_delays_the_start() {
    assert_eq!(start_delay(msg::Time::default()), Duration::ZERO, "zero: now");
    let now = msg::Time::now();
    assert_eq!(start_delay(msg::Time { sec: now.sec - 10, ..now }), Duration::ZERO, "a past stamp starts now");
    let later = start_delay(msg::Time { sec: now.sec + 3, ..now });
    assert!(later > Duration::from_millis(2900) && later <= Duration::from_secs(3), "{later:?}");
}

#[test]
fn a_cancel_of_every_goal_ends_each_active_one() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    receive(&mut life, 2, 20, t0);
    let all = msg::GoalInfo { goal_id: msg::Uuid::default(), stamp: msg::Time::default() };
    let out = life.handle(GoalEvent::CancelRequested { controller: 0, request: 3, goal_info: all }, t0);
    assert!(matches!(&out[0], GoalCommand::AnswerCancel { code: CancelCode::None, goals_canceling, .. } if goals_canceling.len() == 2), "{out:?}");
    // Goal 2 was being checked: ended at once; goal 1 waits for its controller's answer.
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Canceling), (id(2), GoalStatusCode::Canceled)]);
    assert!(life.awaits_controller(&key(1)) && !life.awaits_controller(&key(2)));
}

#[test]
fn a_deadline_ends_a_goal_being_cancelled_as_cancelled() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    life.handle(GoalEvent::CancelRequested { controller: 0, request: 2, goal_info: msg::GoalInfo { goal_id: id(1), stamp: msg::Time::default() } }, t0);
    life.handle(GoalEvent::ResultRequested { controller: 0, request: 3, goal_id: id(1) }, t0);
    let out = life.handle(GoalEvent::Tick, t0 + CONTROLLER_ANSWER + Duration::from_millis(1));
    assert_eq!(results(&out), [(3, GoalStatusCode::Canceled, Outcome::SUCCESSFUL)]);
    assert!(!life.awaits_controller(&key(1)));
}

#[test]
fn a_refusal_preempts_a_goal_still_being_forwarded_once_its_controller_has_it() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    life.handle(GoalEvent::Decided { key: key(1), decision: GateDecision::Forward }, t0);
    receive(&mut life, 2, 20, t0);
    let refusal = Outcome { error_code: Outcome::INVALID_GOAL, error_string: "ccd_guard: collision".into() };
    let out = life.handle(GoalEvent::Decided { key: key(2), decision: GateDecision::Refuse(refusal) }, t0);
    assert!(!out.iter().any(|c| matches!(c, GoalCommand::CancelAtController { .. })), "the controller does not have it yet: {out:?}");
    assert_eq!(statuses(&out), [(id(1), GoalStatusCode::Canceling), (id(2), GoalStatusCode::Aborted)]);
    let out = life.handle(GoalEvent::ControllerAnswered { key: key(1), accepted: true }, t0);
    assert!(out.iter().any(|c| matches!(c, GoalCommand::CancelAtController { key: k } if *k == key(1))), "{out:?}");
}

#[test]
fn events_outside_their_stage_change_nothing() {
    let (mut life, t0) = (life(), Instant::now());
    receive(&mut life, 1, 10, t0);
    let done = Outcome { error_code: Outcome::SUCCESSFUL, error_string: String::new() };
    assert!(life.handle(GoalEvent::ControllerResult { key: key(1), status: GoalStatusCode::Succeeded, result: done }, t0).is_empty());
    assert!(life.handle(GoalEvent::ControllerAnswered { key: key(1), accepted: true }, t0).is_empty());
    assert!(life.handle(GoalEvent::ForwardFailed { key: key(1), why: "no".into() }, t0).is_empty());
    running(&mut life, 2, t0);
    assert!(life.handle(GoalEvent::QueueRefused { key: key(2) }, t0).is_empty());
    // Feedback names a goal of this controller only.
    let elsewhere = GoalEvent::ControllerFeedback { controller: 1, goal_id: id(2), feedback: Box::default() };
    assert!(life.handle(elsewhere, t0).is_empty());
    // A repeated id of a goal already ended is still rejected.
    life.handle(GoalEvent::QueueRefused { key: key(1) }, t0);
    let out = receive(&mut life, 1, 11, t0);
    assert!(matches!(out[..], [GoalCommand::AnswerGoal { request: 11, accepted: false, .. }]), "{out:?}");
}

#[test]
fn goal_ids_print_as_ros_tools_print_them() {
    assert_eq!(id(0xab).to_string(), "ab".repeat(16));
}
