//! What changes the guard's scene, as the node hears it on its topics and the audit reads
//! it from a bag: one meaning for both, so that a plan audited from a recording gets the
//! verdict the node would have published live.
//!
//! Soundness: an input that fails inside (a panic: a bug of ours, met by some input) may
//! have left the scene half changed, so the part it was about counts as not taken in
//! (the object, or the whole scene) until it is taken in again.
use super::convert;
use super::guard::{Guard, GuardError};
use super::internal_error::{InternalError, contained};
use super::msg;

/// One message that changes the scene or the robot's measured state.
#[derive(Clone, Copy, Debug)]
pub enum SceneInput<'a> {
    RobotDescription(&'a str),
    CollisionObject(&'a msg::CollisionObject),
    PlanningScene(&'a msg::PlanningScene),
    JointState(&'a msg::JointState),
}

impl SceneInput<'_> {
    /// The node's topic that carries it.
    pub fn topic(&self) -> &'static str {
        match self {
            SceneInput::RobotDescription(_) => "robot_description",
            SceneInput::CollisionObject(_) => "collision_object",
            SceneInput::PlanningScene(_) => "monitored_planning_scene",
            SceneInput::JointState(_) => "joint_states",
        }
    }

    /// Whether it changes the world (a joint state only moves the robot).
    pub fn changes_world(&self) -> bool {
        !matches!(self, SceneInput::JointState(_))
    }
}

/// Why an input was not taken in: the guard refused it, or it failed inside.
#[derive(Debug, thiserror::Error)]
pub enum TakeInError {
    #[error(transparent)]
    Refused(#[from] GuardError),
    #[error(transparent)]
    Internal(#[from] InternalError),
}

impl Guard {
    /// Takes in one input: `Ok(Some(verdict))` when a joint state starts or stops a
    /// collision of the current configuration (`check_current_state`).
    pub fn take_in(&mut self, input: SceneInput) -> Result<Option<msg::CollisionVerdict>, TakeInError> {
        let what = input.topic();
        let outcome = contained(what, || match input {
            SceneInput::RobotDescription(text) => self.set_robot_description(text).map(|()| None).map_err(GuardError::from),
            SceneInput::CollisionObject(object) => self.apply_collision_object(object).map(|()| None),
            SceneInput::PlanningScene(scene) => self.apply_planning_scene(scene).map(|()| None),
            SceneInput::JointState(state) => self.update_joint_states(state),
        });
        match outcome {
            Ok(result) => Ok(result?),
            Err(internal) => {
                match input {
                    SceneInput::RobotDescription(_) => self.lose_scene(internal.clone()),
                    SceneInput::CollisionObject(object) => self.reject_scene_part(&object.id, &internal.to_string()),
                    SceneInput::PlanningScene(_) => self.mark_scene_incomplete(what, &internal.to_string()),
                    SceneInput::JointState(_) => {}
                }
                Err(internal.into())
            }
        }
    }

    /// A scene message on `topic` that could not be read: the scene lacks what it said
    /// (until a whole planning scene), and the `invalid` verdict that says so.
    pub fn take_in_unreadable(&mut self, topic: &str, why: &str) -> msg::CollisionVerdict {
        log::warn!("{topic}: {why}");
        self.mark_scene_incomplete(topic, &format!("a message that could not be read: {why}"));
        convert::invalid_verdict(topic, &self.parameters().check, why)
    }
}
