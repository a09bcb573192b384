//! The parameters the node declares, each with its descriptor as the parameter services
//! describe it (`ros2 param describe`): type, meaning, constraints, range, and whether
//! it can change while the node runs.
//!
//! Read-only are the parameters that shape the node's endpoints on the graph (the
//! gate's actions, how service requests carry their identity): they are fixed when the
//! node starts. Every other one takes effect on the next check.
use super::msg::{IntegerRange, ParameterDescriptor, parameter_type as t};

/// One declared parameter.
#[derive(Clone, Copy, Debug)]
pub struct Declared {
    pub name: &'static str,
    /// `rcl_interfaces/msg/ParameterType`.
    pub kind: u8,
    pub description: &'static str,
    /// What values are allowed, in words (`additional_constraints`).
    pub constraints: &'static str,
    pub read_only: bool,
    /// Inclusive integer range, for integer parameters that have one.
    pub integer_range: Option<(i64, i64)>,
}

const fn declared(name: &'static str, kind: u8, description: &'static str, constraints: &'static str) -> Declared {
    Declared { name, kind, description, constraints, read_only: false, integer_range: None }
}

/// Every parameter the node declares.
pub const DECLARED: &[Declared] = &[
    declared("robot_description", t::STRING, "the robot's URDF as text (as MoveIt's launch files pass it)", ""),
    declared("robot_description_semantic", t::STRING, "the robot's SRDF as text", ""),
    declared("urdf_file", t::STRING, "the URDF as a path or package:// URI (robot_description comes first)", ""),
    declared("srdf_file", t::STRING, "the SRDF as a path or package:// URI", ""),
    declared("scene_file", t::STRING, "a scene YAML of fixed obstacles, as a path or package:// URI", ""),
    declared("package_dirs", t::STRING_ARRAY, "package roots for package:// URIs", "each NAME=DIR"),
    declared("method", t::STRING, "how trajectories are checked", "certified | pipeline | sampled"),
    declared("tolerance", t::DOUBLE, "the certified method's contact-time tolerance, metres", "> 0"),
    declared("resolution", t::DOUBLE, "the sampled method's joint step", "> 0"),
    declared("first_only", t::BOOL, "stop at the first contact (else report every colliding pair)", ""),
    Declared { integer_range: Some((1, 1024)), ..declared("queue_size", t::INTEGER, "trajectories waiting to be checked, at most", "1 to 1024") },
    declared("check_current_state", t::BOOL, "check the configuration of every joint_states message", ""),
    declared("planning_frame", t::STRING, "the planning frame (empty: the URDF's root link)", ""),
    declared("publish_markers", t::BOOL, "publish rviz markers of each verdict", ""),
    Declared {
        read_only: true,
        ..declared(
            "service_mapping",
            t::STRING,
            "how service requests carry their identity (empty: as RMW_IMPLEMENTATION's RMW)",
            "'' | enhanced | cyclone | basic",
        )
    },
    Declared { read_only: true, ..declared("gate_controllers", t::STRING_ARRAY, "the controllers the execution gate stands in front of", "controller names") },
    Declared { read_only: true, ..declared("gate_controllers_namespace", t::STRING, "the namespace of the controllers' own actions", "") },
    declared("gate_start_tolerance", t::DOUBLE, "how far a gated goal's start may be from the robot's state, rad (or m)", ">= 0"),
    declared("gate_min_clearance", t::DOUBLE, "the clearance a gated goal must keep, metres", ">= 0"),
    declared("gate_recheck_period", t::DOUBLE, "how often running gated goals are re-checked, seconds (0: on scene changes only)", ">= 0"),
    declared("use_sim_time", t::BOOL, "the ROS clock follows /clock: stamps, and the gate's timing of a running motion", ""),
];

/// The declaration of `name`, if the node declares it.
pub fn declared_named(name: &str) -> Option<&'static Declared> {
    DECLARED.iter().find(|d| d.name == name)
}

/// The declared parameters' names, comma-separated.
pub fn declared_names() -> String {
    DECLARED.iter().map(|d| d.name).collect::<Vec<&str>>().join(", ")
}

impl Declared {
    pub fn descriptor(&self) -> ParameterDescriptor {
        ParameterDescriptor {
            name: self.name.to_string(),
            kind: self.kind,
            description: self.description.to_string(),
            additional_constraints: self.constraints.to_string(),
            read_only: self.read_only,
            dynamic_typing: false,
            floating_point_range: Vec::new(),
            integer_range: self.integer_range.map(|(from_value, to_value)| IntegerRange { from_value, to_value, step: 1 }).into_iter().collect(),
        }
    }
}
