//! Separation over a time interval for pairs with a curved primitive, where no
//! polynomial contact equations exist: the distance at the interval's start, from GJK's
//! proven lower bound, must exceed a bound on how far any point of one shape moves
//! relative to the other during the interval (conservative advancement). Exact
//! primitives, no tessellation, so the guarantee is the same as for triangles.
use crate::enclosure::IntervalPose;
use crate::math::{Isometry3, Real};
use crate::query::gjk;
use crate::shape::SupportMap;

/// Whether shape `b`, placed in `a`'s frame at `b_in_a_start` at the interval's start
/// and within `b_in_a` over the whole interval, stays apart from `a`. `radius_b` bounds
/// `|p|` over the points of `b` in its own frame.
pub fn separated_over(a: &dyn SupportMap, b: &dyn SupportMap, b_in_a_start: &Isometry3, b_in_a: &IntervalPose, radius_b: Real) -> bool {
    let motion = motion_bound(b_in_a_start, b_in_a, radius_b);
    if !motion.is_finite() {
        return false;
    }
    // Quick reject before GJK: the boxes of both can be compared later; GJK is cheap.
    let distance = gjk::distance_lower_bound(a, &Isometry3::identity(), b, b_in_a_start);
    distance > motion
}

/// An upper bound on `|B(t) p - B(start) p|` over the interval, for `|p| <= radius`.
pub fn motion_bound(start: &Isometry3, over: &IntervalPose, radius: Real) -> Real {
    let r0 = start.rotation.to_rotation_matrix().into_inner();
    let t0 = start.translation.vector;
    let mut rotation_sq = 0.0;
    for i in 0..3 {
        for k in 0..3 {
            let d = (over.rotation.0[i][k] - r0[(i, k)]).mag();
            rotation_sq += d * d;
        }
    }
    let mut translation_sq = 0.0;
    for i in 0..3 {
        let d = (over.translation.0[i] - t0[i]).mag();
        translation_sq += d * d;
    }
    // Frobenius norm bounds the spectral norm; round the result up.
    (rotation_sq.sqrt() * radius + translation_sq.sqrt()) * (1.0 + 1e-12) + 1e-15
}
