//! Interval vectors, matrices and poses: sets of rigid transforms enclosed entry by
//! entry, with the outward-rounded arithmetic of [`Interval`] (interval arithmetic
//! (Moore), as used by Redon et al. 2004 §3.3 and §4.1).
//!
//! An [`IntervalPose`] stands for every rigid transform whose rotation matrix and
//! translation lie, entry by entry, in its intervals. Every operation returns a set that
//! holds the exact result for every member of its operands.
use super::Interval;
use super::interval::{add_down, add_up};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Matrix3, Point3, Real, Vector3};
use std::ops::{Add, Index, Sub};

/// Extra absolute width per rotation entry and radian of `rotation_about`, so that the
/// enclosure also holds nalgebra's `UnitQuaternion::from_scaled_axis(axis * θ)` (whose
/// rotation matrix differs from the exact one by a few ε plus about 2.5 ε |θ|, from the
/// rounding of `axis * θ`, its norm, the quaternion and its conversion to a matrix).
const ROTATION_SLACK: Real = 16.0 * Real::EPSILON;

/// A vector of intervals: a box of vectors or points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalVector3(pub [Interval; 3]);

/// A 3×3 matrix of intervals, row-major: `self.0[row][column]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalMatrix3(pub [[Interval; 3]; 3]);

/// A set of rigid transforms `x ↦ R x + t` with `R` in `rotation` and `t` in
/// `translation` (each entry independently).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IntervalPose {
    pub rotation: IntervalMatrix3,
    pub translation: IntervalVector3,
}

/// `Σ_j a_j · b_j` with outward rounding (interval dot product, of two or three terms):
/// the bounds are summed in plain floating point and widened once by a bound on the
/// rounding of all the operations (`8 ε Σ|terms|`, above the `3.5 ε` that three terms'
/// five operations can lose), which is much cheaper than rounding each operation
/// outward. Non-finite terms take the careful path.
#[inline(always)]
fn dot<const N: usize>(a: [Interval; N], b: [Interval; N]) -> Interval {
    let bounds: [(Real, Real); N] = std::array::from_fn(|k| {
        let (x, y) = (a[k], b[k]);
        let (p1, p2, p3, p4) = (x.lo * y.lo, x.lo * y.hi, x.hi * y.lo, x.hi * y.hi);
        (p1.min(p2).min(p3.min(p4)), p1.max(p2).max(p3.max(p4)))
    });
    summed(bounds).unwrap_or_else(|| (1..N).fold(a[0] * b[0], |sum, k| sum + a[k] * b[k]))
}

/// `Σ_j a_j · b_j` for an exact f64 vector `b`, with outward rounding (as [`dot`]).
#[inline(always)]
fn dot_f64(a: [Interval; 3], b: [Real; 3]) -> Interval {
    let bounds: [(Real, Real); 3] = std::array::from_fn(|k| {
        let (p, q) = (a[k].lo * b[k], a[k].hi * b[k]);
        if b[k] >= 0.0 { (p, q) } else { (q, p) }
    });
    summed(bounds).unwrap_or_else(|| a[0] * b[0] + a[1] * b[1] + a[2] * b[2])
}

/// The sum of two or three terms' bounds, widened by a bound on all rounding; `None`
/// when a term is not finite.
#[inline(always)]
fn summed<const N: usize>(bounds: [(Real, Real); N]) -> Option<Interval> {
    let (mut lo, mut hi, mut magnitude) = (0.0, 0.0, 0.0);
    for (l, h) in bounds {
        lo += l;
        hi += h;
        magnitude += l.abs().max(h.abs());
    }
    if !(lo.is_finite() && hi.is_finite() && magnitude.is_finite()) {
        return None;
    }
    let error = magnitude * (8.0 * Real::EPSILON) + 4.0 * Real::MIN_POSITIVE;
    Some(Interval { lo: lo - error, hi: hi + error })
}

/// `(k, ±1)` when `axis` is `±e_k` exactly.
fn coordinate_axis(axis: &Vector3) -> Option<(usize, Real)> {
    let k = axis.iamax();
    let others_zero = (0..3).all(|m| m == k || axis[m] == 0.0);
    (others_zero && axis[k].is_finite() && axis[k] != 0.0).then(|| (k, axis[k].signum()))
}

/// The rotations about one axis by an interval of angles, ready to compose: for a
/// coordinate axis (most URDF joints) the interval cosine and sine, with which a
/// composition mixes two columns and keeps the third, plus the slack that
/// [`IntervalPose::rotation_about`] adds to every entry (added to the product as
/// `slack · Σ_k |R_rk|` per row); for any other axis the interval matrix.
#[derive(Clone, Copy, Debug)]
pub enum AxisRotation {
    /// About `sign · e_k`: `cos` and `sin` of the angle turned about `e_k`.
    Coordinate {
        k: usize,
        sign: Real,
        cos: Interval,
        sin: Interval,
        slack: Real,
    },
    General(IntervalPose),
}

impl AxisRotation {
    pub fn new(axis: &Vector3, angle: Interval) -> Self {
        match coordinate_axis(axis) {
            Some((k, sign)) => AxisRotation::Coordinate {
                k,
                sign,
                cos: angle.cos(),
                sin: if sign > 0.0 { angle.sin() } else { -angle.sin() },
                slack: ROTATION_SLACK * (1.0 + angle.mag()),
            },
            None => AxisRotation::General(IntervalPose::rotation_about(axis, angle)),
        }
    }

    /// `{M R}` for every `M` in `m` and `R` in the set: about a coordinate axis two
    /// columns mixed (`e_i -> c e_i + s e_j`, `e_j -> -s e_i + c e_j`) and the third
    /// kept, each row widened by the slack times its magnitude.
    pub fn right_multiply(&self, m: &IntervalMatrix3) -> IntervalMatrix3 {
        self.right_multiply_widened(m, 0.0)
    }

    /// [`Self::right_multiply`] with every entry widened by `extra >= 0` more, in the
    /// same widening (a link's pose slack, added where the turn is).
    pub fn right_multiply_widened(&self, m: &IntervalMatrix3, extra: Real) -> IntervalMatrix3 {
        let &AxisRotation::Coordinate { k, cos: c, sin: s, slack, .. } = self else {
            let AxisRotation::General(general) = self else { unreachable!() };
            let product = m.mul(&general.rotation);
            return if extra > 0.0 { product.widened(extra) } else { product };
        };
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let mut out = *m;
        for (o, r) in out.0.iter_mut().zip(m.0) {
            let margin = slack * (r[0].mag() + r[1].mag() + r[2].mag()) * (1.0 + 4.0 * Real::EPSILON) + Real::MIN_POSITIVE;
            // The sum rounded up: its rounding is at most an ulp of it.
            let margin = if extra > 0.0 { (margin + extra) * (1.0 + 2.0 * Real::EPSILON) } else { margin };
            o[i] = widen(dot([c, s], [r[i], r[j]]), margin);
            o[j] = widen(dot([c, -s], [r[j], r[i]]), margin);
            o[k] = widen(r[k], margin);
        }
        out
    }

    /// `{M dR/dt}` for every `M` in `m`, where `R(t)` turns by `θ(t)` about the axis
    /// with `θ` in the set's angles and `θ̇` in `rate`; `None` for a general axis. About
    /// `sign · e_k` by `φ = sign θ`, `dR/dt = sign θ̇ R'(φ)` with `R'` taking `e_i` to
    /// `-sin φ e_i + cos φ e_j`, `e_j` to `-cos φ e_i - sin φ e_j` and `e_k` to 0; each
    /// row widened by the slack times its magnitude and the rate's.
    pub fn right_multiply_rate(&self, m: &IntervalMatrix3, rate: Interval) -> Option<IntervalMatrix3> {
        let &AxisRotation::Coordinate { k, sign, cos: c, sin: s, slack } = self else { return None };
        let (i, j) = ((k + 1) % 3, (k + 2) % 3);
        let signed_rate = rate * sign;
        let zero = Interval::point(0.0);
        let mut out = IntervalMatrix3([[zero; 3]; 3]);
        for (o, r) in out.0.iter_mut().zip(m.0) {
            let margin = slack * (r[0].mag() + r[1].mag() + r[2].mag()) * signed_rate.mag() * (1.0 + 8.0 * Real::EPSILON) + Real::MIN_POSITIVE;
            o[i] = widen(dot([-s, c], [r[i], r[j]]) * signed_rate, margin);
            o[j] = widen(dot([-c, -s], [r[i], r[j]]) * signed_rate, margin);
        }
        Some(out)
    }
}

/// `x` widened by `margin >= 0` on both sides, rounded outwards.
#[inline]
fn widen(x: Interval, margin: Real) -> Interval {
    Interval { lo: add_down(x.lo, -margin), hi: add_up(x.hi, margin) }
}

impl IntervalVector3 {
    /// The exact vector `v` (point intervals).
    pub fn from_vector(v: &Vector3) -> Self {
        Self([Interval::point(v.x), Interval::point(v.y), Interval::point(v.z)])
    }

    /// Every entry widened by `margin >= 0` on both sides, rounded outwards.
    pub fn widened(&self, margin: Real) -> Self {
        Self(self.0.map(|x| widen(x, margin)))
    }

    /// The exact point `p` (point intervals).
    pub fn from_point(p: &Point3) -> Self {
        Self::from_vector(&p.coords)
    }

    /// The zero vector.
    pub fn zeros() -> Self {
        Self([Interval::point(0.0); 3])
    }

    /// The box `[lo, hi]` of the three intervals (exact).
    pub fn to_aabb(&self) -> Aabb {
        Aabb::new(Point3::new(self.0[0].lo, self.0[1].lo, self.0[2].lo), Point3::new(self.0[0].hi, self.0[1].hi, self.0[2].hi))
    }

    /// A vector inside the box, near its centre.
    pub fn mid(&self) -> Vector3 {
        Vector3::new(self.0[0].mid(), self.0[1].mid(), self.0[2].mid())
    }

    /// Whether `v` lies in the box.
    pub fn contains(&self, v: &Vector3) -> bool {
        (0..3).all(|i| self.0[i].contains(v[i]))
    }

    /// The smallest box holding both boxes.
    pub fn union(&self, o: &IntervalVector3) -> Self {
        Self(std::array::from_fn(|i| self.0[i].union(o.0[i])))
    }

    /// Whether every bound is finite.
    pub fn is_finite(&self) -> bool {
        self.0.iter().all(|x| x.is_finite())
    }
}

impl Index<usize> for IntervalVector3 {
    type Output = Interval;
    fn index(&self, i: usize) -> &Interval {
        &self.0[i]
    }
}

impl Add for IntervalVector3 {
    type Output = IntervalVector3;
    /// Componentwise sum, rounded outwards.
    fn add(self, o: IntervalVector3) -> IntervalVector3 {
        IntervalVector3(std::array::from_fn(|i| self.0[i] + o.0[i]))
    }
}

impl Sub for IntervalVector3 {
    type Output = IntervalVector3;
    /// Componentwise difference, rounded outwards.
    fn sub(self, o: IntervalVector3) -> IntervalVector3 {
        IntervalVector3(std::array::from_fn(|i| self.0[i] - o.0[i]))
    }
}

impl IntervalMatrix3 {
    /// The exact matrix `m` (point intervals).
    pub fn from_matrix(m: &Matrix3) -> Self {
        Self(std::array::from_fn(|i| std::array::from_fn(|j| Interval::point(m[(i, j)]))))
    }

    /// Every entry widened by `margin >= 0` on both sides, rounded outwards.
    pub fn widened(&self, margin: Real) -> Self {
        Self(self.0.map(|row| row.map(|x| widen(x, margin))))
    }

    /// The identity matrix.
    pub fn identity() -> Self {
        Self::from_matrix(&Matrix3::identity())
    }

    /// Row `i`.
    #[inline(always)]
    fn row(&self, i: usize) -> [Interval; 3] {
        self.0[i]
    }

    /// Column `j`.
    #[inline(always)]
    fn column(&self, j: usize) -> [Interval; 3] {
        [self.0[0][j], self.0[1][j], self.0[2][j]]
    }

    /// `{A B}` for every `A` in `self`, `B` in `o`, rounded outwards.
    pub fn mul(&self, o: &IntervalMatrix3) -> Self {
        Self(std::array::from_fn(|i| std::array::from_fn(|j| dot(self.row(i), o.column(j)))))
    }

    /// `{A M}` for an exact matrix `M`, rounded outwards (cheaper than [`Self::mul`]).
    pub fn mul_matrix(&self, m: &Matrix3) -> Self {
        Self(std::array::from_fn(|i| std::array::from_fn(|j| dot_f64(self.row(i), [m[(0, j)], m[(1, j)], m[(2, j)]]))))
    }

    /// `{A v}` for every `A` in `self`, `v` in `v`, rounded outwards.
    pub fn transpose(&self) -> Self {
        IntervalMatrix3(std::array::from_fn(|i| std::array::from_fn(|j| self.0[j][i])))
    }

    pub fn mul_vector(&self, v: &IntervalVector3) -> IntervalVector3 {
        IntervalVector3(std::array::from_fn(|i| dot(self.row(i), v.0)))
    }

    /// `{A v}` for an exact vector `v`, rounded outwards.
    pub fn mul_f64_vector(&self, v: &Vector3) -> IntervalVector3 {
        IntervalVector3(std::array::from_fn(|i| dot_f64(self.row(i), [v.x, v.y, v.z])))
    }

    /// Whether `m` lies in the set, entry by entry.
    pub fn contains(&self, m: &Matrix3) -> bool {
        (0..3).all(|i| (0..3).all(|j| self.0[i][j].contains(m[(i, j)])))
    }

    /// A matrix inside the set, near its centre.
    pub fn mid(&self) -> Matrix3 {
        Matrix3::from_fn(|i, j| self.0[i][j].mid())
    }

    /// The entrywise hull of both sets.
    pub fn union(&self, o: &IntervalMatrix3) -> Self {
        Self(std::array::from_fn(|i| std::array::from_fn(|j| self.0[i][j].union(o.0[i][j]))))
    }

    /// Whether every bound is finite.
    pub fn is_finite(&self) -> bool {
        self.0.iter().flatten().all(|x| x.is_finite())
    }
}

impl IntervalPose {
    /// The single pose `iso`: point intervals of its f64 rotation matrix (nalgebra's
    /// `to_rotation_matrix` of the quaternion) and translation, taken as exact.
    pub fn from_isometry(iso: &Isometry3) -> Self {
        Self {
            rotation: IntervalMatrix3::from_matrix(iso.rotation.to_rotation_matrix().matrix()),
            translation: IntervalVector3::from_vector(&iso.translation.vector),
        }
    }

    /// The identity transform.
    pub fn identity() -> Self {
        Self { rotation: IntervalMatrix3::identity(), translation: IntervalVector3::zeros() }
    }

    /// Every pose (and more): what a link not computed may be anywhere.
    pub const ENTIRE: IntervalPose =
        IntervalPose { rotation: IntervalMatrix3([[Interval::ENTIRE; 3]; 3]), translation: IntervalVector3([Interval::ENTIRE; 3]) };

    /// `self⁻¹ ∘ o` for every pair of members: the pose of frame `o` in frame `self`
    /// (a rotation's inverse is its transpose, entry by entry).
    pub fn inv_mul(&self, o: &IntervalPose) -> IntervalPose {
        let rt = IntervalMatrix3(std::array::from_fn(|i| std::array::from_fn(|k| self.rotation.0[k][i])));
        IntervalPose { rotation: rt.mul(&o.rotation), translation: rt.mul_vector(&(o.translation - self.translation)) }
    }

    /// Composition `self ∘ o` (apply `o` first): `R = R1 R2`, `t = R1 t2 + t1`, for every
    /// member of both sets, rounded outwards.
    pub fn mul(&self, o: &IntervalPose) -> IntervalPose {
        IntervalPose { rotation: self.rotation.mul(&o.rotation), translation: self.rotation.mul_vector(&o.translation) + self.translation }
    }

    /// Composition `self ∘ iso` with an exact pose (its f64 matrix, as in
    /// [`Self::from_isometry`]); cheaper than [`Self::mul`].
    pub fn mul_isometry(&self, iso: &Isometry3) -> IntervalPose {
        IntervalPose {
            rotation: self.rotation.mul_matrix(iso.rotation.to_rotation_matrix().matrix()),
            translation: self.rotation.mul_f64_vector(&iso.translation.vector) + self.translation,
        }
    }

    /// Composition `iso ∘ self` with an exact pose applied after the set (its f64
    /// matrix, as in [`Self::from_isometry`]); cheaper than [`Self::mul`].
    pub fn isometry_mul(iso: &Isometry3, set: &IntervalPose) -> IntervalPose {
        let m = iso.rotation.to_rotation_matrix().into_inner();
        let row = |i: usize| [m[(i, 0)], m[(i, 1)], m[(i, 2)]];
        IntervalPose {
            rotation: IntervalMatrix3(std::array::from_fn(|i| std::array::from_fn(|j| dot_f64(set.rotation.column(j), row(i))))),
            translation: IntervalVector3(std::array::from_fn(|i| dot_f64(set.translation.0, row(i)) + iso.translation.vector[i])),
        }
    }

    /// `{R p + t}` over the set: where the point `p` can be.
    pub fn transform_point(&self, p: &Point3) -> IntervalVector3 {
        self.rotation.mul_f64_vector(&p.coords) + self.translation
    }

    /// `{R v}` over the set: where the vector `v` can point.
    pub fn transform_vector(&self, v: &Vector3) -> IntervalVector3 {
        self.rotation.mul_f64_vector(v)
    }

    /// Every rotation about the direction of `axis` (f64, exact; normalised here in
    /// interval arithmetic) by an angle in `angle`:
    /// `R = cos θ (I - u uᵀ) + sin θ [u]ₓ + u uᵀ` (Redon et al. 2004 §3.3, eq. 3-4) with interval
    /// cos/sin, each entry widened by `16 ε (1 + |θ|max)` so that nalgebra's
    /// `UnitQuaternion::from_scaled_axis(axis * θ)` is held too, and cut to that much
    /// beyond `[-1, 1]`. Zero translation. A zero or non-finite axis gives a non-finite set.
    pub fn rotation_about(axis: &Vector3, angle: Interval) -> IntervalPose {
        let a = [Interval::point(axis.x), Interval::point(axis.y), Interval::point(axis.z)];
        let norm = (a[0].sqr() + a[1].sqr() + a[2].sqr()).sqrt();
        let u = a.map(|x| x / norm);
        let c = angle.cos();
        let s = angle.sin();
        let one_minus_c = 1.0 - c;
        let margin = ROTATION_SLACK * (1.0 + angle.mag());
        let bound = add_up(1.0, margin);
        let limit = Interval { lo: -bound, hi: bound };
        // [u]ₓ, the cross-product matrix.
        let cross = [[Interval::point(0.0), -u[2], u[1]], [u[2], Interval::point(0.0), -u[0]], [-u[1], u[0], Interval::point(0.0)]];
        let rotation = IntervalMatrix3(std::array::from_fn(|i| {
            std::array::from_fn(|j| {
                let entry = if i == j {
                    // u_i² + cos θ (1 - u_i²): cos θ appears once, so no dependency loss.
                    let uu = u[i].sqr();
                    uu + c * (1.0 - uu)
                } else {
                    one_minus_c * (u[i] * u[j]) + s * cross[i][j]
                };
                let entry = widen(entry, margin);
                if entry.is_finite() { entry.intersect(limit).unwrap_or(entry) } else { entry }
            })
        }));
        IntervalPose { rotation, translation: IntervalVector3::zeros() }
    }

    /// `self ∘ rotation`.
    pub fn then_rotate(&self, rotation: &AxisRotation) -> IntervalPose {
        IntervalPose { rotation: rotation.right_multiply(&self.rotation), translation: self.translation }
    }

    /// `self ∘ rotation`, widened as [`Self::widened`] would widen it after, with the
    /// rotation's margin added in the turn's own widening of each entry.
    pub fn then_rotate_widened(&self, rotation: &AxisRotation, rotation_margin: Real, translation_margin: Real) -> IntervalPose {
        IntervalPose { rotation: rotation.right_multiply_widened(&self.rotation, rotation_margin), translation: self.translation.widened(translation_margin) }
    }

    /// Every translation by `axis * d` (f64 axis, exact) with `d` in `distance`;
    /// identity rotation.
    pub fn translation_along(axis: &Vector3, distance: Interval) -> IntervalPose {
        IntervalPose { rotation: IntervalMatrix3::identity(), translation: IntervalVector3([distance * axis.x, distance * axis.y, distance * axis.z]) }
    }

    /// The set widened by `rotation_margin` on every rotation entry and by
    /// `translation_margin` on every translation component (both >= 0).
    pub fn widened(&self, rotation_margin: Real, translation_margin: Real) -> IntervalPose {
        IntervalPose { rotation: self.rotation.widened(rotation_margin), translation: self.translation.widened(translation_margin) }
    }

    /// The smallest interval pose holding both sets.
    pub fn union(&self, o: &IntervalPose) -> IntervalPose {
        IntervalPose { rotation: self.rotation.union(&o.rotation), translation: self.translation.union(&o.translation) }
    }

    /// An axis-aligned box holding the box `obb` (given in the local frame) under every
    /// transform of the set: centre `R c + t` as intervals, plus on world axis `k` the
    /// reach `Σ_j mag((R A)_kj) |h_j|`, all rounded outwards.
    pub fn obb_aabb(&self, obb: &Obb) -> Aabb {
        let centre = self.transform_point(&obb.center);
        let ra = self.rotation.mul_matrix(&obb.axes);
        let h = obb.half_extents;
        let mut mins = Point3::origin();
        let mut maxs = Point3::origin();
        for k in 0..3 {
            // Three products and two sums of non-negative terms: rounded up by 4 ε.
            let reach = (0..3).map(|j| ra.0[k][j].mag() * h[j].abs()).sum::<Real>() * (1.0 + 4.0 * Real::EPSILON) + Real::MIN_POSITIVE;
            mins[k] = add_down(centre.0[k].lo, -reach);
            maxs[k] = add_up(centre.0[k].hi, reach);
        }
        Aabb::new(mins, maxs)
    }

    /// Whether `iso` (its f64 rotation matrix and translation) lies in the set.
    pub fn contains(&self, iso: &Isometry3) -> bool {
        self.rotation.contains(iso.rotation.to_rotation_matrix().matrix()) && self.translation.contains(&iso.translation.vector)
    }

    /// Whether every bound is finite.
    pub fn is_finite(&self) -> bool {
        self.rotation.is_finite() && self.translation.is_finite()
    }
}
