//! `moveit_msgs` (and the `object_recognition_msgs`, `octomap_msgs` types they embed):
//! what move_group publishes about plans and the planning scene.
use super::geometry::{Pose, TransformStamped};
use super::sensor::{JointState, MultiDofJointState};
use super::shape::{Mesh, Plane, SolidPrimitive};
use super::std::{ColorRgba, Header};
use super::trajectory::{JointTrajectory, MultiDofJointTrajectory};
use serde::{Deserialize, Serialize};

/// `object_recognition_msgs/msg/ObjectType`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ObjectType {
    pub key: String,
    pub db: String,
}

/// `moveit_msgs/msg/CollisionObject`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CollisionObject {
    pub header: Header,
    /// The object's pose in the header frame; the shapes' poses are relative to it.
    pub pose: Pose,
    pub id: String,
    #[serde(rename = "type")]
    pub object_type: ObjectType,
    pub primitives: Vec<SolidPrimitive>,
    pub primitive_poses: Vec<Pose>,
    pub meshes: Vec<Mesh>,
    pub mesh_poses: Vec<Pose>,
    pub planes: Vec<Plane>,
    pub plane_poses: Vec<Pose>,
    pub subframe_names: Vec<String>,
    pub subframe_poses: Vec<Pose>,
    /// `ADD`, `REMOVE`, `APPEND` or `MOVE`.
    pub operation: u8,
}

impl CollisionObject {
    pub const ADD: u8 = 0;
    pub const REMOVE: u8 = 1;
    pub const APPEND: u8 = 2;
    pub const MOVE: u8 = 3;
}

/// `moveit_msgs/msg/AttachedCollisionObject`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AttachedCollisionObject {
    pub link_name: String,
    pub object: CollisionObject,
    pub touch_links: Vec<String>,
    pub detach_posture: JointTrajectory,
    pub weight: f64,
}

/// `moveit_msgs/msg/RobotState`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RobotState {
    pub joint_state: JointState,
    pub multi_dof_joint_state: MultiDofJointState,
    pub attached_collision_objects: Vec<AttachedCollisionObject>,
    pub is_diff: bool,
}

/// `moveit_msgs/msg/RobotTrajectory`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RobotTrajectory {
    pub joint_trajectory: JointTrajectory,
    pub multi_dof_joint_trajectory: MultiDofJointTrajectory,
}

/// `moveit_msgs/msg/DisplayTrajectory`: what move_group publishes on `display_planned_path`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DisplayTrajectory {
    pub model_id: String,
    /// Consecutive parts of one plan.
    pub trajectory: Vec<RobotTrajectory>,
    pub trajectory_start: RobotState,
}

/// `moveit_msgs/msg/AllowedCollisionEntry`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AllowedCollisionEntry {
    pub enabled: Vec<bool>,
}

/// `moveit_msgs/msg/AllowedCollisionMatrix`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AllowedCollisionMatrix {
    pub entry_names: Vec<String>,
    pub entry_values: Vec<AllowedCollisionEntry>,
    pub default_entry_names: Vec<String>,
    pub default_entry_values: Vec<bool>,
}

/// `moveit_msgs/msg/LinkPadding`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkPadding {
    pub link_name: String,
    pub padding: f64,
}

/// `moveit_msgs/msg/LinkScale`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LinkScale {
    pub link_name: String,
    pub scale: f64,
}

/// `moveit_msgs/msg/ObjectColor`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ObjectColor {
    pub id: String,
    pub color: ColorRgba,
}

/// `octomap_msgs/msg/Octomap`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Octomap {
    pub header: Header,
    pub binary: bool,
    pub id: String,
    pub resolution: f64,
    pub data: Vec<i8>,
}

/// `octomap_msgs/msg/OctomapWithPose`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OctomapWithPose {
    pub header: Header,
    pub origin: Pose,
    pub octomap: Octomap,
}

/// `moveit_msgs/msg/PlanningSceneWorld`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlanningSceneWorld {
    pub collision_objects: Vec<CollisionObject>,
    pub octomap: OctomapWithPose,
}

/// `moveit_msgs/msg/PlanningScene`: what move_group publishes on
/// `monitored_planning_scene`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PlanningScene {
    pub name: String,
    pub robot_state: RobotState,
    pub robot_model_name: String,
    pub fixed_frame_transforms: Vec<TransformStamped>,
    pub allowed_collision_matrix: AllowedCollisionMatrix,
    pub link_padding: Vec<LinkPadding>,
    pub link_scale: Vec<LinkScale>,
    pub object_colors: Vec<ObjectColor>,
    pub world: PlanningSceneWorld,
    pub is_diff: bool,
}
