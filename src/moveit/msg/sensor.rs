//! `sensor_msgs`: joint states.
use super::geometry::{Transform, Twist, Wrench};
use super::std::Header;
use serde::{Deserialize, Serialize};

/// `sensor_msgs/msg/JointState`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct JointState {
    pub header: Header,
    pub name: Vec<String>,
    pub position: Vec<f64>,
    pub velocity: Vec<f64>,
    pub effort: Vec<f64>,
}

/// `sensor_msgs/msg/MultiDOFJointState`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MultiDofJointState {
    pub header: Header,
    pub joint_names: Vec<String>,
    pub transforms: Vec<Transform>,
    pub twist: Vec<Twist>,
    pub wrench: Vec<Wrench>,
}

/// `sensor_msgs/msg/CompressedImage` (a marker's texture).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompressedImage {
    pub header: Header,
    pub format: String,
    pub data: Vec<u8>,
}
