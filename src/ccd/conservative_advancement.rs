//! Separation over a time interval for pairs with a curved primitive, where no
//! polynomial contact equations exist: the distance at the interval's start, from GJK's
//! proven lower bound, must exceed a bound on how far any point of one shape moves
//! relative to the other during the interval (conservative advancement). Exact
//! primitives, no tessellation, so the guarantee is the same as for triangles.
use crate::enclosure::IntervalPose;
use crate::math::{Isometry3, Point3, Real};
use crate::query::gjk;
use crate::shape::SupportMap;

/// A ball in a shape's own frame that holds the shape.
#[derive(Clone, Copy, Debug)]
pub struct BoundingBall {
    pub center: Point3,
    pub radius: Real,
}

/// Whether shape `b`, placed in `a`'s frame at `b_in_a_start` at the interval's start
/// and within `b_in_a` over the whole interval, stays apart from `a`. `ball_b` holds `b`
/// in its own frame.
pub fn separated_over(a: &dyn SupportMap, b: &dyn SupportMap, b_in_a_start: &Isometry3, b_in_a: &IntervalPose, ball_b: &BoundingBall) -> bool {
    advance(a, b, b_in_a_start, b_in_a, ball_b).separated
}

/// The outcome of one advancement test.
#[derive(Clone, Copy, Debug)]
pub struct Advancement {
    /// Proven apart over the whole interval.
    pub separated: bool,
    /// Proven lower bound on the distance at the interval's start.
    pub distance_at_start: Real,
}

/// As [`separated_over`], also telling the distance at the start.
pub fn advance(a: &dyn SupportMap, b: &dyn SupportMap, b_in_a_start: &Isometry3, b_in_a: &IntervalPose, ball_b: &BoundingBall) -> Advancement {
    let motion = motion_bound(b_in_a_start, b_in_a, ball_b);
    let distance = gjk::distance_lower_bound(a, &Isometry3::identity(), b, b_in_a_start);
    Advancement { separated: motion.is_finite() && distance > motion, distance_at_start: distance }
}

/// An upper bound on `|B(t) p - B(start) p|` over the interval, for `p` in the ball:
/// the motion of its centre plus the rotation's change times its radius.
pub fn motion_bound(start: &Isometry3, over: &IntervalPose, ball: &BoundingBall) -> Real {
    let r0 = start.rotation.to_rotation_matrix().into_inner();
    let t0 = (start * ball.center).coords;
    let centre = over.transform_point(&ball.center);
    let radius = ball.radius;
    let mut rotation_sq = 0.0;
    for i in 0..3 {
        for k in 0..3 {
            let d = (over.rotation.0[i][k] - r0[(i, k)]).mag();
            rotation_sq += d * d;
        }
    }
    let mut translation_sq = 0.0;
    for i in 0..3 {
        let d = (centre.0[i] - t0[i]).mag();
        translation_sq += d * d;
    }
    // Frobenius norm bounds the spectral norm; round the result up.
    (rotation_sq.sqrt() * radius + translation_sq.sqrt()) * (1.0 + 1e-12) + 1e-15
}
