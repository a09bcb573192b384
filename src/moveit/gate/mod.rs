//! The execution gate's meaning: a `control_msgs/FollowJointTrajectory` proxy between
//! MoveIt and each gated controller forwards a goal only when the motion the controller
//! will run is certified collision-free, and stops a running one that a scene change
//! makes unsafe.
//!
//! [`goal_check`] decides on one goal (with the [`super::guard::Guard`]'s scene);
//! [`goal_life`] carries every goal through its life cycle as a state machine, events
//! in and commands out. Speaking the action protocol on both sides is a transport's
//! (`crate::node::transport`): it turns what arrives into events and carries out the
//! commands.
pub mod goal_check;
pub mod goal_life;

pub use goal_check::{GateDecision, GateGoal, GateOptions, GoalError, GoalKey, GoalVerdict};
pub use goal_life::{CancelCode, GateWork, GoalCommand, GoalEvent, GoalLife, GoalStatusCode};
