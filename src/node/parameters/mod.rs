//! The node's parameters: ROS params files (`--params-file`, the format `ros2 launch`
//! writes), then `-p name:=value`, each later source overriding an earlier one; while the
//! node runs, the parameter services ([`store`]) change them as rclcpp nodes' do.
//!
//! [`declared`] lists them with their descriptors; [`msg`] holds `rcl_interfaces`'
//! messages; [`store`] answers the six parameter services the same for every transport.
pub mod declared;
pub mod msg;
pub mod store;

use crate::check::Method;
use crate::moveit::gate::GateOptions;
use crate::moveit::guard::GuardSettings;
use crate::node::arguments::RosArguments;
use crate::node::names::NodeNames;
use declared::declared_names;
use serde_norway::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// What the node is configured with.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeParameters {
    /// The robot, the scene, the check and what is published.
    pub guard: GuardSettings,
    /// Trajectories waiting to be checked, at most; the oldest topic work is dropped first.
    pub queue_size: usize,
    /// How service requests carry their identity. `None` (the parameter empty): as the
    /// RMW that `RMW_IMPLEMENTATION` names does it.
    pub service_mapping: Option<RequestIdentity>,
    /// The execution gate: the controllers it stands in front of (none: no gate).
    pub gate_controllers: Vec<String>,
    /// The namespace of the controllers' own actions (`/C/follow_joint_trajectory`
    /// under `/`, the default).
    pub gate_controllers_namespace: String,
    pub gate: GateOptions,
    /// The ROS clock follows `/clock` ([`crate::moveit::clock`]): stamps, and the gate's
    /// timing of a running motion.
    pub use_sim_time: bool,
}

impl Default for NodeParameters {
    fn default() -> Self {
        Self {
            guard: GuardSettings::default(),
            queue_size: 4,
            service_mapping: None,
            gate_controllers: Vec::new(),
            gate_controllers_namespace: "/".into(),
            gate: GateOptions::default(),
            use_sim_time: false,
        }
    }
}

/// How service requests carry their identity: the values of the `service_mapping`
/// parameter (ros2-client's service mappings).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RequestIdentity {
    /// A sample identity, as rmw_fastrtps and rmw_connextdds send it.
    Enhanced,
    /// A request header, as rmw_cyclonedds sends it.
    Cyclone,
    /// No identity.
    Basic,
}

impl RequestIdentity {
    /// The parameter's value: `None` for the empty one (from the environment), `Err(())`
    /// for a value that is none of them.
    fn parse(value: &str) -> Result<Option<Self>, ()> {
        match value {
            "" => Ok(None),
            "enhanced" => Ok(Some(RequestIdentity::Enhanced)),
            "cyclone" => Ok(Some(RequestIdentity::Cyclone)),
            "basic" => Ok(Some(RequestIdentity::Basic)),
            _ => Err(()),
        }
    }
}

/// Why the node's parameters were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ParameterError {
    /// A params file that cannot be read (`message`: the system's reason).
    #[error("{}: {message}", path.display())]
    Unreadable { path: PathBuf, message: String },
    #[error("{}: {problem}", path.display())]
    ParamsFile { path: PathBuf, problem: ParamsFileError },
    /// A value of the wrong type or out of range (`value` as YAML).
    #[error("parameter '{name}' must be {wanted}, not {value}")]
    BadValue { name: String, wanted: &'static str, value: String },
    #[error("parameter 'gate_controllers': '{0}' is not a controller name (letters, digits, '_' and '/')")]
    ControllerName(String),
    /// A controller listed twice, at entries `first` and `again` (counted from 1).
    #[error("parameter 'gate_controllers': '{name}' is named twice (entries {first} and {again})")]
    ControllerTwice { name: String, first: usize, again: usize },
    #[error("unknown parameter '{0}' (the node has: {declared})", declared = declared_names())]
    Unknown(String),
}

/// What is wrong with a params file's layout (rcl's YAML parameter file format).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamsFileError {
    /// Not YAML (`message`: the YAML reader's reason).
    #[error("malformed params file: {message}")]
    Malformed { message: String },
    #[error("a params file is a mapping of node names to {{ros__parameters: ...}}")]
    NotMapping,
    #[error("a params file's node names are strings")]
    NodeKeyNotString,
    #[error("'{0}' has no ros__parameters")]
    NoRosParameters(String),
    #[error("parameter names are strings")]
    ParameterNameNotString,
}

impl NodeParameters {
    /// The parameters for the node `names`, from the arguments' params files and `-p`.
    pub fn load(args: &RosArguments, names: &NodeNames) -> Result<Self, ParameterError> {
        let mut values = BTreeMap::new();
        for path in &args.params_files {
            let text = std::fs::read_to_string(path).map_err(|e| ParameterError::Unreadable { path: path.clone(), message: e.to_string() })?;
            params_file_values(&text, names, &mut values).map_err(|problem| ParameterError::ParamsFile { path: path.clone(), problem })?;
        }
        for (name, text) in &args.parameters {
            let value = serde_norway::from_str(text).unwrap_or_else(|_| Value::String(text.clone()));
            values.insert(name.clone(), value);
        }
        Self::from_values(&values)
    }

    /// From named values (dotted names for nested ones); unknown names are errors.
    pub fn from_values(values: &BTreeMap<String, Value>) -> Result<Self, ParameterError> {
        let mut p = Self::default();
        for (name, value) in values {
            let bad = |wanted: &'static str| ParameterError::BadValue { name: name.clone(), wanted, value: show(value) };
            match name.as_str() {
                "robot_description" => p.guard.robot_description = non_empty(string(value).ok_or_else(|| bad("a string"))?),
                "robot_description_semantic" => p.guard.robot_description_semantic = non_empty(string(value).ok_or_else(|| bad("a string"))?),
                "urdf_file" => p.guard.urdf_file = non_empty(string(value).ok_or_else(|| bad("a string"))?),
                "srdf_file" => p.guard.srdf_file = non_empty(string(value).ok_or_else(|| bad("a string"))?),
                "scene_file" => p.guard.scene_file = non_empty(string(value).ok_or_else(|| bad("a string"))?),
                "package_dirs" => {
                    let list = value.as_sequence().ok_or_else(|| bad("a list of NAME=DIR"))?;
                    p.guard.package_dirs = list
                        .iter()
                        .map(|v| match v.as_str().and_then(|s| s.split_once('=')) {
                            Some((n, d)) if !n.is_empty() && !d.is_empty() => Ok((n.to_string(), PathBuf::from(d))),
                            _ => Err(bad("a list of NAME=DIR")),
                        })
                        .collect::<Result<_, _>>()?;
                }
                "method" => p.guard.check.method = method(value).ok_or_else(|| bad("certified, pipeline or sampled"))?,
                "tolerance" => p.guard.check.tolerance = positive(value).ok_or_else(|| bad("a positive number of metres"))?,
                "resolution" => p.guard.check.resolution = positive(value).ok_or_else(|| bad("a positive number"))?,
                "first_only" => p.guard.check.first_only = value.as_bool().ok_or_else(|| bad("true or false"))?,
                "queue_size" => p.queue_size = value.as_u64().filter(|&n| (1..=1024).contains(&n)).ok_or_else(|| bad("an integer from 1 to 1024"))? as usize,
                "check_current_state" => p.guard.check_current_state = value.as_bool().ok_or_else(|| bad("true or false"))?,
                "planning_frame" => p.guard.planning_frame = string(value).ok_or_else(|| bad("a string"))?,
                "publish_markers" => p.guard.publish_markers = value.as_bool().ok_or_else(|| bad("true or false"))?,
                "service_mapping" => {
                    let s = string(value).ok_or_else(|| bad("a string"))?;
                    p.service_mapping = RequestIdentity::parse(&s).map_err(|()| bad("enhanced, cyclone or basic"))?;
                }
                "gate_controllers" => {
                    // A list, as params files and launch files give it; a string (as
                    // `-p gate_controllers:=a,b` gives it) is a comma-separated list.
                    let names = match (value.as_sequence(), value.as_str()) {
                        (Some(list), _) => list.iter().map(|v| v.as_str().map(str::to_string)).collect::<Option<Vec<String>>>(),
                        (None, Some(text)) => Some(text.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect()),
                        (None, None) => None,
                    };
                    let names = names.ok_or_else(|| bad("a list of controller names"))?;
                    if let Some(n) = names.iter().find(|n| !valid_controller_name(n)) {
                        return Err(ParameterError::ControllerName(n.clone()));
                    }
                    if let Some((k, n)) = names.iter().enumerate().find(|(k, n)| names[..*k].contains(n)) {
                        let first = names.iter().position(|m| m == n).unwrap_or(0) + 1;
                        return Err(ParameterError::ControllerTwice { name: n.clone(), first, again: k + 1 });
                    }
                    p.gate_controllers = names;
                }
                "gate_controllers_namespace" => p.gate_controllers_namespace = string(value).ok_or_else(|| bad("a string"))?,
                "gate_start_tolerance" => p.gate.start_tolerance = non_negative(value).ok_or_else(|| bad("a non-negative number"))?,
                "gate_min_clearance" => p.gate.min_clearance = non_negative(value).ok_or_else(|| bad("a non-negative number of metres"))?,
                "gate_recheck_period" => p.gate.recheck_period = non_negative(value).ok_or_else(|| bad("a non-negative number of seconds"))?,
                "use_sim_time" => p.use_sim_time = value.as_bool().ok_or_else(|| bad("true or false"))?,
                other => return Err(ParameterError::Unknown(other.to_string())),
            }
        }
        Ok(p)
    }
}

/// Adds the values a params file gives the node: every top-level key that matches the
/// node's fully qualified name (`/**`, `/*/name`, `name`, `/ns/name`), in file order.
fn params_file_values(text: &str, names: &NodeNames, out: &mut BTreeMap<String, Value>) -> Result<(), ParamsFileError> {
    let doc: Value = serde_norway::from_str(text).map_err(|e| ParamsFileError::Malformed { message: e.to_string() })?;
    let Some(nodes) = doc.as_mapping() else {
        return Err(ParamsFileError::NotMapping);
    };
    let fqn = names.fully_qualified();
    for (key, entry) in nodes {
        let key = key.as_str().ok_or(ParamsFileError::NodeKeyNotString)?;
        if !node_key_matches(key, &fqn) {
            continue;
        }
        let params = entry.get("ros__parameters").ok_or_else(|| ParamsFileError::NoRosParameters(key.to_string()))?;
        flatten("", params, out)?;
    }
    Ok(())
}

fn flatten(prefix: &str, value: &Value, out: &mut BTreeMap<String, Value>) -> Result<(), ParamsFileError> {
    match value.as_mapping() {
        Some(map) => {
            for (k, v) in map {
                let k = k.as_str().ok_or(ParamsFileError::ParameterNameNotString)?;
                let name = if prefix.is_empty() { k.to_string() } else { format!("{prefix}.{k}") };
                flatten(&name, v, out)?;
            }
        }
        None => {
            out.insert(prefix.to_string(), value.clone());
        }
    }
    Ok(())
}

/// rcl's matching of a params file's node key: `*` one name element, `**` any number.
fn node_key_matches(key: &str, fqn: &str) -> bool {
    let key = if key.starts_with('/') { key.to_string() } else { format!("/{key}") };
    let pattern: Vec<&str> = key.split('/').skip(1).collect();
    let name: Vec<&str> = fqn.split('/').skip(1).collect();
    glob(&pattern, &name)
}

fn glob(pattern: &[&str], name: &[&str]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((&"**", rest)) => (0..=name.len()).any(|skip| glob(rest, &name[skip..])),
        Some((first, rest)) => name.split_first().is_some_and(|(n, tail)| (*first == "*" || first == n) && glob(rest, tail)),
    }
}

fn string(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

fn non_negative(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite() && *x >= 0.0)
}

/// A controller name as ROS names go: non-empty, no leading or trailing '/'.
fn valid_controller_name(name: &str) -> bool {
    !name.is_empty() && !name.starts_with('/') && !name.ends_with('/') && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '/')
}

fn positive(v: &Value) -> Option<f64> {
    v.as_f64().filter(|x| x.is_finite() && *x > 0.0)
}

fn method(v: &Value) -> Option<Method> {
    <Method as clap::ValueEnum>::from_str(v.as_str()?, false).ok()
}

fn show(v: &Value) -> String {
    serde_norway::to_string(v).map(|s| s.trim().to_string()).unwrap_or_else(|_| format!("{v:?}"))
}
