//! The object-oriented metric on affine maps (Schröcker & Weber 2013 §2): a mass distribution on the
//! moving object defines `dist²(α, β) = Σ w_i |α(m_i) - β(m_i)|²`. It depends only on
//! the total mass |μ|, the barycenter b and the inertia matrix J = Σ w_i (m_i - b)(m_i - b)ᵀ
//! (centred second moments) with eigenvalues μ_k and unit eigenvectors u_k: writing an
//! affine map δ(x) = A x + a and x = b + Σ ξ_k u_k,
//!
//!   dist²(δ, 0) = |μ| |δ(b)|² + Σ_k μ_k |A u_k|²,
//!
//! and by Cauchy-Schwarz |δ(x)| ≤ ϱ(x) dist(δ, 0) with the distortion rate (eq. 4)
//!
//!   ϱ²(x) = 1/|μ| + Σ_k ξ_k² / μ_k.
//!
//! The metric data of a line (eq. 5) and of a plane (eq. 7) are the same quadratic
//! restricted to them. Per collision element: an individual mass distribution per piece
//! pays (the paper's Table 2).
use super::orbit::DistortionQuadratic;
use crate::math::{Matrix3, Point3, Real, Vector3};

/// A link element's mass distribution, in the element's own frame.
#[derive(Clone, Copy, Debug)]
pub struct ObjectMetric {
    /// Total mass |μ|.
    pub mass: Real,
    pub barycenter: Point3,
    /// Principal axes u_k (unit columns) of the inertia matrix.
    pub axes: Matrix3,
    /// Principal moments μ_k (eigenvalues of the inertia matrix), all positive.
    pub moments: Vector3,
}

/// Metric data of a line `a + t d` (|d| = 1): ϱ²(a + t d) = ϱ0² + (t - t0)²/ν² (eq. 5,
/// with the foot `a + t0 d` where ϱ is least).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineMetric {
    pub rho0_sq: Real,
    pub nu: Real,
    pub t0: Real,
}

/// Metric data of a plane `a + s e1 + t e2` (e1, e2 orthonormal): in the principal
/// directions of the restriction, ϱ² = ϱ0² + s'²/ν1² + t'²/ν2² (eq. 7).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlaneMetric {
    pub rho0_sq: Real,
    pub nu1: Real,
    pub nu2: Real,
}

impl ObjectMetric {
    /// Equal point masses at `points` (the vertices of a hull or the corners of a box).
    /// Moments are kept above a small share of the largest one, so that a flat or thin
    /// piece still has a finite distortion rate off its plane or line.
    pub fn from_points(points: &[Point3]) -> Self {
        let n = points.len().max(1) as Real;
        let barycenter = Point3::from(points.iter().fold(Vector3::zeros(), |acc, p| acc + p.coords) / n);
        let mut inertia = Matrix3::zeros();
        for p in points {
            let d = p - barycenter;
            inertia += d * d.transpose();
        }
        let eigen = inertia.symmetric_eigen();
        let largest = eigen.eigenvalues.amax();
        let floor = (1e-4 * largest).max(1e-12);
        Self { mass: n, barycenter, axes: eigen.eigenvectors, moments: eigen.eigenvalues.map(|m| m.max(floor)) }
    }

    /// ϱ²(x), equation 4.
    pub fn distortion_rate_sq(&self, x: &Point3) -> Real {
        self.quadratic().rate_sq(x)
    }

    /// ϱ(x), equation 4.
    pub fn distortion_rate(&self, x: &Point3) -> Real {
        self.distortion_rate_sq(x).sqrt()
    }

    /// ϱ² as a quadratic form: 1/|μ| + (x - b)ᵀ M (x - b) with M = Σ u_k u_kᵀ / μ_k.
    pub fn quadratic(&self) -> DistortionQuadratic {
        let inverse_moments = Matrix3::from_diagonal(&self.moments.map(|m| 1.0 / m));
        DistortionQuadratic { centre: self.barycenter, m: self.axes * inverse_moments * self.axes.transpose(), constant: 1.0 / self.mass }
    }

    /// Metric data of the line through `a` along `d` (equation 5).
    pub fn line_metric(&self, a: &Point3, d: &Vector3) -> LineMetric {
        let q = self.quadratic();
        let d = d.normalize();
        let p = a - q.centre;
        let c2 = d.dot(&(q.m * d));
        let c1 = p.dot(&(q.m * d));
        let c0 = q.constant + p.dot(&(q.m * p));
        LineMetric { rho0_sq: c0 - c1 * c1 / c2, nu: (1.0 / c2).sqrt(), t0: -c1 / c2 }
    }

    /// Metric data of the plane through `a` spanned by `e1`, `e2` (equation 7).
    pub fn plane_metric(&self, a: &Point3, e1: &Vector3, e2: &Vector3) -> PlaneMetric {
        let q = self.quadratic();
        let e1 = e1.normalize();
        let e2 = (e2 - e1 * e1.dot(e2)).normalize();
        let p = a - q.centre;
        // ϱ²(a + s e1 + t e2) = c + 2 gᵀ(s, t) + (s, t) H (s, t)ᵀ.
        let h = nalgebra::Matrix2::new(e1.dot(&(q.m * e1)), e1.dot(&(q.m * e2)), e2.dot(&(q.m * e1)), e2.dot(&(q.m * e2)));
        let g = nalgebra::Vector2::new(p.dot(&(q.m * e1)), p.dot(&(q.m * e2)));
        let c = q.constant + p.dot(&(q.m * p));
        let minimiser = h.try_inverse().map_or(nalgebra::Vector2::zeros(), |inv| -(inv * g));
        let rho0_sq = c + g.dot(&minimiser);
        let eigen = h.symmetric_eigen();
        PlaneMetric { rho0_sq, nu1: (1.0 / eigen.eigenvalues[0]).sqrt(), nu2: (1.0 / eigen.eigenvalues[1]).sqrt() }
    }

    /// The largest distortion rate over the convex hull of `points`: ϱ² is convex, so it
    /// is at one of them (the factor of the termination rule, equation 11).
    pub fn max_distortion_rate(&self, points: &[Point3]) -> Real {
        let q = self.quadratic();
        points.iter().map(|p| q.rate_sq(p)).fold(0.0, Real::max).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metric() -> ObjectMetric {
        let points: Vec<Point3> = [[0.3, 0.0, 0.1], [-0.2, 0.1, 0.0], [0.0, 0.4, -0.1], [0.1, -0.3, 0.2], [0.0, 0.0, -0.2], [0.2, 0.2, 0.2]]
            .iter()
            .map(|p| Point3::new(p[0], p[1], p[2]))
            .collect();
        ObjectMetric::from_points(&points)
    }

    /// ϱ is least at the barycenter, where it is 1/√|μ|, and |δ(x)| ≤ ϱ(x) dist(δ, 0)
    /// for affine maps δ (the Cauchy-Schwarz bound behind the orbits).
    #[test]
    fn distortion_rate_bounds_every_point_displacement() {
        let m = metric();
        assert!((m.distortion_rate(&m.barycenter) - 1.0 / m.mass.sqrt()).abs() < 1e-15);
        let points: Vec<Point3> = [[0.3, 0.0, 0.1], [-0.2, 0.1, 0.0], [0.0, 0.4, -0.1], [0.1, -0.3, 0.2], [0.0, 0.0, -0.2], [0.2, 0.2, 0.2]]
            .iter()
            .map(|p| Point3::new(p[0], p[1], p[2]))
            .collect();
        let a = Matrix3::new(0.01, -0.02, 0.005, 0.0, 0.03, -0.01, 0.02, 0.0, -0.015);
        let t = Vector3::new(0.01, -0.02, 0.005);
        let dist = points.iter().map(|p| (a * p.coords + t).norm_squared()).sum::<Real>().sqrt();
        for x in [Point3::new(1.0, -0.5, 0.3), Point3::new(0.0, 0.0, 0.0), Point3::new(-0.4, 0.9, -1.2)] {
            assert!((a * x.coords + t).norm() <= m.distortion_rate(&x) * dist * (1.0 + 1e-12));
        }
    }

    /// Equations 5 and 7: ϱ² on a line and on a plane is the metric data's quadratic.
    #[test]
    fn metric_data_of_lines_and_planes() {
        let m = metric();
        let (a, d) = (Point3::new(0.5, -0.2, 0.1), Vector3::new(0.3, 0.8, -0.2).normalize());
        let line = m.line_metric(&a, &d);
        for t in [-2.0, -0.3, 0.0, 0.7, 3.0] {
            let expected = line.rho0_sq + (t - line.t0).powi(2) / line.nu.powi(2);
            assert!((m.distortion_rate_sq(&(a + d * t)) - expected).abs() < 1e-9 * (1.0 + expected), "t = {t}");
        }
        let (e1, e2) = (Vector3::new(1.0, 0.2, 0.0).normalize(), Vector3::new(0.0, 0.3, 1.0));
        let plane = m.plane_metric(&a, &e1, &e2);
        // ϱ0² is the least value on the plane, and ν1, ν2 bound its growth.
        let e2 = (e2 - e1 * e1.dot(&e2)).normalize();
        // Coarse to fine search for the least value over the plane.
        let (mut centre, mut step, mut least) = ((0.0, 0.0), 1.0, Real::INFINITY);
        for _ in 0..6 {
            let c = centre;
            for i in -40..=40 {
                for j in -40..=40 {
                    let (s, t) = (c.0 + i as Real * step, c.1 + j as Real * step);
                    let value = m.distortion_rate_sq(&(a + e1 * s + e2 * t));
                    if value < least {
                        (least, centre) = (value, (s, t));
                    }
                }
            }
            step /= 10.0;
        }
        assert!(plane.rho0_sq <= least + 1e-12 && least - plane.rho0_sq < 1e-9, "ϱ0² {} least sampled {least}", plane.rho0_sq);
        assert!(plane.nu1 > 0.0 && plane.nu2 > 0.0);
    }
}
