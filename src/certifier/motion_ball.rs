//! Bounding balls of a motion in the 12-dimensional space of affine maps (Schröcker & Weber 2013 §5),
//! from the pipeline's interval enclosures: around the pose `g` at one instant, the
//! radius bounds `dist(P(t), g)` for every pose `P(t)` the enclosure holds, in the
//! moving element's object-oriented metric (§2):
//!
//!   R² = |μ| sup |P(b) - g(b)|² + Σ_k μ_k sup |(R_P - R_g) u_k|²,
//!
//! each supremum taken over the interval set, rounded outwards. The enclosures of the
//! sub-intervals lie inside the parent's, so the balls shrink with subdivision.
//!
//! A second ball comes from the arc length of the motion (§5, the idea of Proposition
//! 2): the curve's metric speed is bounded by the pose derivatives' enclosures
//! ([`metric_speed_bound`] against a still obstacle, [`relative_metric_speed_bound`]
//! against another link), so the arc length from the
//! cell's middle to either end is at most `speed · h/2`, and the ball of that radius
//! around the pose at the middle holds the curve (metric distance never exceeds arc
//! length). Proposition 2's own ball, built from the same arc length ℓ and a curvature
//! bound 1/r, has radius `r·tan(ℓ/2r) ≥ ℓ/2`: never smaller, and it needs a speed
//! bounded away from zero, which cubic and quintic segments lack at their waypoints.
//! So the midpoint ball is the one built; the caller keeps whichever ball is smaller.
use super::metric::ObjectMetric;
use crate::enclosure::{IntervalPose, IntervalVector3, LinkJet};
use crate::math::{Isometry3, Point3, Real};

/// The ball B_R(g) of affine maps: every pose of the motion over the interval is within
/// `radius` of `centre` in the element's metric, so every point x of the element is
/// within `radius · ϱ(x)` of `centre · x`.
#[derive(Clone, Copy, Debug)]
pub struct MotionBall {
    pub centre: Isometry3,
    pub radius: Real,
}

/// Upper bound of `|v - p|` over the box `v`, with `p`'s own rounding (it was computed
/// in floating point) covered.
fn distance_bound_sq(v: &IntervalVector3, p: &Point3) -> Real {
    (0..3)
        .map(|i| {
            let d = (v.0[i] - p[i]).mag() + 4.0 * Real::EPSILON * p[i].abs();
            d * d
        })
        .sum()
}

/// The ball around `centre` holding every pose of `over` (the moving element's pose set
/// in the fixed frame), in `metric`. The radius also covers, through the smallest
/// distortion rate 1/√|μ|, an absolute `slack` (metres) that the callers spend on the
/// rounding of mapping fixed geometry by `centre⁻¹`.
pub fn motion_ball(metric: &ObjectMetric, over: &IntervalPose, centre: &Isometry3, slack: Real) -> MotionBall {
    let barycenter = over.transform_point(&metric.barycenter);
    let mut radius_sq = metric.mass * distance_bound_sq(&barycenter, &(centre * metric.barycenter));
    let rotation = centre.rotation.to_rotation_matrix().into_inner();
    for k in 0..3 {
        let u = metric.axes.column(k).into_owned();
        let moved = over.rotation.mul_f64_vector(&u);
        radius_sq += metric.moments[k] * distance_bound_sq(&moved, &Point3::from(rotation * u));
    }
    // Round the sum and the root up (relative 1e-12 is far above their error), then add
    // the slack as a displacement of at least `slack` everywhere (ϱ ≥ 1/√|μ|).
    let radius = radius_sq.sqrt() * (1.0 + 1e-12) + slack * metric.mass.sqrt();
    MotionBall { centre: *centre, radius: if radius.is_finite() { radius } else { Real::INFINITY } }
}

/// Upper bound of the metric speed `|Ṗ|` (§2: `|μ| |ṗ(b)|² + Σ_k μ_k |Ȧ u_k|²`) of an
/// element placed at `origin` on a link whose world pose and rate `jet` encloses, seen
/// from a frame that stands still.
pub fn metric_speed_bound(metric: &ObjectMetric, jet: &LinkJet, origin: &Isometry3) -> Real {
    let placed = IntervalPose::from_isometry(origin);
    let bound_sq = |v: &IntervalVector3| -> Real { v.0.iter().map(|x| x.mag() * x.mag()).sum() };
    let barycenter = placed.transform_point(&metric.barycenter);
    let mut speed_sq = metric.mass * bound_sq(&(jet.rotation_rate.mul_vector(&barycenter) + jet.translation_rate));
    for k in 0..3 {
        let axis = placed.rotation.mul_f64_vector(&metric.axes.column(k).into_owned());
        speed_sq += metric.moments[k] * bound_sq(&jet.rotation_rate.mul_vector(&axis));
    }
    let speed = speed_sq.sqrt() * (1.0 + 1e-12);
    if speed.is_finite() { speed } else { Real::INFINITY }
}

/// As [`metric_speed_bound`], seen from another link's frame (`fixed`, moving too): a
/// body point's velocity relative to it is `ṗ - Ω_F (p - t_F) - ṫ_F` with the other
/// link's spin `Ω_F = Ṙ_F R_Fᵀ`, and an axis turns at `Ṙ u - Ω_F R u` (the frame's own
/// rotation does not change lengths).
pub fn relative_metric_speed_bound(metric: &ObjectMetric, jet: &LinkJet, origin: &Isometry3, fixed: &LinkJet) -> Real {
    let placed = IntervalPose::from_isometry(origin);
    let bound_sq = |v: &IntervalVector3| -> Real { v.0.iter().map(|x| x.mag() * x.mag()).sum() };
    let pose = &jet.enclosure.pose;
    let spin = fixed.rotation_rate.mul(&fixed.enclosure.pose.rotation.transpose());
    let barycenter = placed.transform_point(&metric.barycenter);
    let at = pose.rotation.mul_vector(&barycenter) + pose.translation;
    let velocity =
        jet.rotation_rate.mul_vector(&barycenter) + jet.translation_rate - spin.mul_vector(&(at - fixed.enclosure.pose.translation)) - fixed.translation_rate;
    let mut speed_sq = metric.mass * bound_sq(&velocity);
    for k in 0..3 {
        let axis = placed.rotation.mul_f64_vector(&metric.axes.column(k).into_owned());
        let turn = jet.rotation_rate.mul_vector(&axis) - spin.mul_vector(&pose.rotation.mul_vector(&axis));
        speed_sq += metric.moments[k] * bound_sq(&turn);
    }
    let speed = speed_sq.sqrt() * (1.0 + 1e-12);
    if speed.is_finite() { speed } else { Real::INFINITY }
}

/// The arc-length ball around `centre`: `centre_offset` bounds the metric distance from
/// `centre` to the curve's point at the middle instant, from which the curve runs at most
/// `half_duration` either way at metric speed at most `speed`.
pub fn arc_length_ball(metric: &ObjectMetric, centre: &Isometry3, centre_offset: Real, speed: Real, half_duration: Real, slack: Real) -> MotionBall {
    let radius = (centre_offset + speed * half_duration) * (1.0 + 1e-12) + slack * metric.mass.sqrt();
    MotionBall { centre: *centre, radius: if radius.is_finite() { radius } else { Real::INFINITY } }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enclosure::Interval;
    use crate::math::{Translation3, UnitQuaternion, Vector3};

    /// Every sampled pose of a turning, sliding motion lies in the ball, measured by the
    /// metric's own distance.
    #[test]
    fn ball_holds_the_sampled_motion() {
        let points: Vec<Point3> = [[0.1, 0.0, 0.0], [0.0, 0.2, 0.0], [0.0, 0.0, 0.05], [-0.1, -0.1, 0.02], [0.05, 0.1, -0.03]]
            .iter()
            .map(|p| Point3::new(p[0], p[1], p[2]))
            .collect();
        let metric = ObjectMetric::from_points(&points);
        let axis = Vector3::new(0.3, -0.2, 0.9).normalize();
        let at = |t: f64| Isometry3::from_parts(Translation3::new(0.5 + 0.2 * t, -0.1, 0.3 * t), UnitQuaternion::from_scaled_axis(axis * (0.4 + 0.7 * t)));
        let time = Interval::new(0.2, 0.5);
        let slide = IntervalPose { translation: IntervalVector3([time * 0.2 + 0.5, Interval::point(-0.1), time * 0.3]), ..IntervalPose::identity() };
        let over = slide.mul(&IntervalPose::rotation_about(&axis, time * 0.7 + 0.4));
        let ball = motion_ball(&metric, &over, &at(0.35), 0.0);
        for k in 0..=100 {
            let p = at(0.2 + 0.3 * k as f64 / 100.0);
            let dist_sq: f64 = points.iter().map(|m| (p * m - ball.centre * m).norm_squared()).sum();
            assert!(dist_sq.sqrt() <= ball.radius, "pose {k} is {} from the centre, radius {}", dist_sq.sqrt(), ball.radius);
            for m in &points {
                assert!((p * m - ball.centre * m).norm() <= ball.radius * metric.distortion_rate(m));
            }
        }
        assert!(ball.radius < 0.5, "radius {} is loose", ball.radius);
    }
}
