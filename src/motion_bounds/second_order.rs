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

impl<'a> MovingShape<'a> {
    /// The shape's extent along world `w` at `τ` under the motion's linear part, and
    /// the spread to add per unit of `|τ|`.
    fn linear_extent(&self, w: &Vector3) -> (impl Fn(Real) -> Real + use<'a>, Real) {
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
    let at = gap_bound(a, b, n);
    at(lo).min(at(hi))
}

/// The concave lower bound of the gap along world unit `n` (from `b` towards `a`) at
/// each time `τ` from the anchor, valid for every `τ` the rates cover (before
/// rounding). Its smallest value over any interval of times is at one of the
/// interval's ends: [`gap_over`] over the whole cell, or over part of it.
pub fn gap_bound<'s>(a: &MovingShape<'s>, b: &MovingShape<'s>, n: &Vector3) -> impl Fn(Real) -> Real + use<'s> {
    let (extent_a, spread_a) = a.linear_extent(&-n);
    let (extent_b, spread_b) = b.linear_extent(n);
    move |tau: Real| -(extent_a(tau) + extent_b(tau)) - tau.abs() * (spread_a + spread_b)
}

/// Covers the rounding of a gap computed in floating point at the scale of the two
/// shapes' placement (a relative 1e-12, as the clearance search's).
pub fn gap_rounding(a: &MovingShape, b: &MovingShape) -> Real {
    let scale: Real = [a, b].iter().map(|s| s.pose.translation.vector.abs().sum() + s.ball.center.coords.abs().sum() + s.ball.radius).sum();
    1e-12 * (1.0 + scale)
}

/// The spread: the largest `|w · ((Ṙ - M) x + Ṫ - V)|` over the rates and the ball's
/// points, at most `Σ_i |w_i| (Σ_k ρ_ik |c_k| + τ_i) + r |(Σ_i ρ_ik |w_i|)_k|`, with `ρ`
/// and `τ` the rates' largest distances from `M` and `V` (the ends of their intervals),
/// in floating point on non-negative terms and rounded up by a relative 1e-12 (far
/// above the few ulps such a sum can lose).
fn spread(rates: &ElementRates, m: &Matrix3, v: &Vector3, ball: &BoundingBall, w: &Vector3) -> Real {
    let off = |x: Interval, mid: Real| (x.hi - mid).max(mid - x.lo);
    let mut centre = 0.0;
    let mut column = [0.0; 3];
    for i in 0..3 {
        let wi = w[i].abs();
        let mut row = off(rates.translation.0[i], v[i]);
        for (k, total) in column.iter_mut().enumerate() {
            let rho = off(rates.rotation.0[i][k], m[(i, k)]);
            row += rho * ball.center[k].abs();
            *total += rho * wi;
        }
        centre += row * wi;
    }
    let rotation = (column[0] * column[0] + column[1] * column[1] + column[2] * column[2]).sqrt();
    (centre + ball.radius * rotation) * (1.0 + 1e-12)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, test_uniform};

    /// `|w · ((Ṙ - M) x + Ṫ - V)|` at given rates and point.
    fn deviation(rotation: &Matrix3, translation: &Vector3, m: &Matrix3, v: &Vector3, x: &Point3, w: &Vector3) -> Real {
        w.dot(&((rotation - m) * x.coords + translation - v)).abs()
    }

    /// The spread lies above the deviation at random rates within the intervals and
    /// points of the ball, and at the corner of the rates and the point of the ball
    /// where it is largest (each rate at the end whose sign lines up with `w` and the
    /// ball's centre, the point out along `(Ṙ - M)ᵀ w`), which it reaches: every term
    /// of the bound is attained there.
    #[test]
    fn the_spread_bounds_the_rates_deviation_and_reaches_its_largest() {
        let mut u = test_uniform(0x5bead);
        for case in 0..500 {
            let mut interval = |scale: Real| {
                let (a, b) = (scale * (2.0 * u() - 1.0), scale * (2.0 * u() - 1.0));
                Interval::new(a.min(b), a.max(b))
            };
            let rates = ElementRates {
                rotation: IntervalMatrix3(std::array::from_fn(|_| std::array::from_fn(|_| interval(3.0)))),
                translation: IntervalVector3(std::array::from_fn(|_| interval(2.0))),
            };
            let (m, v) = (rates.rotation.mid(), rates.translation.mid());
            let ball = BoundingBall { center: Point3::new(u() - 0.5, u() - 0.5, u() - 0.5), radius: 0.3 * u() };
            let w = Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5).normalize();
            let bound = spread(&rates, &m, &v, &ball, &w);
            let pick = |x: Interval, up: bool| if up { x.hi } else { x.lo };
            // The corner where every term lines up.
            let rotation = Matrix3::from_fn(|i, k| pick(rates.rotation.0[i][k], w[i] * ball.center[k] >= 0.0));
            let translation = Vector3::from_fn(|i, _| pick(rates.translation.0[i], w[i] >= 0.0));
            let a = (rotation - m).transpose() * w;
            let out = if a.norm() > 0.0 { ball.center + a.normalize() * ball.radius } else { ball.center };
            let largest = deviation(&rotation, &translation, &m, &v, &out, &w);
            assert!(largest <= bound, "case {case}: {largest} above the spread {bound}");
            assert!(largest >= bound * (1.0 - 1e-9), "case {case}: the spread {bound} above the largest deviation {largest}");
            for _ in 0..20 {
                let rotation = Matrix3::from_fn(|i, k| {
                    let x = rates.rotation.0[i][k];
                    x.lo + (x.hi - x.lo) * u()
                });
                let translation = Vector3::from_fn(|i, _| {
                    let x = rates.translation.0[i];
                    x.lo + (x.hi - x.lo) * u()
                });
                let x = ball.center + Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5).normalize() * ball.radius * u();
                assert!(deviation(&rotation, &translation, &m, &v, &x, &w) <= bound, "case {case}: a deviation above the spread");
            }
        }
    }
}
