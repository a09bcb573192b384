//! Floor 12 (the ROS node): its logic without DDS (command line, parameters, planning
//! scene, guard, markers, the gate's decisions, the worker), and the node process as
//! `ros2 launch` runs it, in a private network namespace. The DDS transport itself is
//! tested against other ROS 2 implementations in `interop/python`.
//!
//! One test binary for the floor; one suite per file under `tests/node/`, sharing
//! `tests/common`.
mod common;

mod node {
    /// The node process: logging, readiness, clean stops on signals.
    mod node_process;
    /// The execution gate's decisions.
    mod ros_gate;
    /// The node's logic without DDS.
    mod ros_node;
    /// The worker survives panics inside checks, goals and scene updates.
    mod ros_worker;
}
