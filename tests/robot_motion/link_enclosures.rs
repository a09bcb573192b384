//! Link enclosures over a time interval (`enclosure::link_enclosures` and
//! `link_jets`, Redon et al. 2004 §3.3 and §4.1) hold what f64 forward kinematics computes at
//! every sampled instant of the interval: each link's world pose, its pose in the
//! parent's frame, each link in every other's frame (composed along the chain between
//! them, both ways round at once), and (for the jets) the pose's time derivative by
//! central differences.
//! Robots: a chain with revolute joints about skew and coordinate axes, a continuous, a prismatic, a
//! fixed and a mimic joint (about -z: the rates of a turn about a negative axis); segments linear, cubic and quintic with random coefficients.
//! The certifier's balls of affine maps built from them (Schröcker & Weber §5: from the pose
//! enclosure, and from the arc length through the pose rates) hold every sampled pose in
//! the element's own metric.
use ccd_guard::certifier::metric::ObjectMetric;
use ccd_guard::certifier::motion_ball::{arc_length_ball, metric_speed_bound, motion_ball, relative_metric_speed_bound};
use ccd_guard::enclosure::{IntervalMatrix3, IntervalPose, IntervalVector3, KinematicTree, link_enclosures, link_jets};
use ccd_guard::math::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use ccd_guard::motion::Segment;
use ccd_guard::robot::Robot;
use ccd_guard::robot::resources::ResourceResolver;
use ccd_guard::robot::urdf::parse_urdf;
use proptest::prelude::*;
use std::path::Path;

const ROBOT: &str = r#"<robot name="chain">
  <link name="base"/> <link name="a"/> <link name="b"/> <link name="c"/> <link name="d"/>
  <link name="e"/> <link name="f"/> <link name="g"/>
  <joint name="j1" type="revolute"><parent link="base"/><child link="a"/>
    <origin xyz="0.1 0 0.3" rpy="0.3 -0.2 0.7"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j2" type="revolute"><parent link="a"/><child link="b"/>
    <origin xyz="0 0.2 0.1" rpy="1.1 0 0"/><axis xyz="0.3 0.4 -0.5"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="j3" type="continuous"><parent link="b"/><child link="c"/>
    <origin xyz="0.4 0 0" rpy="0 0.5 0"/><axis xyz="1 0 0"/></joint>
  <joint name="j4" type="prismatic"><parent link="c"/><child link="d"/>
    <origin xyz="0 0 0.2" rpy="0 0 -0.4"/><axis xyz="0 1 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
  <joint name="fixed" type="fixed"><parent link="d"/><child link="e"/>
    <origin xyz="0.05 -0.1 0.2" rpy="0.2 0.2 0.2"/></joint>
  <joint name="j5" type="revolute"><parent link="e"/><child link="f"/>
    <origin xyz="0.3 0 0" rpy="0 0 0"/><axis xyz="0 1 0"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <joint name="follower" type="revolute"><parent link="f"/><child link="g"/>
    <origin xyz="0 0 0.1" rpy="0 0 0"/><axis xyz="0 0 -1"/><limit lower="-3" upper="3" effort="1" velocity="1"/>
    <mimic joint="j5" multiplier="-1.5" offset="0.2"/></joint>
</robot>"#;

fn robot() -> Robot {
    parse_urdf(ROBOT, Path::new("chain.urdf"), &ResourceResolver::default()).unwrap()
}

fn segment(degree: usize, duration: f64, coefficients: Vec<[f64; 6]>) -> Segment {
    let mut coefficients = coefficients;
    for c in &mut coefficients {
        c[degree + 1..].fill(0.0);
    }
    Segment { start_time: 0.0, duration, degree, coefficients }
}

fn poses(robot: &Robot, seg: &Segment, s: f64) -> Vec<Isometry3> {
    let mut q = vec![0.0; seg.coefficients.len()];
    seg.positions_at(s, &mut q);
    robot.link_poses(&q)
}

fn rotation(p: &Isometry3) -> Matrix3 {
    p.rotation.to_rotation_matrix().into_inner()
}

/// `m` within the set, allowing `slack` outside it (for finite differences).
fn matrix_within(set: &IntervalMatrix3, m: &Matrix3, slack: f64) -> bool {
    (0..3).all(|i| (0..3).all(|j| set.0[i][j].lo - slack <= m[(i, j)] && m[(i, j)] <= set.0[i][j].hi + slack))
}

fn vector_within(set: &IntervalVector3, v: &Vector3, slack: f64) -> bool {
    (0..3).all(|i| set.0[i].lo - slack <= v[i] && v[i] <= set.0[i].hi + slack)
}

fn check(robot: &Robot, seg: &Segment, s0: f64, s1: f64) -> Result<(), TestCaseError> {
    let (mut enclosures, mut jets, mut poses_only, mut some) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    link_enclosures(robot, seg, s0, s1, true, None, &mut enclosures);
    link_enclosures(robot, seg, s0, s1, false, None, &mut poses_only);
    // Only link "e" (index 5) and its ancestors.
    let only: Vec<bool> = (0..robot.links.len()).map(|l| l <= 5).collect();
    link_enclosures(robot, seg, s0, s1, true, Some(&only), &mut some);
    for (l, e) in some.iter().enumerate() {
        if only[l] {
            prop_assert_eq!(e.pose, enclosures[l].pose);
            prop_assert_eq!(e.local, enclosures[l].local);
        } else {
            prop_assert!(!e.pose.is_finite(), "link {} not asked for must be the whole space", l);
        }
    }
    // Each link in every other's frame, both ways round from one walk up the chain:
    // what the walk for each way gives, bit for bit.
    let tree = KinematicTree::new(robot);
    let links = robot.links.len();
    let mut relative = Vec::new();
    for a in 0..links {
        for b in 0..links {
            let both = tree.relative_poses(&enclosures, a, b);
            prop_assert_eq!(both[0], tree.relative_pose(&enclosures, a, b), "link {} in link {}'s frame", b, a);
            prop_assert_eq!(both[1], tree.relative_pose(&enclosures, b, a), "link {} in link {}'s frame", a, b);
            relative.push((a, b, both[0]));
        }
    }
    link_jets(robot, seg, s0, s1, &mut jets);
    let parent = |link: usize| robot.joints.iter().find(|j| j.child_link == link).map(|j| j.parent_link);
    for k in 0..=16 {
        let s = s0 + (s1 - s0) * k as f64 / 16.0;
        let at = poses(robot, seg, s);
        let h = 1e-6 * seg.duration;
        let (before, after) = (poses(robot, seg, s - h), poses(robot, seg, s + h));
        for (a, b, b_in_a) in &relative {
            let sampled = at[*a].inverse() * at[*b];
            prop_assert!(matrix_within(&b_in_a.rotation, &rotation(&sampled), 1e-13), "link {} in link {}'s frame, rotation at s={}", b, a, s);
            prop_assert!(vector_within(&b_in_a.translation, &sampled.translation.vector, 1e-13), "link {} in link {}'s frame at s={}", b, a, s);
        }
        for (l, pose) in at.iter().enumerate() {
            let e = &enclosures[l];
            prop_assert_eq!(e.pose, jets[l].enclosure.pose, "the jets' poses are the enclosures");
            prop_assert_eq!(e.pose, poses_only[l].pose, "the poses do not depend on the local ones");
            prop_assert!(poses_only[l].local.is_none());
            prop_assert!(e.pose.rotation.contains(&rotation(pose)), "link {} rotation at s={} not in {:?}", l, s, e.pose.rotation);
            prop_assert!(e.pose.translation.contains(&pose.translation.vector), "link {} translation at s={}", l, s);
            if let Some(p) = parent(l) {
                let local = at[p].inverse() * pose;
                let e_local = e.local.expect("asked for");
                prop_assert!(matrix_within(&e_local.rotation, &rotation(&local), 1e-13), "link {} local rotation at s={}", l, s);
                prop_assert!(vector_within(&e_local.translation, &local.translation.vector, 1e-13), "link {} local translation", l);
            }
            // Central differences inside the segment (the clamp would bend them at its ends).
            if s - h >= 0.0 && s + h <= seg.duration {
                let d_rotation = (rotation(&after[l]) - rotation(&before[l])) / (2.0 * h);
                let d_translation = (after[l].translation.vector - before[l].translation.vector) / (2.0 * h);
                let slack = 1e-4 * (1.0 + d_rotation.amax() + d_translation.amax());
                prop_assert!(matrix_within(&jets[l].rotation_rate, &d_rotation, slack), "link {} rotation rate at s={}", l, s);
                prop_assert!(vector_within(&jets[l].translation_rate, &d_translation, slack), "link {} translation rate at s={}", l, s);
            }
        }
    }
    Ok(())
}

fn coefficient() -> impl Strategy<Value = [f64; 6]> {
    prop::array::uniform6(-2.0..2.0f64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn enclosures_hold_every_sampled_pose(
        degree in prop::sample::select(vec![1usize, 3, 5]),
        duration in 0.2..3.0f64,
        coefficients in prop::collection::vec(coefficient(), 5),
        a in 0.0..1.0f64,
        b in 0.0..1.0f64,
        wide in any::<bool>(),
    ) {
        let robot = robot();
        prop_assert_eq!(robot.variable_names().count(), 5);
        let seg = segment(degree, duration, coefficients);
        // Some intervals span most of the segment, others are short.
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let (s0, s1) = if wide { (lo * duration, hi * duration) } else { (lo * duration, (lo + 1e-3 * hi) * duration) };
        check(&robot, &seg, s0, s1)?;
    }
}

#[test]
fn point_interval_enclosures_are_tight() {
    let robot = robot();
    let seg = segment(5, 1.0, vec![[0.1, -0.5, 0.3, 0.2, -0.1, 0.05]; 5]);
    let mut enclosures = Vec::new();
    link_enclosures(&robot, &seg, 0.37, 0.37, false, None, &mut enclosures);
    let at = poses(&robot, &seg, 0.37);
    for (l, e) in enclosures.iter().enumerate() {
        assert!(e.pose.rotation.contains(&rotation(&at[l])) && e.pose.translation.contains(&at[l].translation.vector));
        let width = (0..3).flat_map(|i| (0..3).map(move |j| (i, j))).map(|(i, j)| e.pose.rotation.0[i][j].width()).fold(0.0, f64::max);
        assert!(width < 1e-12, "link {l}: rotation width {width} at a point in time");
    }
}

/// The metric distance of two poses (Schröcker & Weber §2: |μ| |δ(b)|² + Σ_k μ_k |A u_k|²).
fn metric_distance(metric: &ObjectMetric, a: &Isometry3, b: &Isometry3) -> f64 {
    let (ra, rb) = (rotation(a), rotation(b));
    let axes: f64 = (0..3).map(|k| metric.moments[k] * ((ra - rb) * metric.axes.column(k)).norm_squared()).sum();
    (metric.mass * (a * metric.barycenter - b * metric.barycenter).norm_squared() + axes).sqrt()
}

/// Both balls of an element on each link over `[s0, s1]` hold the sampled poses, and
/// return the largest ratio of sampled distance to the arc-length ball's radius.
fn check_balls(robot: &Robot, seg: &Segment, s0: f64, s1: f64, points: &[Point3], origin: &Isometry3) -> Result<f64, TestCaseError> {
    let metric = ObjectMetric::from_points(points);
    let (mut enclosures, mut at_middle, mut jets) = (Vec::new(), Vec::new(), Vec::new());
    let middle = 0.5 * (s0 + s1);
    link_enclosures(robot, seg, s0, s1, false, None, &mut enclosures);
    link_enclosures(robot, seg, middle, middle, false, None, &mut at_middle);
    link_jets(robot, seg, s0, s1, &mut jets);
    let centres = poses(robot, seg, middle);
    let half = (middle - s0).max(s1 - middle) * (1.0 + 4.0 * f64::EPSILON);
    let mut tightest: f64 = 0.0;
    for l in 0..robot.links.len() {
        let centre = centres[l] * origin;
        let element = |pose: &IntervalPose| pose.mul_isometry(origin);
        let enclosed = motion_ball(&metric, &element(&enclosures[l].pose), &centre, 0.0);
        let offset = motion_ball(&metric, &element(&at_middle[l].pose), &centre, 0.0).radius;
        let arc = arc_length_ball(&metric, &centre, offset, metric_speed_bound(&metric, &jets[l], origin), half, 0.0);
        for k in 0..=32 {
            let s = s0 + (s1 - s0) * k as f64 / 32.0;
            let distance = metric_distance(&metric, &(poses(robot, seg, s)[l] * origin), &centre);
            prop_assert!(distance <= enclosed.radius, "link {}: enclosure ball {} < {} at s={}", l, enclosed.radius, distance, s);
            prop_assert!(distance <= arc.radius, "link {}: arc-length ball {} < {} at s={}", l, arc.radius, distance, s);
            if arc.radius > 0.0 {
                tightest = tightest.max(distance / arc.radius);
            }
        }
        // Seen from another link's frame (both moving).
        for fixed in [2, 4, 6] {
            let seen = centres[fixed].inv_mul(&centre);
            let offset = motion_ball(&metric, &at_middle[fixed].pose.inv_mul(&element(&at_middle[l].pose)), &seen, 0.0).radius;
            let speed = relative_metric_speed_bound(&metric, &jets[l], origin, &jets[fixed]);
            let arc = arc_length_ball(&metric, &seen, offset, speed, half, 0.0);
            for k in 0..=32 {
                let s = s0 + (s1 - s0) * k as f64 / 32.0;
                let at = poses(robot, seg, s);
                let distance = metric_distance(&metric, &at[fixed].inv_mul(&(at[l] * origin)), &seen);
                prop_assert!(distance <= arc.radius, "link {} from link {}: arc-length ball {} < {} at s={}", l, fixed, arc.radius, distance, s);
            }
        }
    }
    Ok(tightest)
}

fn mass_point() -> impl Strategy<Value = Point3> {
    prop::array::uniform3(-0.3..0.3f64).prop_map(|p| Point3::new(p[0], p[1], p[2]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]
    #[test]
    fn motion_balls_hold_every_sampled_pose(
        degree in prop::sample::select(vec![1usize, 3, 5]),
        duration in 0.2..3.0f64,
        coefficients in prop::collection::vec(coefficient(), 5),
        a in 0.0..1.0f64,
        width in prop::sample::select(vec![1e-3, 0.03, 0.3]),
        points in prop::collection::vec(mass_point(), 4..9),
        shift in prop::array::uniform3(-0.2..0.2f64),
        turn in prop::array::uniform3(-2.0..2.0f64),
    ) {
        let robot = robot();
        let seg = segment(degree, duration, coefficients);
        let s0 = a * (1.0 - width) * duration;
        let origin = Isometry3::from_parts(Translation3::new(shift[0], shift[1], shift[2]), UnitQuaternion::from_scaled_axis(Vector3::new(turn[0], turn[1], turn[2])));
        check_balls(&robot, &seg, s0, s0 + width * duration, &points, &origin)?;
    }
}

/// The arc-length ball is not loose: one joint turning at a constant rate over a short
/// cell moves nearly along a straight line in the space of affine maps, so the pose at
/// the cell's end lies close to the ball's boundary. A speed bound off by a factor of
/// 1.2 fails this.
#[test]
fn arc_length_ball_is_tight_for_a_steady_turn() {
    let robot = robot();
    let seg = segment(1, 1.0, vec![[0.3, 0.8, 0.0, 0.0, 0.0, 0.0], [0.0; 6], [0.0; 6], [0.0; 6], [0.0; 6]]);
    let points = [Point3::new(0.1, 0.0, 0.0), Point3::new(0.0, 0.2, 0.0), Point3::new(0.0, 0.0, 0.05), Point3::new(-0.1, -0.1, 0.02)];
    let ratio = check_balls(&robot, &seg, 0.4, 0.41, &points, &Isometry3::identity()).unwrap();
    assert!(ratio > 0.85, "sampled distance reaches only {ratio} of the arc-length radius");
}
