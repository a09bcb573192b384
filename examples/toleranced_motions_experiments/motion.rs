//! Rational motions of degree 8 in GA+(3) = R^12 (Schröcker & Weber §5, §7.1), in Bernstein form.
//!
//! A quaternion polynomial q(t) of degree 4 (Bernstein control quaternions Q_0..Q_4) gives
//! the rotation R(t) = M(q(t)) / |q(t)|², where M(q) is the (unnormalised, quadratic in q)
//! rotation matrix of q: rational of degree 8 with weight w(t) = |q(t)|². The translation
//! numerator is the degree-8 Bernstein polynomial with coefficients w_k p_k (same weight),
//! i.e. the translation is the rational Bézier curve with control points p_k and weights
//! w_k. The homogeneous curve (w A, w a, w) ∈ R^13 then has Bernstein coefficients
//!   w_k = Σ_{i+j=k} C(4,i)C(4,j)/C(8,k) <Q_i, Q_j>,
//!   (wA)_k = Σ_{i+j=k} C(4,i)C(4,j)/C(8,k) B(Q_i, Q_j)   (B the polarisation of M),
//!   (wa)_k = w_k p_k,
//! and the motion is the rational Bézier curve in R^12 with affine control points
//! P_k = ((wA)_k / w_k, p_k) and weights w_k. With positive weights every curve point is a
//! convex combination of the P_k (convex-hull property).
use ccd_guard::certifier::metric::ObjectMetric;
use ccd_guard::math::{Matrix3, Point3, Real, Vector3};
use nalgebra::{Quaternion, SVector, UnitQuaternion};

/// Homogeneous point: [w·A (column major, 9), w·a (3), w].
pub type Hom = SVector<Real, 13>;

/// An affine map x ↦ A x + a.
#[derive(Clone, Copy, Debug)]
pub struct Affine {
    pub a: Matrix3,
    pub t: Vector3,
}

impl Affine {
    pub fn from_hom(h: &Hom) -> Affine {
        let w = h[12];
        Affine { a: Matrix3::from_column_slice(&h.as_slice()[0..9]) / w, t: Vector3::new(h[9], h[10], h[11]) / w }
    }
    pub fn apply(&self, p: &Point3) -> Point3 {
        Point3::from(self.a * p.coords + self.t)
    }
    /// The affine inverse y ↦ A⁻¹ (y − a).
    pub fn inverse(&self) -> Option<Affine> {
        let inv = self.a.try_inverse()?;
        Some(Affine { a: inv, t: -(inv * self.t) })
    }
}

/// dist(α, β) in the object-oriented metric (§2) of `m`:
/// dist² = |μ| |δ(b)|² + Σ_k μ_k |A u_k|², δ = α − β = (A, a). It is the same metric whose
/// distortion rate ϱ the orbit tests use (same floored moments).
pub fn metric_dist(m: &ObjectMetric, x: &Affine, y: &Affine) -> Real {
    let da = x.a - y.a;
    let dt = x.t - y.t;
    let db = da * m.barycenter.coords + dt;
    let mut s = m.mass * db.norm_squared();
    for k in 0..3 {
        s += m.moments[k] * (da * m.axes.column(k)).norm_squared();
    }
    s.sqrt()
}

/// A piece of the rational Bézier curve of degree 8: homogeneous control points over the
/// original parameter interval [t0, t1].
#[derive(Clone, Copy, Debug)]
pub struct Curve {
    pub ctrl: [Hom; 9],
    pub t0: Real,
    pub t1: Real,
}

impl Curve {
    /// de Casteljau at local parameter u ∈ [0, 1] (homogeneous).
    pub fn eval_hom(&self, u: Real) -> Hom {
        let mut p = self.ctrl;
        for r in 1..9 {
            for i in 0..9 - r {
                p[i] = p[i] * (1.0 - u) + p[i + 1] * u;
            }
        }
        p[0]
    }
    /// The affine map c(u) at local parameter u.
    pub fn eval(&self, u: Real) -> Affine {
        Affine::from_hom(&self.eval_hom(u))
    }
    /// de Casteljau subdivision at u = 1/2 on the homogeneous control points.
    pub fn split(&self) -> (Curve, Curve) {
        let mut p = self.ctrl;
        let mut left = [Hom::zeros(); 9];
        let mut right = [Hom::zeros(); 9];
        left[0] = p[0];
        right[8] = p[8];
        for r in 1..9 {
            for i in 0..9 - r {
                p[i] = (p[i] + p[i + 1]) * 0.5;
            }
            left[r] = p[0];
            right[8 - r] = p[8 - r];
        }
        let mid = 0.5 * (self.t0 + self.t1);
        (Curve { ctrl: left, t0: self.t0, t1: mid }, Curve { ctrl: right, t0: mid, t1: self.t1 })
    }
    pub fn weights(&self) -> [Real; 9] {
        self.ctrl.map(|h| h[12])
    }
    /// The affine control points P_k = H_k / w_k.
    pub fn affine_ctrl(&self) -> [Affine; 9] {
        self.ctrl.map(|h| Affine::from_hom(&h))
    }
    /// Bounding ball (§7.1): centre g = c(1/2), radius max_k dist(P_k, g). Valid when all
    /// weights are positive (convex-hull property). `split` is c's subdivision at 1/2
    /// (its last left control point is c(1/2)).
    pub fn bounding_ball(&self, metric: &ObjectMetric, split: &(Curve, Curve)) -> (Affine, Real) {
        let g = Affine::from_hom(&split.0.ctrl[8]);
        let r = self.affine_ctrl().iter().map(|p| metric_dist(metric, p, &g)).fold(0.0, Real::max);
        (g, r * (1.0 + 1e-12))
    }
}

fn binom(n: usize, k: usize) -> Real {
    (0..k).fold(1.0, |acc, i| acc * (n - i) as Real / (i + 1) as Real)
}

/// M(q): the rotation matrix of q times |q|² (homogeneous of degree 2 in q).
fn rot_hom(q: &Quaternion<Real>) -> Matrix3 {
    let (w, x, y, z) = (q.w, q.i, q.j, q.k);
    Matrix3::new(
        w * w + x * x - y * y - z * z,
        2.0 * (x * y - w * z),
        2.0 * (x * z + w * y),
        2.0 * (x * y + w * z),
        w * w - x * x + y * y - z * z,
        2.0 * (y * z - w * x),
        2.0 * (x * z - w * y),
        2.0 * (y * z + w * x),
        w * w - x * x - y * y + z * z,
    )
}

/// How a motion is built: 5 control quaternions (degree 4) and 9 translation control
/// points (the rational Bézier translation over the weights w_k).
#[derive(Clone, Debug)]
pub struct MotionDesign {
    pub quats: [UnitQuaternion<Real>; 5],
    pub trans: [Vector3; 9],
}

impl MotionDesign {
    /// The homogeneous degree-8 Bernstein control points, the motion translated by `offset`
    /// (a constant translation applied after the motion: p_k ↦ p_k + offset).
    pub fn build(&self, offset: Vector3) -> Curve {
        let q: Vec<Quaternion<Real>> = self.quats.iter().map(|u| *u.quaternion()).collect();
        let mut ctrl = [Hom::zeros(); 9];
        for (k, h) in ctrl.iter_mut().enumerate() {
            let mut w = 0.0;
            let mut wa = Matrix3::zeros();
            for i in k.saturating_sub(4)..=k.min(4) {
                let j = k - i;
                let c = binom(4, i) * binom(4, j) / binom(8, k);
                w += c * q[i].coords.dot(&q[j].coords);
                // polarisation: B(p, q) = (M(p + q) − M(p − q)) / 4
                wa += (rot_hom(&(q[i] + q[j])) - rot_hom(&(q[i] - q[j]))) * (0.25 * c);
            }
            let wt = (self.trans[k] + offset) * w;
            h.as_mut_slice()[0..9].copy_from_slice(wa.as_slice());
            h[9] = wt.x;
            h[10] = wt.y;
            h[11] = wt.z;
            h[12] = w;
        }
        Curve { ctrl, t0: 0.0, t1: 1.0 }
    }

    /// The pose at t directly from q(t) (for checking the Bernstein conversion).
    #[cfg(test)]
    pub fn direct(&self, t: Real, offset: Vector3) -> Affine {
        let b4 = |i: usize| binom(4, i) * t.powi(i as i32) * (1.0 - t).powi(4 - i as i32);
        let b8 = |i: usize| binom(8, i) * t.powi(i as i32) * (1.0 - t).powi(8 - i as i32);
        let q = (0..5).fold(Quaternion::new(0.0, 0.0, 0.0, 0.0), |acc, i| acc + *self.quats[i].quaternion() * b4(i));
        let w_ctrl = self.build(Vector3::zeros()).weights();
        let wsum: Real = (0..9).map(|i| b8(i) * w_ctrl[i]).sum();
        let tr = (0..9).fold(Vector3::zeros(), |acc, i| acc + self.trans[i] * (b8(i) * w_ctrl[i])) / wsum;
        Affine { a: rot_hom(&q) / q.norm_squared(), t: tr + offset }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn design() -> MotionDesign {
        crate::designs::ex1_design()
    }

    /// Conversion check: the Bernstein curve equals R(t) = q v q̄/|q|², translation direct.
    #[test]
    fn bernstein_form_matches_quaternion_motion() {
        let d = design();
        let c = d.build(Vector3::new(0.1, -0.2, 0.3));
        assert!(c.weights().iter().all(|&w| w > 0.0));
        for i in 0..=100 {
            let t = i as Real / 100.0;
            let (x, y) = (c.eval(t), d.direct(t, Vector3::new(0.1, -0.2, 0.3)));
            assert!((x.a - y.a).amax() < 1e-12 && (x.t - y.t).amax() < 1e-12, "t = {t}");
            assert!((x.a.transpose() * x.a - Matrix3::identity()).amax() < 1e-12);
            assert!((x.a.determinant() - 1.0).abs() < 1e-12);
        }
    }

    /// Sampled curve points of subdivided pieces lie in their bounding balls.
    #[test]
    fn sampled_points_lie_in_bounding_balls() {
        let pts = crate::designs::octagon(0.5, 0.0);
        let mut mass: Vec<Point3> = pts.clone();
        mass.push(Point3::new(0.0, 0.0, 0.1));
        let metric = ObjectMetric::from_points(&mass);
        let root = design().build(Vector3::zeros());
        assert_eq!(crate::check_balls_by_sampling(&root, &metric, 6, 200), 0);
    }

    /// The closed form distance is Σ_i |δ(m_i)|² over the (unit) mass points.
    #[test]
    fn metric_distance_is_sum_over_mass_points() {
        let mut mass = crate::designs::octagon(0.5, 0.0);
        mass.push(Point3::new(0.0, 0.0, 0.1));
        let metric = ObjectMetric::from_points(&mass);
        let c = design().build(Vector3::zeros());
        let (x, y) = (c.eval(0.2), c.eval(0.7));
        let direct: Real = mass.iter().map(|m| (x.apply(m) - y.apply(m)).norm_squared()).sum();
        assert!((metric_dist(&metric, &x, &y).powi(2) - direct).abs() < 1e-10 * direct);
    }
}
