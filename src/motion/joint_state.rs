//! The start state: a `sensor_msgs/JointState` as YAML (`name`, `position`).
use crate::error::{InputError, InputResult};
use crate::math::Real;
use serde::Deserialize;
use std::path::Path;

#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct JointState {
    pub name: Vec<String>,
    pub position: Vec<Real>,
}

pub fn load_joint_state(path: &Path) -> InputResult<JointState> {
    let text = crate::error::read_text(path)?;
    parse_joint_state(&text, path)
}

pub fn parse_joint_state(text: &str, path: &Path) -> InputResult<JointState> {
    #[derive(Deserialize)]
    struct File {
        #[serde(default)]
        #[allow(dead_code)]
        header: Option<serde_json::Value>,
        name: Vec<String>,
        position: Vec<Real>,
        #[serde(default)]
        #[allow(dead_code)]
        velocity: Vec<Real>,
        #[serde(default)]
        #[allow(dead_code)]
        effort: Vec<Real>,
    }
    let file: File = serde_norway::from_str(text).map_err(|e| InputError::in_file(path, format!("malformed joint state: {e}")))?;
    if file.name.len() != file.position.len() {
        return Err(InputError::in_file(path, format!("{} names but {} positions", file.name.len(), file.position.len())).at("position"));
    }
    if let Some(k) = file.position.iter().position(|v| !v.is_finite()) {
        return Err(InputError::in_file(path, format!("position of '{}' is not finite", file.name[k])).at("position"));
    }
    Ok(JointState { name: file.name, position: file.position })
}
