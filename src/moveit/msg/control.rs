//! `control_msgs` (Humble's 4.x and Jazzy's 5.x): the `FollowJointTrajectory` action that
//! MoveIt's controller managers send to ros2_control's joint_trajectory_controller, and
//! that the execution gate serves and forwards.
use super::std::{Duration, Header};
use super::trajectory::{JointTrajectory, JointTrajectoryPoint, MultiDofJointTrajectory, MultiDofJointTrajectoryPoint};
use serde::{Deserialize, Serialize};

/// `control_msgs/msg/JointTolerance`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct JointTolerance {
    pub name: String,
    pub position: f64,
    pub velocity: f64,
    pub acceleration: f64,
}

/// `control_msgs/msg/JointComponentTolerance`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct JointComponentTolerance {
    pub joint_name: String,
    /// `X_AXIS` 1, `Y_AXIS` 2, `Z_AXIS` 3, `TRANSLATION` 4, `ROTATION` 5.
    pub component: u16,
    pub position: f64,
    pub velocity: f64,
    pub acceleration: f64,
}

/// `control_msgs/action/FollowJointTrajectory_Goal`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FollowJointTrajectoryGoal {
    pub trajectory: JointTrajectory,
    pub multi_dof_trajectory: MultiDofJointTrajectory,
    pub path_tolerance: Vec<JointTolerance>,
    pub component_path_tolerance: Vec<JointComponentTolerance>,
    pub goal_tolerance: Vec<JointTolerance>,
    pub component_goal_tolerance: Vec<JointComponentTolerance>,
    pub goal_time_tolerance: Duration,
}

/// `control_msgs/action/FollowJointTrajectory_Result`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FollowJointTrajectoryResult {
    /// One of the `FollowJointTrajectoryResult::*` codes.
    pub error_code: i32,
    pub error_string: String,
}

impl FollowJointTrajectoryResult {
    pub const SUCCESSFUL: i32 = 0;
    pub const INVALID_GOAL: i32 = -1;
    pub const INVALID_JOINTS: i32 = -2;
    pub const OLD_HEADER_TIMESTAMP: i32 = -3;
    pub const PATH_TOLERANCE_VIOLATED: i32 = -4;
    pub const GOAL_TOLERANCE_VIOLATED: i32 = -5;
}

/// `control_msgs/action/FollowJointTrajectory_Feedback`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FollowJointTrajectoryFeedback {
    pub header: Header,
    pub joint_names: Vec<String>,
    pub desired: JointTrajectoryPoint,
    pub actual: JointTrajectoryPoint,
    pub error: JointTrajectoryPoint,
    pub multi_dof_joint_names: Vec<String>,
    pub multi_dof_desired: MultiDofJointTrajectoryPoint,
    pub multi_dof_actual: MultiDofJointTrajectoryPoint,
    pub multi_dof_error: MultiDofJointTrajectoryPoint,
}
