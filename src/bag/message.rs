//! One recorded message, and what the audit makes of its type.
use std::sync::Arc;

/// A message as a bag holds it: its topic, its type, its receive time and its CDR bytes.
#[derive(Clone, Debug)]
pub struct BagMessage {
    pub topic: Arc<str>,
    pub kind: RecordedKind,
    /// The bag's receive time (rosbag2's `timestamp`, MCAP's `log_time`), in ns.
    pub log_time: u64,
    pub data: Payload,
}

/// A message's bytes, or why the audit cannot read them.
#[derive(Clone, Debug)]
pub enum Payload {
    /// CDR, as ROS 2 writes it.
    Cdr(Vec<u8>),
    /// Another encoding: a plan that cannot be checked, a gap in the world.
    Unreadable(String),
}

/// The types the audit reads, by their ROS 2 names; every other type is skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordedKind {
    DisplayTrajectory,
    JointTrajectory,
    PlanningScene,
    CollisionObject,
    JointState,
}

impl RecordedKind {
    /// The kind of a type name as rosbag2 writes it (`moveit_msgs/msg/DisplayTrajectory`;
    /// also without the `msg/`); `None`: a type the audit does not read.
    pub fn of_type(type_name: &str) -> Option<Self> {
        let (package, name) = type_name.split_once('/')?;
        let name = name.strip_prefix("msg/").unwrap_or(name);
        Some(match (package, name) {
            ("moveit_msgs", "DisplayTrajectory") => Self::DisplayTrajectory,
            ("trajectory_msgs", "JointTrajectory") => Self::JointTrajectory,
            ("moveit_msgs", "PlanningScene") => Self::PlanningScene,
            ("moveit_msgs", "CollisionObject") => Self::CollisionObject,
            ("sensor_msgs", "JointState") => Self::JointState,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::RecordedKind;

    #[test]
    fn types_are_known_by_their_ros_names() {
        assert_eq!(RecordedKind::of_type("moveit_msgs/msg/DisplayTrajectory"), Some(RecordedKind::DisplayTrajectory));
        assert_eq!(RecordedKind::of_type("trajectory_msgs/JointTrajectory"), Some(RecordedKind::JointTrajectory));
        assert_eq!(RecordedKind::of_type("sensor_msgs/msg/Image"), None);
        assert_eq!(RecordedKind::of_type("JointState"), None);
    }
}
