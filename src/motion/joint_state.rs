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
    JointState::validated(file.name, file.position).map_err(|e| e.with_file(path))
}

impl JointState {
    /// `other`'s values over these: its joints replace or join them.
    pub fn overlay(&mut self, other: &JointState) {
        for (name, value) in other.name.iter().zip(&other.position) {
            match self.name.iter().position(|n| n == name) {
                Some(k) => self.position[k] = *value,
                None => {
                    self.name.push(name.clone());
                    self.position.push(*value);
                }
            }
        }
    }

    /// Names and positions that pair up, every position finite.
    pub fn validated(name: Vec<String>, position: Vec<Real>) -> InputResult<Self> {
        if name.len() != position.len() {
            return Err(InputError::new(format!("{} names but {} positions", name.len(), position.len())).at("position"));
        }
        if let Some(k) = position.iter().position(|v| !v.is_finite()) {
            return Err(InputError::new(format!("position of '{}' is not finite", name[k])).at("position"));
        }
        Ok(JointState { name, position })
    }
}
