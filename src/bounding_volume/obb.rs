//! Oriented bounding box and its separating-axis overlap test (Gottschalk et al., the
//! OBB-tree test that Redon et al. 2004 §5.1 builds on).
use super::Aabb;
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};

/// A box with centre, orthonormal axes (the columns of `axes`) and half extents,
/// expressed in the frame of the shape that owns it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obb {
    pub center: Point3,
    pub axes: Matrix3,
    pub half_extents: Vector3,
}

/// Added to every |R_ij| of the separating-axis test so that nearly parallel edges,
/// whose cross products vanish, cannot produce a false separation.
const PARALLEL_EPSILON: Real = 1e-12;

impl Obb {
    pub fn from_aabb(aabb: &Aabb) -> Self {
        Self { center: aabb.center(), axes: Matrix3::identity(), half_extents: aabb.half_extents() }
    }

    /// The tightest box with the given axes around the points.
    pub fn fit(axes: Matrix3, points: impl Iterator<Item = Point3>) -> Self {
        let mut lo = Vector3::repeat(Real::INFINITY);
        let mut hi = Vector3::repeat(Real::NEG_INFINITY);
        for p in points {
            let local = axes.tr_mul(&p.coords);
            lo = lo.inf(&local);
            hi = hi.sup(&local);
        }
        let center_local = (lo + hi) * 0.5;
        Self { center: Point3::from(axes * center_local), axes, half_extents: (hi - lo) * 0.5 }
    }

    /// Whether this box and `other` overlap, `other` being placed in this box's frame
    /// by `other_to_self`. Closed boxes; errs only towards "overlap".
    pub fn intersects(&self, other: &Obb, other_to_self: &Isometry3) -> bool {
        self.intersects_placed(&other.placed_by(&other_to_self.rotation.to_rotation_matrix().into_inner(), &other_to_self.translation.vector))
    }

    /// This box under the rigid pose with rotation matrix `rotation` and `translation`
    /// (for many boxes under one pose: its quaternion's matrix made once).
    pub fn placed_by(&self, rotation: &Matrix3, translation: &Vector3) -> Obb {
        Obb { center: Point3::from(rotation * self.center.coords + translation), axes: rotation * self.axes, half_extents: self.half_extents }
    }

    /// Whether this box and `other`, given in the same frame, overlap. Closed boxes; errs
    /// only towards "overlap" (by `PARALLEL_EPSILON` and a relative 1e-12).
    pub fn intersects_placed(&self, other: &Obb) -> bool {
        self.face_overlap_placed(other).is_some()
    }

    /// With `other` given in the same frame: `None` where one of the fifteen separating
    /// axes shows the boxes apart (as [`Self::intersects_placed`]); else the smallest
    /// overlap of their projections on the six face axes, an upper bound of their
    /// translational depth (a translation along an axis by the projections' overlap
    /// separates them), and so of the depth of anything inside them. Errs only upwards.
    pub fn face_overlap_placed(&self, other: &Obb) -> Option<Real> {
        self.face_overlap_beyond(other, None)
    }

    /// `self.face_overlap_placed(other).is_some_and(|overlap| overlap > above)`, told
    /// sooner: a face axis whose overlap is not above `above` ends the test before the
    /// edge axes (a walk for what may be deeper than `above` drops most pairs so).
    pub fn face_overlap_exceeds(&self, other: &Obb, above: Real) -> bool {
        self.face_overlap_beyond(other, Some(above)).is_some()
    }

    /// [`Self::face_overlap_placed`], and with `above`, `None` as soon as a face axis's
    /// overlap (raised as the least one is) is not above it: the least overlap is then
    /// not above it either.
    fn face_overlap_beyond(&self, other: &Obb, above: Option<Real>) -> Option<Real> {
        // Rotation and translation of `other` in the coordinates of this box's axes.
        let r = self.axes.tr_mul(&other.axes);
        let t = self.axes.tr_mul(&(other.center - self.center));
        let abs_r = r.abs().add_scalar(PARALLEL_EPSILON);
        let a = &self.half_extents;
        let b = &other.half_extents;
        let slack = 1e-12 * (1.0 + t.amax() + a.amax() + b.amax());
        let raise = |overlap: Real| overlap * (1.0 + 1e-12);
        // Whether a face axis's `gap` (negative: an overlap) leaves the boxes worth testing on.
        let open = |gap: Real| gap <= 0.0 && above.is_none_or(|above| raise(-gap) > above);
        let mut overlap = Real::INFINITY;

        for i in 0..3 {
            let rb = b.dot(&abs_r.row(i).transpose());
            let gap = t[i].abs() - (a[i] + rb + slack);
            if !open(gap) {
                return None;
            }
            overlap = overlap.min(-gap);
        }
        for j in 0..3 {
            let ra = a.dot(&abs_r.column(j));
            let proj = t.dot(&r.column(j));
            let gap = proj.abs() - (ra + b[j] + slack);
            if !open(gap) {
                return None;
            }
            overlap = overlap.min(-gap);
        }
        for i in 0..3 {
            let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
            for j in 0..3 {
                let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
                let ra = a[i1] * abs_r[(i2, j)] + a[i2] * abs_r[(i1, j)];
                let rb = b[j1] * abs_r[(i, j2)] + b[j2] * abs_r[(i, j1)];
                let proj = t[i2] * r[(i1, j)] - t[i1] * r[(i2, j)];
                if proj.abs() > ra + rb + slack {
                    return None;
                }
            }
        }
        Some(raise(overlap))
    }

    /// The box's own frame: its centre and axes as a rigid pose.
    pub fn frame(&self) -> Isometry3 {
        let rotation = nalgebra::UnitQuaternion::from_rotation_matrix(&nalgebra::Rotation3::from_matrix_unchecked(self.axes));
        Isometry3::from_parts(self.center.coords.into(), rotation)
    }

    /// The eight corners.
    pub fn corners(&self) -> [Point3; 8] {
        let mut out = [Point3::origin(); 8];
        for (k, c) in out.iter_mut().enumerate() {
            let s = Vector3::new(if k & 1 == 0 { -1.0 } else { 1.0 }, if k & 2 == 0 { -1.0 } else { 1.0 }, if k & 4 == 0 { -1.0 } else { 1.0 });
            *c = self.center + self.axes * s.component_mul(&self.half_extents);
        }
        out
    }

    /// Axis-aligned box around this box placed by `pose`.
    pub fn transformed_aabb(&self, pose: &Isometry3) -> Aabb {
        let center = pose * self.center;
        let axes = pose.rotation.to_rotation_matrix().matrix() * self.axes;
        let half = axes.abs() * self.half_extents;
        Aabb::new(center - half, center + half)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::test_uniform;
    use nalgebra::UnitQuaternion;

    /// The early-ending test says what the full one says, on boxes from apart to
    /// nested, some with parallel axes (where the edge axes vanish), for thresholds
    /// from below zero to past the overlaps.
    #[test]
    fn face_overlap_exceeds_agrees_with_face_overlap_placed() {
        let mut u = test_uniform(0x0bb5);
        let random_box = |u: &mut dyn FnMut() -> Real, aligned: bool| {
            let turn = if aligned { Vector3::zeros() } else { Vector3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 6.0 };
            Obb {
                center: Point3::new(u() - 0.5, u() - 0.5, u() - 0.5) * 0.4,
                axes: *UnitQuaternion::from_scaled_axis(turn).to_rotation_matrix().matrix(),
                half_extents: Vector3::new(0.01 + 0.2 * u(), 0.01 + 0.2 * u(), 0.01 + 0.2 * u()),
            }
        };
        let (mut exceeded, mut not) = (0, 0);
        for case in 0..20000 {
            let (a, b) = (random_box(&mut u, case % 5 == 0), random_box(&mut u, case % 7 == 0));
            let full = a.face_overlap_placed(&b);
            let above = match case % 3 {
                0 => full.map_or(0.0, |o| o * (u() * 1.2)),
                1 => full.map_or(-0.01, |o| o),
                _ => 0.3 * (u() - 0.3),
            };
            let expected = full.is_some_and(|o| o > above);
            assert_eq!(a.face_overlap_exceeds(&b, above), expected, "case {case}: overlap {full:?}, above {above}");
            if expected { exceeded += 1 } else { not += 1 }
        }
        assert!(exceeded > 3000 && not > 3000, "{exceeded} exceeded, {not} not");
    }
}
