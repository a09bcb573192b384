//! The ROS 2 node: ccd_guard on the ROS graph, beside move_group.
//!
//! The data's path: [`node`] (the DDS transport, ros2-client) reads messages
//! ([`msg`], in [`cdr`]) into the [`work_queue`]; the [`worker`] runs the [`guard`], which
//! keeps the [`planning_scene`] in step with move_group, turns messages into checks
//! ([`convert`]) and checks into verdicts and rviz [`markers`]. The execution [`gate`]
//! serves a `FollowJointTrajectory` action in front of each gated controller and
//! forwards only certified goals. The command line
//! ([`arguments`], [`names`]), the [`parameters`] and the environment ([`discovery`])
//! configure it.
pub mod arguments;
pub mod cdr;
pub mod convert;
pub mod discovery;
pub mod gate;
pub mod guard;
pub mod internal_error;
pub mod logging;
pub mod markers;
pub mod msg;
pub mod names;
pub mod node;
pub mod parameters;
pub mod planning_scene;
pub mod scene_text;
pub mod work_queue;
pub mod worker;
