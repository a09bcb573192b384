//! Continuous OBB overlap test (seed 002 §5.1, after Redon et al. 2002): the
//! separating-axis test of two boxes with every member of inequality (12) bounded by
//! interval arithmetic over a time interval. Boxes are reported disjoint only when one
//! axis separates them for every pose in the enclosure.
use crate::bounding_volume::Obb;
use crate::enclosure::{Interval, IntervalMatrix3, IntervalPose, IntervalVector3};
use crate::math::Real;

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
    let mag: [[Real; 3]; 3] = std::array::from_fn(|i| std::array::from_fn(|j| r.0[i][j].mag()));
    let (ha, hb) = (a.half_extents, b.half_extents);
    for i in 0..3 {
        let rb = upper(&[(hb[0], mag[i][0]), (hb[1], mag[i][1]), (hb[2], mag[i][2])]);
        if t.0[i].mig() > upper(&[(ha[i], 1.0), (rb, 1.0)]) {
            return false;
        }
    }
    for j in 0..3 {
        let proj = t.0[0] * r.0[0][j] + t.0[1] * r.0[1][j] + t.0[2] * r.0[2][j];
        let ra = upper(&[(ha[0], mag[0][j]), (ha[1], mag[1][j]), (ha[2], mag[2][j])]);
        if proj.mig() > upper(&[(ra, 1.0), (hb[j], 1.0)]) {
            return false;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let proj: Interval = t.0[i2] * r.0[i1][j] - t.0[i1] * r.0[i2][j];
            let bound = upper(&[(ha[i1], mag[i2][j]), (ha[i2], mag[i1][j]), (hb[j1], mag[i][j2]), (hb[j2], mag[i][j1])]);
            if proj.mig() > bound {
                return false;
            }
        }
    }
    true
}
