//! Trajectory files (YAML or JSON), mirroring `trajectory_msgs/JointTrajectory`.
use crate::error::{InputError, InputResult};
use crate::math::Real;
use serde::Deserialize;
use std::path::Path;

/// One point; `time_from_start` in seconds.
#[derive(Clone, Debug, PartialEq)]
pub struct TrajectoryPoint {
    pub positions: Vec<Real>,
    pub velocities: Option<Vec<Real>>,
    pub accelerations: Option<Vec<Real>>,
    pub time_from_start: Real,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Trajectory {
    pub joint_names: Vec<String>,
    pub points: Vec<TrajectoryPoint>,
}

#[derive(Deserialize)]
struct TrajectoryFile {
    #[serde(default)]
    header: Option<serde_json::Value>,
    joint_names: Vec<String>,
    points: Vec<PointEntry>,
}

#[derive(Deserialize)]
struct PointEntry {
    positions: Vec<Real>,
    #[serde(default)]
    velocities: Vec<Real>,
    #[serde(default)]
    accelerations: Vec<Real>,
    #[serde(default)]
    #[allow(dead_code)]
    effort: Vec<Real>,
    time_from_start: TimeEntry,
}

/// Seconds as a number, or `{sec, nanosec}` as `builtin_interfaces/Duration`.
#[derive(Deserialize)]
#[serde(untagged)]
enum TimeEntry {
    Seconds(Real),
    Duration {
        sec: i64,
        #[serde(default)]
        nanosec: u32,
    },
}

impl TimeEntry {
    fn seconds(&self) -> Real {
        match *self {
            TimeEntry::Seconds(s) => s,
            TimeEntry::Duration { sec, nanosec } => sec as Real + nanosec as Real * 1e-9,
        }
    }
}

/// Reads a trajectory file; `.json` is read as JSON, anything else as YAML.
pub fn load_trajectory(path: &Path) -> InputResult<Trajectory> {
    let text = crate::error::read_text(path)?;
    parse_trajectory(&text, path)
}

pub fn parse_trajectory(text: &str, path: &Path) -> InputResult<Trajectory> {
    let is_json = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("json"));
    let file: TrajectoryFile = if is_json {
        serde_json::from_str(text).map_err(|e| InputError::in_file(path, format!("malformed trajectory: {e}")))?
    } else {
        serde_norway::from_str(text).map_err(|e| InputError::in_file(path, format!("malformed trajectory: {e}")))?
    };
    let _ = file.header;
    validate(file).map_err(|e| e.with_file(path))
}

fn validate(file: TrajectoryFile) -> InputResult<Trajectory> {
    let points = file
        .points
        .into_iter()
        .map(|p| RawPoint { positions: p.positions, velocities: p.velocities, accelerations: p.accelerations, time_from_start: p.time_from_start.seconds() })
        .collect();
    validate_trajectory(file.joint_names, points)
}

/// A point as a file or a `JointTrajectory` message gives it: empty velocities or
/// accelerations mean none.
pub struct RawPoint {
    pub positions: Vec<Real>,
    pub velocities: Vec<Real>,
    pub accelerations: Vec<Real>,
    pub time_from_start: Real,
}

/// A trajectory from its joint names and points, or a clear error that names the field:
/// joints named once, as many finite values as joints, times that start at 0 or later
/// and increase.
/// The largest joint position (rad or m), velocity and acceleration a trajectory may
/// give. The check's work grows with how far the joints travel: a continuous joint
/// sent 10^4 rad checks in about 0.6 s on the demo cell, one sent 1e284 rad would never
/// end (a mutated message did that, `tests/cli/mutated_input.rs`).
pub const MAX_JOINT_VALUE: Real = 1e4;
/// The latest `time_from_start` (s) a trajectory may give: 10^6 s, eleven days.
pub const MAX_TIME_FROM_START: Real = 1e6;
/// What a trajectory without points is told, wherever it comes from.
pub const NO_POINTS: &str = "the trajectory has no points";

pub fn validate_trajectory(joint_names: Vec<String>, raw_points: Vec<RawPoint>) -> InputResult<Trajectory> {
    let n = joint_names.len();
    if n == 0 {
        return Err(InputError::new("joint_names is empty").at("joint_names"));
    }
    for (i, name) in joint_names.iter().enumerate() {
        if joint_names[..i].contains(name) {
            return Err(InputError::new(format!("joint '{name}' is named twice")).at("joint_names"));
        }
    }
    if raw_points.is_empty() {
        return Err(InputError::new(NO_POINTS).at("points"));
    }
    let mut points = Vec::with_capacity(raw_points.len());
    for (i, p) in raw_points.into_iter().enumerate() {
        let field = |f: &str| format!("points[{i}].{f}");
        let check = |values: Vec<Real>, f: &str| -> InputResult<Option<Vec<Real>>> {
            if values.is_empty() && f != "positions" {
                return Ok(None);
            }
            if values.len() != n {
                return Err(InputError::new(format!("has {} values for {n} joint_names", values.len())).at(field(f)));
            }
            if let Some(k) = values.iter().position(|v| !v.is_finite()) {
                return Err(InputError::new(format!("value {} for joint '{}' is not finite", values[k], joint_names[k])).at(field(f)));
            }
            if let Some(k) = values.iter().position(|v| v.abs() > MAX_JOINT_VALUE) {
                return Err(InputError::new(format!(
                    "value {} for joint '{}' is beyond {MAX_JOINT_VALUE:e} (rad, m, and per second and second squared): no robot moves so",
                    values[k], joint_names[k]
                ))
                .at(field(f)));
            }
            Ok(Some(values))
        };
        let positions = check(p.positions, "positions")?.expect("positions are required");
        let velocities = check(p.velocities, "velocities")?;
        let accelerations = check(p.accelerations, "accelerations")?;
        let time_from_start = p.time_from_start;
        if !(0.0..=MAX_TIME_FROM_START).contains(&time_from_start) {
            return Err(InputError::new(format!("{time_from_start} is not a time from 0 to {MAX_TIME_FROM_START:e} s")).at(field("time_from_start")));
        }
        if let Some(prev) = points.last().map(|q: &TrajectoryPoint| q.time_from_start)
            && time_from_start <= prev
        {
            return Err(InputError::new(format!("time_from_start {time_from_start} does not increase (previous point: {prev})")).at(field("time_from_start")));
        }
        points.push(TrajectoryPoint { positions, velocities, accelerations, time_from_start });
    }
    Ok(Trajectory { joint_names, points })
}
