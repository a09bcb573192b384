//! The gap of two shapes along a fixed direction over a time cell, to second order in the
//! cell's length: what bounds a pair that keeps its distance or draws away while moving
//! fast (Lin 1993 §5's time-to-collision bounds, with the pose rates' spread over the
//! cell in place of an acceleration bound).
//!
//! With `R(t)`, `T(t)` an element's world pose, `τ` the time from an anchor where it is
//! at `R`, `T`, and `M`, `V` any fixed matrix and vector (the rates' midpoints over the
//! cell), `w · (R(t) x + T(t))` is at most `w · (R x + T) + τ w · (M x + V)` plus `|τ|`
//! times the largest `|w · ((Ṙ - M) x + Ṫ - V)|` over the cell's rates and the points of
//! a ball holding the shape (the spread). The first part's largest value over the
//! shape's points `x` is its support function along `Rᵀw + τ Mᵀw`, convex in `τ`. So
//! each shape's extent along `w` is bounded by a convex function of `τ`, the gap (minus
//! both extents) by a concave one, and the smallest gap over the cell by its values at
//! the cell's two ends.
//!
//! Anchored at the cell's middle this bounds the clearance search's cells; anchored at
//! a cell's start it proves a pair that draws away from where it just touched: the gap
//! at the start is exact (no spread), so a pair separating at speed `v` is proven apart
//! over a cell of length up to about `2v` over its acceleration, however small the gap
//! it starts from, where a bound on how far the shapes move in the cell is not.
use super::conservative_advancement::BoundingBall;
use crate::enclosure::{Interval, IntervalMatrix3, IntervalVector3, LinkJet};
use crate::math::{Isometry3, Matrix3, Real, Vector3};
use crate::shape::SupportMap;

/// An element's world pose rates over a cell: every `Ṙ` and `Ṫ` the motion takes there.
#[derive(Clone, Copy, Debug)]
pub struct ElementRates {
    pub rotation: IntervalMatrix3,
    pub translation: IntervalVector3,
}

impl ElementRates {
    /// The rates of an element placed at `origin` on a link whose jet over the cell is
    /// `jet`: `Ṙ_L R_O` and `Ṙ_L t_O + Ṫ_L`. `None` where they are not finite.
    pub fn on_link(jet: &LinkJet, origin: &Isometry3) -> Option<Self> {
        let r_o = origin.rotation.to_rotation_matrix().into_inner();
        let rotation = jet.rotation_rate.mul_matrix(&r_o);
        let translation = jet.rotation_rate.mul_f64_vector(&origin.translation.vector) + jet.translation_rate;
        (rotation.is_finite() && translation.is_finite()).then_some(Self { rotation, translation })
    }
}

/// One side of a gap: a shape (its support, in its element's frame), a ball holding it
/// there, the element's world pose at the anchor, and its rates over the cell (`None`
/// for a shape that does not move).
pub struct MovingShape<'a> {
    pub shape: &'a dyn SupportMap,
    pub ball: BoundingBall,
    pub pose: Isometry3,
    pub rates: Option<ElementRates>,
}

impl MovingShape<'_> {
    /// The shape's extent along world `w` at `τ` under the motion's linear part, and
    /// the spread to add per unit of `|τ|`.
    fn linear_extent(&self, w: &Vector3) -> (impl Fn(Real) -> Real + '_, Real) {
        let rotation = self.pose.rotation.to_rotation_matrix().into_inner();
        let (m, v, spread) = match &self.rates {
            Some(rates) => {
                let (m, v) = (rates.rotation.mid(), rates.translation.mid());
                (m, v, spread(rates, &m, &v, &self.ball, w))
            }
            None => (Matrix3::zeros(), Vector3::zeros(), 0.0),
        };
        let translation = self.pose.translation.vector;
        let direction = rotation.transpose() * w;
        let turn = m.transpose() * w;
        let (w, shape) = (*w, self.shape);
        (move |tau: Real| support_value(shape, &(direction + turn * tau)) + w.dot(&(translation + v * tau)), spread)
    }
}

/// A lower bound of the gap along world unit `n` (from `b` towards `a`: every point of
/// `a` minus every point of `b`, projected on `n`) at every time `τ` in `[lo, hi]` from
/// the anchor (`lo <= 0 <= hi`), before rounding: the smaller of the concave bound's
/// values at the two ends.
pub fn gap_over(a: &MovingShape, b: &MovingShape, n: &Vector3, lo: Real, hi: Real) -> Real {
    let (extent_a, spread_a) = a.linear_extent(&-n);
    let (extent_b, spread_b) = b.linear_extent(n);
    let at = |tau: Real| -(extent_a(tau) + extent_b(tau)) - tau.abs() * (spread_a + spread_b);
    at(lo).min(at(hi))
}

/// Covers the rounding of a gap computed in floating point at the scale of the two
/// shapes' placement (a relative 1e-12, as the clearance search's).
pub fn gap_rounding(a: &MovingShape, b: &MovingShape) -> Real {
    let scale: Real = [a, b].iter().map(|s| s.pose.translation.vector.abs().sum() + s.ball.center.coords.abs().sum() + s.ball.radius).sum();
    1e-12 * (1.0 + scale)
}

/// The spread: the largest `|w · ((Ṙ - M) x + Ṫ - V)|` over the rates and the ball's
/// points, `|w · ((Ṙ - M) c + Ṫ - V)| + r |(Ṙ - M)ᵀ w|`, rounded outwards.
fn spread(rates: &ElementRates, m: &Matrix3, v: &Vector3, ball: &BoundingBall, w: &Vector3) -> Real {
    let mut centre = Interval::point(0.0);
    let mut rotation_sq = 0.0;
    for i in 0..3 {
        let mut row = Interval::point(0.0);
        for k in 0..3 {
            row += (rates.rotation.0[i][k] - m[(i, k)]) * ball.center[k];
        }
        centre += (row + (rates.translation.0[i] - v[i])) * w[i];
    }
    for k in 0..3 {
        let mut column = Interval::point(0.0);
        for i in 0..3 {
            column += (rates.rotation.0[i][k] - m[(i, k)]) * w[i];
        }
        rotation_sq += column.mag() * column.mag();
    }
    (centre.mag() + ball.radius * rotation_sq.sqrt()) * (1.0 + 1e-12)
}

/// The largest `w · x` over the points `x` of a shape (given in its own frame) placed
/// by `pose`: its extent along world `w`.
pub fn extent_along(shape: &dyn SupportMap, pose: &Isometry3, w: &Vector3) -> Real {
    support_value(shape, &pose.rotation.inverse_transform_vector(w)) + w.dot(&pose.translation.vector)
}

/// The support function: the largest `u · x` over the shape's points.
pub fn support_value(shape: &dyn SupportMap, u: &Vector3) -> Real {
    shape.support(u).coords.dot(u)
}
