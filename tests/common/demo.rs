//! The demo work cell of `assets/demo`: its files, and the guard and trajectories the
//! node's tests load from them.
use ccd_guard::moveit::guard::{Guard, GuardSettings};
use ccd_guard::moveit::msg;
use std::path::{Path, PathBuf};

/// The path of `file` in `assets/demo`.
pub fn demo(file: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo").join(file)
}

/// A guard with the demo robot, its SRDF and the demo scene.
pub fn demo_guard() -> Guard {
    Guard::new(GuardSettings {
        urdf_file: Some(demo("robot.urdf").display().to_string()),
        srdf_file: Some(demo("robot.srdf").display().to_string()),
        scene_file: Some(demo("scene.yaml").display().to_string()),
        ..GuardSettings::default()
    })
}

/// A demo trajectory file as a `JointTrajectory` message.
pub fn demo_trajectory(file: &str) -> msg::JointTrajectory {
    ccd_guard::moveit::convert::trajectory_message(&ccd_guard::motion::load_trajectory(&demo(file)).unwrap())
}
