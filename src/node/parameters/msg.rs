//! `rcl_interfaces`: the messages of a node's parameter services and `/parameter_events`,
//! as plain serde types whose layout is their CDR layout (as [`crate::moveit::msg`]
//! does for MoveIt's). Every transport serves the same six services with these.
use crate::moveit::msg::{RosMessage, Time};
use serde::{Deserialize, Serialize};

/// `rcl_interfaces/msg/ParameterType` values.
pub mod parameter_type {
    pub const NOT_SET: u8 = 0;
    pub const BOOL: u8 = 1;
    pub const INTEGER: u8 = 2;
    pub const DOUBLE: u8 = 3;
    pub const STRING: u8 = 4;
    pub const BYTE_ARRAY: u8 = 5;
    pub const BOOL_ARRAY: u8 = 6;
    pub const INTEGER_ARRAY: u8 = 7;
    pub const DOUBLE_ARRAY: u8 = 8;
    pub const STRING_ARRAY: u8 = 9;
}

/// `rcl_interfaces/msg/ParameterValue`: `type` says which field holds the value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ParameterValue {
    #[serde(rename = "type")]
    pub kind: u8,
    pub bool_value: bool,
    pub integer_value: i64,
    pub double_value: f64,
    pub string_value: String,
    pub byte_array_value: Vec<u8>,
    pub bool_array_value: Vec<bool>,
    pub integer_array_value: Vec<i64>,
    pub double_array_value: Vec<f64>,
    pub string_array_value: Vec<String>,
}

/// `rcl_interfaces/msg/Parameter`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Parameter {
    pub name: String,
    pub value: ParameterValue,
}

/// `rcl_interfaces/msg/FloatingPointRange`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FloatingPointRange {
    pub from_value: f64,
    pub to_value: f64,
    pub step: f64,
}

/// `rcl_interfaces/msg/IntegerRange`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct IntegerRange {
    pub from_value: i64,
    pub to_value: i64,
    pub step: u64,
}

/// `rcl_interfaces/msg/ParameterDescriptor`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ParameterDescriptor {
    pub name: String,
    #[serde(rename = "type")]
    pub kind: u8,
    pub description: String,
    pub additional_constraints: String,
    pub read_only: bool,
    pub dynamic_typing: bool,
    pub floating_point_range: Vec<FloatingPointRange>,
    pub integer_range: Vec<IntegerRange>,
}

/// `rcl_interfaces/msg/SetParametersResult`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetParametersResult {
    pub successful: bool,
    pub reason: String,
}

/// `rcl_interfaces/msg/ListParametersResult`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListParametersResult {
    pub names: Vec<String>,
    pub prefixes: Vec<String>,
}

/// `rcl_interfaces/msg/ParameterEvent` (on `/parameter_events`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ParameterEvent {
    pub stamp: Time,
    pub node: String,
    pub new_parameters: Vec<Parameter>,
    pub changed_parameters: Vec<Parameter>,
    pub deleted_parameters: Vec<Parameter>,
}

/// The requests and responses of the six parameter services (`rcl_interfaces/srv/*`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetParametersRequest {
    pub names: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetParametersResponse {
    pub values: Vec<ParameterValue>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetParameterTypesRequest {
    pub names: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetParameterTypesResponse {
    pub types: Vec<u8>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetParametersRequest {
    pub parameters: Vec<Parameter>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetParametersResponse {
    pub results: Vec<SetParametersResult>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetParametersAtomicallyRequest {
    pub parameters: Vec<Parameter>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct SetParametersAtomicallyResponse {
    pub result: SetParametersResult,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListParametersRequest {
    pub prefixes: Vec<String>,
    pub depth: u64,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ListParametersResponse {
    pub result: ListParametersResult,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct DescribeParametersRequest {
    pub names: Vec<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DescribeParametersResponse {
    pub descriptors: Vec<ParameterDescriptor>,
}

macro_rules! rcl_interfaces_messages {
    ($($ty:ty => $name:literal;)*) => {
        $(impl RosMessage for $ty {
            const PACKAGE: &'static str = "rcl_interfaces";
            const NAME: &'static str = $name;
        })*
    };
}

rcl_interfaces_messages! {
    ParameterEvent => "ParameterEvent";
    GetParametersRequest => "GetParameters_Request";
    GetParametersResponse => "GetParameters_Response";
    GetParameterTypesRequest => "GetParameterTypes_Request";
    GetParameterTypesResponse => "GetParameterTypes_Response";
    SetParametersRequest => "SetParameters_Request";
    SetParametersResponse => "SetParameters_Response";
    SetParametersAtomicallyRequest => "SetParametersAtomically_Request";
    SetParametersAtomicallyResponse => "SetParametersAtomically_Response";
    ListParametersRequest => "ListParameters_Request";
    ListParametersResponse => "ListParameters_Response";
    DescribeParametersRequest => "DescribeParameters_Request";
    DescribeParametersResponse => "DescribeParameters_Response";
}
