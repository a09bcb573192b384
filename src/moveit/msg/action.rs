//! `action_msgs` and `unique_identifier_msgs`: the parts of the ROS 2 action protocol
//! that the gate reads itself. (The protocol's wrappers, `SendGoal`, `GetResult` and the
//! feedback message, are ros2-client's; the codec table lists them too, so that the CDR
//! test covers what goes on the wire.)
use super::std::Time;
use serde::{Deserialize, Serialize};

/// `unique_identifier_msgs/msg/UUID`: a goal's id.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(default)]
pub struct Uuid {
    pub uuid: [u8; 16],
}

/// 32 hexadecimal digits, as ROS tools print a goal id.
impl std::fmt::Display for Uuid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.uuid.iter().try_for_each(|byte| write!(f, "{byte:02x}"))
    }
}

/// `action_msgs/msg/GoalInfo`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GoalInfo {
    pub goal_id: Uuid,
    pub stamp: Time,
}

/// `action_msgs/msg/GoalStatus`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GoalStatus {
    pub goal_info: GoalInfo,
    /// `STATUS_UNKNOWN` 0, `ACCEPTED` 1, `EXECUTING` 2, `CANCELING` 3, `SUCCEEDED` 4,
    /// `CANCELED` 5, `ABORTED` 6.
    pub status: i8,
}

/// `action_msgs/msg/GoalStatusArray`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GoalStatusArray {
    pub status_list: Vec<GoalStatus>,
}

/// `action_msgs/srv/CancelGoal_Request`: the goal to cancel (a zero id: every goal;
/// a non-zero stamp: also every goal accepted at or before it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CancelGoalRequest {
    pub goal_info: GoalInfo,
}

/// `action_msgs/srv/CancelGoal_Response`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CancelGoalResponse {
    /// `ERROR_NONE` 0, `ERROR_REJECTED` 1, `ERROR_UNKNOWN_GOAL_ID` 2, `ERROR_GOAL_TERMINATED` 3.
    pub return_code: i8,
    pub goals_canceling: Vec<GoalInfo>,
}
