//! Line-swept sphere: the points within `radius` of a segment (Redon et al. 2004 §4.2).
use super::Obb;
use crate::math::{Point3, Real};

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Lss {
    pub a: Point3,
    pub b: Point3,
    pub radius: Real,
}

impl Lss {
    /// An LSS holding the box: its axis is the box's longest axis, its radius the
    /// half-diagonal of the two shorter ones, so every corner is within reach.
    pub fn around_obb(obb: &Obb) -> Self {
        let h = obb.half_extents;
        let long = h.imax();
        let (i, j) = ((long + 1) % 3, (long + 2) % 3);
        let axis = obb.axes.column(long) * h[long];
        let radius = (h[i] * h[i] + h[j] * h[j]).sqrt();
        // Round the radius up so that the corners lie inside despite rounding.
        Self { a: obb.center - axis, b: obb.center + axis, radius: radius * (1.0 + 4.0 * Real::EPSILON) + Real::MIN_POSITIVE }
    }
}
