//! The gate's decision on a goal, apart from any transport: the motion the controller
//! will run (from the latest `joint_states`, with its interpolation), the certified
//! check of it, and the reason a refused goal is given. Also the re-check of what is
//! left of an executing goal when the scene changes.
use super::super::convert;
use super::super::guard::{CheckResult, Guard, GuardError};
use super::super::markers::contact_markers;
use super::super::msg::{self, FollowJointTrajectoryGoal, FollowJointTrajectoryResult};
use crate::check::{CheckInput, CheckOptions, Method, Report, Verdict, check_trajectory};
use crate::error::InputError;
use crate::motion::{Trajectory, TrajectoryPoint};

/// Why a goal cannot be gated: it is refused as invalid (or, running, stopped).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum GoalError {
    #[error("multi-DOF trajectories are not supported (joints {0:?})")]
    MultiDof(Vec<String>),
    #[error(transparent)]
    Trajectory(InputError),
    /// A joint the robot lacks (`joints`: the robot's joint variables).
    #[error("unknown joint '{joint}' (robot '{robot}' has {joints:?})")]
    UnknownJoint { joint: String, robot: String, joints: Vec<String> },
    #[error("no joint_states value of '{0}' yet (the gate starts a goal from the measured state)")]
    NotMeasured(String),
    /// The goal's first point is further than `gate_start_tolerance` from the measured state.
    #[error("the first point is {gap:.4} from the current state at '{joint}' ({planned:.4} planned, {measured:.4} measured; gate_start_tolerance {tolerance})")]
    StartGap { joint: String, gap: f64, planned: f64, measured: f64, tolerance: f64 },
    #[error(transparent)]
    Guard(#[from] GuardError),
}

/// A goal's identity: the gated controller (its index in `gate_controllers`) and the
/// client's goal id.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GoalKey {
    pub controller: usize,
    pub goal_id: msg::Uuid,
}

/// A goal for the worker to check.
#[derive(Clone, Debug)]
pub struct GateGoal {
    pub key: GoalKey,
    /// The action's name, the verdict's `source`.
    pub source: String,
    pub goal: FollowJointTrajectoryGoal,
}

/// How the gate is configured (the node's `gate_*` parameters).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GateOptions {
    /// Largest distance (rad or m, per joint) of the goal's first point from the latest
    /// `joint_states` (MoveIt's `allowed_start_tolerance`).
    pub start_tolerance: f64,
    /// Proven clearance a forwarded motion must keep (m); 0: only collision-free.
    pub min_clearance: f64,
    /// Seconds between re-checks of a running goal besides those on scene changes
    /// (0: on scene changes only).
    pub recheck_period: f64,
}

impl Default for GateOptions {
    fn default() -> Self {
        Self { start_tolerance: 0.01, min_clearance: 0.0, recheck_period: 0.5 }
    }
}

/// What the gate does with a goal.
#[derive(Clone, Debug, PartialEq)]
pub enum GateDecision {
    /// Certified collision-free (with the required clearance): forward it.
    Forward,
    /// Accept, then abort with this result (`error_code`, and an `error_string` that
    /// starts with `ccd_guard:`).
    Refuse(FollowJointTrajectoryResult),
}

/// A goal checked: the decision, the verdict to publish and the markers.
pub struct GoalVerdict {
    pub decision: GateDecision,
    pub result: CheckResult,
}

/// A first point at time 0 is where the controller starts at once: the checked motion
/// gets this long (seconds) to come from the current state to it, so the path between
/// the two is checked too.
const START_APPROACH: f64 = 1e-3;

/// The motion the controller will run for `trajectory`, as a trajectory from `current`
/// (the latest measured values of its joints): the current state first, then the goal's
/// points, delayed by `START_APPROACH` when the first one is at time 0. Velocities and
/// accelerations of the added point are zero when the goal has them (the robot at rest;
/// the segment interpolates as the goal's do). Returns the delay too.
pub fn controller_motion(trajectory: &Trajectory, current: &[f64]) -> (Trajectory, f64) {
    let first = &trajectory.points[0];
    let delay = if first.time_from_start > 0.0 { 0.0 } else { START_APPROACH };
    let zeros = vec![0.0; current.len()];
    let start = TrajectoryPoint {
        positions: current.to_vec(),
        velocities: first.velocities.as_ref().map(|_| zeros.clone()),
        accelerations: first.accelerations.as_ref().map(|_| zeros),
        time_from_start: 0.0,
    };
    let mut points = vec![start];
    points.extend(trajectory.points.iter().map(|p| TrajectoryPoint { time_from_start: p.time_from_start + delay, ..p.clone() }));
    (Trajectory { joint_names: trajectory.joint_names.clone(), points }, delay)
}

/// The reason a goal is refused, from its report: `ccd_guard:`, the verdict, then the
/// pair, time and depth of a collision, the unproven pair of an uncertain verdict, the
/// error of an invalid one, or the clearance it lacks.
pub fn refusal_reason(report: &Report, min_clearance: f64) -> String {
    let mm = |m: f64| format!("{:.1} mm", m * 1e3);
    match report.verdict {
        Verdict::Collision => match report.contacts.first() {
            Some(c) => {
                let depth = c.max_penetration_depth.or(report.max_penetration_depth).map_or("depth unknown".to_string(), |d| format!("depth {}", mm(d)));
                let p = c.point;
                format!(
                    "ccd_guard: collision: {} touches {} at t={:.4} s, at [{:.3}, {:.3}, {:.3}], {depth}",
                    c.link, c.other, c.time_of_contact, p[0], p[1], p[2]
                )
            }
            None => "ccd_guard: collision".to_string(),
        },
        Verdict::Uncertain => match (&report.unproven, &report.error) {
            (_, Some(error)) => format!("ccd_guard: uncertain: {error}"),
            (Some(u), None) => format!(
                "ccd_guard: uncertain: {} and {} are not proven apart between t={:.4} s and t={:.4} s (they come within the tolerance {})",
                u.link,
                u.other,
                u.from,
                u.to,
                mm(report.tolerance)
            ),
            (None, None) => "ccd_guard: uncertain: the motion is not proven collision-free".to_string(),
        },
        Verdict::Invalid => format!("ccd_guard: invalid: {}", report.error.as_deref().unwrap_or("the goal cannot be checked")),
        Verdict::CollisionFree => {
            let proven = report.proven_clearance().unwrap_or(0.0);
            let at = report.closest_approach.as_ref().map_or(String::new(), |c| format!(" ({} to {} at t={:.4} s)", c.link, c.other, c.time));
            format!(
                "ccd_guard: clearance: the proven clearance {}{at} is {} below gate_min_clearance {}",
                mm(proven),
                mm(min_clearance - proven),
                mm(min_clearance)
            )
        }
    }
}

/// A refusal with `error_code` and the reason.
fn refused(error_code: i32, error_string: String) -> GateDecision {
    GateDecision::Refuse(FollowJointTrajectoryResult { error_code, error_string })
}

impl Guard {
    /// Checks a gated goal: forward it only when the motion the controller will run is
    /// certified collision-free (and keeps `gate_min_clearance`).
    pub fn check_goal(&mut self, gate: &GateGoal, options: &GateOptions) -> GoalVerdict {
        let stamp = gate.goal.trajectory.header.stamp;
        let invalid = |guard: &Self, error: GoalError| {
            let report = Report::invalid(Method::Certified.into(), guard.parameters().check.tolerance, error.to_string());
            let reason = refusal_reason(&report, options.min_clearance);
            log::warn!("{}: goal refused: {reason}", gate.source);
            GoalVerdict {
                decision: refused(FollowJointTrajectoryResult::INVALID_GOAL, reason),
                result: CheckResult { verdict: guard.verdict_message(&report, &gate.source, stamp), markers: None },
            }
        };
        let input = match self.goal_input(&gate.goal, options) {
            Ok(input) => input,
            Err(error) => return invalid(self, error),
        };
        let (report, markers) = self.certify(&input, options, true);
        let decision = match report.clearance_ok {
            Some(true) => GateDecision::Forward,
            _ => refused(FollowJointTrajectoryResult::INVALID_GOAL, refusal_reason(&report, options.min_clearance)),
        };
        match &decision {
            GateDecision::Forward => log::info!("{}: goal certified collision-free ({:.1} ms); forwarded", gate.source, report.elapsed_ms),
            GateDecision::Refuse(r) => log::warn!("{}: goal refused: {}", gate.source, r.error_string),
        }
        GoalVerdict { decision, result: CheckResult { verdict: self.verdict_message(&report, &gate.source, stamp), markers } }
    }

    /// The rest of an executing goal, `elapsed` seconds after its start (its delay
    /// included), from where the robot is now: `None` while it is still certified free
    /// (or nothing is left of it), else the reason to stop it.
    pub fn recheck_execution(&mut self, gate: &GateGoal, elapsed: f64, options: &GateOptions) -> Option<String> {
        let rest = match self.remaining_input(&gate.goal, elapsed) {
            Ok(Some(input)) => input,
            Ok(None) => return None,
            Err(error) => return Some(format!("ccd_guard: the rest of the motion cannot be checked: {error}")),
        };
        let (report, _) = self.certify(&rest, options, false);
        match report.clearance_ok {
            Some(true) => None,
            _ => Some(format!("{} (re-checked {elapsed:.3} s into the motion, times from there)", refusal_reason(&report, options.min_clearance))),
        }
    }

    /// The certified check of a gated motion, its first contact only; a colliding one is
    /// then checked whole, for the depth its refusal names. Held to the required
    /// clearance, and `uncertain` while part of the scene is missing.
    fn certify(&mut self, input: &CheckInput, options: &GateOptions, with_markers: bool) -> (Report, Option<msg::MarkerArray>) {
        let check = CheckOptions { method: Method::Certified, first_only: true, min_clearance: Some(options.min_clearance), ..self.parameters().check };
        let mut report = check_trajectory(input, &check).report;
        if report.verdict == Verdict::Collision {
            let first_ms = report.elapsed_ms;
            report = check_trajectory(input, &CheckOptions { first_only: false, ..check }).report;
            report.elapsed_ms += first_ms;
        }
        // Held to the clearance again: the verdict may have changed.
        self.distrust_incomplete_scene(&mut report);
        report.require_clearance(options.min_clearance);
        let markers = (with_markers && self.parameters().publish_markers).then(|| contact_markers(input, &report, self.planning_frame()));
        (report, markers)
    }

    /// The goal's motion from the latest `joint_states`, or why it cannot be gated.
    fn goal_input(&mut self, goal: &FollowJointTrajectoryGoal, options: &GateOptions) -> Result<CheckInput, GoalError> {
        if !goal.multi_dof_trajectory.points.is_empty() {
            return Err(GoalError::MultiDof(goal.multi_dof_trajectory.joint_names.clone()));
        }
        let trajectory = convert::trajectory(&goal.trajectory).map_err(GoalError::Trajectory)?;
        let current = self.measured(&trajectory.joint_names)?;
        let first = &trajectory.points[0].positions;
        if let Some((k, gap)) = first.iter().zip(&current).map(|(a, b)| (a - b).abs()).enumerate().max_by(|a, b| a.1.total_cmp(&b.1))
            && gap > options.start_tolerance
        {
            return Err(GoalError::StartGap {
                joint: trajectory.joint_names[k].clone(),
                gap,
                planned: first[k],
                measured: current[k],
                tolerance: options.start_tolerance,
            });
        }
        let (motion, _) = controller_motion(&trajectory, &current);
        self.prepare_motion(&motion, None).map_err(GoalError::from)
    }

    /// What is left of the goal `elapsed` seconds after its start: from the current
    /// state through the points still ahead, at their times from now.
    fn remaining_input(&mut self, goal: &FollowJointTrajectoryGoal, elapsed: f64) -> Result<Option<CheckInput>, GoalError> {
        let trajectory = convert::trajectory(&goal.trajectory).map_err(GoalError::Trajectory)?;
        let current = self.measured(&trajectory.joint_names)?;
        let (motion, _) = controller_motion(&trajectory, &current);
        let mut ahead: Vec<TrajectoryPoint> = motion.points[1..].iter().filter(|p| p.time_from_start > elapsed).cloned().collect();
        if ahead.is_empty() {
            return Ok(None);
        }
        for p in &mut ahead {
            p.time_from_start -= elapsed.max(0.0);
        }
        let mut rest = Trajectory { joint_names: trajectory.joint_names.clone(), points: Vec::new() };
        rest.points.push(TrajectoryPoint { positions: current, ..motion.points[0].clone() });
        rest.points.extend(ahead);
        self.prepare_motion(&rest, None).map(Some).map_err(GoalError::from)
    }

    /// The latest `joint_states` values of `joints`, or which one has none yet.
    fn measured(&self, joints: &[String]) -> Result<Vec<f64>, GoalError> {
        let scene = self.scene().map_err(GuardError::from)?;
        joints
            .iter()
            .map(|j| match (scene.robot().joint_named(j), scene.measured_position(j)) {
                (None, _) => Err(GoalError::UnknownJoint {
                    joint: j.clone(),
                    robot: scene.robot().name.clone(),
                    joints: scene.robot().variable_names().map(|n| n.to_string()).collect(),
                }),
                (Some(_), None) => Err(GoalError::NotMeasured(j.clone())),
                (Some(_), Some(value)) => Ok(value),
            })
            .collect()
    }
}
