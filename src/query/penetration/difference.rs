//! The Minkowski difference `A − B` of two placed convex shapes through its support
//! function (Keerthi & Sridharan, Lemma 1(i): every depth question about A and B is one about
//! `A − B` and the origin). Work happens in A's frame, as in [`crate::query::gjk`].
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::shape::SupportMap;

/// A point of `A − B` with the points of A and B it comes from (all in A's frame).
#[derive(Clone, Copy, Debug)]
pub(super) struct SupportPoint {
    pub w: Vector3,
    pub a: Point3,
    pub b: Point3,
}

/// The difference of two placed shapes, split as shapes are: the difference of the
/// cores, grown by the sum of the margins.
pub(super) struct Difference<'s> {
    a: &'s dyn SupportMap,
    b: &'s dyn SupportMap,
    b_to_a: Isometry3,
    margin_a: Real,
    margin_b: Real,
    scale: Real,
}

impl<'s> Difference<'s> {
    /// `None` when a margin is negative or anything is not finite.
    pub fn new(a: &'s dyn SupportMap, pose_a: &Isometry3, b: &'s dyn SupportMap, pose_b: &Isometry3) -> Option<Self> {
        let b_to_a = pose_a.inv_mul(pose_b);
        let (margin_a, margin_b) = (a.margin(), b.margin());
        let finite = |v: &Vector3| v.iter().all(|x| x.is_finite());
        let valid = margin_a >= 0.0 && margin_b >= 0.0 && margin_a.is_finite() && margin_b.is_finite();
        if !valid || !finite(&b_to_a.translation.vector) || !finite(&b_to_a.rotation.coords.xyz()) || !b_to_a.rotation.coords.w.is_finite() {
            return None;
        }
        let mut d = Difference { a, b, b_to_a, margin_a, margin_b, scale: 0.0 };
        // The size of the coordinates involved, for tolerances.
        let mut scale: Real = 0.0;
        for axis in 0..3 {
            for sign in [1.0, -1.0] {
                let mut dir = Vector3::zeros();
                dir[axis] = sign;
                let s = d.core_support(&dir);
                if !(finite(&s.a.coords) && finite(&s.b.coords)) {
                    return None;
                }
                scale = scale.max(s.a.coords.norm()).max(s.b.coords.norm());
            }
        }
        d.scale = (scale + margin_a + margin_b).max(Real::MIN_POSITIVE);
        Some(d)
    }

    /// Support point of the difference of the cores along `dir` (A's frame).
    pub fn core_support(&self, dir: &Vector3) -> SupportPoint {
        let a = self.a.core_support(dir);
        let local = self.b_to_a.rotation.inverse_transform_vector(&-dir);
        let b = self.b_to_a * self.b.core_support(&local);
        SupportPoint { w: a - b, a, b }
    }

    /// Support point of the difference of the full shapes (cores plus margins).
    pub fn support(&self, dir: &Vector3) -> SupportPoint {
        let s = self.core_support(dir);
        let n = dir.norm();
        if n > 0.0 && (self.margin_a > 0.0 || self.margin_b > 0.0) {
            let u = dir / n;
            let (a, b) = (s.a + u * self.margin_a, s.b - u * self.margin_b);
            SupportPoint { w: a - b, a, b }
        } else {
            s
        }
    }

    /// `h(n)` of the cores' difference for a unit `n`: translating B's core by
    /// `h(n) * n` separates the cores (a negative value proves them that far apart).
    pub fn core_height(&self, n: &Vector3) -> Real {
        n.dot(&self.core_support(n).w)
    }

    pub fn margin_a(&self) -> Real {
        self.margin_a
    }

    pub fn margin_b(&self) -> Real {
        self.margin_b
    }

    /// Largest coordinate magnitude of the points involved, plus the margins.
    pub fn scale(&self) -> Real {
        self.scale
    }

    pub fn b_to_a(&self) -> &Isometry3 {
        &self.b_to_a
    }
}

/// A shape's core alone (its margin dropped), for GJK on the cores.
pub(super) struct Core<'s>(pub &'s dyn SupportMap);

impl SupportMap for Core<'_> {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        self.0.core_support(dir)
    }
}

/// The full difference as a shape for GJK: the cores' difference with the margins'
/// sum around it.
pub(super) struct DifferenceShape<'d, 's>(pub &'d Difference<'s>);

impl SupportMap for DifferenceShape<'_, '_> {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        Point3::from(self.0.core_support(dir).w)
    }
    fn margin(&self) -> Real {
        self.0.margin_a + self.0.margin_b
    }
}
