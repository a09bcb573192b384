//! Continuous OBB overlap test (seed 002 §5.1, after Redon et al. 2002): the
//! separating-axis test of two boxes with every member of inequality (12) bounded by
//! interval arithmetic over a time interval. Boxes are reported disjoint only when one
//! axis separates them for every pose in the enclosure.
use crate::bounding_volume::{Aabb, Obb};
use crate::enclosure::{Interval, IntervalMatrix3, IntervalPose, IntervalVector3};
use crate::math::{Point3, Real, Vector3};

/// Upper bound of a sum of non-negative products, rounded up.
fn upper(terms: &[(Real, Real)]) -> Real {
    let s: Real = terms.iter().map(|(a, b)| a * b).sum();
    s * (1.0 + 8.0 * Real::EPSILON) + Real::MIN_POSITIVE
}

/// Whether box `a` (exact, in frame A) and box `b` (exact, in frame B) may overlap
/// for some pose of B in A within `b_in_a`.
pub fn may_overlap(a: &Obb, b: &Obb, b_in_a: &IntervalPose) -> bool {
    // B's box in A's box frame: R = Aᵀ R_rel B_axes, t = Aᵀ (R_rel c_b + t_rel - c_a).
    let at = IntervalMatrix3::from_matrix(&a.axes.transpose());
    let r = at.mul(&b_in_a.rotation.mul_matrix(&b.axes));
    let center_b = b_in_a.transform_point(&b.center);
    let t: IntervalVector3 = at.mul_vector(&(center_b - IntervalVector3::from_point(&a.center)));
    !separated(&r, &t, &a.half_extents, &b.half_extents)
}

/// Whether one of the fifteen axes separates a box of half extents `ha` (at the origin,
/// axis-aligned) from one of half extents `hb` with rotation `r` and centre `t` in it,
/// for every member of the intervals.
fn separated(r: &IntervalMatrix3, t: &IntervalVector3, ha: &Vector3, hb: &Vector3) -> bool {
    let mag: [[Real; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| r.0[i][j].mag()));
    for i in 0..3 {
        let rb = upper(&[(hb[0], mag[i][0]), (hb[1], mag[i][1]), (hb[2], mag[i][2])]);
        if t.0[i].mig() > upper(&[(ha[i], 1.0), (rb, 1.0)]) {
            return true;
        }
    }
    for j in 0..3 {
        let proj = t.0[0] * r.0[0][j] + t.0[1] * r.0[1][j] + t.0[2] * r.0[2][j];
        let ra = upper(&[(ha[0], mag[0][j]), (ha[1], mag[1][j]), (ha[2], mag[2][j])]);
        if proj.mig() > upper(&[(ra, 1.0), (hb[j], 1.0)]) {
            return true;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let proj: Interval = t.0[i2] * r.0[i1][j] - t.0[i1] * r.0[i2][j];
            let bound = upper(&[(ha[i1], mag[i2][j]), (ha[i2], mag[i1][j]), (hb[j1], mag[i][j2]), (hb[j2], mag[i][j1])]);
            if proj.mig() > bound {
                return true;
            }
        }
    }
    false
}

/// A box moving over a time interval, against axis-aligned boxes of the frame it moves in
/// (a voxel map's nodes): what [`may_overlap`] computes of it, computed once for all.
pub struct MovingBox {
    rotation: IntervalMatrix3,
    centre: IntervalVector3,
    half_extents: Vector3,
    /// An axis-aligned box holding it over the whole interval.
    pub swept: Aabb,
}

impl MovingBox {
    /// Box `b` (exact, in frame B) with B within `b_in_a`.
    pub fn new(b: &Obb, b_in_a: &IntervalPose) -> Self {
        Self {
            rotation: b_in_a.rotation.mul_matrix(&b.axes),
            centre: b_in_a.transform_point(&b.center),
            half_extents: b.half_extents,
            swept: swept_aabb(b, b_in_a),
        }
    }

    /// [`may_overlap`] of the axis-aligned box `a` (as `Obb::from_aabb` gives it) and
    /// this box: first the swept box, then the fifteen axes.
    pub fn may_overlap_aabb(&self, a: &Aabb) -> bool {
        if !self.swept.intersects(a) {
            return false;
        }
        let t = self.centre - IntervalVector3::from_point(&a.center());
        !separated(&self.rotation, &t, &a.half_extents(), &self.half_extents)
    }
}

/// An axis-aligned box of frame A that holds box `b` (exact, in frame B) for every pose
/// of B in A within `b_in_a`: the first three axes of [`may_overlap`] against every
/// axis-aligned box at once (a voxel map's nodes are such boxes), rounded outwards.
pub fn swept_aabb(b: &Obb, b_in_a: &IntervalPose) -> Aabb {
    let r = b_in_a.rotation.mul_matrix(&b.axes);
    let centre = b_in_a.transform_point(&b.center);
    let hb = b.half_extents;
    let mut mins = Point3::origin();
    let mut maxs = Point3::origin();
    for i in 0..3 {
        let reach = upper(&[(hb[0], r.0[i][0].mag()), (hb[1], r.0[i][1].mag()), (hb[2], r.0[i][2].mag())]);
        let (lo, hi) = (centre.0[i].lo - reach, centre.0[i].hi + reach);
        let slack = 4.0 * Real::EPSILON * (lo.abs() + hi.abs() + reach) + Real::MIN_POSITIVE;
        mins[i] = lo - slack;
        maxs[i] = hi + slack;
    }
    Aabb::new(mins, maxs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::enclosure::{Interval, IntervalPose};
    use crate::math::{Isometry3, Matrix3, Vector3};

    /// A rotation by an angle interval about z after an exact pose: every pose in it holds
    /// the box inside the swept box, and the swept box is no larger than needed by far.
    #[test]
    fn the_swept_box_holds_the_box_at_every_pose() {
        let b = Obb { center: Point3::new(0.3, -0.1, 0.2), axes: Matrix3::identity(), half_extents: Vector3::new(0.05, 0.1, 0.02) };
        let base = Isometry3::new(Vector3::new(1.0, 2.0, -0.5), Vector3::new(0.3, -0.2, 0.1));
        let angles = Interval::hull(-0.4, 0.7);
        let over = IntervalPose::from_isometry(&base).then_rotate(&crate::enclosure::AxisRotation::new(&Vector3::z(), angles));
        let swept = swept_aabb(&b, &over);
        for k in 0..=100 {
            let angle = -0.4 + 1.1 * k as Real / 100.0;
            let pose = base * Isometry3::rotation(Vector3::z() * angle);
            for corner in b.corners() {
                let p = pose * corner;
                assert!(swept.contains_point(&p), "{p:?} outside {swept:?} at angle {angle}");
            }
        }
        assert!(swept.extents().norm() < 2.0);
    }

    /// Against axis-aligned boxes, the moving box's test is the continuous OBB test.
    #[test]
    fn a_moving_box_tests_as_the_continuous_obb_test() {
        let b = Obb { center: Point3::new(0.1, 0.0, -0.05), axes: Matrix3::identity(), half_extents: Vector3::new(0.05, 0.02, 0.1) };
        let base = Isometry3::new(Vector3::new(0.4, -0.2, 0.3), Vector3::new(0.1, 0.5, -0.3));
        let over = IntervalPose::from_isometry(&base).then_rotate(&crate::enclosure::AxisRotation::new(&Vector3::y(), Interval::hull(0.0, 0.3)));
        let moving = MovingBox::new(&b, &over);
        let (mut overlapping, mut apart) = (0, 0);
        for i in 0..20 {
            for j in 0..20 {
                for k in 0..5 {
                    let lo = Point3::new(0.2 + 0.025 * i as Real, -0.45 + 0.025 * j as Real, 0.1 + 0.08 * k as Real);
                    let a = Aabb::new(lo, lo + Vector3::new(0.02, 0.03, 0.01));
                    let expected = may_overlap(&Obb::from_aabb(&a), &b, &over);
                    assert_eq!(moving.may_overlap_aabb(&a), expected, "{a:?}");
                    if expected { overlapping += 1 } else { apart += 1 }
                }
            }
        }
        assert!(overlapping > 10 && apart > 10, "{overlapping} overlapping, {apart} apart");
    }
}
