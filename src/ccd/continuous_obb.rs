//! Continuous OBB overlap test (Redon et al. 2004 §5.1, after Redon et al. 2002): the
//! separating-axis test of two boxes with every member of inequality (12) bounded by
//! interval arithmetic over a time interval. Boxes are reported disjoint only when one
//! axis separates them for every pose in the enclosure.
use crate::bounding_volume::{Aabb, Obb};
use crate::enclosure::{Interval, IntervalMatrix3, IntervalPose};
use crate::math::{Matrix3, Point3, Real, Vector3};

/// Upper bound of a sum of non-negative products, rounded up.
fn upper(terms: &[(Real, Real)]) -> Real {
    let s: Real = terms.iter().map(|(a, b)| a * b).sum();
    s * (1.0 + 8.0 * Real::EPSILON) + Real::MIN_POSITIVE
}

/// A set of poses in midpoint-radius form, made once per time interval and pair and
/// used by every box pair the continuous OBB test meets there: each pose of the set has
/// its rotation within `rotation_mid ± rotation_rad` and its translation within
/// `translation_mid ± translation_rad`, entry by entry. The radii carry, besides the
/// intervals' own, `8 ε` of the midpoints' magnitudes: room for the rounding of the
/// products [`may_overlap`] forms with exact box axes and centres.
#[derive(Clone, Copy, Debug)]
pub struct MidpointRadiusPose {
    rotation_mid: Matrix3,
    rotation_rad: Matrix3,
    translation_mid: Vector3,
    translation_rad: Vector3,
    /// Every entry finite: otherwise no axis can be told to separate anything.
    bounded: bool,
}

impl MidpointRadiusPose {
    pub fn new(pose: &IntervalPose) -> Self {
        let widen = |(m, e): (Real, Real)| (m, (e + 8.0 * Real::EPSILON * m.abs()) * (1.0 + 2.0 * Real::EPSILON));
        let (mut rotation_mid, mut rotation_rad) = (Matrix3::zeros(), Matrix3::zeros());
        let (mut translation_mid, mut translation_rad) = (Vector3::zeros(), Vector3::zeros());
        for i in 0..3 {
            for j in 0..3 {
                (rotation_mid[(i, j)], rotation_rad[(i, j)]) = widen(midpoint_radius(pose.rotation.0[i][j]));
            }
            (translation_mid[i], translation_rad[i]) = widen(midpoint_radius(pose.translation.0[i]));
        }
        let bounded = rotation_rad.iter().chain(translation_rad.iter()).chain(rotation_mid.iter()).chain(translation_mid.iter()).all(|x| x.is_finite());
        Self { rotation_mid, rotation_rad, translation_mid, translation_rad, bounded }
    }
}

/// Whether box `a` (exact, in frame A) and box `b` (exact, in frame B) may overlap
/// for some pose of B in A within `b_in_a`.
///
/// B's box in A's box frame has rotation `Aᵀ R B` and centre `Aᵀ (R c_b + t - c_a)`.
/// With `A`, `B`, `c_a` and `c_b` exact, midpoint-radius products are as tight as
/// interval ones (each interval entry of `R` and `t` enters each result once):
/// `Aᵀ R_mid B ± |Aᵀ| R_rad |B|`, and the centre likewise. Their rounding is covered
/// by the radii's `8 ε` of the midpoints (a product of three 3×3 factors in floating
/// point is within `2 γ₃ |Aᵀ| |R_mid| |B|` of the exact one) and a final relative
/// `8 ε` on sums of non-negative terms.
pub fn may_overlap(a: &Obb, b: &Obb, b_in_a: &MidpointRadiusPose) -> bool {
    if !b_in_a.bounded {
        return true;
    }
    let at = a.axes.transpose();
    let at_abs = at.abs();
    let round_up = |x: Real| x * (1.0 + 8.0 * Real::EPSILON) + Real::MIN_POSITIVE;
    let rotation_mid = at * (b_in_a.rotation_mid * b.axes);
    let rotation_rad = (at_abs * (b_in_a.rotation_rad * b.axes.abs())).map(round_up);
    let centre_b = b_in_a.rotation_mid * b.center.coords + b_in_a.translation_mid;
    let centre_mid = at * (centre_b - a.center.coords);
    let centre_spread = b_in_a.rotation_rad * b.center.coords.abs()
        + b_in_a.translation_rad
        + a.center.coords.abs() * (8.0 * Real::EPSILON)
        + centre_b.abs() * (8.0 * Real::EPSILON);
    let centre_rad = (at_abs * centre_spread).map(round_up);
    let rotation = MidpointRadius3::from_parts(&rotation_mid, &rotation_rad);
    !separated(&rotation, &centre_mid.into(), &centre_rad.into(), &a.half_extents, &b.half_extents, true)
}

/// An interval rotation matrix in midpoint-radius form: entry centres, radii (rounded
/// up) and bounds of the entries' magnitudes.
struct MidpointRadius3 {
    mid: [[Real; 3]; 3],
    rad: [[Real; 3]; 3],
    mag: [[Real; 3]; 3],
}

impl MidpointRadius3 {
    /// From centres and radii (rounded up already).
    fn from_parts(mid: &Matrix3, rad: &Matrix3) -> Self {
        Self {
            mid: std::array::from_fn(|i| std::array::from_fn(|j| mid[(i, j)])),
            rad: std::array::from_fn(|i| std::array::from_fn(|j| rad[(i, j)])),
            mag: std::array::from_fn(|i| std::array::from_fn(|j| (mid[(i, j)].abs() + rad[(i, j)]) * (1.0 + 2.0 * Real::EPSILON))),
        }
    }

    fn new(r: &IntervalMatrix3) -> Self {
        let (mut mid, mut rad, mut mag) = ([[0.0; 3]; 3], [[0.0; 3]; 3], [[0.0; 3]; 3]);
        for i in 0..3 {
            for j in 0..3 {
                let (m, e) = midpoint_radius(r.0[i][j]);
                mid[i][j] = m;
                rad[i][j] = e;
                mag[i][j] = (m.abs() + e) * (1.0 + 2.0 * Real::EPSILON);
            }
        }
        Self { mid, rad, mag }
    }
}

/// The centre and a radius (rounded up) of an interval: `[lo, hi]` lies within
/// `centre ± radius`.
fn midpoint_radius(x: Interval) -> (Real, Real) {
    let centre = 0.5 * (x.lo + x.hi);
    let radius = (centre - x.lo).max(x.hi - centre) * (1.0 + 4.0 * Real::EPSILON) + Real::MIN_POSITIVE;
    (centre, radius)
}

/// Whether one of the fifteen axes separates a box of half extents `ha` (at the origin,
/// axis-aligned) from one of half extents `hb` with rotation `r` and centre `c ± w` in
/// it, for every member of the intervals (`own_axes: false` skips the first box's three
/// axes, where a caller has tested them already). Each member of inequality (12) is
/// bounded in midpoint-radius form: a product `(c ± w)(m ± e)` lies within
/// `c m ± (|c| e + w (|m| + e))`, and every sum is widened by a relative 1e-14 of its
/// terms' magnitudes, far past its rounding.
fn separated(r: &MidpointRadius3, c: &[Real; 3], w: &[Real; 3], ha: &Vector3, hb: &Vector3, own_axes: bool) -> bool {
    let (m, e, mag) = (&r.mid, &r.rad, &r.mag);
    const SLACK: Real = 1e-14;
    // Apart along an axis when |centre| - radius exceeds the boxes' reach along it.
    let apart = |mid: Real, radius: Real, reach: Real, scale: Real| mid.abs() - radius > reach + SLACK * (scale + radius + reach) + Real::MIN_POSITIVE;
    if own_axes {
        for i in 0..3 {
            let reach = ha[i] + hb[0] * mag[i][0] + hb[1] * mag[i][1] + hb[2] * mag[i][2];
            if apart(c[i], w[i], reach, c[i].abs()) {
                return true;
            }
        }
    }
    for j in 0..3 {
        let mid = c[0] * m[0][j] + c[1] * m[1][j] + c[2] * m[2][j];
        let scale = (c[0] * m[0][j]).abs() + (c[1] * m[1][j]).abs() + (c[2] * m[2][j]).abs();
        let radius = (0..3).map(|i| c[i].abs() * e[i][j] + w[i] * mag[i][j]).sum::<Real>();
        let reach = ha[0] * mag[0][j] + ha[1] * mag[1][j] + ha[2] * mag[2][j] + hb[j];
        if apart(mid, radius, reach, scale) {
            return true;
        }
    }
    for i in 0..3 {
        let (i1, i2) = ((i + 1) % 3, (i + 2) % 3);
        for j in 0..3 {
            let (j1, j2) = ((j + 1) % 3, (j + 2) % 3);
            let (p, q) = (c[i2] * m[i1][j], c[i1] * m[i2][j]);
            let radius = c[i2].abs() * e[i1][j] + w[i2] * mag[i1][j] + c[i1].abs() * e[i2][j] + w[i1] * mag[i2][j];
            let reach = ha[i1] * mag[i2][j] + ha[i2] * mag[i1][j] + hb[j1] * mag[i][j2] + hb[j2] * mag[i][j1];
            if apart(p - q, radius, reach, p.abs() + q.abs()) {
                return true;
            }
        }
    }
    false
}

/// A box moving over a time interval, against axis-aligned boxes of the frame it moves in
/// (a voxel map's nodes): what [`may_overlap`] computes of it, computed once for all.
pub struct MovingBox {
    rotation: MidpointRadius3,
    /// The centre's coordinates: centres and radii.
    centre_mid: [Real; 3],
    centre_rad: [Real; 3],
    half_extents: Vector3,
    /// An axis-aligned box holding it over the whole interval.
    pub swept: Aabb,
}

impl MovingBox {
    /// Box `b` (exact, in frame B) with B within `b_in_a`.
    pub fn new(b: &Obb, b_in_a: &IntervalPose) -> Self {
        let centre = b_in_a.transform_point(&b.center);
        let c: [(Real, Real); 3] = std::array::from_fn(|i| midpoint_radius(centre.0[i]));
        Self {
            rotation: MidpointRadius3::new(&b_in_a.rotation.mul_matrix(&b.axes)),
            centre_mid: c.map(|x| x.0),
            centre_rad: c.map(|x| x.1),
            half_extents: b.half_extents,
            swept: swept_aabb(b, b_in_a),
        }
    }

    /// [`may_overlap`] of the axis-aligned box `a` (as `Obb::from_aabb` gives it) and
    /// this box: first the swept box (the three axes of `a`), then the twelve others.
    pub fn may_overlap_aabb(&self, a: &Aabb) -> bool {
        if !self.swept.intersects(a) {
            return false;
        }
        let centre = a.center();
        // The moving box's centre relative to `a`'s, and the rounding of that difference.
        let c: [Real; 3] = std::array::from_fn(|i| self.centre_mid[i] - centre[i]);
        let w: [Real; 3] = std::array::from_fn(|i| self.centre_rad[i] + 2.0 * Real::EPSILON * (self.centre_mid[i].abs() + centre[i].abs()));
        !separated(&self.rotation, &c, &w, &a.half_extents(), &self.half_extents, false)
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
    use crate::enclosure::{Interval, IntervalPose, IntervalVector3};
    use crate::math::{Isometry3, Matrix3, UnitQuaternion, Vector3};

    /// [`may_overlap`] with interval products throughout, as it was before the
    /// midpoint-radius form: B's box in A's box frame as interval matrices.
    fn may_overlap_intervals(a: &Obb, b: &Obb, b_in_a: &IntervalPose) -> bool {
        let at = IntervalMatrix3::from_matrix(&a.axes.transpose());
        let r = at.mul(&b_in_a.rotation.mul_matrix(&b.axes));
        let center_b = b_in_a.transform_point(&b.center);
        let t: IntervalVector3 = at.mul_vector(&(center_b - IntervalVector3::from_point(&a.center)));
        let rotation = MidpointRadius3::new(&r);
        let centre: [(Real, Real); 3] = std::array::from_fn(|i| midpoint_radius(t.0[i]));
        !separated(&rotation, &centre.map(|x| x.0), &centre.map(|x| x.1), &a.half_extents, &b.half_extents, true)
    }

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

    /// Neither form of the test calls a box pair apart that overlaps at some pose of the
    /// motion (200 sampled angles of a turn about a random axis after a random pose):
    /// the moving box against axis-aligned boxes, and [`may_overlap`] against the same
    /// boxes turned. And both call most of the pairs that never overlap apart.
    #[test]
    fn boxes_are_never_apart_where_they_overlap() {
        let mut next = crate::math::test_uniform(11);
        let (mut apart_moving, mut apart_turned, mut overlapping, mut overlapping_turned, mut agree) = (0, 0, 0, 0, 0);
        let total = 300 * 20;
        for _ in 0..300 {
            let b = Obb {
                center: Point3::new(0.2 * next() - 0.1, 0.2 * next() - 0.1, 0.2 * next() - 0.1),
                axes: Matrix3::identity(),
                half_extents: Vector3::new(0.1 * next() + 0.01, 0.05 * next() + 0.01, 0.1 * next() + 0.01),
            };
            let base = Isometry3::new(Vector3::new(next(), next(), next()) * 0.4, Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 3.0);
            let axis = Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5).normalize();
            let (from, to) = (next() - 0.5, next() * 0.6);
            let over = IntervalPose::from_isometry(&base).then_rotate(&crate::enclosure::AxisRotation::new(&axis, Interval::hull(from, from + to)));
            let poses: Vec<Isometry3> = (0..=200).map(|k| base * Isometry3::rotation(axis * (from + to * k as Real / 200.0))).collect();
            let moving = MovingBox::new(&b, &over);
            for _ in 0..20 {
                // Near where the box is at the base pose.
                let lo = base * b.center + Vector3::new(next() - 0.5, next() - 0.5, next() - 0.5) * 0.5 - Vector3::repeat(0.05);
                let a = Aabb::new(lo, lo + Vector3::new(0.1 * next(), 0.1 * next(), 0.1 * next()));
                let touches = poses.iter().any(|pose| Obb::from_aabb(&a).intersects(&b, pose));
                let apart = !moving.may_overlap_aabb(&a);
                assert!(!(apart && touches), "{a:?} overlaps the moving box at a sampled pose, but is called apart");
                overlapping += touches as usize;
                apart_moving += apart as usize;
                // The same box turned about its centre.
                let turn = UnitQuaternion::from_euler_angles(6.0 * next(), 6.0 * next(), 6.0 * next()).to_rotation_matrix().into_inner();
                let turned = Obb { axes: turn, ..Obb::from_aabb(&a) };
                let touches = poses.iter().any(|pose| turned.intersects(&b, pose));
                let apart = !may_overlap(&turned, &b, &MidpointRadiusPose::new(&over));
                assert!(!(apart && touches), "{turned:?} overlaps the box at a sampled pose, but is called apart");
                agree += (apart != may_overlap_intervals(&turned, &b, &over)) as usize;
                overlapping_turned += touches as usize;
                apart_turned += apart as usize;
            }
        }
        assert!(overlapping > 100 && overlapping_turned > 100, "{overlapping} and {overlapping_turned} overlapping pairs");
        assert!(apart_moving * 100 >= (total - overlapping) * 85, "{apart_moving} apart of {} never overlapping", total - overlapping);
        assert!(apart_turned * 100 >= (total - overlapping_turned) * 80, "{apart_turned} apart of {} never overlapping", total - overlapping_turned);
        // The midpoint-radius form is as tight as interval products: the same answers.
        assert_eq!(agree, total, "the midpoint-radius form and interval products disagree");
        println!(
            "moving box: {apart_moving} apart, {overlapping} overlapping; turned boxes: {apart_turned} apart, {overlapping_turned} overlapping; of {total}"
        );
    }
}
