//! The recorded world kept in step, message by message in the bag's time order, through
//! the node's own guard: what the node would have known when each plan arrived.
//!
//! Soundness: a scene message that does not decode, or a bag that broke off, leaves the
//! scene marked incomplete (until a whole PlanningScene), so no plan after it is
//! certified free.
use super::message::{BagMessage, Payload, RecordedKind};
use crate::check::Report;
use crate::moveit::cdr::from_cdr;
use crate::moveit::guard::{Guard, GuardSettings, NoRobot, TrajectoryJob};
use crate::moveit::internal_error::contained;
use crate::moveit::msg;
use crate::moveit::prepared_check::{PreparedCheck, VerdictLabel};
use crate::moveit::scene_input::{SceneInput, TakeInError};
use std::sync::Arc;

/// A plan found in the bag, ready to check against the world at its receive time.
pub struct RecordedPlan {
    pub topic: Arc<str>,
    /// The bag's receive time, ns.
    pub log_time: u64,
    pub check: PreparedCheck,
}

/// Why the world before the bag cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error(transparent)]
    NoRobot(#[from] NoRobot),
    /// The scene given as a MoveIt message could not be taken in whole.
    #[error("scene: {0}")]
    Scene(TakeInError),
}

/// The replayed world.
pub struct Replay {
    guard: Guard,
}

impl Replay {
    /// The world of the settings' robot and scene file, and of `scene` (a scene given as
    /// a MoveIt message), before the bag's first message.
    pub fn new(settings: GuardSettings, scene: Option<&msg::PlanningScene>) -> Result<Self, ReplayError> {
        let mut settings = settings;
        // The audit checks plans; the recorded joint states are start states only.
        settings.check_current_state = false;
        let mut guard = Guard::new(settings);
        guard.scene()?;
        if let Some(scene) = scene {
            // What the node would reject (and not certify around) is an error here.
            guard.take_in(SceneInput::PlanningScene(scene)).map_err(ReplayError::Scene)?;
        }
        Ok(Self { guard })
    }

    /// Takes in one message: a plan comes back prepared against the world as it stands;
    /// anything else changes the world.
    pub fn take(&mut self, message: BagMessage) -> Option<RecordedPlan> {
        let topic = message.topic.clone();
        match message.kind {
            RecordedKind::DisplayTrajectory => Some(self.plan(message, |m: msg::DisplayTrajectory, t| TrajectoryJob::from_display_trajectory(t, m))),
            RecordedKind::JointTrajectory => Some(self.plan(message, |m: msg::JointTrajectory, t| TrajectoryJob::from_joint_trajectory(t, m))),
            RecordedKind::PlanningScene => {
                self.take_in(&topic, decode::<msg::PlanningScene>(&message.data), |m| SceneInput::PlanningScene(m));
                None
            }
            RecordedKind::CollisionObject => {
                self.take_in(&topic, decode::<msg::CollisionObject>(&message.data), |m| SceneInput::CollisionObject(m));
                None
            }
            RecordedKind::JointState => {
                match decode::<msg::JointState>(&message.data) {
                    Ok(state) => self.take_in_logged(&topic, SceneInput::JointState(&state)),
                    Err(e) => log::warn!("{topic}: a joint state that could not be read: {e}"),
                }
                None
            }
        }
    }

    /// What the rest of a damaged bag held is lost: nothing after it is certified free
    /// until a whole planning scene.
    pub fn mark_lost(&mut self, what: &str, why: &str) {
        self.guard.mark_scene_incomplete(what, why);
    }

    fn plan<M: serde::de::DeserializeOwned>(&mut self, message: BagMessage, job: impl FnOnce(M, &str) -> TrajectoryJob) -> RecordedPlan {
        let check = match decode::<M>(&message.data) {
            // As the node's worker: a failure inside (a panic) is this plan's `invalid`.
            Ok(decoded) => {
                let job = job(decoded, &message.topic);
                contained(&message.topic, || self.guard.prepare_check(&job)).unwrap_or_else(|internal| self.invalid_plan(&message.topic, internal.to_string()))
            }
            Err(e) => self.invalid_plan(&message.topic, format!("a message that could not be read: {e}")),
        };
        RecordedPlan { topic: message.topic, log_time: message.log_time, check }
    }

    /// A plan that cannot be checked (its message does not decode, or preparing it
    /// failed inside): `invalid`, saying why.
    fn invalid_plan(&self, topic: &str, why: String) -> PreparedCheck {
        let options = &self.guard.parameters().check;
        let report = Report::invalid(options.method.into(), options.tolerance, why);
        let label = VerdictLabel { source: topic.to_string(), stamp: msg::Time::default(), frame: String::new() };
        PreparedCheck::invalid(report, label)
    }

    fn take_in<M>(&mut self, topic: &str, decoded: Result<M, String>, input: impl for<'a> FnOnce(&'a M) -> SceneInput<'a>) {
        match decoded {
            Ok(message) => self.take_in_logged(topic, input(&message)),
            Err(why) => {
                self.guard.take_in_unreadable(topic, &why);
            }
        }
    }

    fn take_in_logged(&mut self, topic: &str, input: SceneInput) {
        if let Err(e) = self.guard.take_in(input) {
            log::warn!("{topic}: {e}");
        }
    }
}

/// A message of a type the audit reads, decoded; or why not.
fn decode<M: serde::de::DeserializeOwned>(payload: &Payload) -> Result<M, String> {
    match payload {
        Payload::Cdr(bytes) => from_cdr(bytes).map_err(|e| e.to_string()),
        Payload::Unreadable(why) => Err(why.clone()),
    }
}
