//! Enclosures of every link's pose, and of its time derivative, over a time interval
//! of one segment of the executed motion (seed 002 §3.3 and §4.1).
//!
//! The joint values over the interval are polynomial ranges (linear, cubic or quintic
//! motion), the joint rotations are `cos θ (I - u uᵀ) + sin θ [u]ₓ + u uᵀ` with interval
//! sine and cosine (seed 002 eq. 3-4), and the chain is concatenated parents-first
//! (eq. 6). Derivatives follow the product rule through the same chain; they bound the
//! velocities the interval Newton step needs (seed 002 §5.2.4).
use super::{Interval, IntervalMatrix3, IntervalPose, IntervalVector3};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::motion::Segment;
use crate::robot::{JointKind, Robot};

/// Pose and pose derivative (with respect to time) of one link over a time interval.
#[derive(Clone, Copy, Debug)]
pub struct LinkJet {
    pub pose: IntervalPose,
    /// Pose in the parent link's frame (the joint origin and motion alone): relative
    /// poses of two links are composed along the chain between them, free of the
    /// motion they share.
    pub local: IntervalPose,
    pub rotation_rate: IntervalMatrix3,
    pub translation_rate: IntervalVector3,
}

impl LinkJet {
    /// Enclosure of a body-fixed point's world position.
    pub fn point(&self, p: &Point3) -> IntervalVector3 {
        self.pose.transform_point(p)
    }

    /// Enclosure of a body-fixed point's world velocity.
    pub fn point_velocity(&self, p: &Point3) -> IntervalVector3 {
        self.rotation_rate.mul_f64_vector(&p.coords) + self.translation_rate
    }
}

/// Every link's jet over local times `[s0, s1]` of `segment`.
pub fn link_jets(robot: &Robot, segment: &Segment, s0: Real, s1: Real, out: &mut Vec<LinkJet>) {
    let s = if s0 == s1 { Interval::point(s0) } else { Interval::new(s0, s1) };
    let mut values = Vec::with_capacity(segment.coefficients.len());
    let mut rates = Vec::with_capacity(segment.coefficients.len());
    for c in &segment.coefficients {
        let coefficients = &c[..=segment.degree];
        values.push(Interval::polynomial(coefficients, s));
        let derivative: Vec<Real> = (1..coefficients.len()).map(|i| i as Real * coefficients[i]).collect();
        rates.push(Interval::polynomial(&derivative, s));
    }
    let zero = Interval::point(0.0);
    out.clear();
    out.resize(
        robot.links.len(),
        LinkJet {
            pose: IntervalPose::identity(),
            local: IntervalPose::identity(),
            rotation_rate: IntervalMatrix3([[zero; 3]; 3]),
            translation_rate: IntervalVector3::zeros(),
        },
    );
    for joint in &robot.joints {
        let parent = out[joint.parent_link];
        let (value, rate) = match joint.variable {
            None => (zero, zero),
            Some(v) => match &joint.mimic {
                Some(m) => (values[v] * m.multiplier + m.offset, rates[v] * m.multiplier),
                None => (values[v], rates[v]),
            },
        };
        out[joint.child_link] = child_jet(&parent, &joint.origin, joint.kind, &joint.axis, value, rate);
    }
}

/// The child's jet: parent, then the exact joint origin, then the joint's motion.
fn child_jet(parent: &LinkJet, origin: &Isometry3, kind: JointKind, axis: &Vector3, value: Interval, rate: Interval) -> LinkJet {
    let r_o = origin.rotation.to_rotation_matrix().into_inner();
    let at_origin = parent.pose.mul_isometry(origin);
    let rotation_rate = parent.rotation_rate.mul_matrix(&r_o);
    let translation_rate = parent.rotation_rate.mul_f64_vector(&origin.translation.vector) + parent.translation_rate;
    let origin_pose = IntervalPose::from_isometry(origin);
    let jet = match kind {
        JointKind::Fixed => LinkJet { pose: at_origin, local: origin_pose, rotation_rate, translation_rate },
        JointKind::Revolute | JointKind::Continuous => {
            let rotation = IntervalPose::rotation_about(axis, value);
            let d_rotation = rotation_derivative(axis, value, rate);
            LinkJet {
                pose: at_origin.mul(&rotation),
                local: origin_pose.mul(&rotation),
                rotation_rate: add(&rotation_rate.mul(&rotation.rotation), &at_origin.rotation.mul(&d_rotation)),
                translation_rate,
            }
        }
        JointKind::Prismatic => {
            let slide = IntervalPose::translation_along(axis, value);
            let direction = at_origin.rotation.mul_f64_vector(axis);
            LinkJet {
                pose: at_origin.mul(&slide),
                local: origin_pose.mul(&slide),
                rotation_rate,
                translation_rate: rotation_rate.mul_vector(&slide.translation)
                    + IntervalVector3(direction.0.map(|x| x * rate))
                    + translation_rate,
            }
        }
    };
    widened(jet)
}

/// Absolute widening of every link pose: covers the rounding of the exact constants
/// (joint origins from rpy, axes) that the f64 forward kinematics computes differently.
const POSE_SLACK_ROTATION: Real = 1e-14;
const POSE_SLACK_TRANSLATION: Real = 1e-12;

fn widened(jet: LinkJet) -> LinkJet {
    LinkJet {
        pose: jet.pose.widened(POSE_SLACK_ROTATION, POSE_SLACK_TRANSLATION),
        local: jet.local.widened(POSE_SLACK_ROTATION, POSE_SLACK_TRANSLATION),
        ..jet
    }
}

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

    /// The pose set of link `b` in the frame of link `a`, composed along the chain
    /// between them (up from each to their common ancestor).
    pub fn relative_pose(&self, jets: &[LinkJet], a: usize, b: usize) -> IntervalPose {
        let (mut x, mut y) = (a, b);
        let (mut a_up, mut b_up) = (IntervalPose::identity(), IntervalPose::identity());
        while x != y {
            if self.depth[x] >= self.depth[y] {
                a_up = jets[x].local.mul(&a_up);
                x = self.parent[x].expect("a link below the root has a parent");
            } else {
                b_up = jets[y].local.mul(&b_up);
                y = self.parent[y].expect("a link below the root has a parent");
            }
        }
        // a_up: a in the ancestor's frame; b_up: b in it. b in a: a_up⁻¹ b_up.
        a_up.inv_mul(&b_up)
    }
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
