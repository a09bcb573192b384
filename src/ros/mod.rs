//! The ROS 2 node: ccd_guard on the ROS graph, beside move_group.
//!
//! - [`msg`]: the messages it sends and receives, CDR-exact Rust types.
//! - [`cdr`]: payload bytes as the transport writes and reads them.
pub mod cdr;
pub mod msg;
