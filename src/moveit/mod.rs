//! What ROS 2 and MoveIt messages mean, with no transport inside.
//!
//! Everything here is plain data and pure logic, shared by the command line (`check`
//! reads MoveIt's formats), the node (whatever middleware carries it) and the audit of
//! recorded bags:
//! - [`msg`]: the message types, as serde data whose layout is the CDR layout rosidl
//!   generates, and [`cdr`], their encoding;
//! - [`planning_scene`]: the world kept in step with move_group's planning scene
//!   (collision objects, diffs, octomaps); [`scene_text`]: MoveIt's `.scene` files;
//! - [`convert`]: messages to checks (trajectories, shapes, poses) and reports to
//!   verdict messages; [`markers`]: the contacts for rviz;
//! - [`guard`]: the node's logic over one scene: jobs in, verdicts out;
//!   [`scene_input`]: what it takes in, as the node and the audit hear it;
//!   [`prepared_check`]: a check taken out of it, to run later or elsewhere;
//! - [`gate`]: the execution gate's decisions on `FollowJointTrajectory` goals;
//! - [`clock`]: the ROS clock every stamp comes from (system, or simulated by `/clock`).
//!
//! Soundness: a part of a scene that cannot be taken in is recorded as such, and every
//! verdict is `uncertain` (never certified free) until it is removed.
pub mod cdr;
pub mod clock;
pub mod convert;
pub mod gate;
pub mod guard;
pub mod internal_error;
pub mod markers;
pub mod msg;
pub mod planning_scene;
pub mod prepared_check;
pub mod scene_input;
pub mod scene_text;
