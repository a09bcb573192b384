//! A rosbag2 bag of MoveIt-like Panda plans, as Jazzy's `ros2 bag record` writes it: a folder
//! with `metadata.yaml` (rosbag2 version 9) and one MCAP file (profile `ros2`, `ros2msg`
//! schemas, `cdr` messages), for `ccd_guard audit` benchmarks (`benches/audit.rs`,
//! `scripts/bench_audit.sh`, `examples/panda_plans_bag.rs`).
//!
//! What is recorded, in time order, as move_group and a robot driver would publish it:
//! - `/monitored_planning_scene` (`moveit_msgs/msg/PlanningScene`): first a full scene
//!   (`is_diff: false`) of `objects` boxes, spheres and cylinders around the Panda, then now
//!   and then a diff that moves or adds objects (and, with [`OctomapSpec`], diffs carrying a
//!   large `octomap_msgs/Octomap`);
//! - `/collision_object` (`moveit_msgs/msg/CollisionObject`): ADD, MOVE and REMOVE between
//!   plans;
//! - `/joint_states` (`sensor_msgs/msg/JointState`): a few per plan, along the executed ones;
//! - `/display_planned_path` (`moveit_msgs/msg/DisplayTrajectory`): the plans, each a
//!   `trajectory_start` and one time-parameterized `RobotTrajectory` of 10-30 waypoints
//!   (positions, velocities, accelerations of a minimum-jerk straight move in joint space, as
//!   MoveIt's time parameterization samples them). A share of them is meant to collide: their
//!   ends are free but a state on the way (sampled every 0.02 rad) touches an object. Free ones
//!   are "executed": the robot's state moves to their end.
//!
//! With [`BagSpec::check_files`], each plan also gets the three files one `ccd_guard check`
//! needs (`scene.yaml` in the contract's format, `trajectory.yaml`, `start.yaml`).
#![allow(dead_code)]

#[path = "../panda_scene.rs"]
mod panda_scene;

use ccd_guard::collision::{CollisionWorld, StateChecker};
use ccd_guard::moveit::cdr::to_cdr;
use ccd_guard::moveit::msg::{
    CollisionObject, DisplayTrajectory, Duration, Header, JointState, JointTrajectory, JointTrajectoryPoint, Octomap, OctomapWithPose, PlanningScene,
    PlanningSceneWorld, Point, Pose, Quaternion, RobotState, RobotTrajectory, RosMessage, SolidPrimitive, Time,
};
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::srdf::DisabledPair;
use ccd_guard::robot::{Robot, srdf, urdf};
use ccd_guard::scene::parse_scene;
use panda_scene::Rng;
use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write as _;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

pub type BoxError = Box<dyn Error + Send + Sync>;

/// The receive time of the bag's first message (ns since the epoch).
pub const START_NS: u64 = 1_732_700_000_000_000_000;
/// The Panda's arm joints, as the `panda_arm` group plans them.
pub const ARM_JOINTS: [&str; 7] = ["panda_joint1", "panda_joint2", "panda_joint3", "panda_joint4", "panda_joint5", "panda_joint6", "panda_joint7"];
/// All the joints a Panda's `joint_states` names (the second finger mimics the first).
pub const ALL_JOINTS: [&str; 9] = [
    "panda_joint1",
    "panda_joint2",
    "panda_joint3",
    "panda_joint4",
    "panda_joint5",
    "panda_joint6",
    "panda_joint7",
    "panda_finger_joint1",
    "panda_finger_joint2",
];
/// MoveIt's `ready` pose of the arm.
pub const READY: [f64; 7] = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785];
const FINGERS: f64 = 0.035;
const FRAME: &str = "panda_link0";

pub const TOPIC_SCENE: &str = "/monitored_planning_scene";
pub const TOPIC_OBJECT: &str = "/collision_object";
pub const TOPIC_JOINTS: &str = "/joint_states";
pub const TOPIC_PLANS: &str = "/display_planned_path";

/// The Panda of `example-robot-data` (the project's `.venv`).
pub struct PandaFiles {
    pub urdf: PathBuf,
    pub srdf: PathBuf,
    /// `cmeel.prefix`: the `AMENT_PREFIX_PATH` its `package://example-robot-data/...` meshes need.
    pub prefix: PathBuf,
}

pub fn panda_files() -> PandaFiles {
    let prefix = panda_scene::cmeel_prefix();
    let robots = prefix.join("share/example-robot-data/robots/panda_description");
    PandaFiles { urdf: robots.join("urdf/panda.urdf"), srdf: robots.join("srdf/panda.srdf"), prefix }
}

/// What to write.
#[derive(Clone, Debug)]
pub struct BagSpec {
    pub plans: usize,
    pub seed: u64,
    /// Objects of the first (full) planning scene.
    pub objects: usize,
    /// The share of plans meant to collide.
    pub colliding_share: f64,
    /// Without plans: every other message as with them (to time reading and replay alone).
    pub include_plans: bool,
    /// Scene changes (collision objects and diffs) between plans.
    pub scene_changes: bool,
    /// A folder for the files of one `ccd_guard check` per plan (`plan_NNNN/`).
    pub check_files: Option<PathBuf>,
    pub octomap: Option<OctomapSpec>,
    /// The MCAP chunks' compression (rosbag2's default: none).
    pub compression: Option<mcap::Compression>,
}

impl Default for BagSpec {
    fn default() -> Self {
        Self {
            plans: 1000,
            seed: 7,
            objects: 20,
            colliding_share: 0.3,
            include_plans: true,
            scene_changes: true,
            check_files: None,
            octomap: None,
            compression: None,
        }
    }
}

/// Large octomaps in planning-scene diffs (a room scan around the Panda, as MoveIt's
/// occupancy map monitor publishes it), to measure memory on a large bag.
#[derive(Clone, Debug)]
pub struct OctomapSpec {
    /// Stop adding octomap messages when their payloads reach this many bytes in total.
    pub total_bytes: u64,
    /// Leaf size (m).
    pub resolution: f64,
    /// Half the side of the square room (m); the map spans it and 2.1 m in height.
    pub half_side: f64,
}

impl Default for OctomapSpec {
    fn default() -> Self {
        Self { total_bytes: 2_000_000_000, resolution: 0.01, half_side: 2.5 }
    }
}

/// What was written.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct BagStats {
    pub bag: PathBuf,
    pub mcap_file: PathBuf,
    pub mcap_bytes: u64,
    pub messages: u64,
    pub topics: BTreeMap<String, u64>,
    pub plans: usize,
    /// Plans meant free (no sampled state touches) and meant to collide.
    pub meant_free: usize,
    pub meant_colliding: usize,
    pub waypoints: usize,
    pub octomap_messages: usize,
    pub octomap_stream_bytes: Vec<usize>,
    pub octomap_occupied_leaves: Vec<usize>,
    pub duration_s: f64,
}

// ---------------------------------------------------------------------------------------
// rosbag2 (MCAP storage, metadata version 9) writing
// ---------------------------------------------------------------------------------------

struct Topic {
    name: String,
    type_name: String,
    hash: &'static str,
    channel: u16,
    count: u64,
}

/// A rosbag2 folder being written: `NAME/NAME_0.mcap` and, at [`Rosbag2Writer::finish`],
/// `NAME/metadata.yaml`.
pub struct Rosbag2Writer {
    dir: PathBuf,
    file_name: String,
    mcap: mcap::Writer<BufWriter<File>>,
    topics: Vec<Topic>,
    first: Option<u64>,
    last: u64,
    count: u64,
}

/// The QoS profile rosbag2 records for a topic (reliable, volatile, keep last `depth`), as
/// its list of one profile, with the YAML indent `pad`.
fn qos_yaml(depth: u32, pad: &str) -> String {
    let never = "\n{pad}    sec: 9223372036\n{pad}    nsec: 854775807".replace("{pad}", pad);
    format!(
        "{pad}- history: keep_last\n{pad}  depth: {depth}\n{pad}  reliability: reliable\n{pad}  durability: volatile\n{pad}  deadline:{never}\n{pad}  lifespan:{never}\n{pad}  liveliness: automatic\n{pad}  liveliness_lease_duration:{never}\n{pad}  avoid_ros_namespace_conventions: false"
    )
}

fn qos_depth(topic: &str) -> u32 {
    match topic {
        TOPIC_OBJECT => 100,
        TOPIC_JOINTS => 10,
        _ => 1,
    }
}

impl Rosbag2Writer {
    /// Starts the bag folder `dir` (made, or emptied of an older bag).
    pub fn create(dir: &Path, compression: Option<mcap::Compression>) -> Result<Self, BoxError> {
        if dir.exists() {
            std::fs::remove_dir_all(dir)?;
        }
        std::fs::create_dir_all(dir)?;
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("bag").to_string();
        let file_name = format!("{name}_0.mcap");
        let file = BufWriter::with_capacity(1 << 20, File::create(dir.join(&file_name))?);
        let options = mcap::WriteOptions::new().profile("ros2").library("rosbag2").compression(compression).chunk_size(Some(768 * 1024));
        let mcap = mcap::Writer::with_options(file, options)?;
        Ok(Self { dir: dir.to_path_buf(), file_name, mcap, topics: Vec::new(), first: None, last: 0, count: 0 })
    }

    /// A topic of a type [`MESSAGE_DEFINITIONS`] holds; returns its handle.
    pub fn add_topic(&mut self, topic: &str, type_name: &str) -> Result<usize, BoxError> {
        let (_, definition, hash) =
            MESSAGE_DEFINITIONS.iter().find(|(t, _, _)| *t == type_name).ok_or_else(|| format!("no message definition of {type_name}"))?;
        let schema = self.mcap.add_schema(type_name, "ros2msg", definition.as_bytes())?;
        let mut metadata = BTreeMap::new();
        metadata.insert("offered_qos_profiles".to_string(), qos_yaml(qos_depth(topic), ""));
        metadata.insert("topic_type_hash".to_string(), hash.to_string());
        let channel = self.mcap.add_channel(schema, topic, "cdr", &metadata)?;
        self.topics.push(Topic { name: topic.to_string(), type_name: type_name.to_string(), hash, channel, count: 0 });
        Ok(self.topics.len() - 1)
    }

    /// A message received at `log_time` (ns), published 0.1 ms before.
    pub fn write<T: RosMessage>(&mut self, topic: usize, log_time: u64, message: &T) -> Result<(), BoxError> {
        debug_assert_eq!(self.topics[topic].type_name, format!("{}/msg/{}", T::PACKAGE, T::NAME));
        self.write_cdr(topic, log_time, &to_cdr(message)?)
    }

    pub fn write_cdr(&mut self, topic: usize, log_time: u64, cdr: &[u8]) -> Result<(), BoxError> {
        let t = &mut self.topics[topic];
        t.count += 1;
        let header = mcap::records::MessageHeader { channel_id: t.channel, sequence: t.count as u32, log_time, publish_time: log_time - 100_000 };
        self.mcap.write_to_known_channel(&header, cdr)?;
        self.first.get_or_insert(log_time);
        self.last = self.last.max(log_time);
        self.count += 1;
        Ok(())
    }

    /// Closes the MCAP file and writes `metadata.yaml`; returns the MCAP file's path.
    pub fn finish(mut self) -> Result<(PathBuf, BTreeMap<String, u64>, u64), BoxError> {
        let metadata = self.metadata_yaml();
        // What rosbag2_storage_mcap keeps in the file too.
        let inner = metadata.trim_start_matches("rosbag2_bagfile_information:\n");
        let unindented: String = inner.lines().map(|l| l.strip_prefix("  ").unwrap_or(l)).collect::<Vec<_>>().join("\n");
        let record = mcap::records::Metadata { name: "rosbag2".into(), metadata: BTreeMap::from([("serialized_metadata".to_string(), unindented)]) };
        self.mcap.write_metadata(&record)?;
        self.mcap.finish()?;
        std::fs::write(self.dir.join("metadata.yaml"), metadata)?;
        let topics = self.topics.iter().map(|t| (t.name.clone(), t.count)).collect();
        Ok((self.dir.join(&self.file_name), topics, self.count))
    }

    fn metadata_yaml(&self) -> String {
        let first = self.first.unwrap_or(START_NS);
        let duration = self.last.saturating_sub(first);
        let mut y = String::from("rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: mcap\n");
        let _ = write!(y, "  duration:\n    nanoseconds: {duration}\n  starting_time:\n    nanoseconds_since_epoch: {first}\n");
        let _ = writeln!(y, "  message_count: {}\n  topics_with_message_count:", self.count);
        for t in &self.topics {
            let _ = writeln!(
                y,
                "    - topic_metadata:\n        name: {}\n        type: {}\n        serialization_format: cdr\n        offered_qos_profiles:\n{}\n        type_description_hash: {}\n      message_count: {}",
                t.name,
                t.type_name,
                qos_yaml(qos_depth(&t.name), "          "),
                t.hash,
                t.count
            );
        }
        let _ = write!(y, "  compression_format: \"\"\n  compression_mode: \"\"\n  relative_file_paths:\n    - {}\n", self.file_name);
        let _ = write!(
            y,
            "  files:\n    - path: {}\n      starting_time:\n        nanoseconds_since_epoch: {first}\n      duration:\n        nanoseconds: {duration}\n      message_count: {}\n",
            self.file_name, self.count
        );
        y.push_str("  custom_data: ~\n  ros_distro: jazzy\n");
        y
    }
}

/// `ros2msg` schemas (what rosbag2 writes: the type's `.msg` text, then each type it uses
/// after a `====` line and `MSG: package/Name`), generated by rosbags from
/// `interop/python/interfaces` and its Jazzy store (comments dropped), with the Jazzy RIHS01
/// type hashes. Entries: (type, definition, type hash).
pub const MESSAGE_DEFINITIONS: &[(&str, &str, &str)] = &[
    (
        "moveit_msgs/msg/PlanningScene",
        r#"string name
moveit_msgs/RobotState robot_state
string robot_model_name
geometry_msgs/TransformStamped[] fixed_frame_transforms
moveit_msgs/AllowedCollisionMatrix allowed_collision_matrix
moveit_msgs/LinkPadding[] link_padding
moveit_msgs/LinkScale[] link_scale
moveit_msgs/ObjectColor[] object_colors
moveit_msgs/PlanningSceneWorld world
bool is_diff
================================================================================
MSG: moveit_msgs/RobotState
sensor_msgs/JointState joint_state
sensor_msgs/MultiDOFJointState multi_dof_joint_state
moveit_msgs/AttachedCollisionObject[] attached_collision_objects
bool is_diff
================================================================================
MSG: sensor_msgs/JointState
std_msgs/Header header
string[] name
float64[] position
float64[] velocity
float64[] effort
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
================================================================================
MSG: sensor_msgs/MultiDOFJointState
std_msgs/Header header
string[] joint_names
geometry_msgs/Transform[] transforms
geometry_msgs/Twist[] twist
geometry_msgs/Wrench[] wrench
================================================================================
MSG: geometry_msgs/Transform
geometry_msgs/Vector3 translation
geometry_msgs/Quaternion rotation
================================================================================
MSG: geometry_msgs/Vector3
float64 x
float64 y
float64 z
================================================================================
MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
================================================================================
MSG: geometry_msgs/Twist
geometry_msgs/Vector3 linear
geometry_msgs/Vector3 angular
================================================================================
MSG: geometry_msgs/Wrench
geometry_msgs/Vector3 force
geometry_msgs/Vector3 torque
================================================================================
MSG: moveit_msgs/AttachedCollisionObject
string link_name
moveit_msgs/CollisionObject object
string[] touch_links
trajectory_msgs/JointTrajectory detach_posture
float64 weight
================================================================================
MSG: moveit_msgs/CollisionObject
byte ADD=0
byte REMOVE=1
byte APPEND=2
byte MOVE=3
std_msgs/Header header
geometry_msgs/Pose pose
string id
object_recognition_msgs/ObjectType type
shape_msgs/SolidPrimitive[] primitives
geometry_msgs/Pose[] primitive_poses
shape_msgs/Mesh[] meshes
geometry_msgs/Pose[] mesh_poses
shape_msgs/Plane[] planes
geometry_msgs/Pose[] plane_poses
string[] subframe_names
geometry_msgs/Pose[] subframe_poses
byte operation
================================================================================
MSG: geometry_msgs/Pose
geometry_msgs/Point position
geometry_msgs/Quaternion orientation
================================================================================
MSG: geometry_msgs/Point
float64 x
float64 y
float64 z
================================================================================
MSG: object_recognition_msgs/ObjectType
string key
string db
================================================================================
MSG: shape_msgs/SolidPrimitive
uint8 BOX=1
uint8 SPHERE=2
uint8 CYLINDER=3
uint8 CONE=4
uint8 PRISM=5
uint8 BOX_X=0
uint8 BOX_Y=1
uint8 BOX_Z=2
uint8 SPHERE_RADIUS=0
uint8 CYLINDER_HEIGHT=0
uint8 CYLINDER_RADIUS=1
uint8 CONE_HEIGHT=0
uint8 CONE_RADIUS=1
uint8 PRISM_HEIGHT=0
uint8 type
float64[<=3] dimensions
geometry_msgs/Polygon polygon
================================================================================
MSG: geometry_msgs/Polygon
geometry_msgs/Point32[] points
================================================================================
MSG: geometry_msgs/Point32
float32 x
float32 y
float32 z
================================================================================
MSG: shape_msgs/Mesh
shape_msgs/MeshTriangle[] triangles
geometry_msgs/Point[] vertices
================================================================================
MSG: shape_msgs/MeshTriangle
uint32[3] vertex_indices
================================================================================
MSG: shape_msgs/Plane
float64[4] coef
================================================================================
MSG: trajectory_msgs/JointTrajectory
std_msgs/Header header
string[] joint_names
trajectory_msgs/JointTrajectoryPoint[] points
================================================================================
MSG: trajectory_msgs/JointTrajectoryPoint
float64[] positions
float64[] velocities
float64[] accelerations
float64[] effort
builtin_interfaces/Duration time_from_start
================================================================================
MSG: builtin_interfaces/Duration
int32 sec
uint32 nanosec
================================================================================
MSG: geometry_msgs/TransformStamped
std_msgs/Header header
string child_frame_id
geometry_msgs/Transform transform
================================================================================
MSG: moveit_msgs/AllowedCollisionMatrix
string[] entry_names
moveit_msgs/AllowedCollisionEntry[] entry_values
string[] default_entry_names
bool[] default_entry_values
================================================================================
MSG: moveit_msgs/AllowedCollisionEntry
bool[] enabled
================================================================================
MSG: moveit_msgs/LinkPadding
string link_name
float64 padding
================================================================================
MSG: moveit_msgs/LinkScale
string link_name
float64 scale
================================================================================
MSG: moveit_msgs/ObjectColor
string id
std_msgs/ColorRGBA color
================================================================================
MSG: std_msgs/ColorRGBA
float32 r
float32 g
float32 b
float32 a
================================================================================
MSG: moveit_msgs/PlanningSceneWorld
moveit_msgs/CollisionObject[] collision_objects
octomap_msgs/OctomapWithPose octomap
================================================================================
MSG: octomap_msgs/OctomapWithPose
std_msgs/Header header
geometry_msgs/Pose origin
octomap_msgs/Octomap octomap
================================================================================
MSG: octomap_msgs/Octomap
std_msgs/Header header
bool binary
string id
float64 resolution
int8[] data
"#,
        "RIHS01_0f58540ad5eab4b9ea827d53b763c793d8cabd202b3b301fcee25afa4ce1bd80",
    ),
    (
        "moveit_msgs/msg/CollisionObject",
        r#"byte ADD=0
byte REMOVE=1
byte APPEND=2
byte MOVE=3
std_msgs/Header header
geometry_msgs/Pose pose
string id
object_recognition_msgs/ObjectType type
shape_msgs/SolidPrimitive[] primitives
geometry_msgs/Pose[] primitive_poses
shape_msgs/Mesh[] meshes
geometry_msgs/Pose[] mesh_poses
shape_msgs/Plane[] planes
geometry_msgs/Pose[] plane_poses
string[] subframe_names
geometry_msgs/Pose[] subframe_poses
byte operation
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
================================================================================
MSG: geometry_msgs/Pose
geometry_msgs/Point position
geometry_msgs/Quaternion orientation
================================================================================
MSG: geometry_msgs/Point
float64 x
float64 y
float64 z
================================================================================
MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
================================================================================
MSG: object_recognition_msgs/ObjectType
string key
string db
================================================================================
MSG: shape_msgs/SolidPrimitive
uint8 BOX=1
uint8 SPHERE=2
uint8 CYLINDER=3
uint8 CONE=4
uint8 PRISM=5
uint8 BOX_X=0
uint8 BOX_Y=1
uint8 BOX_Z=2
uint8 SPHERE_RADIUS=0
uint8 CYLINDER_HEIGHT=0
uint8 CYLINDER_RADIUS=1
uint8 CONE_HEIGHT=0
uint8 CONE_RADIUS=1
uint8 PRISM_HEIGHT=0
uint8 type
float64[<=3] dimensions
geometry_msgs/Polygon polygon
================================================================================
MSG: geometry_msgs/Polygon
geometry_msgs/Point32[] points
================================================================================
MSG: geometry_msgs/Point32
float32 x
float32 y
float32 z
================================================================================
MSG: shape_msgs/Mesh
shape_msgs/MeshTriangle[] triangles
geometry_msgs/Point[] vertices
================================================================================
MSG: shape_msgs/MeshTriangle
uint32[3] vertex_indices
================================================================================
MSG: shape_msgs/Plane
float64[4] coef
"#,
        "RIHS01_74b0acd6d56be032bf4f764b2c2633f50588b5fb2bd71e97206c59052747cf7e",
    ),
    (
        "sensor_msgs/msg/JointState",
        r#"std_msgs/Header header
string[] name
float64[] position
float64[] velocity
float64[] effort
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
"#,
        "RIHS01_a13ee3a330e346c9d87b5aa18d24e11690752bd33a0350f11c5882bc9179260e",
    ),
    (
        "moveit_msgs/msg/DisplayTrajectory",
        r#"string model_id
moveit_msgs/RobotTrajectory[] trajectory
moveit_msgs/RobotState trajectory_start
================================================================================
MSG: moveit_msgs/RobotTrajectory
trajectory_msgs/JointTrajectory joint_trajectory
trajectory_msgs/MultiDOFJointTrajectory multi_dof_joint_trajectory
================================================================================
MSG: trajectory_msgs/JointTrajectory
std_msgs/Header header
string[] joint_names
trajectory_msgs/JointTrajectoryPoint[] points
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
================================================================================
MSG: trajectory_msgs/JointTrajectoryPoint
float64[] positions
float64[] velocities
float64[] accelerations
float64[] effort
builtin_interfaces/Duration time_from_start
================================================================================
MSG: builtin_interfaces/Duration
int32 sec
uint32 nanosec
================================================================================
MSG: trajectory_msgs/MultiDOFJointTrajectory
std_msgs/Header header
string[] joint_names
trajectory_msgs/MultiDOFJointTrajectoryPoint[] points
================================================================================
MSG: trajectory_msgs/MultiDOFJointTrajectoryPoint
geometry_msgs/Transform[] transforms
geometry_msgs/Twist[] velocities
geometry_msgs/Twist[] accelerations
builtin_interfaces/Duration time_from_start
================================================================================
MSG: geometry_msgs/Transform
geometry_msgs/Vector3 translation
geometry_msgs/Quaternion rotation
================================================================================
MSG: geometry_msgs/Vector3
float64 x
float64 y
float64 z
================================================================================
MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
================================================================================
MSG: geometry_msgs/Twist
geometry_msgs/Vector3 linear
geometry_msgs/Vector3 angular
================================================================================
MSG: moveit_msgs/RobotState
sensor_msgs/JointState joint_state
sensor_msgs/MultiDOFJointState multi_dof_joint_state
moveit_msgs/AttachedCollisionObject[] attached_collision_objects
bool is_diff
================================================================================
MSG: sensor_msgs/JointState
std_msgs/Header header
string[] name
float64[] position
float64[] velocity
float64[] effort
================================================================================
MSG: sensor_msgs/MultiDOFJointState
std_msgs/Header header
string[] joint_names
geometry_msgs/Transform[] transforms
geometry_msgs/Twist[] twist
geometry_msgs/Wrench[] wrench
================================================================================
MSG: geometry_msgs/Wrench
geometry_msgs/Vector3 force
geometry_msgs/Vector3 torque
================================================================================
MSG: moveit_msgs/AttachedCollisionObject
string link_name
moveit_msgs/CollisionObject object
string[] touch_links
trajectory_msgs/JointTrajectory detach_posture
float64 weight
================================================================================
MSG: moveit_msgs/CollisionObject
byte ADD=0
byte REMOVE=1
byte APPEND=2
byte MOVE=3
std_msgs/Header header
geometry_msgs/Pose pose
string id
object_recognition_msgs/ObjectType type
shape_msgs/SolidPrimitive[] primitives
geometry_msgs/Pose[] primitive_poses
shape_msgs/Mesh[] meshes
geometry_msgs/Pose[] mesh_poses
shape_msgs/Plane[] planes
geometry_msgs/Pose[] plane_poses
string[] subframe_names
geometry_msgs/Pose[] subframe_poses
byte operation
================================================================================
MSG: geometry_msgs/Pose
geometry_msgs/Point position
geometry_msgs/Quaternion orientation
================================================================================
MSG: geometry_msgs/Point
float64 x
float64 y
float64 z
================================================================================
MSG: object_recognition_msgs/ObjectType
string key
string db
================================================================================
MSG: shape_msgs/SolidPrimitive
uint8 BOX=1
uint8 SPHERE=2
uint8 CYLINDER=3
uint8 CONE=4
uint8 PRISM=5
uint8 BOX_X=0
uint8 BOX_Y=1
uint8 BOX_Z=2
uint8 SPHERE_RADIUS=0
uint8 CYLINDER_HEIGHT=0
uint8 CYLINDER_RADIUS=1
uint8 CONE_HEIGHT=0
uint8 CONE_RADIUS=1
uint8 PRISM_HEIGHT=0
uint8 type
float64[<=3] dimensions
geometry_msgs/Polygon polygon
================================================================================
MSG: geometry_msgs/Polygon
geometry_msgs/Point32[] points
================================================================================
MSG: geometry_msgs/Point32
float32 x
float32 y
float32 z
================================================================================
MSG: shape_msgs/Mesh
shape_msgs/MeshTriangle[] triangles
geometry_msgs/Point[] vertices
================================================================================
MSG: shape_msgs/MeshTriangle
uint32[3] vertex_indices
================================================================================
MSG: shape_msgs/Plane
float64[4] coef
"#,
        "RIHS01_dd351cbd6d9986eb019306910ec09236a136a02dbc0b3465707cb62f2d56e22b",
    ),
    (
        "trajectory_msgs/msg/JointTrajectory",
        r#"std_msgs/Header header
string[] joint_names
trajectory_msgs/JointTrajectoryPoint[] points
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
================================================================================
MSG: trajectory_msgs/JointTrajectoryPoint
float64[] positions
float64[] velocities
float64[] accelerations
float64[] effort
builtin_interfaces/Duration time_from_start
================================================================================
MSG: builtin_interfaces/Duration
int32 sec
uint32 nanosec
"#,
        "RIHS01_179b33eba59d676f6d967ac71fe35e7ca2f64b2f3928f4a018cec115e213796e",
    ),
];

// ---------------------------------------------------------------------------------------
// The world: collision objects, as messages, as scene files and as a collision world
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Box,
    Sphere,
    Cylinder,
}

/// One collision object of one primitive.
#[derive(Clone, Debug)]
pub struct Object {
    pub id: String,
    pub kind: Kind,
    /// As `shape_msgs/SolidPrimitive`: box `[x, y, z]`, sphere `[r]`, cylinder `[h, r]`.
    pub dimensions: Vec<f64>,
    pub position: [f64; 3],
    /// `[x, y, z, w]`.
    pub orientation: [f64; 4],
}

impl Object {
    fn random(id: String, kind: Kind, rng: &mut Rng) -> Self {
        let mut object = Object { id, kind, dimensions: Vec::new(), position: [0.0; 3], orientation: [0.0, 0.0, 0.0, 1.0] };
        object.dimensions = match kind {
            Kind::Box => vec![rng.uniform(0.04, 0.25), rng.uniform(0.04, 0.25), rng.uniform(0.04, 0.25)],
            Kind::Sphere => vec![rng.uniform(0.02, 0.12)],
            Kind::Cylinder => vec![rng.uniform(0.05, 0.3), rng.uniform(0.02, 0.08)],
        };
        object.place(rng);
        object
    }

    /// A new pose in the Panda's reach, outside 0.25 m of its base axis.
    fn place(&mut self, rng: &mut Rng) {
        self.position = loop {
            let (x, y, z) = (rng.uniform(-0.8, 0.8), rng.uniform(-0.8, 0.8), rng.uniform(0.0, 1.1));
            if (x * x + y * y).sqrt() > 0.25 {
                break [x, y, z];
            }
        };
        let q = [rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)];
        let n = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        self.orientation = q.map(|v| v / n);
    }

    fn pose(&self) -> Pose {
        let [x, y, z] = self.position;
        let [qx, qy, qz, qw] = self.orientation;
        Pose { position: Point { x, y, z }, orientation: Quaternion { x: qx, y: qy, z: qz, w: qw } }
    }

    /// The `moveit_msgs/CollisionObject` doing `operation` with this object (MoveIt 2's way:
    /// the object's pose in `pose`, its primitive at identity in it).
    pub fn message(&self, operation: u8, stamp: Time) -> CollisionObject {
        let mut message = CollisionObject { header: Header { stamp, frame_id: FRAME.into() }, id: self.id.clone(), operation, ..Default::default() };
        if operation != CollisionObject::REMOVE {
            message.pose = self.pose();
        }
        if operation == CollisionObject::ADD {
            let kind = match self.kind {
                Kind::Box => SolidPrimitive::BOX,
                Kind::Sphere => SolidPrimitive::SPHERE,
                Kind::Cylinder => SolidPrimitive::CYLINDER,
            };
            message.primitives = vec![SolidPrimitive { kind, dimensions: self.dimensions.clone(), ..Default::default() }];
            message.primitive_poses = vec![Pose::default()];
        }
        message
    }

    fn scene_entry(&self) -> serde_json::Value {
        let kind = match self.kind {
            Kind::Box => "box",
            Kind::Sphere => "sphere",
            Kind::Cylinder => "cylinder",
        };
        serde_json::json!({"id": self.id, "type": kind, "dimensions": self.dimensions,
            "pose": {"position": self.position, "orientation": self.orientation}})
    }
}

/// The objects as a scene file of the contract (JSON, which is YAML too).
pub fn scene_file_text(objects: &[Object]) -> String {
    let entries: Vec<serde_json::Value> = objects.iter().map(Object::scene_entry).collect();
    serde_json::to_string_pretty(&serde_json::json!({"frame_id": FRAME, "objects": entries})).expect("JSON")
}

/// The Panda, its SRDF's disabled pairs and a resolver for its meshes.
pub struct PandaModel {
    pub files: PandaFiles,
    pub robot: Robot,
    pub disabled: Vec<DisabledPair>,
    pub resolver: ResourceResolver,
    /// Index in the variable vector of each of [`ARM_JOINTS`].
    pub arm: [usize; 7],
    pub lower: [f64; 7],
    pub upper: [f64; 7],
    pub max_velocity: [f64; 7],
}

impl PandaModel {
    pub fn load() -> Result<Self, BoxError> {
        let files = panda_files();
        let resolver = ResourceResolver { ament_prefix_path: vec![files.prefix.clone()], ..ResourceResolver::default() };
        let robot = urdf::load_urdf(&files.urdf, &resolver)?;
        let disabled = srdf::parse_disabled_pairs(&std::fs::read_to_string(&files.srdf)?, &files.srdf)?;
        let (mut arm, mut lower, mut upper, mut max_velocity) = ([0; 7], [0.0; 7], [0.0; 7], [0.0; 7]);
        for (k, name) in ARM_JOINTS.iter().enumerate() {
            arm[k] = robot.variable_names().position(|n| n == *name).ok_or_else(|| format!("the Panda has no variable {name}"))?;
            let joint = &robot.joints[robot.variables[arm[k]]];
            (lower[k], upper[k], max_velocity[k]) = (joint.lower, joint.upper, joint.max_velocity);
        }
        Ok(Self { files, robot, disabled, resolver, arm, lower, upper, max_velocity })
    }

    /// The collision world of the robot among `objects`.
    pub fn world(&self, objects: &[Object]) -> Result<CollisionWorld, BoxError> {
        let scene = parse_scene(&scene_file_text(objects), Path::new("generated_scene.yaml"), &self.resolver)?;
        Ok(CollisionWorld::new(self.robot.clone(), scene, Some(&self.disabled)))
    }

    /// The variable vector of an arm configuration (fingers half open).
    pub fn variables(&self, arm: &[f64; 7]) -> Vec<f64> {
        let mut q: Vec<f64> = self
            .robot
            .variables
            .iter()
            .map(|&j| {
                let joint = &self.robot.joints[j];
                let v = if joint.name.contains("finger") { FINGERS } else { 0.0 };
                v.clamp(joint.lower, joint.upper)
            })
            .collect();
        for (k, &i) in self.arm.iter().enumerate() {
            q[i] = arm[k];
        }
        q
    }
}

/// Whether the arm touches anything at `arm`.
fn touches(model: &PandaModel, checker: &mut StateChecker, arm: &[f64; 7]) -> bool {
    !checker.contacts(&model.variables(arm), true).is_empty()
}

/// Whether a state of the straight move `a → b`, sampled every `step` rad (largest joint),
/// touches anything.
fn move_touches(model: &PandaModel, checker: &mut StateChecker, a: &[f64; 7], b: &[f64; 7], step: f64) -> bool {
    let largest = (0..7).map(|k| (b[k] - a[k]).abs()).fold(0.0, f64::max);
    let n = ((largest / step).ceil() as usize).max(1);
    (0..=n).any(|i| {
        let f = i as f64 / n as f64;
        touches(model, checker, &std::array::from_fn(|k| a[k] + f * (b[k] - a[k])))
    })
}

// ---------------------------------------------------------------------------------------
// Octomaps: OctoMap's binary stream (`writeBinaryData`, pruned) of a scanned room
// ---------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq)]
enum Leaf {
    Unknown,
    Occupied,
    Free,
    Inner,
}

/// A room around the Panda as a depth camera would map it: floor, walls and a few hollow
/// boxes (tables, shelves) outside the arm's reach are occupied; the rest is free with a
/// tenth of the leaves unknown (so that free space does not prune away).
pub struct RoomOctomap {
    pub resolution: f64,
    /// Key bounds of the mapped room, inclusive.
    lo: [i32; 3],
    hi: [i32; 3],
    floor_z: i32,
    /// Hollow boxes as key bounds (inclusive).
    boxes: Vec<([i32; 3], [i32; 3])>,
    variant: u64,
}

impl RoomOctomap {
    pub fn new(spec: &OctomapSpec, variant: u64) -> Self {
        let r = spec.resolution;
        let key = |x: f64| (x / r).floor() as i32 + 32768;
        let lo = [key(-spec.half_side), key(-spec.half_side), key(-0.1)];
        let hi = [key(spec.half_side) - 1, key(spec.half_side) - 1, key(2.0) - 1];
        let mut rng = Rng::new(1000 + variant);
        let mut boxes = Vec::new();
        while boxes.len() < 6 {
            let (sx, sy, h) = (rng.uniform(0.3, 0.8), rng.uniform(0.3, 0.8), rng.uniform(0.4, 1.2));
            let (x, y) = (rng.uniform(-spec.half_side + 0.5, spec.half_side - 0.5), rng.uniform(-spec.half_side + 0.5, spec.half_side - 0.5));
            // Every corner outside 1.15 m of the base axis: out of the Panda's reach.
            let corners = [(x - sx / 2.0, y - sy / 2.0), (x + sx / 2.0, y + sy / 2.0), (x - sx / 2.0, y + sy / 2.0), (x + sx / 2.0, y - sy / 2.0)];
            if (x.abs() - sx / 2.0).max(y.abs() - sy / 2.0) < 1.15 || corners.iter().any(|(cx, cy)| (cx * cx + cy * cy).sqrt() < 1.15) {
                continue;
            }
            boxes.push(([key(x - sx / 2.0), key(y - sy / 2.0), key(0.0)], [key(x + sx / 2.0), key(y + sy / 2.0), key(h)]));
        }
        Self { resolution: r, lo, hi, floor_z: key(-0.03), boxes, variant }
    }

    fn leaf(&self, k: [i32; 3]) -> Leaf {
        if (0..3).any(|a| k[a] < self.lo[a] || k[a] > self.hi[a]) {
            return Leaf::Unknown;
        }
        if k[2] < self.floor_z {
            return Leaf::Unknown; // below the floor: never seen
        }
        let on_wall = k[0] == self.lo[0] || k[0] == self.hi[0] || k[1] == self.lo[1] || k[1] == self.hi[1];
        if k[2] == self.floor_z || on_wall {
            return Leaf::Occupied;
        }
        for (a, b) in &self.boxes {
            let inside = (0..3).all(|i| k[i] >= a[i] && k[i] <= b[i]);
            let on_face = (0..3).any(|i| k[i] == a[i] || k[i] == b[i]);
            if inside && on_face {
                return Leaf::Occupied;
            }
        }
        let mut h = ((k[0] as u64) << 40) ^ ((k[1] as u64) << 20) ^ (k[2] as u64) ^ self.variant.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        if h.is_multiple_of(10) { Leaf::Unknown } else { Leaf::Free }
    }

    /// The node at `depth` whose keys start at `base`: its kind; for an inner node, its
    /// two bytes and its inner children's subtrees appended to `out` (pre-order), and
    /// `nodes` counts the tree's nodes (octomap's `size`).
    fn emit(&self, base: [i32; 3], depth: u32, out: &mut Vec<u8>, nodes: &mut u64) -> Leaf {
        if depth == 16 {
            return self.leaf(base);
        }
        let size = 1i32 << (16 - depth);
        if (0..3).any(|a| base[a] + size - 1 < self.lo[a] || base[a] > self.hi[a]) {
            return Leaf::Unknown;
        }
        let (mark, nodes_before) = (out.len(), *nodes);
        out.extend([0, 0]);
        let half = size / 2;
        let mut codes = [Leaf::Unknown; 8];
        for (i, code) in codes.iter_mut().enumerate() {
            let child = [base[0] + half * (i as i32 & 1), base[1] + half * ((i as i32 >> 1) & 1), base[2] + half * ((i as i32 >> 2) & 1)];
            *code = self.emit(child, depth + 1, out, nodes);
        }
        // octomap prunes eight equal leaves into their parent; a node without children is none.
        for same in [Leaf::Free, Leaf::Occupied, Leaf::Unknown] {
            if codes.iter().all(|c| *c == same) {
                out.truncate(mark);
                *nodes = nodes_before;
                return same;
            }
        }
        for (i, code) in codes.iter().enumerate() {
            let bits = match code {
                Leaf::Unknown => 0b00,
                Leaf::Occupied => 0b10,
                Leaf::Free => 0b01,
                Leaf::Inner => 0b11,
            };
            out[mark + i / 4] |= bits << (2 * (i % 4));
            if matches!(code, Leaf::Occupied | Leaf::Free) {
                *nodes += 1;
            }
        }
        *nodes += 1;
        Leaf::Inner
    }

    /// The binary stream (`octomap_msgs/Octomap` `data` with `binary: true`) and its node
    /// count.
    pub fn binary_stream(&self) -> (Vec<u8>, u64) {
        let (mut out, mut nodes) = (Vec::new(), 0);
        let root = self.emit([0, 0, 0], 0, &mut out, &mut nodes);
        assert!(root == Leaf::Inner, "the room is an inner node");
        (out, nodes)
    }

    /// A `.bt` file of the stream (to check it with octomap itself).
    pub fn bt_file(&self, stream: &[u8], nodes: u64) -> Vec<u8> {
        let mut file = format!("# Octomap OcTree binary file\nid OcTree\nsize {nodes}\nres {}\ndata\n", self.resolution).into_bytes();
        file.extend_from_slice(stream);
        file
    }
}

/// Where the time of one octomap message goes, as JSON: writing the room's stream, CDR
/// encoding and decoding of a planning-scene diff carrying it, and reading the stream into a
/// voxel map (medians of 5, ms).
pub fn time_octomap_message(spec: &OctomapSpec) -> Result<serde_json::Value, BoxError> {
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let time = |f: &mut dyn FnMut()| {
        let started = std::time::Instant::now();
        f();
        started.elapsed().as_secs_f64() * 1e3
    };
    let room = RoomOctomap::new(spec, 0);
    let (mut stream, mut nodes) = (Vec::new(), 0);
    let generate_ms = time(&mut || (stream, nodes) = room.binary_stream());
    let scene = PlanningScene {
        world: PlanningSceneWorld { octomap: octomap_message(&stream, spec.resolution, Time::default()), ..Default::default() },
        is_diff: true,
        ..Default::default()
    };
    let (mut encode, mut decode, mut voxels) = (Vec::new(), Vec::new(), Vec::new());
    let mut cdr = Vec::new();
    let mut occupied = 0;
    for _ in 0..5 {
        encode.push(time(&mut || cdr = to_cdr(&scene).expect("CDR")));
        let mut decoded = PlanningScene::default();
        decode.push(time(&mut || decoded = ccd_guard::moveit::cdr::from_cdr(&cdr).expect("CDR")));
        let data: Vec<u8> = decoded.world.octomap.octomap.data.iter().map(|&b| b as u8).collect();
        voxels.push(time(&mut || {
            occupied = ccd_guard::scene::octomap_stream::voxel_map_from_message(true, "OcTree", spec.resolution, &data).expect("octomap").voxels().len()
        }));
    }
    Ok(serde_json::json!({
        "stream_bytes": stream.len(), "nodes": nodes, "occupied_leaves": occupied, "cdr_bytes": cdr.len(),
        "generate_stream_ms": generate_ms, "cdr_encode_ms": median(encode), "cdr_decode_ms": median(decode),
        "voxel_map_from_message_ms": median(voxels),
    }))
}

fn octomap_message(stream: &[u8], resolution: f64, stamp: Time) -> OctomapWithPose {
    let header = Header { stamp, frame_id: FRAME.into() };
    OctomapWithPose {
        header: header.clone(),
        origin: Pose::default(),
        octomap: Octomap { header, binary: true, id: "OcTree".into(), resolution, data: stream.iter().map(|&b| b as i8).collect() },
    }
}

// ---------------------------------------------------------------------------------------
// Plans
// ---------------------------------------------------------------------------------------

/// A minimum-jerk straight move `a → b` in joint space within the joints' velocity limits
/// scaled by 0.5 and an acceleration of 3 rad/s² (scaled 0.5), sampled at 10-30 waypoints
/// with positions, velocities and accelerations (as MoveIt's time parameterization leaves a
/// plan).
pub fn min_jerk_plan(model: &PandaModel, a: &[f64; 7], b: &[f64; 7]) -> Vec<JointTrajectoryPoint> {
    let mut duration: f64 = 0.5;
    for k in 0..7 {
        let d = (b[k] - a[k]).abs();
        duration = duration.max(1.875 * d / (0.5 * model.max_velocity[k].min(2.6))).max((5.7735 * d / (0.5 * 3.0)).sqrt());
    }
    let n = ((duration / 0.1).ceil() as usize + 1).clamp(10, 30);
    (0..n)
        .map(|i| {
            let t = duration * i as f64 / (n - 1) as f64;
            let s = t / duration;
            let (p, v, acc) = (
                s * s * s * (10.0 - 15.0 * s + 6.0 * s * s),
                30.0 * s * s * (1.0 - s) * (1.0 - s) / duration,
                60.0 * s * (1.0 - s) * (1.0 - 2.0 * s) / (duration * duration),
            );
            let (mut positions, mut velocities, mut accelerations) = (Vec::with_capacity(7), Vec::with_capacity(7), Vec::with_capacity(7));
            for k in 0..7 {
                let d = b[k] - a[k];
                positions.push(if i == n - 1 { b[k] } else { (a[k] + p * d).clamp(model.lower[k], model.upper[k]) });
                velocities.push(v * d);
                accelerations.push(acc * d);
            }
            JointTrajectoryPoint { positions, velocities, accelerations, effort: Vec::new(), time_from_start: Duration::from_seconds(t) }
        })
        .collect()
}

fn stamp(ns: u64) -> Time {
    Time { sec: (ns / 1_000_000_000) as i32, nanosec: (ns % 1_000_000_000) as u32 }
}

fn joint_state(arm: &[f64; 7], t: u64) -> JointState {
    let mut position = arm.to_vec();
    position.extend([FINGERS, FINGERS]);
    JointState {
        header: Header { stamp: stamp(t), frame_id: String::new() },
        name: ALL_JOINTS.iter().map(|s| s.to_string()).collect(),
        velocity: vec![0.0; position.len()],
        position,
        effort: Vec::new(),
    }
}

/// A random arm configuration within `reach` rad per joint of `from`, 0.05 rad inside the limits.
fn random_arm(model: &PandaModel, rng: &mut Rng, from: &[f64; 7], reach: f64) -> [f64; 7] {
    std::array::from_fn(|k| {
        let (lo, hi) = (model.lower[k] + 0.05, model.upper[k] - 0.05);
        rng.uniform((from[k] - reach).max(lo), (from[k] + reach).min(hi))
    })
}

fn check_file_yaml(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).expect("JSON") + "\n"
}

/// Writes the bag folder `dir` as `spec` says.
pub fn write_bag(dir: &Path, spec: &BagSpec) -> Result<BagStats, BoxError> {
    let model = PandaModel::load()?;
    let mut rng = Rng::new(spec.seed);
    let mut bag = Rosbag2Writer::create(dir, spec.compression)?;
    let scene_topic = bag.add_topic(TOPIC_SCENE, "moveit_msgs/msg/PlanningScene")?;
    let object_topic = bag.add_topic(TOPIC_OBJECT, "moveit_msgs/msg/CollisionObject")?;
    let joints_topic = bag.add_topic(TOPIC_JOINTS, "sensor_msgs/msg/JointState")?;
    let plans_topic = if spec.include_plans { Some(bag.add_topic(TOPIC_PLANS, "moveit_msgs/msg/DisplayTrajectory")?) } else { None };
    if let Some(folder) = &spec.check_files {
        if folder.exists() {
            std::fs::remove_dir_all(folder)?;
        }
        std::fs::create_dir_all(folder)?;
    }
    let mut stats = BagStats { bag: dir.to_path_buf(), ..Default::default() };

    // The robot at `ready`, among objects that leave it free.
    let mut current = READY;
    let mut objects: Vec<Object> = Vec::new();
    let mut next_id = 0;
    let kinds = [Kind::Box, Kind::Sphere, Kind::Cylinder];
    while objects.len() < spec.objects {
        let object = Object::random(format!("obj{next_id}"), kinds[next_id % 3], &mut rng);
        next_id += 1;
        let mut probe = objects.clone();
        probe.push(object);
        let world = model.world(&probe)?;
        if !touches(&model, &mut StateChecker::new(&world), &current) {
            objects = probe;
        }
    }
    let mut world = model.world(&objects)?;

    // Octomaps: a few variants of the room, cycled.
    let octomaps: Vec<(Vec<u8>, f64)> = match &spec.octomap {
        Some(o) => (0..4)
            .map(|v| {
                let room = RoomOctomap::new(o, v);
                let (stream, _nodes) = room.binary_stream();
                let map = ccd_guard::scene::octomap_stream::voxel_map_from_message(true, "OcTree", o.resolution, &stream).expect("our octomap reads back");
                stats.octomap_stream_bytes.push(stream.len());
                stats.octomap_occupied_leaves.push(map.voxels().len());
                (stream, o.resolution)
            })
            .collect(),
        None => Vec::new(),
    };
    let octomap_total = spec.octomap.as_ref().map_or(0, |o| o.total_bytes);
    let octomap_count = if octomaps.is_empty() { 0 } else { (octomap_total as usize).div_ceil(octomaps[0].0.len()).max(1) };

    let mut t = START_NS;
    // The full scene first, as move_group publishes it when a display connects.
    let mut full = PlanningScene {
        name: "panda_scene".into(),
        robot_model_name: "panda".into(),
        robot_state: RobotState { joint_state: joint_state(&current, t), ..Default::default() },
        world: PlanningSceneWorld { collision_objects: objects.iter().map(|o| o.message(CollisionObject::ADD, stamp(t))).collect(), ..Default::default() },
        is_diff: false,
        ..Default::default()
    };
    if let Some((stream, resolution)) = octomaps.first() {
        full.world.octomap = octomap_message(stream, *resolution, stamp(t));
        stats.octomap_messages += 1;
    }
    bag.write(scene_topic, t, &full)?;
    drop(full);
    t += 50_000_000;
    bag.write(joints_topic, t, &joint_state(&current, t))?;

    let plan_count = spec.plans;
    for i in 0..plan_count {
        t += 200_000_000;
        // Scene changes, kept off the robot's current state.
        if spec.scene_changes {
            let mut changes = Vec::new();
            if i % 3 == 1 {
                changes.push(rng.uniform(0.0, 1.0));
            }
            let diff = i % 10 == 5;
            if diff {
                changes.push(rng.uniform(0.0, 0.5)); // a move or an add
            }
            let mut diff_objects = Vec::new();
            for (c, &roll) in changes.iter().enumerate() {
                let in_diff = diff && c == changes.len() - 1;
                let (operation, object) = if (roll < 0.25 && objects.len() < spec.objects + 5) || objects.len() < spec.objects.saturating_sub(5) {
                    let object = Object::random(format!("obj{next_id}"), kinds[next_id % 3], &mut rng);
                    next_id += 1;
                    (CollisionObject::ADD, object)
                } else if roll < 0.5 || objects.len() <= spec.objects.saturating_sub(5) {
                    let mut object = objects[(rng.uniform(0.0, 1.0) * objects.len() as f64) as usize % objects.len()].clone();
                    object.place(&mut rng);
                    (CollisionObject::MOVE, object)
                } else {
                    let object = objects[(rng.uniform(0.0, 1.0) * objects.len() as f64) as usize % objects.len()].clone();
                    (CollisionObject::REMOVE, object)
                };
                let mut probe: Vec<Object> = objects.iter().filter(|o| o.id != object.id).cloned().collect();
                if operation != CollisionObject::REMOVE {
                    probe.push(object.clone());
                }
                let probe_world = model.world(&probe)?;
                if touches(&model, &mut StateChecker::new(&probe_world), &current) {
                    continue; // it would land on the robot: skipped, as an operator would
                }
                (objects, world) = (probe, probe_world);
                if in_diff {
                    diff_objects.push(object.message(operation, stamp(t)));
                } else {
                    bag.write(object_topic, t, &object.message(operation, stamp(t)))?;
                    t += 20_000_000;
                }
            }
            if !diff_objects.is_empty() {
                let scene = PlanningScene {
                    robot_state: RobotState { joint_state: joint_state(&current, t), is_diff: true, ..Default::default() },
                    world: PlanningSceneWorld { collision_objects: diff_objects, ..Default::default() },
                    is_diff: true,
                    ..Default::default()
                };
                bag.write(scene_topic, t, &scene)?;
                t += 20_000_000;
            }
        }
        // Octomap updates, spread evenly over the plans.
        if !octomaps.is_empty() {
            let due = (i + 1) * octomap_count / plan_count.max(1) - i * octomap_count / plan_count.max(1);
            for _ in 0..due {
                if stats.octomap_messages >= octomap_count {
                    break;
                }
                let (stream, resolution) = &octomaps[stats.octomap_messages % octomaps.len()];
                let scene = PlanningScene {
                    robot_state: RobotState { is_diff: true, ..Default::default() },
                    world: PlanningSceneWorld { octomap: octomap_message(stream, *resolution, stamp(t)), ..Default::default() },
                    is_diff: true,
                    ..Default::default()
                };
                bag.write(scene_topic, t, &scene)?;
                stats.octomap_messages += 1;
                t += 100_000_000;
            }
        }
        bag.write(joints_topic, t, &joint_state(&current, t))?;
        t += 100_000_000;

        // The plan: a goal free of the world, the move to it free or not as meant.
        let meant_colliding = rng.uniform(0.0, 1.0) < spec.colliding_share;
        let mut checker = StateChecker::new(&world);
        let mut goal = current;
        let mut colliding = false;
        for attempt in 0..200 {
            let reach = if meant_colliding { 1.5 } else { 1.0 - 0.004 * attempt as f64 };
            let candidate = random_arm(&model, &mut rng, &current, reach);
            if touches(&model, &mut checker, &candidate) {
                continue;
            }
            let hits = move_touches(&model, &mut checker, &current, &candidate, 0.02);
            (goal, colliding) = (candidate, hits);
            if hits == meant_colliding {
                break;
            }
        }
        drop(checker);
        let points = min_jerk_plan(&model, &current, &goal);
        let duration_ns = {
            let d = points.last().expect("points").time_from_start;
            d.sec as u64 * 1_000_000_000 + d.nanosec as u64
        };
        stats.waypoints += points.len();
        if colliding {
            stats.meant_colliding += 1;
        } else {
            stats.meant_free += 1;
        }
        let trajectory = JointTrajectory {
            header: Header { stamp: stamp(t), frame_id: FRAME.into() },
            joint_names: ARM_JOINTS.iter().map(|s| s.to_string()).collect(),
            points,
        };
        if let Some(topic) = plans_topic {
            let start = RobotState { joint_state: joint_state(&current, t), ..Default::default() };
            if let Some(folder) = &spec.check_files {
                let plan_dir = folder.join(format!("plan_{:04}", stats.plans));
                std::fs::create_dir_all(&plan_dir)?;
                std::fs::write(plan_dir.join("scene.yaml"), scene_file_text(&objects) + "\n")?;
                std::fs::write(plan_dir.join("trajectory.yaml"), check_file_yaml(&trajectory_file(&trajectory)))?;
                let js = &start.joint_state;
                std::fs::write(plan_dir.join("start.yaml"), check_file_yaml(&serde_json::json!({"name": js.name, "position": js.position})))?;
                std::fs::write(plan_dir.join("meant"), if colliding { "colliding\n" } else { "free\n" })?;
            }
            let plan = DisplayTrajectory {
                model_id: "panda".into(),
                trajectory: vec![RobotTrajectory { joint_trajectory: trajectory, ..Default::default() }],
                trajectory_start: start,
            };
            bag.write(topic, t, &plan)?;
            stats.plans += 1;
        }
        // A free plan is executed: joint states along it; the robot ends at its goal.
        t += 300_000_000;
        if !colliding {
            for k in 1..=3 {
                let f = k as f64 / 3.0;
                let s = f * f * f * (10.0 - 15.0 * f + 6.0 * f * f);
                let arm: [f64; 7] = std::array::from_fn(|j| current[j] + s * (goal[j] - current[j]));
                bag.write(joints_topic, t + duration_ns * k / 3, &joint_state(&arm, t + duration_ns * k / 3))?;
            }
            t += duration_ns;
            current = goal;
        }
    }
    let (mcap_file, topics, messages) = bag.finish()?;
    stats.mcap_bytes = std::fs::metadata(&mcap_file)?.len();
    stats.mcap_file = mcap_file;
    stats.topics = topics;
    stats.messages = messages;
    stats.duration_s = (t - START_NS) as f64 * 1e-9;
    Ok(stats)
}

/// A trajectory file of the contract (`trajectory_msgs/JointTrajectory` with times in seconds).
fn trajectory_file(trajectory: &JointTrajectory) -> serde_json::Value {
    let points: Vec<serde_json::Value> = trajectory
        .points
        .iter()
        .map(|p| {
            serde_json::json!({"positions": p.positions, "velocities": p.velocities, "accelerations": p.accelerations,
                "time_from_start": {"sec": p.time_from_start.sec, "nanosec": p.time_from_start.nanosec}})
        })
        .collect();
    serde_json::json!({"joint_names": trajectory.joint_names, "points": points})
}
