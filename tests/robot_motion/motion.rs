//! The executed motion: start-state filling, mimic joints, and the controller's
//! interpolation (linear, cubic, quintic) between points.
use ccd_guard::motion::{JointMotion, parse_joint_state, parse_trajectory};
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::urdf;
use std::path::Path;

const ROBOT: &str = r#"<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/><limit lower="-2" upper="2" effort="1" velocity="1"/></joint>
  <joint name="j2" type="prismatic"><parent link="a"/><child link="b"/><axis xyz="1 0 0"/><limit lower="0.2" upper="0.5" effort="1" velocity="1"/></joint>
  <joint name="j3" type="revolute"><parent link="b"/><child link="c"/><axis xyz="0 1 0"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="j3_mimic" type="revolute"><parent link="b"/><child link="d"/><axis xyz="0 1 0"/><limit lower="-2" upper="2" effort="1" velocity="1"/><mimic joint="j3" multiplier="2" offset="0.1"/></joint>
</robot>"#;

fn motion(trajectory: &str, start: Option<&str>) -> (ccd_guard::robot::Robot, JointMotion) {
    let robot = urdf::parse_urdf(ROBOT, Path::new("r.urdf"), &ResourceResolver::default()).unwrap();
    let traj = parse_trajectory(trajectory, Path::new("t.yaml")).unwrap();
    let start = start.map(|s| parse_joint_state(s, Path::new("s.yaml")).unwrap());
    let m = JointMotion::new(&robot, &traj, start.as_ref()).unwrap();
    (robot, m)
}

#[test]
fn left_out_joints_come_from_the_start_state_else_zero_clamped() {
    let traj = "joint_names: [j1]\npoints:\n  - {positions: [0.0], time_from_start: 0}\n  - {positions: [1.0], time_from_start: {sec: 2, nanosec: 0}}\n";
    let (robot, m) = motion(traj, None);
    // j2 has limits [0.2, 0.5]: 0 clamps to 0.2.
    assert_eq!(m.waypoints[1], vec![1.0, 0.2, 0.0]);
    let (_, m) = motion(traj, Some("name: [j3, j2, other_robot_joint]\nposition: [0.4, 0.3, 9.0]\n"));
    assert_eq!(m.waypoints[0], vec![0.0, 0.3, 0.4]);
    // The mimic joint follows j3: 2 * 0.4 + 0.1.
    let d = robot.joint_named("j3_mimic").unwrap();
    assert!((robot.joint_value(d, &m.waypoints[0]) - 0.9).abs() < 1e-15);
    assert_eq!(m.end_time(), 2.0);
}

#[test]
fn linear_with_positions_only() {
    let traj = "joint_names: [j1, j3]\npoints:\n  - {positions: [0.0, 0.5], time_from_start: 1}\n  - {positions: [1.0, -0.5], time_from_start: 3}\n";
    let (_, m) = motion(traj, None);
    assert_eq!(m.segments[0].degree, 1);
    let q = m.positions_at(1.5);
    assert!((q[0] - 0.25).abs() < 1e-15 && (q[2] - 0.25).abs() < 1e-15, "{q:?}");
    assert_eq!(m.positions_at(0.0), m.waypoints[0]);
    assert_eq!(m.positions_at(5.0), m.waypoints[1]);
}

#[test]
fn cubic_with_velocities_and_quintic_with_accelerations() {
    let traj = "joint_names: [j1]\npoints:\n  - {positions: [0.0], velocities: [0.0], time_from_start: 0}\n  - {positions: [1.0], velocities: [0.0], time_from_start: 1}\n  \
                  - {positions: [2.0], velocities: [0.0], accelerations: [0.0], time_from_start: 2}\n";
    let (_, m) = motion(traj, None);
    assert_eq!(m.segments[0].degree, 3);
    // Hermite with zero end velocities: 3s^2 - 2s^3; at s = 0.25: 0.15625.
    assert!((m.positions_at(0.25)[0] - 0.15625).abs() < 1e-15);
    // Second segment: accelerations on only one end, so still cubic.
    assert_eq!(m.segments[1].degree, 3);
    let traj = "joint_names: [j1]\npoints:\n  - {positions: [0.0], velocities: [0.0], accelerations: [0.0], time_from_start: 0}\n  \
                  - {positions: [1.0], velocities: [0.0], accelerations: [0.0], time_from_start: 1}\n";
    let (_, m) = motion(traj, None);
    assert_eq!(m.segments[0].degree, 5);
    // Minimum-jerk: 10s^3 - 15s^4 + 6s^5; at s = 0.25: 0.103515625.
    assert!((m.positions_at(0.25)[0] - 0.103515625).abs() < 1e-14);
    let mut v = [0.0; 3];
    m.segments[0].velocities_at(0.5, &mut v);
    assert!((v[0] - 1.875).abs() < 1e-13, "{v:?}");
}
