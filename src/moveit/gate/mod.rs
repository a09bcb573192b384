//! The execution gate's meaning: a `control_msgs/FollowJointTrajectory` proxy between
//! MoveIt and each gated controller forwards a goal only when the motion the controller
//! will run is certified collision-free, and stops a running one that a scene change
//! makes unsafe.
//!
//! [`goal_check`] decides (with the [`super::guard::Guard`]'s scene). The action
//! protocol on both sides is a transport's (`crate::node::transport`).
pub mod goal_check;

pub use goal_check::{GateDecision, GateGoal, GateOptions, GoalError, GoalKey, GoalVerdict};
