//! Enclosures of every link's pose, and of its time derivative, over a time interval
//! of one segment of the executed motion (Redon et al. 2004 §3.3 and §4.1).
//!
//! The joint values over the interval are polynomial ranges (linear, cubic or quintic
//! motion), the joint rotations are `cos θ (I - u uᵀ) + sin θ [u]ₓ + u uᵀ` with interval
//! sine and cosine (Redon et al. 2004 eq. 3-4), and the chain is concatenated parents-first
//! (eq. 6). Derivatives follow the product rule through the same chain; they bound the
//! velocities the interval Newton step needs (Redon et al. 2004 §5.2.4).
use super::{AxisRotation, Interval, IntervalMatrix3, IntervalPose, IntervalVector3};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::motion::Segment;
use crate::robot::{JointKind, Robot};

/// Pose of one link over a time interval.
#[derive(Clone, Copy, Debug)]
pub struct LinkEnclosure {
    pub pose: IntervalPose,
    /// Pose in the parent link's frame (the joint origin and motion alone): relative
    /// poses of two links are composed along the chain between them, free of the
    /// motion they share. Computed when asked for (pairs of links need it).
    pub local: Option<IntervalPose>,
}

impl LinkEnclosure {
    /// Enclosure of a body-fixed point's world position.
    pub fn point(&self, p: &Point3) -> IntervalVector3 {
        self.pose.transform_point(p)
    }
}

/// Pose and pose derivative (with respect to time) of one link over a time interval;
/// the derivative costs as much again as the pose, so only the interval Newton step
/// asks for it.
#[derive(Clone, Copy, Debug)]
pub struct LinkJet {
    pub enclosure: LinkEnclosure,
    pub rotation_rate: IntervalMatrix3,
    pub translation_rate: IntervalVector3,
}

impl LinkJet {
    /// Enclosure of a body-fixed point's world velocity.
    pub fn point_velocity(&self, p: &Point3) -> IntervalVector3 {
        self.rotation_rate.mul_f64_vector(&p.coords) + self.translation_rate
    }
}

/// The joint values over local times `[s0, s1]`, and (if asked) their rates.
pub(super) fn joint_ranges(segment: &Segment, s0: Real, s1: Real, with_rates: bool) -> (Vec<Interval>, Vec<Interval>) {
    let s = if s0 == s1 { Interval::point(s0) } else { Interval::new(s0, s1) };
    let mut values = Vec::with_capacity(segment.coefficients.len());
    let mut rates = Vec::with_capacity(if with_rates { segment.coefficients.len() } else { 0 });
    for c in &segment.coefficients {
        let coefficients = &c[..=segment.degree];
        values.push(Interval::polynomial(coefficients, s));
        if with_rates {
            let mut derivative = [0.0; 6];
            for i in 1..coefficients.len() {
                derivative[i - 1] = i as Real * coefficients[i];
            }
            rates.push(Interval::polynomial(&derivative[..coefficients.len().saturating_sub(1)], s));
        }
    }
    (values, rates)
}

/// The value (and rate) of a joint from its variable's range, following a mimic joint's
/// leader.
pub(super) fn joint_value(joint: &crate::robot::Joint, values: &[Interval], rates: &[Interval]) -> (Interval, Interval) {
    let zero = Interval::point(0.0);
    match joint.variable {
        None => (zero, zero),
        Some(v) => {
            let rate = rates.get(v).copied().unwrap_or(zero);
            match &joint.mimic {
                Some(m) => (values[v] * m.multiplier + m.offset, rate * m.multiplier),
                None => (values[v], rate),
            }
        }
    }
}

/// Every link's pose enclosure over local times `[s0, s1]` of `segment`, with the
/// poses in the parent's frame if `with_local`. With `only`, just the links it marks
/// (and their ancestors must be marked too); the others get the whole space.
pub fn link_enclosures(robot: &Robot, segment: &Segment, s0: Real, s1: Real, with_local: bool, only: Option<&[bool]>, out: &mut Vec<LinkEnclosure>) {
    let (values, _) = joint_ranges(segment, s0, s1, false);
    out.clear();
    let root = LinkEnclosure { pose: IntervalPose::identity(), local: with_local.then(IntervalPose::identity) };
    out.resize(robot.links.len(), root);
    for joint in &robot.joints {
        if only.is_some_and(|only| !only[joint.child_link]) {
            out[joint.child_link] = LinkEnclosure { pose: IntervalPose::ENTIRE, local: with_local.then_some(IntervalPose::ENTIRE) };
            continue;
        }
        let (value, _) = joint_value(joint, &values, &[]);
        out[joint.child_link] = child_enclosure(&out[joint.parent_link], &joint.origin, joint.kind, &joint.axis, value, with_local);
    }
}

/// Every link's jet over local times `[s0, s1]` of `segment`.
pub fn link_jets(robot: &Robot, segment: &Segment, s0: Real, s1: Real, out: &mut Vec<LinkJet>) {
    let (values, rates) = joint_ranges(segment, s0, s1, true);
    let zero = Interval::point(0.0);
    out.clear();
    out.resize(
        robot.links.len(),
        LinkJet {
            enclosure: LinkEnclosure { pose: IntervalPose::identity(), local: Some(IntervalPose::identity()) },
            rotation_rate: IntervalMatrix3([[zero; 3]; 3]),
            translation_rate: IntervalVector3::zeros(),
        },
    );
    for joint in &robot.joints {
        let (value, rate) = joint_value(joint, &values, &rates);
        out[joint.child_link] = child_jet(&out[joint.parent_link], &joint.origin, joint.kind, &joint.axis, value, rate);
    }
}

/// The child's pose: parent, then the exact joint origin, then the joint's motion (a
/// rotation about or a slide along its axis).
pub(super) fn child_enclosure(parent: &LinkEnclosure, origin: &Isometry3, kind: JointKind, axis: &Vector3, value: Interval, with_local: bool) -> LinkEnclosure {
    turned_child(parent, origin, kind, axis, value, joint_rotation(kind, axis, value).as_ref(), with_local)
}

/// The rotations of a revolute or continuous joint by the angles `value`.
fn joint_rotation(kind: JointKind, axis: &Vector3, value: Interval) -> Option<AxisRotation> {
    matches!(kind, JointKind::Revolute | JointKind::Continuous).then(|| AxisRotation::new(axis, value))
}

/// [`child_enclosure`] with the joint's rotation (revolute and continuous joints) made.
fn turned_child(
    parent: &LinkEnclosure,
    origin: &Isometry3,
    kind: JointKind,
    axis: &Vector3,
    value: Interval,
    rotation: Option<&AxisRotation>,
    with_local: bool,
) -> LinkEnclosure {
    let at_origin = parent.pose.mul_isometry(origin);
    let origin_pose = with_local.then(|| IntervalPose::from_isometry(origin));
    // The joint's motion after the origin, for the world pose and the local one alike,
    // each widened by the pose slack (a turn takes it in its own widening of each entry).
    fn placed(at_origin: &IntervalPose, origin_pose: Option<&IntervalPose>, motion: impl Fn(&IntervalPose) -> IntervalPose) -> LinkEnclosure {
        LinkEnclosure { pose: motion(at_origin), local: origin_pose.map(&motion) }
    }
    let (at_origin, origin_pose) = (&at_origin, origin_pose.as_ref());
    let slack = |pose: IntervalPose| pose.widened(POSE_SLACK_ROTATION, POSE_SLACK_TRANSLATION);
    match (kind, rotation) {
        (JointKind::Fixed, _) => placed(at_origin, origin_pose, |pose| slack(*pose)),
        (JointKind::Revolute | JointKind::Continuous, Some(rotation)) => {
            placed(at_origin, origin_pose, |pose| pose.then_rotate_widened(rotation, POSE_SLACK_ROTATION, POSE_SLACK_TRANSLATION))
        }
        (JointKind::Revolute | JointKind::Continuous, None) => unreachable!("a turning joint's rotation is made"),
        (JointKind::Prismatic, _) => {
            let slide = IntervalPose::translation_along(axis, value);
            placed(at_origin, origin_pose, |pose| slack(pose.mul(&slide)))
        }
    }
}

/// The child's jet: its pose as in [`child_enclosure`], the derivative by the product
/// rule.
pub(super) fn child_jet(parent: &LinkJet, origin: &Isometry3, kind: JointKind, axis: &Vector3, value: Interval, rate: Interval) -> LinkJet {
    let r_o = origin.rotation.to_rotation_matrix().into_inner();
    let rotation = joint_rotation(kind, axis, value);
    let enclosure = turned_child(&parent.enclosure, origin, kind, axis, value, rotation.as_ref(), true);
    let at_origin_rotation = parent.enclosure.pose.rotation.mul_matrix(&r_o);
    let rotation_rate = parent.rotation_rate.mul_matrix(&r_o);
    let translation_rate = parent.rotation_rate.mul_f64_vector(&origin.translation.vector) + parent.translation_rate;
    match (kind, rotation) {
        (JointKind::Fixed, _) => LinkJet { enclosure, rotation_rate, translation_rate },
        // Product rule: d(M R)/dt = Ṁ R + M dR/dt, about a coordinate axis by mixing
        // columns.
        (JointKind::Revolute | JointKind::Continuous, Some(rotation)) => {
            let turning =
                rotation.right_multiply_rate(&at_origin_rotation, rate).unwrap_or_else(|| at_origin_rotation.mul(&rotation_derivative(axis, value, rate)));
            LinkJet { enclosure, rotation_rate: add(&rotation.right_multiply(&rotation_rate), &turning), translation_rate }
        }
        (JointKind::Revolute | JointKind::Continuous, None) => unreachable!("a turning joint's rotation is made"),
        (JointKind::Prismatic, _) => {
            let slide = IntervalPose::translation_along(axis, value);
            let direction = at_origin_rotation.mul_f64_vector(axis);
            LinkJet {
                enclosure,
                rotation_rate,
                translation_rate: rotation_rate.mul_vector(&slide.translation) + IntervalVector3(direction.0.map(|x| x * rate)) + translation_rate,
            }
        }
    }
}

/// Absolute widening of every link pose: covers the rounding of the exact constants
/// (joint origins from rpy, axes) that the f64 forward kinematics computes differently.
const POSE_SLACK_ROTATION: Real = 1e-14;
const POSE_SLACK_TRANSLATION: Real = 1e-12;

/// Parent and depth of every link, for walking the chain between two links.
#[derive(Clone, Debug)]
pub struct KinematicTree {
    parent: Vec<Option<usize>>,
    depth: Vec<usize>,
}

impl KinematicTree {
    pub fn new(robot: &Robot) -> Self {
        let mut parent = vec![None; robot.links.len()];
        let mut depth = vec![0; robot.links.len()];
        // Joints are listed parents first.
        for j in &robot.joints {
            parent[j.child_link] = Some(j.parent_link);
            depth[j.child_link] = depth[j.parent_link] + 1;
        }
        Self { parent, depth }
    }

    /// Marks `link` and its ancestors in `marks`.
    pub fn mark_chain(&self, link: usize, marks: &mut [bool]) {
        let mut x = Some(link);
        while let Some(l) = x {
            if marks[l] {
                return;
            }
            marks[l] = true;
            x = self.parent[l];
        }
    }

    /// The lowest link that is `a` or an ancestor of it and `b` or an ancestor of it.
    pub fn common_ancestor(&self, a: usize, b: usize) -> usize {
        let (mut x, mut y) = (a, b);
        while x != y {
            if self.depth[x] >= self.depth[y] {
                x = self.parent[x].expect("a link below the root has a parent");
            } else {
                y = self.parent[y].expect("a link below the root has a parent");
            }
        }
        x
    }

    /// The pose set of link `b` in the frame of link `a`, composed along the chain
    /// between them (up from each to their common ancestor). The enclosures must hold
    /// the poses in the parent's frame.
    pub fn relative_pose(&self, links: &[LinkEnclosure], a: usize, b: usize) -> IntervalPose {
        let (a_up, b_up) = self.up_to_common_ancestor(links, a, b);
        in_frame_of(a_up, b_up)
    }

    /// Both ways round from one walk up the chain: link `b` in the frame of link `a`,
    /// and `a` in `b`'s (each what [`Self::relative_pose`] gives).
    pub fn relative_poses(&self, links: &[LinkEnclosure], a: usize, b: usize) -> [IntervalPose; 2] {
        let (a_up, b_up) = self.up_to_common_ancestor(links, a, b);
        [in_frame_of(a_up, b_up), in_frame_of(b_up, a_up)]
    }

    /// Links `a` and `b` in the frame of their common ancestor (`None` for the ancestor
    /// itself): the products of the local poses up each chain.
    fn up_to_common_ancestor(&self, links: &[LinkEnclosure], a: usize, b: usize) -> (Option<IntervalPose>, Option<IntervalPose>) {
        let (mut x, mut y) = (a, b);
        // Each link in the common ancestor's frame, from the first step up (no product
        // with the identity).
        let (mut a_up, mut b_up): (Option<IntervalPose>, Option<IntervalPose>) = (None, None);
        let up = |pose: Option<IntervalPose>, link: &LinkEnclosure| Some(pose.map_or(*local(link), |p| local(link).mul(&p)));
        while x != y {
            if self.depth[x] >= self.depth[y] {
                a_up = up(a_up, &links[x]);
                x = self.parent[x].expect("a link below the root has a parent");
            } else {
                b_up = up(b_up, &links[y]);
                y = self.parent[y].expect("a link below the root has a parent");
            }
        }
        (a_up, b_up)
    }
}

/// Link b in the frame of link a, from each in their common ancestor's frame (`None`
/// for the ancestor itself): `a_up⁻¹ b_up`.
fn in_frame_of(a_up: Option<IntervalPose>, b_up: Option<IntervalPose>) -> IntervalPose {
    match (a_up, b_up) {
        (Some(a_up), Some(b_up)) => a_up.inv_mul(&b_up),
        (Some(a_up), None) => a_up.inv_mul(&IntervalPose::identity()),
        (None, Some(b_up)) => b_up,
        (None, None) => IntervalPose::identity(),
    }
}

fn local(link: &LinkEnclosure) -> &IntervalPose {
    link.local.as_ref().expect("link enclosures computed with the poses in the parent's frame")
}

/// d/dt of the rotation about `axis` by θ(t): `(-sin θ (I - u uᵀ) + cos θ [u]ₓ) θ̇`.
fn rotation_derivative(axis: &Vector3, theta: Interval, rate: Interval) -> IntervalMatrix3 {
    let u = axis.normalize();
    let (c, s) = (theta.cos(), theta.sin());
    let cross = [[0.0, -u.z, u.y], [u.z, 0.0, -u.x], [-u.y, u.x, 0.0]];
    let slack = Interval::new(-8.0 * Real::EPSILON, 8.0 * Real::EPSILON);
    IntervalMatrix3(std::array::from_fn(|i| {
        std::array::from_fn(|k| {
            let perp = (if i == k { 1.0 } else { 0.0 }) - Interval::point(u[i]) * u[k];
            ((-s) * perp + c * cross[i][k] + slack) * rate
        })
    }))
}

fn add(a: &IntervalMatrix3, b: &IntervalMatrix3) -> IntervalMatrix3 {
    IntervalMatrix3(std::array::from_fn(|i| std::array::from_fn(|k| a.0[i][k] + b.0[i][k])))
}
