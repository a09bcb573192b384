//! Separation over a time interval for pairs with a curved primitive, where no
//! polynomial contact equations exist: the distance at the interval's start, from GJK's
//! proven lower bound, must exceed a bound on how far any point of one shape moves
//! relative to the other during the interval (conservative advancement). Exact
//! primitives, no tessellation, so the guarantee is the same as for triangles.
use crate::collision::Element;
use crate::enclosure::{Interval, IntervalPose};
use crate::math::{Isometry3, Point3, Real, Triangle, Vector3};
use crate::query::gjk;
use crate::shape::SupportMap;

/// A ball in a shape's own frame that holds the shape.
#[derive(Clone, Copy, Debug)]
pub struct BoundingBall {
    pub center: Point3,
    pub radius: Real,
}

impl BoundingBall {
    /// A ball holding an element in its own frame: around its box's centre, through its
    /// corners.
    pub fn of_element(e: &Element) -> Self {
        Self { center: e.local_obb.center, radius: e.local_obb.half_extents.norm() * (1.0 + 1e-12) }
    }

    /// A ball holding a triangle (in its element's frame): around its centroid.
    pub fn of_triangle(t: &Triangle) -> Self {
        let center = Point3::from((t[0].coords + t[1].coords + t[2].coords) / 3.0);
        let radius = t.iter().map(|p| (p - center).norm()).fold(0.0, Real::max);
        Self { center, radius: radius * (1.0 + 1e-12) + 1e-15 }
    }
}

/// The outcome of one advancement test.
#[derive(Clone, Copy, Debug)]
pub struct Advancement {
    /// Proven apart over the whole interval.
    pub separated: bool,
    /// Proven lower bound on the distance at the interval's start.
    pub distance_at_start: Real,
    /// The separating plane's normal at the start (in the fixed shape's frame, from the
    /// moving shape towards it) that bound is measured along.
    pub normal: Vector3,
}

/// Whether shape `b`, placed in `a`'s frame at `b_in_a_start` at the interval's start
/// and within `b_in_a` over the whole interval, stays apart from `a` (`ball_b` holds `b`
/// in its own frame), and a lower bound of their distance at the start.
///
/// The test is directional (as in C2A, Tang et al.): GJK's separating plane at the
/// start has `(p - q) · n >= gap` for every point `p` of `a` and `q` of `b`; the pair
/// stays apart while no point of `b` advances along `n` by `gap`, which bounds only the
/// motion towards `a` rather than in every direction.
pub fn advance(a: &dyn SupportMap, b: &dyn SupportMap, b_in_a_start: &Isometry3, b_in_a: &IntervalPose, ball_b: &BoundingBall) -> Advancement {
    let plane = gjk::separating_plane(a, &Isometry3::identity(), b, b_in_a_start);
    advance_from_plane(&plane, b_in_a_start, b_in_a, ball_b)
}

/// [`advance`] from a separating plane of the two shapes at the interval's start (in
/// `a`'s frame: GJK's, or any other proven one).
pub fn advance_from_plane(plane: &gjk::SeparatingPlane, b_in_a_start: &Isometry3, b_in_a: &IntervalPose, ball_b: &BoundingBall) -> Advancement {
    // Points of b move by n · Δ towards a, where n points from b to a.
    let towards_a = advance_along(b_in_a_start, b_in_a, ball_b, &plane.normal);
    Advancement { separated: plane.gap > 0.0 && towards_a.is_finite() && plane.gap > towards_a, distance_at_start: plane.gap.max(0.0), normal: plane.normal }
}

/// An upper bound on `n · (B(t) p - B(start) p)` over the interval, for `p` in the ball:
/// `|(R(t) - R(start))ᵀ n| r` plus the largest advance of its centre along `n`.
pub fn advance_along(start: &Isometry3, over: &IntervalPose, ball: &BoundingBall, n: &Vector3) -> Real {
    let r0 = start.rotation.to_rotation_matrix().into_inner();
    let t0 = (start * ball.center).coords;
    let centre = over.transform_point(&ball.center);
    let mut rotation_sq = 0.0;
    for k in 0..3 {
        let mut w = Interval::point(0.0);
        for i in 0..3 {
            w += (over.rotation.0[i][k] - r0[(i, k)]) * n[i];
        }
        rotation_sq += w.mag() * w.mag();
    }
    let mut centre_advance = Interval::point(0.0);
    for i in 0..3 {
        centre_advance += (centre.0[i] - t0[i]) * n[i];
    }
    // Round the sum up: the interval operations rounded outwards, the square root and
    // the sum here by far less than the relative 1e-12.
    (rotation_sq.sqrt() * ball.radius + centre_advance.hi) * (1.0 + 1e-12) + start_rounding(&t0, ball)
}

/// Covers the rounding of the start position (`t0`, and the start rotation as a
/// matrix against GJK's quaternion) that the bounds measure the motion from.
fn start_rounding(t0: &Vector3, ball: &BoundingBall) -> Real {
    8.0 * Real::EPSILON * (t0.abs().sum() + ball.center.coords.abs().sum() + ball.radius) + 1e-15
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
    (rotation_sq.sqrt() * radius + translation_sq.sqrt()) * (1.0 + 1e-12) + start_rounding(&t0, ball)
}
