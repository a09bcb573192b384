//! Floors 6-7 (robot, motion; enclosure): the robot model and the executed motion as
//! read from files, and the interval enclosures of the links' poses over time, each
//! against forward kinematics by hand, closed forms or exact (double-double) arithmetic.
//!
//! One test binary for the floors; one suite per file under `tests/robot_motion/`,
//! sharing `tests/common`.
//!
//! proptest reruns the failing cases it once found, kept beside their suite in
//! `<suite>.proptest-regressions`. It finds them there only because no `lib.rs` or
//! `main.rs` lies in `tests/` or its folders: a root at `tests/lib.rs` or
//! `tests/<floor>/main.rs` would make it look in a `proptest-regressions/` folder instead.
mod common;

mod robot_motion {
    /// Interval arithmetic holds every exact result.
    mod interval_enclosure;
    /// Link enclosures and motion balls hold the sampled poses.
    mod link_enclosures;
    /// Start-state filling, mimic joints and the controller's interpolation.
    mod motion;
    /// URDF, forward kinematics, mesh formats, package resolution, SRDF.
    mod robot_model;
}
