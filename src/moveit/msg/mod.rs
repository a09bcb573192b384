//! The ROS 2 messages the node sends and receives, as Rust types whose serde layout is
//! the CDR layout rosidl generates from the `.msg` files (field order and types as in
//! the message definitions; fixed arrays as Rust arrays, `T[]` and `T[<=N]` as `Vec`).
//! `interop/python/test_cdr_rosbags.py` holds every type here to rosbags' CDR, byte for byte.
//!
//! The types are named as in ROS (`JointTrajectory`, `PlanningScene`, ...) and grouped by
//! the ROS package that defines them.
pub mod action;
pub mod control;
pub mod geometry;
pub mod moveit;
pub mod sensor;
pub mod shape;
pub mod std;
pub mod trajectory;
pub mod verdict;
pub mod visualization;

pub use self::std::*;
pub use action::*;
pub use control::*;
pub use geometry::*;
pub use moveit::*;
pub use sensor::*;
pub use shape::*;
pub use trajectory::*;
pub use verdict::*;
pub use visualization::*;

use super::cdr::CdrError;

/// A ROS message type: its ROS package and name.
pub trait RosMessage: serde::Serialize + serde::de::DeserializeOwned + Clone + Default + Send + 'static {
    const PACKAGE: &'static str;
    const NAME: &'static str;
}

/// Encoding to and decoding from CDR (with the encapsulation header) of one message
/// type chosen at run time by its ROS name, through JSON: what the CDR probes use.
#[derive(Clone, Copy)]
pub struct JsonCodec {
    pub json_to_cdr: fn(&str) -> Result<Vec<u8>, JsonCodecError>,
    pub cdr_to_json: fn(&[u8]) -> Result<String, JsonCodecError>,
}

/// Why a [`JsonCodec`] could not translate a message.
#[derive(Debug, thiserror::Error)]
pub enum JsonCodecError {
    /// The JSON is not a message of the type (named as Rust names it).
    #[error("{type_name}: {error}")]
    FromJson { type_name: &'static str, error: serde_json::Error },
    #[error(transparent)]
    Cdr(#[from] CdrError),
    /// The decoded message does not serialize as JSON.
    #[error("{0}")]
    ToJson(serde_json::Error),
}

/// The codec of the message type `T`.
pub fn json_codec<T: serde::Serialize + serde::de::DeserializeOwned>() -> JsonCodec {
    JsonCodec {
        json_to_cdr: |json| {
            let message: T = serde_json::from_str(json).map_err(|error| JsonCodecError::FromJson { type_name: ::std::any::type_name::<T>(), error })?;
            Ok(super::cdr::to_cdr(&message)?)
        },
        cdr_to_json: |bytes| {
            let message: T = super::cdr::from_cdr(bytes)?;
            serde_json::to_string(&message).map_err(JsonCodecError::ToJson)
        },
    }
}

macro_rules! ros_messages {
    ($($ty:ty => $package:literal, $name:literal;)*) => {
        $(
            impl RosMessage for $ty {
                const PACKAGE: &'static str = $package;
                const NAME: &'static str = $name;
            }
        )*
        /// The codec of the message type named `package/msg/Name` (services'
        /// parts as `package/srv/Name_Request` and `_Response`, actions' as
        /// `package/action/Name_Goal` and the like).
        pub fn json_codec_of(type_name: &str) -> Option<JsonCodec> {
            $(
                if type_name == concat!($package, "/msg/", $name)
                    || type_name == concat!($package, "/srv/", $name)
                    || type_name == concat!($package, "/action/", $name) {
                    return Some(json_codec::<$ty>());
                }
            )*
            None
        }
    };
}

/// Calls the macro `$then` with every message type here, as `Type => "package", "Name";`
/// (for the transports, which mark each as their own message trait's).
macro_rules! message_types {
    ($then:ident) => {
        $then! {
        Time => "builtin_interfaces", "Time";
        Duration => "builtin_interfaces", "Duration";
        Header => "std_msgs", "Header";
        Clock => "rosgraph_msgs", "Clock";
        ColorRgba => "std_msgs", "ColorRGBA";
        StringMessage => "std_msgs", "String";
        Point => "geometry_msgs", "Point";
        Vector3 => "geometry_msgs", "Vector3";
        Quaternion => "geometry_msgs", "Quaternion";
        Pose => "geometry_msgs", "Pose";
        TransformStamped => "geometry_msgs", "TransformStamped";
        Polygon => "geometry_msgs", "Polygon";
        JointState => "sensor_msgs", "JointState";
        MultiDofJointState => "sensor_msgs", "MultiDOFJointState";
        JointTrajectory => "trajectory_msgs", "JointTrajectory";
        JointTrajectoryPoint => "trajectory_msgs", "JointTrajectoryPoint";
        MultiDofJointTrajectory => "trajectory_msgs", "MultiDOFJointTrajectory";
        SolidPrimitive => "shape_msgs", "SolidPrimitive";
        Mesh => "shape_msgs", "Mesh";
        Plane => "shape_msgs", "Plane";
        CollisionObject => "moveit_msgs", "CollisionObject";
        AttachedCollisionObject => "moveit_msgs", "AttachedCollisionObject";
        RobotState => "moveit_msgs", "RobotState";
        RobotTrajectory => "moveit_msgs", "RobotTrajectory";
        DisplayTrajectory => "moveit_msgs", "DisplayTrajectory";
        AllowedCollisionMatrix => "moveit_msgs", "AllowedCollisionMatrix";
        PlanningSceneWorld => "moveit_msgs", "PlanningSceneWorld";
        PlanningScene => "moveit_msgs", "PlanningScene";
        Marker => "visualization_msgs", "Marker";
        MarkerArray => "visualization_msgs", "MarkerArray";
        Contact => "ccd_guard", "Contact";
        CollisionVerdict => "ccd_guard", "CollisionVerdict";
        CheckTrajectoryRequest => "ccd_guard", "CheckTrajectory_Request";
        CheckTrajectoryResponse => "ccd_guard", "CheckTrajectory_Response";
        Uuid => "unique_identifier_msgs", "UUID";
        GoalInfo => "action_msgs", "GoalInfo";
        GoalStatus => "action_msgs", "GoalStatus";
        GoalStatusArray => "action_msgs", "GoalStatusArray";
        CancelGoalRequest => "action_msgs", "CancelGoal_Request";
        CancelGoalResponse => "action_msgs", "CancelGoal_Response";
        JointTolerance => "control_msgs", "JointTolerance";
        JointComponentTolerance => "control_msgs", "JointComponentTolerance";
        FollowJointTrajectoryGoal => "control_msgs", "FollowJointTrajectory_Goal";
        FollowJointTrajectoryResult => "control_msgs", "FollowJointTrajectory_Result";
        FollowJointTrajectoryFeedback => "control_msgs", "FollowJointTrajectory_Feedback";
            }
    };
}
#[cfg_attr(not(feature = "dds"), allow(unused_imports))]
pub(crate) use message_types;

message_types!(ros_messages);
