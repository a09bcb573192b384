//! `trajectory_msgs`: joint-space and multi-DOF trajectories.
use super::geometry::{Transform, Twist};
use super::std::{Duration, Header};
use serde::{Deserialize, Serialize};

/// `trajectory_msgs/msg/JointTrajectoryPoint`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct JointTrajectoryPoint {
    pub positions: Vec<f64>,
    pub velocities: Vec<f64>,
    pub accelerations: Vec<f64>,
    pub effort: Vec<f64>,
    pub time_from_start: Duration,
}

/// `trajectory_msgs/msg/JointTrajectory`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct JointTrajectory {
    pub header: Header,
    pub joint_names: Vec<String>,
    pub points: Vec<JointTrajectoryPoint>,
}

/// `trajectory_msgs/msg/MultiDOFJointTrajectoryPoint`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MultiDofJointTrajectoryPoint {
    pub transforms: Vec<Transform>,
    pub velocities: Vec<Twist>,
    pub accelerations: Vec<Twist>,
    pub time_from_start: Duration,
}

/// `trajectory_msgs/msg/MultiDOFJointTrajectory`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MultiDofJointTrajectory {
    pub header: Header,
    pub joint_names: Vec<String>,
    pub points: Vec<MultiDofJointTrajectoryPoint>,
}
