//! Orbits of vertices, edges and faces under a ball of affine motions, and the basic
//! collision tests between a moving and a fixed triangle (Schröcker & Weber 2013,
//! "Guaranteed collision detection with toleranced motions", §3, §4 and §6).
//!
//! Over a time interval the link's motion lies in a ball B_R(g) of affine maps (§2); the
//! caller maps the fixed geometry by g⁻¹ (§6, Listing 2), so the moving triangle sits in
//! its "zero position" and each of its points x can reach exactly the ball of radius
//! R·ϱ(x) around x, ϱ the distortion rate of eq. 4. The orbit of a feature is the union
//! (the envelope, §3) of these balls: a ball for a vertex, the one-sheet hyperboloid of
//! revolution Φ between two planes for an edge (eq. 6), and for a face the patch of the
//! two-sheet hyperboloid Ψ over the scaled polygon σ(P) (eq. 8, Prop. 1) together with
//! the orbits of its edges and vertices.
//!
//! Every test therefore asks one question: with
//!   G(x, y) = |x − y|² − R² ϱ²(x)   (x on the moving feature, y on the fixed one),
//! is min G ≤ 0? Parametrising both features affinely over the unit square (edge × edge)
//! or the unit triangle (vertex × face, face × vertex) makes G a quadratic q(s, t), which
//! is minimised in closed form over the candidates
//!   * the interior critical point, when q is strictly convex: for an edge that is R < ν
//!     (eq. 5/6), for a face R < min(ν₁, ν₂) (eq. 7/8), i.e. the Φ and Ψ patches;
//!   * the minima of q on the domain's edges (1-D quadratics on [0, 1]), corners included:
//!     the edge orbits Φ and the vertex balls.
//!
//! Where q is not convex (the large-R case of Remark 1, §6) its minimum over the domain
//! lies on the boundary, so the candidates always contain a minimiser; degenerate
//! (zero-area) triangles and zero-length edges need no special case either, because a
//! degenerate triangle is the union of its edges and the boundary candidates cover it.

use crate::math::{Matrix3, Point3, Real, Triangle};

/// ϱ²(x) = constant + (x − centre)ᵀ m (x − centre): the squared distortion rate (Schröcker & Weber
/// eq. 4) with `constant` = 1/|μ| > 0, `centre` the barycenter of the mass distribution and
/// `m` = Σ_k u_k u_kᵀ / μ_k symmetric positive (semi)definite.
#[derive(Clone, Copy, Debug)]
pub struct DistortionQuadratic {
    pub centre: Point3,
    pub m: Matrix3,
    pub constant: Real,
}

impl DistortionQuadratic {
    /// ϱ²(x), Schröcker & Weber eq. 4.
    pub fn rate_sq(&self, x: &Point3) -> Real {
        let d = x - self.centre;
        self.constant + d.dot(&(self.m * d))
    }
}

/// The moving object's tolerance: every point x may be displaced by up to `radius` · ϱ(x),
/// i.e. the orbit of x under the ball B_R(id) of affine maps (Schröcker & Weber §3, eq. 4).
#[derive(Clone, Copy, Debug)]
pub struct Orbit {
    pub quadratic: DistortionQuadratic,
    pub radius: Real,
}

/// Rounding slack on G, relative to S² (see [`Frame::new`]); G has units of length².
///
/// Why it covers rounding. Let L bound every coordinate involved (feature points and the
/// centre) and m̄ = 3·max|m_ij| ≥ ‖m‖₂, ‖|m|‖₂. Then |x − y|² and |x − centre|² are at most
/// 12 L², so every coefficient of q and every value of G on the domain is at most a small
/// multiple of S² = 12 L² + R² (|constant| + 12 m̄ L²). Forming the differences, dot
/// products and coefficients, and evaluating q, each commit absolute errors of a few ε S²
/// (ε = 2⁻⁵³): we minimise a quadratic within ~50 ε S² of G. The 1-D minima on the edges
/// are exact up to a few ε S². The interior point is solved by elimination with partial
/// pivoting (normwise backward stable, residual |r| = O(ε S²)); a true interior minimum
/// is approached within min(|r|²/λ_min, 2 λ_min) ≤ √2 |r| by the candidates, because the
/// boundary alone lies within 2 λ_min of it (λ_min the least eigenvalue of q's Hessian,
/// parameter domain of diameter √2) and the segment from it to the computed point costs
/// at most |r|²/λ_min. In total the computed minimum exceeds the true one by ~10² ε S²
/// ≈ 2·10⁻¹⁴ S²; 10⁻¹⁰ S² leaves a margin above 10³. In lengths, gaps up to ~10⁻⁵ S count
/// as contact. `Real::MIN_POSITIVE` is added for underflow (absolute errors of 2⁻¹⁰⁷⁴).
const RELATIVE_SLACK: Real = 1e-10;

impl Orbit {
    /// Moving vertex vs fixed face (Schröcker & Weber §4, first test): may the ball B(v, R ϱ(v))
    /// (eq. 4) touch the triangle? Minimum over y of |v − y|² − R² ϱ²(v).
    pub fn vertex_may_hit_triangle(&self, v: &Point3, fixed: &Triangle) -> bool {
        match Frame::new(self, &[v, &fixed[0], &fixed[1], &fixed[2]]) {
            Some(frame) => frame.hit(frame.vertex_face_min(v, fixed)),
            None => true,
        }
    }

    /// Moving edge [a, b] vs fixed edge [c, d] (Schröcker & Weber §4, second test): may the edge's
    /// orbit (Φ of eq. 6 between its planes, plus the end balls) touch the segment?
    pub fn edge_may_hit_edge(&self, a: &Point3, b: &Point3, c: &Point3, d: &Point3) -> bool {
        match Frame::new(self, &[a, b, c, d]) {
            Some(frame) => frame.hit(frame.edge_edge_min(a, b, c, d)),
            None => true,
        }
    }

    /// Fixed vertex y vs moving face (Schröcker & Weber §4, third test): may y lie in the
    /// triangle's orbit (Ψ of eq. 8 over σ(P) of Prop. 1, plus edge and vertex orbits)?
    pub fn triangle_may_hit_vertex(&self, moving: &Triangle, y: &Point3) -> bool {
        match Frame::new(self, &[&moving[0], &moving[1], &moving[2], y]) {
            Some(frame) => frame.hit(frame.face_vertex_min(moving, y)),
            None => true,
        }
    }

    /// Schröcker & Weber §6, Listing 2: the 3 vertex-face, 9 edge-edge and 3 face-vertex tests.
    /// `false` proves that no contact can BEGIN between the triangles for any motion in
    /// the ball (the first contact of two triangles is vertex-face, edge-edge or
    /// face-vertex); triangles that already interpenetrate (an edge through the other's
    /// interior, nothing else touching) are not reported. Degenerate triangles are
    /// handled: pass a moving or fixed segment [a, b] as [a, b, b], a point p as [p, p, p].
    pub fn triangle_may_hit_triangle(&self, moving: &Triangle, fixed: &Triangle) -> bool {
        let points = [&moving[0], &moving[1], &moving[2], &fixed[0], &fixed[1], &fixed[2]];
        let Some(frame) = Frame::new(self, &points) else {
            return true;
        };
        let next = |i: usize| (i + 1) % 3;
        (0..3).any(|i| frame.hit(frame.vertex_face_min(&moving[i], fixed)))
            || (0..3).any(|i| {
                (0..3).any(|j| {
                    let g = frame.edge_edge_min(&moving[i], &moving[next(i)], &fixed[j], &fixed[next(j)]);
                    frame.hit(g)
                })
            })
            || (0..3).any(|j| frame.hit(frame.face_vertex_min(moving, &fixed[j])))
    }
}

/// The orbit prepared for one query: symmetric part of m, R², and the rounding tolerance.
struct Frame {
    centre: Point3,
    m: Matrix3,
    constant: Real,
    r2: Real,
    tolerance: Real,
}

impl Frame {
    /// `None` when an input is not finite or the magnitudes approach overflow: the caller
    /// then answers "may hit".
    fn new(orbit: &Orbit, points: &[&Point3]) -> Option<Frame> {
        let q = &orbit.quadratic;
        let mut sum = orbit.radius + q.constant + q.centre.coords.sum() + q.m.sum();
        let mut l = q.centre.coords.amax();
        for p in points {
            sum += p.coords.sum();
            l = l.max(p.coords.amax());
        }
        if !sum.is_finite() {
            return None;
        }
        let r2 = orbit.radius * orbit.radius;
        let m_bar = 3.0 * q.m.amax();
        let scale_sq = 12.0 * l * l + r2 * (q.constant.abs() + 12.0 * m_bar * l * l);
        if scale_sq.is_nan() || scale_sq > 1e300 {
            return None;
        }
        Some(Frame { centre: q.centre, m: (q.m + q.m.transpose()) * 0.5, constant: q.constant, r2, tolerance: RELATIVE_SLACK * scale_sq + Real::MIN_POSITIVE })
    }

    /// "May hit" unless the computed minimum of G clearly exceeds the rounding tolerance
    /// (a NaN also answers "may hit").
    fn hit(&self, g_min: Real) -> bool {
        g_min <= self.tolerance || g_min.is_nan()
    }

    /// min over y ∈ fixed of |v − y|² − R² ϱ²(v); y = p0 + s e1 + t e2.
    fn vertex_face_min(&self, v: &Point3, fixed: &Triangle) -> Real {
        let (e1, e2) = (fixed[1] - fixed[0], fixed[2] - fixed[0]);
        let w = fixed[0] - v;
        let z = v - self.centre;
        let rate_sq = self.constant + z.dot(&(self.m * z));
        Quadratic { a: e1.dot(&e1), b: e1.dot(&e2), c: e2.dot(&e2), d: w.dot(&e1), e: w.dot(&e2), f: w.dot(&w) - self.r2 * rate_sq }.min_over_triangle()
    }

    /// min over x = a + s (b − a), y = c + t (d − c), (s, t) ∈ [0, 1]², of G(x, y).
    /// The s² coefficient is |b − a|² (1 − R²/ν²) in the terms of eq. 5.
    fn edge_edge_min(&self, a: &Point3, b: &Point3, c: &Point3, d: &Point3) -> Real {
        let (e, f) = (b - a, d - c);
        let w = a - c;
        let z = a - self.centre;
        let me = self.m * e;
        Quadratic {
            a: e.dot(&e) - self.r2 * e.dot(&me),
            b: -e.dot(&f),
            c: f.dot(&f),
            d: w.dot(&e) - self.r2 * z.dot(&me),
            e: -w.dot(&f),
            f: w.dot(&w) - self.r2 * (self.constant + z.dot(&(self.m * z))),
        }
        .min_over_square()
    }

    /// min over x = p0 + s e1 + t e2 ∈ moving of G(x, y). The Hessian is
    /// Eᵀ (I − R² m) E, positive definite iff R < min(ν₁, ν₂) (eq. 7/8).
    fn face_vertex_min(&self, moving: &Triangle, y: &Point3) -> Real {
        let (e1, e2) = (moving[1] - moving[0], moving[2] - moving[0]);
        let w = moving[0] - y;
        let z = moving[0] - self.centre;
        let (me1, me2) = (self.m * e1, self.m * e2);
        Quadratic {
            a: e1.dot(&e1) - self.r2 * e1.dot(&me1),
            b: e1.dot(&e2) - self.r2 * e1.dot(&me2),
            c: e2.dot(&e2) - self.r2 * e2.dot(&me2),
            d: w.dot(&e1) - self.r2 * z.dot(&me1),
            e: w.dot(&e2) - self.r2 * z.dot(&me2),
            f: w.dot(&w) - self.r2 * (self.constant + z.dot(&(self.m * z))),
        }
        .min_over_triangle()
    }
}

/// q(s, t) = f + 2 (d s + e t) + a s² + 2 b s t + c t².
struct Quadratic {
    a: Real,
    b: Real,
    c: Real,
    d: Real,
    e: Real,
    f: Real,
}

impl Quadratic {
    fn at(&self, s: Real, t: Real) -> Real {
        self.f + s * (2.0 * self.d + self.a * s + 2.0 * self.b * t) + t * (2.0 * self.e + self.c * t)
    }

    /// The critical point of q when the computed Hessian is positive definite. Solved by
    /// elimination with partial pivoting (backward stable; see [`RELATIVE_SLACK`]).
    fn critical_point(&self) -> Option<(Real, Real)> {
        let Quadratic { a, b, c, d, e, .. } = *self;
        if !(a > 0.0 && a * c - b * b > 0.0) {
            return None; // not convex: the minimum over the domain is on its boundary
        }
        let (s, t);
        if a >= b.abs() {
            let l = b / a;
            t = (l * d - e) / (c - l * b);
            s = (-d - b * t) / a;
        } else {
            let l = a / b;
            t = (l * e - d) / (b - l * c);
            s = (-e - c * t) / b;
        }
        Some((s, t))
    }

    /// Minimum over the unit square (edge × edge): the four sides, then the interior.
    fn min_over_square(&self) -> Real {
        let q = self;
        let sides = [
            (q.a, q.d, q.f),                         // t = 0
            (q.a, q.d + q.b, q.f + 2.0 * q.e + q.c), // t = 1
            (q.c, q.e, q.f),                         // s = 0
            (q.c, q.e + q.b, q.f + 2.0 * q.d + q.a), // s = 1
        ];
        let mut min = Real::INFINITY;
        for (alpha, beta, gamma) in sides {
            min = nan_min(min, min_on_unit_interval(alpha, beta, gamma));
        }
        if let Some((s, t)) = q.critical_point()
            && (0.0..=1.0).contains(&s)
            && (0.0..=1.0).contains(&t)
        {
            min = nan_min(min, q.at(s, t));
        }
        min
    }

    /// Minimum over the unit triangle s, t ≥ 0, s + t ≤ 1 (vertex × face, face × vertex):
    /// the three sides, then the interior.
    fn min_over_triangle(&self) -> Real {
        let q = self;
        let sides = [
            (q.a, q.d, q.f), // t = 0
            (q.c, q.e, q.f), // s = 0
            // (s, t) = (1 − τ, τ)
            (q.a - 2.0 * q.b + q.c, (q.e - q.d) + (q.b - q.a), q.f + 2.0 * q.d + q.a),
        ];
        let mut min = Real::INFINITY;
        for (alpha, beta, gamma) in sides {
            min = nan_min(min, min_on_unit_interval(alpha, beta, gamma));
        }
        if let Some((s, t)) = q.critical_point()
            && s >= 0.0
            && t >= 0.0
            && s + t <= 1.0
        {
            min = nan_min(min, q.at(s, t));
        }
        min
    }
}

/// min over τ ∈ [0, 1] of γ + 2 β τ + α τ² (endpoints, and the vertex τ = −β/α when the
/// parabola opens upwards and the vertex lies inside; its value is γ − β²/α).
fn min_on_unit_interval(alpha: Real, beta: Real, gamma: Real) -> Real {
    let mut min = nan_min(gamma, gamma + 2.0 * beta + alpha);
    if alpha > 0.0 && -beta > 0.0 && -beta < alpha {
        min = nan_min(min, gamma - beta * (beta / alpha));
    }
    min
}

/// Minimum that propagates NaN (so that a NaN ends as "may hit").
fn nan_min(x: Real, y: Real) -> Real {
    if x < y || x.is_nan() { x } else { y }
}
