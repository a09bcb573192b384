//! The node's parameters while it runs: what the six parameter services of a ROS node
//! answer (`get_parameters`, `get_parameter_types`, `set_parameters`,
//! `set_parameters_atomically`, `list_parameters`, `describe_parameters`) and the
//! `/parameter_events` they cause, the same for every transport.
//!
//! As rclcpp's: only declared parameters exist; a value of another type than the
//! declared one, a read-only parameter, or a value the node cannot use is refused with
//! the reason, and nothing changes. A value is accepted only if the whole set of
//! parameters with it still makes [`NodeParameters`], so what the services show is
//! always what the node runs with.
use super::declared::{DECLARED, declared_named};
use super::msg::{self, ParameterValue, SetParametersResult, parameter_type as t};
use super::{NodeParameters, RequestIdentity};
use crate::robot::resources::ResourceResolver;
use serde_norway::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// The parameters' current values, by name.
#[derive(Clone, Debug)]
pub struct ParameterStore {
    values: BTreeMap<String, ParameterValue>,
    current: NodeParameters,
    /// The change sets not yet taken ([`Self::take_changes`]), oldest first.
    pending: Vec<Vec<msg::Parameter>>,
}

/// What a successful change brings: the parameters the node now runs with, and the
/// event to publish.
#[derive(Clone, Debug)]
pub struct Changed {
    pub parameters: NodeParameters,
    pub changed: Vec<msg::Parameter>,
}

/// One of the six parameter service requests.
#[derive(Clone, Debug)]
pub enum ParameterRequest {
    Get(msg::GetParametersRequest),
    GetTypes(msg::GetParameterTypesRequest),
    Set(msg::SetParametersRequest),
    SetAtomically(msg::SetParametersAtomicallyRequest),
    List(msg::ListParametersRequest),
    Describe(msg::DescribeParametersRequest),
}

/// The answer to a [`ParameterRequest`], of the same service.
#[derive(Clone, Debug)]
pub enum ParameterResponse {
    Get(msg::GetParametersResponse),
    GetTypes(msg::GetParameterTypesResponse),
    Set(msg::SetParametersResponse),
    SetAtomically(msg::SetParametersAtomicallyResponse),
    List(msg::ListParametersResponse),
    Describe(msg::DescribeParametersResponse),
}

/// Each service's request into a [`ParameterRequest`], and its response out of a
/// [`ParameterResponse`] (the response of another service stays as it was).
macro_rules! service_messages {
    ($($variant:ident: $request:ty => $response:ty;)*) => {
        $(
            impl From<$request> for ParameterRequest {
                fn from(request: $request) -> Self {
                    ParameterRequest::$variant(request)
                }
            }
            impl TryFrom<ParameterResponse> for $response {
                type Error = ParameterResponse;
                fn try_from(response: ParameterResponse) -> Result<Self, ParameterResponse> {
                    match response {
                        ParameterResponse::$variant(r) => Ok(r),
                        other => Err(other),
                    }
                }
            }
        )*
    };
}

service_messages! {
    Get: msg::GetParametersRequest => msg::GetParametersResponse;
    GetTypes: msg::GetParameterTypesRequest => msg::GetParameterTypesResponse;
    Set: msg::SetParametersRequest => msg::SetParametersResponse;
    SetAtomically: msg::SetParametersAtomicallyRequest => msg::SetParametersAtomicallyResponse;
    List: msg::ListParametersRequest => msg::ListParametersResponse;
    Describe: msg::DescribeParametersRequest => msg::DescribeParametersResponse;
}

impl ParameterStore {
    /// The store of the parameters the node started with.
    pub fn new(parameters: &NodeParameters) -> Self {
        Self { values: values_of(parameters), current: parameters.clone(), pending: Vec::new() }
    }

    pub fn parameters(&self) -> &NodeParameters {
        &self.current
    }

    /// Every declared parameter with its value: the `new_parameters` of the node's first
    /// `/parameter_events` message.
    pub fn all(&self) -> Vec<msg::Parameter> {
        self.values.iter().map(|(name, value)| msg::Parameter { name: name.clone(), value: value.clone() }).collect()
    }

    /// Answers one request as its service's response (`None`, never expected: the
    /// store answered with another service's), and the change it made.
    pub fn answer_as<Req: Into<ParameterRequest>, Resp: TryFrom<ParameterResponse>>(&mut self, request: Req) -> Option<Resp> {
        Resp::try_from(self.answer(request.into()).0).ok()
    }

    /// The parameters the node now runs with and each change set since the last call
    /// (for `/parameter_events`), if anything changed.
    pub fn take_changes(&mut self) -> Option<(NodeParameters, Vec<Vec<msg::Parameter>>)> {
        (!self.pending.is_empty()).then(|| (self.current.clone(), std::mem::take(&mut self.pending)))
    }

    /// Answers one service request; `Some` when parameters changed.
    pub fn answer(&mut self, request: ParameterRequest) -> (ParameterResponse, Option<Changed>) {
        match request {
            // As rclcpp: a name the node does not declare makes the answer empty.
            ParameterRequest::Get(r) => {
                let values = if self.all_declared(&r.names) { r.names.iter().map(|n| self.value(n)).collect() } else { Vec::new() };
                (ParameterResponse::Get(msg::GetParametersResponse { values }), None)
            }
            ParameterRequest::GetTypes(r) => {
                let types = if self.all_declared(&r.names) { r.names.iter().map(|n| self.value(n).kind).collect() } else { Vec::new() };
                (ParameterResponse::GetTypes(msg::GetParameterTypesResponse { types }), None)
            }
            ParameterRequest::Describe(r) => {
                let descriptors = r.names.iter().map(|n| declared_named(n).map(|d| d.descriptor())).collect::<Option<Vec<_>>>().unwrap_or_default();
                (ParameterResponse::Describe(msg::DescribeParametersResponse { descriptors }), None)
            }
            ParameterRequest::List(r) => (ParameterResponse::List(msg::ListParametersResponse { result: self.list(&r.prefixes, r.depth) }), None),
            ParameterRequest::Set(r) => {
                let mut changed = Vec::new();
                let results = r.parameters.into_iter().map(|p| self.set(&[p], &mut changed)).collect();
                (ParameterResponse::Set(msg::SetParametersResponse { results }), self.changed(changed))
            }
            ParameterRequest::SetAtomically(r) => {
                let mut changed = Vec::new();
                let result = self.set(&r.parameters, &mut changed);
                (ParameterResponse::SetAtomically(msg::SetParametersAtomicallyResponse { result }), self.changed(changed))
            }
        }
    }

    fn changed(&mut self, changed: Vec<msg::Parameter>) -> Option<Changed> {
        if changed.is_empty() {
            return None;
        }
        self.pending.push(changed.clone());
        Some(Changed { parameters: self.current.clone(), changed })
    }

    /// A value; an undeclared name's is NOT_SET.
    fn value(&self, name: &str) -> ParameterValue {
        self.values.get(name).cloned().unwrap_or_default()
    }

    fn all_declared(&self, names: &[String]) -> bool {
        names.iter().all(|n| self.values.contains_key(n))
    }

    /// Sets `parameters` all or none; the ones whose value changed go to `changed`.
    fn set(&mut self, parameters: &[msg::Parameter], changed: &mut Vec<msg::Parameter>) -> SetParametersResult {
        match self.candidate(parameters) {
            Ok((values, current)) => {
                for p in parameters {
                    if self.values.get(&p.name) != Some(&p.value) && !changed.iter().any(|c| c.name == p.name) {
                        changed.push(p.clone());
                    }
                }
                changed.iter_mut().for_each(|c| c.value = values[&c.name].clone());
                self.values = values;
                self.current = current;
                SetParametersResult { successful: true, reason: String::new() }
            }
            Err(reason) => SetParametersResult { successful: false, reason },
        }
    }

    /// The values with `parameters` set, and the node's parameters from them; or why not.
    fn candidate(&self, parameters: &[msg::Parameter]) -> Result<(BTreeMap<String, ParameterValue>, NodeParameters), String> {
        let mut values = self.values.clone();
        for p in parameters {
            let Some(declared) = declared_named(&p.name) else {
                return Err(format!("parameter '{}' is not declared", p.name));
            };
            if p.value.kind == t::NOT_SET {
                return Err(format!("parameter '{}' cannot be undeclared: the node declares its parameters with their types", p.name));
            }
            if declared.read_only {
                return Err(format!("parameter '{}' is read-only: it is fixed when the node starts", p.name));
            }
            if p.value.kind != declared.kind {
                return Err(format!("parameter '{}' is of type {}, not {}", p.name, type_name(declared.kind), type_name(p.value.kind)));
            }
            values.insert(p.name.clone(), p.value.clone());
        }
        let yaml: BTreeMap<String, Value> = values.iter().map(|(n, v)| (n.clone(), yaml_of(v))).collect();
        let current = NodeParameters::from_values(&yaml).map_err(|e| e.to_string())?;
        let resolver = ResourceResolver::from_env(current.guard.package_dirs.clone());
        for p in parameters.iter().filter(|p| FILES.contains(&p.name.as_str()) && !p.value.string_value.is_empty()) {
            readable_file(&resolver, &p.value.string_value).map_err(|why| format!("parameter '{}': {why}", p.name))?;
        }
        Ok((values, current))
    }

    /// `list_parameters`: names under the prefixes (all without), `depth` levels of
    /// dots deep (0: any depth), as rclcpp lists them.
    fn list(&self, prefixes: &[String], depth: u64) -> msg::ListParametersResult {
        let deep_enough = |rest: &str| depth == 0 || (rest.matches('.').count() as u64) < depth;
        let names: Vec<String> = self
            .values
            .keys()
            .filter(|name| match prefixes.is_empty() {
                true => deep_enough(name),
                false => prefixes.iter().any(|p| *name == p || name.strip_prefix(&format!("{p}.")).is_some_and(deep_enough)),
            })
            .cloned()
            .collect();
        let mut found_prefixes: Vec<String> = names.iter().filter_map(|n| n.rsplit_once('.').map(|(p, _)| p.to_string())).collect();
        found_prefixes.dedup();
        msg::ListParametersResult { names, prefixes: found_prefixes }
    }
}

/// The parameters that name files: a new value must name a file there is (what is in it
/// is the reload's to judge: a robot or scene that cannot be loaded makes every verdict
/// `invalid`, saying why).
const FILES: [&str; 3] = ["urdf_file", "srdf_file", "scene_file"];

fn readable_file(resolver: &ResourceResolver, uri: &str) -> Result<(), String> {
    let path = resolver.resolve(uri, Path::new("")).map_err(|e| e.to_string())?;
    match path.is_file() {
        true => Ok(()),
        false => Err(format!("{} is not a file", path.display())),
    }
}

/// The declared parameters' values for `p`, each of its declared type.
fn values_of(p: &NodeParameters) -> BTreeMap<String, ParameterValue> {
    let text = |s: &Option<String>| string(s.clone().unwrap_or_default());
    let g = &p.guard;
    let mapping = match p.service_mapping {
        None => "",
        Some(RequestIdentity::Enhanced) => "enhanced",
        Some(RequestIdentity::Cyclone) => "cyclone",
        Some(RequestIdentity::Basic) => "basic",
    };
    let values = [
        ("robot_description", text(&g.robot_description)),
        ("robot_description_semantic", text(&g.robot_description_semantic)),
        ("urdf_file", text(&g.urdf_file)),
        ("srdf_file", text(&g.srdf_file)),
        ("scene_file", text(&g.scene_file)),
        ("package_dirs", strings(g.package_dirs.iter().map(|(n, d)| format!("{n}={}", d.display())).collect())),
        ("method", string(g.check.method.name().to_string())),
        ("tolerance", double(g.check.tolerance)),
        ("resolution", double(g.check.resolution)),
        ("first_only", boolean(g.check.first_only)),
        ("queue_size", ParameterValue { kind: t::INTEGER, integer_value: p.queue_size as i64, ..Default::default() }),
        ("check_current_state", boolean(g.check_current_state)),
        ("planning_frame", string(g.planning_frame.clone())),
        ("publish_markers", boolean(g.publish_markers)),
        ("service_mapping", string(mapping.to_string())),
        ("gate_controllers", strings(p.gate_controllers.clone())),
        ("gate_controllers_namespace", string(p.gate_controllers_namespace.clone())),
        ("gate_start_tolerance", double(p.gate.start_tolerance)),
        ("gate_min_clearance", double(p.gate.min_clearance)),
        ("gate_recheck_period", double(p.gate.recheck_period)),
        ("use_sim_time", boolean(p.use_sim_time)),
    ];
    debug_assert_eq!(values.len(), DECLARED.len());
    values.into_iter().map(|(n, v)| (n.to_string(), v)).collect()
}

fn string(string_value: String) -> ParameterValue {
    ParameterValue { kind: t::STRING, string_value, ..Default::default() }
}

fn strings(string_array_value: Vec<String>) -> ParameterValue {
    ParameterValue { kind: t::STRING_ARRAY, string_array_value, ..Default::default() }
}

fn double(double_value: f64) -> ParameterValue {
    ParameterValue { kind: t::DOUBLE, double_value, ..Default::default() }
}

fn boolean(bool_value: bool) -> ParameterValue {
    ParameterValue { kind: t::BOOL, bool_value, ..Default::default() }
}

/// A parameter value as the YAML value a params file would give.
fn yaml_of(v: &ParameterValue) -> Value {
    let list = |items: Vec<Value>| Value::Sequence(items);
    match v.kind {
        t::BOOL => Value::Bool(v.bool_value),
        t::INTEGER => Value::Number(v.integer_value.into()),
        t::DOUBLE => Value::Number(v.double_value.into()),
        t::STRING => Value::String(v.string_value.clone()),
        t::BYTE_ARRAY => list(v.byte_array_value.iter().map(|&b| Value::Number(b.into())).collect()),
        t::BOOL_ARRAY => list(v.bool_array_value.iter().map(|&b| Value::Bool(b)).collect()),
        t::INTEGER_ARRAY => list(v.integer_array_value.iter().map(|&i| Value::Number(i.into())).collect()),
        t::DOUBLE_ARRAY => list(v.double_array_value.iter().map(|&x| Value::Number(x.into())).collect()),
        t::STRING_ARRAY => list(v.string_array_value.iter().map(|s| Value::String(s.clone())).collect()),
        _ => Value::Null,
    }
}

/// A parameter type's name, as `ros2 param` prints it.
fn type_name(kind: u8) -> &'static str {
    match kind {
        t::NOT_SET => "not set",
        t::BOOL => "bool",
        t::INTEGER => "integer",
        t::DOUBLE => "double",
        t::STRING => "string",
        t::BYTE_ARRAY => "byte array",
        t::BOOL_ARRAY => "bool array",
        t::INTEGER_ARRAY => "integer array",
        t::DOUBLE_ARRAY => "double array",
        t::STRING_ARRAY => "string array",
        _ => "unknown type",
    }
}

#[cfg(test)]
mod tests;
