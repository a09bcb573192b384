//! The robot's joint limits along a motion, as MoveIt's bounds checks hold a plan to
//! them: every waypoint within the URDF's position limits, and the motion between
//! waypoints too (a cubic or quintic can overshoot where the points do not); velocities
//! above the URDF's limits are reported, not refused (time parameterization is the
//! planner's business, and a controller may scale it).
use super::{JointMotion, Segment};
use crate::error::{InputError, InputResult};
use crate::math::Real;
use crate::robot::Robot;

/// How far (rad or m) a position may lie outside its limits: rounding in planners, as
/// the margin of MoveIt's bounds check allows.
pub const POSITION_MARGIN: Real = 1e-4;
/// How finely a segment's derivative is scanned for sign changes before bisection.
const SCAN_STEPS: usize = 64;

/// Every waypoint and the motion between them within the position limits (mimic
/// joints follow their leaders and are not checked); else the first violation, named.
pub fn check_position_limits(robot: &Robot, motion: &JointMotion) -> InputResult<()> {
    let limited: Vec<(usize, &crate::robot::Joint)> =
        robot.variables.iter().enumerate().map(|(v, &j)| (v, &robot.joints[j])).filter(|(_, j)| j.lower.is_finite() || j.upper.is_finite()).collect();
    let outside = |value: Real, joint: &crate::robot::Joint| value < joint.lower - POSITION_MARGIN || value > joint.upper + POSITION_MARGIN;
    for (k, q) in motion.waypoints.iter().enumerate() {
        for &(v, joint) in &limited {
            if outside(q[v], joint) {
                return Err(
                    InputError::new(format!("{} = {} is outside its limits [{}, {}]", joint.name, q[v], joint.lower, joint.upper)).at(format!("points[{k}]"))
                );
            }
        }
    }
    for segment in motion.segments.iter().filter(|s| s.degree > 1) {
        for &(v, joint) in &limited {
            let c = &segment.coefficients[v];
            let position = |s: Real| c[..=segment.degree].iter().rev().fold(0.0, |acc, ci| acc * s + ci);
            let velocity = |s: Real| (1..=segment.degree).rev().fold(0.0, |acc, i| acc * s + i as Real * c[i]);
            for s in extrema(segment, velocity) {
                let value = position(s);
                if outside(value, joint) {
                    return Err(InputError::new(format!(
                        "{} leaves its limits [{}, {}] between waypoints: {value:.6} at t = {:.6} s (the {} interpolation overshoots)",
                        joint.name,
                        joint.lower,
                        joint.upper,
                        segment.start_time + s,
                        if segment.degree == 3 { "cubic" } else { "quintic" }
                    ))
                    .at("points"));
                }
            }
        }
    }
    Ok(())
}

/// The joints whose velocity limit the motion exceeds: for each, the largest speed, when,
/// and the limit.
pub fn velocity_warnings(robot: &Robot, motion: &JointMotion) -> Vec<String> {
    let mut warnings = Vec::new();
    for (v, &j) in robot.variables.iter().enumerate() {
        let joint = &robot.joints[j];
        if !joint.max_velocity.is_finite() {
            continue;
        }
        let mut worst: Option<(Real, Real)> = None;
        for segment in &motion.segments {
            let c = &segment.coefficients[v];
            let velocity = |s: Real| (1..=segment.degree).rev().fold(0.0, |acc, i| acc * s + i as Real * c[i]);
            let acceleration = |s: Real| (2..=segment.degree).rev().fold(0.0, |acc, i| acc * s + (i * (i - 1)) as Real * c[i]);
            for s in extrema(segment, acceleration) {
                let speed = velocity(s).abs();
                if speed > joint.max_velocity * (1.0 + 1e-9) && worst.is_none_or(|(w, _)| speed > w) {
                    worst = Some((speed, segment.start_time + s));
                }
            }
        }
        if let Some((speed, t)) = worst {
            warnings.push(format!("{} moves at {speed:.4} at t = {t:.4} s, above its velocity limit {}", joint.name, joint.max_velocity));
        }
    }
    warnings
}

/// Where a function over the segment may take its extremes: both ends, and where its
/// `derivative` changes sign (scanned, then bisected to the last bit).
fn extrema(segment: &Segment, derivative: impl Fn(Real) -> Real) -> Vec<Real> {
    let t = segment.duration;
    let mut at = vec![0.0, t];
    let mut previous = (0.0, derivative(0.0));
    for i in 1..=SCAN_STEPS {
        let s = t * i as Real / SCAN_STEPS as Real;
        let d = derivative(s);
        if (previous.1 < 0.0) != (d < 0.0) {
            let (mut lo, mut hi) = (previous.0, s);
            let rising = previous.1 < 0.0;
            for _ in 0..60 {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                if (derivative(mid) < 0.0) == rising { lo = mid } else { hi = mid }
            }
            at.push(0.5 * (lo + hi));
        }
        previous = (s, d);
    }
    at
}
