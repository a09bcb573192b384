//! The execution gate: a `control_msgs/FollowJointTrajectory` proxy between MoveIt and
//! each gated controller, that forwards a goal only when the motion the controller will
//! run is certified collision-free, and stops a running one that a scene change makes
//! unsafe.
//!
//! [`goal_check`] decides (on the worker, with the [`super::guard::Guard`]'s scene);
//! [`relay`] speaks the action protocol on both sides (on the DDS thread).
pub mod goal_check;
pub mod relay;

pub use goal_check::{GateDecision, GateGoal, GateOptions, GoalError, GoalKey, GoalVerdict};
pub use relay::{GateWork, Relay, RelayError};
