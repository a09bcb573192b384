//! How far an element can move per unit of each joint variable, whatever the other
//! joints do: the Lipschitz bound of a pair's distance in joint space (Lin 1993 §5's
//! time-to-collision bounds, written over configurations instead of time).
//!
//! Turning a revolute joint by `δ` moves every point of the links after it by at most
//! `δ` times its distance from the joint's axis, which is at most its distance from the
//! joint's origin: the lengths of the joint origins' translations down the chain plus
//! the element's ball (a prismatic joint after it adds its farthest travel). Sliding a
//! prismatic joint by `δ` moves them by `δ`. Changing the variables one at a time from
//! `q'` to `q`, the distance of two elements changes by at most `Σ_v L_v |q_v - q'_v|`,
//! with `L_v` the levers of the joints variable `v` drives (through mimic multipliers)
//! between the two bodies, on either side. The distance depends on the configuration
//! alone, so the bound holds whatever path the motion takes between them.
use super::conservative_advancement::BoundingBall;
use crate::collision::{Body, Element};
use crate::enclosure::Interval;
use crate::math::Real;
use crate::motion::Segment;
use crate::robot::{JointKind, Robot};

/// A pair's levers: per joint variable that moves one body relative to the other, the
/// largest distance any point moves per unit of it (metres per radian, or 1 for a
/// prismatic joint), rounded up.
#[derive(Clone, Debug, Default)]
pub struct PairLevers(pub Vec<(usize, Real)>);

impl PairLevers {
    /// The levers of link element `e` (inside `ball` of its frame) for `joints`, on the
    /// chain from the root to its link: `(variable, lever)`, one per joint. Infinite
    /// where a prismatic joint without limits lies between.
    pub fn of_element(robot: &Robot, e: &Element, ball: &BoundingBall, joints: &[usize]) -> Vec<(usize, Real)> {
        let Body::Link(link) = e.body else { return Vec::new() };
        let mut levers = Vec::new();
        // How far the element's points can lie from the origin of the current link's frame.
        let mut reach = (e.origin * ball.center).coords.norm() + ball.radius;
        for j in robot.joints_to_root(link) {
            let joint = &robot.joints[j];
            if joints.contains(&j)
                && let Some(v) = joint.variable
            {
                let multiplier = joint.mimic.as_ref().map_or(1.0, |m| m.multiplier.abs());
                let own = match joint.kind {
                    JointKind::Prismatic => 1.0,
                    JointKind::Revolute | JointKind::Continuous => reach,
                    JointKind::Fixed => 0.0,
                };
                levers.push((v, multiplier * own));
            }
            // From the parent's origin: the joint's offset, and how far it slides.
            let slide = match joint.kind {
                JointKind::Prismatic => joint.lower.abs().max(joint.upper.abs()),
                _ => 0.0,
            };
            reach += joint.origin.translation.vector.norm() + slide;
        }
        levers
    }

    /// The levers of a pair of elements: those of each link element for the joints
    /// `between` the two bodies, summed per variable and rounded up.
    pub fn of_pair(robot: &Robot, elements: [(&Element, &BoundingBall); 2], between: &[usize]) -> Self {
        let mut summed: Vec<(usize, Real)> = Vec::new();
        for (e, ball) in elements {
            for (v, lever) in Self::of_element(robot, e, ball, between) {
                match summed.iter_mut().find(|(w, _)| *w == v) {
                    Some((_, total)) => *total += lever,
                    None => summed.push((v, lever)),
                }
            }
        }
        Self(summed.into_iter().map(|(v, lever)| (v, lever * (1.0 + 1e-12))).collect())
    }

    /// A bound on how much the pair's distance at some joint values can exceed its
    /// distance anywhere over a time cell, from the variables' [`joint_deviations`] from
    /// those values over the cell (rounded up).
    pub fn drop(&self, deviations: &[Real]) -> Real {
        self.0.iter().map(|&(v, lever)| lever * deviations[v]).sum::<Real>() * (1.0 + 1e-12)
    }
}

/// How far each joint variable gets from its value in `anchor` over local times
/// `[s0, s1]` of `segment`: the larger distance to the ends of its range there
/// (interval evaluation of its polynomial, rounded outwards, then up).
pub fn joint_deviations(anchor: &[Real], segment: &Segment, s0: Real, s1: Real) -> Vec<Real> {
    let times = Interval::new(s0, s1);
    segment
        .coefficients
        .iter()
        .zip(anchor)
        .map(|(c, &q)| {
            let range = Interval::polynomial(&c[..=segment.degree], times);
            (range.hi - q).max(q - range.lo).max(0.0) * (1.0 + 1e-12)
        })
        .collect()
}
