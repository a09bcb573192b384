//! `~/get_type_description`: the description of an interface type the node uses, as
//! Jazzy's rclcpp and rclpy nodes serve it, so that tools can learn a type (and check its
//! hash) from the node itself.
//!
//! The descriptions come from the distribution: rosidl installs each interface's
//! description and hashes as `share/<package>/<msg|srv|action>/<Name>.json` beside its
//! definition, under the prefixes of `AMENT_PREFIX_PATH`. A type not installed there is
//! answered `successful: false`, saying so; a request whose hash is not the installed
//! type's too.
use crate::moveit::msg::RosMessage;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// `type_description_interfaces/msg/FieldType`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct FieldType {
    pub type_id: u8,
    pub capacity: u64,
    pub string_capacity: u64,
    pub nested_type_name: String,
}

/// `type_description_interfaces/msg/Field`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub field_type: FieldType,
    pub default_value: String,
}

/// `type_description_interfaces/msg/IndividualTypeDescription`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct IndividualTypeDescription {
    pub type_name: String,
    pub fields: Vec<Field>,
}

/// `type_description_interfaces/msg/TypeDescription`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TypeDescription {
    pub type_description: IndividualTypeDescription,
    pub referenced_type_descriptions: Vec<IndividualTypeDescription>,
}

/// `type_description_interfaces/msg/TypeSource`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TypeSource {
    pub type_name: String,
    pub encoding: String,
    pub raw_file_contents: String,
}

/// `type_description_interfaces/msg/KeyValue`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct KeyValue {
    pub key: String,
    pub value: String,
}

/// `type_description_interfaces/srv/GetTypeDescription` request.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetTypeDescriptionRequest {
    pub type_name: String,
    pub type_hash: String,
    pub include_type_sources: bool,
}

/// `type_description_interfaces/srv/GetTypeDescription` response.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct GetTypeDescriptionResponse {
    pub successful: bool,
    pub failure_reason: String,
    pub type_description: TypeDescription,
    pub type_sources: Vec<TypeSource>,
    pub extra_information: Vec<KeyValue>,
}

impl RosMessage for GetTypeDescriptionRequest {
    const PACKAGE: &'static str = "type_description_interfaces";
    const NAME: &'static str = "GetTypeDescription_Request";
}

impl RosMessage for GetTypeDescriptionResponse {
    const PACKAGE: &'static str = "type_description_interfaces";
    const NAME: &'static str = "GetTypeDescription_Response";
}

/// What rosidl installs beside an interface: its description and the hashes of it and of
/// the types it refers to.
#[derive(Deserialize)]
struct InstalledDescription {
    type_description_msg: TypeDescription,
    type_hashes: Vec<InstalledHash>,
}

#[derive(Deserialize)]
struct InstalledHash {
    type_name: String,
    hash_string: String,
}

/// Answers a `get_type_description` request from the descriptions installed under
/// `AMENT_PREFIX_PATH`.
pub fn describe(request: &GetTypeDescriptionRequest) -> GetTypeDescriptionResponse {
    let prefixes = std::env::var_os("AMENT_PREFIX_PATH").unwrap_or_default();
    describe_in(request, &std::env::split_paths(&prefixes).collect::<Vec<_>>())
}

/// Answers a `get_type_description` request from the descriptions installed under `prefixes`.
pub fn describe_in(request: &GetTypeDescriptionRequest, prefixes: &[PathBuf]) -> GetTypeDescriptionResponse {
    match installed(&request.type_name, prefixes) {
        Ok((installed, definition)) => {
            let hash = installed.type_hashes.iter().find(|h| h.type_name == request.type_name).map(|h| h.hash_string.as_str()).unwrap_or("");
            if !request.type_hash.is_empty() && request.type_hash != hash {
                return refusal(format!("the type hash {} is not the installed {}'s ({hash})", request.type_hash, request.type_name));
            }
            let type_sources = match request.include_type_sources {
                true => definition.into_iter().collect(),
                false => Vec::new(),
            };
            GetTypeDescriptionResponse { successful: true, type_description: installed.type_description_msg, type_sources, ..Default::default() }
        }
        Err(why) => refusal(why),
    }
}

fn refusal(failure_reason: String) -> GetTypeDescriptionResponse {
    GetTypeDescriptionResponse { successful: false, failure_reason, ..Default::default() }
}

/// The installed description of `package/kind/Name`, and its definition file.
fn installed(type_name: &str, prefixes: &[PathBuf]) -> Result<(InstalledDescription, Option<TypeSource>), String> {
    let parts: Vec<&str> = type_name.split('/').collect();
    let [package, kind @ ("msg" | "srv" | "action"), name] = parts[..] else {
        return Err(format!("'{type_name}' is not an interface type name (package/msg/Name, package/srv/Name or package/action/Name)"));
    };
    let file = |extension: &str| -> Option<PathBuf> {
        prefixes.iter().map(|p| p.join("share").join(package).join(kind).join(format!("{name}.{extension}"))).find(|p| p.is_file())
    };
    let json = file("json").ok_or_else(|| format!("{type_name} is not installed under AMENT_PREFIX_PATH"))?;
    let text = std::fs::read_to_string(&json).map_err(|e| format!("{}: {e}", json.display()))?;
    let description: InstalledDescription = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", json.display()))?;
    let definition = file(kind).and_then(|path| std::fs::read_to_string(path).ok()).map(|raw_file_contents| TypeSource {
        type_name: type_name.to_string(),
        encoding: kind.to_string(),
        raw_file_contents,
    });
    Ok((description, definition))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_that_is_no_type_or_not_installed_is_refused_with_the_reason() {
        let answer = describe_in(&GetTypeDescriptionRequest { type_name: "Contact".into(), ..Default::default() }, &[]);
        assert!(!answer.successful && answer.failure_reason.contains("not an interface type name"), "{answer:?}");
        let answer = describe_in(&GetTypeDescriptionRequest { type_name: "no_such_pkg/msg/Nothing".into(), ..Default::default() }, &[]);
        assert!(!answer.successful && answer.failure_reason.contains("not installed"), "{answer:?}");
    }

    #[test]
    fn the_installed_description_is_read_and_its_hash_checked() {
        let prefix = tempfile::tempdir().unwrap();
        let dir = prefix.path().join("share/demo_msgs/msg");
        std::fs::create_dir_all(&dir).unwrap();
        let json = r#"{"type_description_msg": {"type_description": {"type_name": "demo_msgs/msg/Pair",
            "fields": [{"name": "a", "type": {"type_id": 11, "capacity": 0, "string_capacity": 0, "nested_type_name": ""}, "default_value": ""}]},
            "referenced_type_descriptions": []},
            "type_hashes": [{"type_name": "demo_msgs/msg/Pair", "hash_string": "RIHS01_00ff"}]}"#;
        std::fs::write(dir.join("Pair.json"), json).unwrap();
        std::fs::write(dir.join("Pair.msg"), "float64 a\n").unwrap();
        let prefixes = [prefix.path().to_path_buf()];
        let asked = |hash: &str| {
            describe_in(&GetTypeDescriptionRequest { type_name: "demo_msgs/msg/Pair".into(), type_hash: hash.into(), include_type_sources: true }, &prefixes)
        };
        let answer = asked("RIHS01_00ff");
        assert!(answer.successful, "{answer:?}");
        assert_eq!(answer.type_description.type_description.fields[0].field_type.type_id, 11);
        assert_eq!(answer.type_sources[0].raw_file_contents, "float64 a\n");
        assert!(asked("").successful);
        let answer = asked("RIHS01_1234");
        assert!(!answer.successful && answer.failure_reason.contains("RIHS01_00ff"), "{answer:?}");
    }
}
