//! The motion: trajectory files, the start state, and the joint motion a
//! `joint_trajectory_controller` executes between the points.
mod joint_limits;
mod joint_motion;
mod joint_state;
mod trajectory_file;

pub use joint_limits::{POSITION_MARGIN, check_position_limits, velocity_warnings};
pub use joint_motion::{JointMotion, Segment};
pub use joint_state::{JointState, load_joint_state, parse_joint_state};
pub use trajectory_file::{
    MAX_JOINT_VALUE, MAX_TIME_FROM_START, NO_POINTS, RawPoint, Trajectory, TrajectoryPoint, load_trajectory, parse_trajectory, validate_trajectory,
};
