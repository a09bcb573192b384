//! `builtin_interfaces`, `std_msgs`, `rosgraph_msgs`: time stamps, headers and the
//! simulated clock.
use serde::{Deserialize, Serialize};

/// `builtin_interfaces/msg/Time`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Time {
    pub sec: i32,
    pub nanosec: u32,
}

/// `builtin_interfaces/msg/Duration`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Duration {
    pub sec: i32,
    pub nanosec: u32,
}

impl Duration {
    pub fn seconds(&self) -> f64 {
        self.sec as f64 + self.nanosec as f64 * 1e-9
    }

    /// The duration nearest to `seconds` (non-negative, finite).
    pub fn from_seconds(seconds: f64) -> Self {
        let whole = seconds.floor();
        let mut nanosec = ((seconds - whole) * 1e9).round() as u32;
        let mut sec = whole as i32;
        if nanosec >= 1_000_000_000 {
            nanosec -= 1_000_000_000;
            sec += 1;
        }
        Self { sec, nanosec }
    }
}

/// `rosgraph_msgs/msg/Clock`: the simulated time, on `/clock`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Clock {
    pub clock: Time,
}

/// `std_msgs/msg/Header`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Header {
    pub stamp: Time,
    pub frame_id: String,
}

/// `std_msgs/msg/ColorRGBA`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ColorRgba {
    pub r: f32,
    pub g: f32,
    pub b: f32,
    pub a: f32,
}

/// `std_msgs/msg/String`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StringMessage {
    pub data: String,
}
