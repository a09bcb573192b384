//! `ccd_guard`'s own interfaces (`msg/CollisionVerdict.msg`, `msg/Contact.msg`,
//! `srv/CheckTrajectory.srv` at the package root): the report as a message.
use super::geometry::{Point, Vector3};
use super::sensor::JointState;
use super::std::{Header, Time};
use super::trajectory::JointTrajectory;
use serde::{Deserialize, Serialize};

/// `ccd_guard/msg/Contact`: one contact event (NaN for the report's null).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Contact {
    pub link: String,
    pub other: String,
    pub time_of_contact: f64,
    pub time_of_separation: f64,
    pub point: Point,
    pub normal: Vector3,
    pub max_penetration_depth: f64,
}

/// `ccd_guard/msg/CollisionVerdict`: the report of one trajectory.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CollisionVerdict {
    pub header: Header,
    pub source: String,
    pub trajectory_stamp: Time,
    pub verdict: String,
    pub certified: bool,
    pub method: String,
    pub time_of_contact: f64,
    pub segment_index: i32,
    pub contacts: Vec<Contact>,
    pub max_penetration_depth: f64,
    pub min_clearance: f64,
    pub tolerance: f64,
    pub elapsed_ms: f64,
    pub error: String,
}

/// `ccd_guard/srv/CheckTrajectory` request.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckTrajectoryRequest {
    pub trajectory: JointTrajectory,
    /// Joints the trajectory leaves out; empty: the latest `joint_states`.
    pub start_state: JointState,
    /// `certified`, `pipeline` or `sampled`; empty: the node's parameter.
    pub method: String,
}

/// `ccd_guard/srv/CheckTrajectory` response.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CheckTrajectoryResponse {
    pub verdict: CollisionVerdict,
}
