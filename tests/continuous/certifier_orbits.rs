//! The orbit tests of Schröcker & Weber §4 (src/certifier/orbit.rs) against brute force and
//! closed forms.
//!
//! Brute force never uses the implementation's algebra: every candidate is an actual
//! point pair of the features whose G(x, y) = |x − y|² − R² ϱ²(x) is evaluated directly,
//! so the brute-force minimum is an upper bound of the true one. Its candidates are
//! dense grids, exact closest points (point–segment, point–triangle) and exact minima of
//! G along grid lines (G restricted to a line is a parabola, located from three samples).
//! Properties: brute ≤ −1e-9 ⇒ "may hit" (soundness), and "may hit" ⇒ brute ≤ 1e-3 (the
//! answer is not uselessly conservative).
use ccd_guard::certifier::orbit::{DistortionQuadratic, Orbit};
use ccd_guard::math::{Matrix3, Point3, Real, Triangle, Vector3};
use proptest::prelude::*;

const CLEAR_HIT: Real = -1e-9;
const NEAR_HIT: Real = 1e-3;

fn rate_sq(o: &Orbit, x: &Point3) -> Real {
    let z = x - o.quadratic.centre;
    o.quadratic.constant + z.dot(&(o.quadratic.m * z))
}

fn g(o: &Orbit, x: &Point3, y: &Point3) -> Real {
    (x - y).norm_squared() - o.radius * o.radius * rate_sq(o, x)
}

fn lerp(a: &Point3, b: &Point3, t: Real) -> Point3 {
    a + (b - a) * t
}

/// Exact minimum over t ∈ [0, 1] of the quadratic h, evaluated at feasible t only.
fn parabola_min(h: impl Fn(Real) -> Real) -> Real {
    let (h0, h1, h2) = (h(0.0), h(0.5), h(1.0));
    let alpha = 2.0 * (h0 - 2.0 * h1 + h2); // h(t) = h0 + β t + α t² through the samples
    let beta = -3.0 * h0 + 4.0 * h1 - h2;
    let mut min = h0.min(h2);
    if alpha > 0.0 {
        let t = -beta / (2.0 * alpha);
        if (0.0..=1.0).contains(&t) {
            min = min.min(h(t));
        }
    }
    min
}

fn closest_on_segment(p: &Point3, a: &Point3, b: &Point3) -> Point3 {
    let ab = b - a;
    let l2 = ab.norm_squared();
    if l2 == 0.0 {
        return *a;
    }
    lerp(a, b, ((p - a).dot(&ab) / l2).clamp(0.0, 1.0))
}

/// Ericson, Real-Time Collision Detection §5.1.5.
fn closest_on_triangle(p: &Point3, t: &Triangle) -> Point3 {
    let (a, b, c) = (t[0], t[1], t[2]);
    let (ab, ac, ap) = (b - a, c - a, p - a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        return a;
    }
    let bp = p - b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        return b;
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        return a + ab * (d1 / (d1 - d3));
    }
    let cp = p - c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        return c;
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        return a + ac * (d2 / (d2 - d6));
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    }
    let denom = va + vb + vc;
    if denom.abs() <= 1e-300 || denom.is_nan() {
        return a; // degenerate: the edge candidates of the brute force cover it
    }
    a + ab * (vb / denom) + ac * (vc / denom)
}

/// Moving vertex v vs fixed triangle: closed form plus a 60×60 barycentric grid and the
/// three edges' closest points (for degenerate triangles).
fn brute_vertex_face(o: &Orbit, v: &Point3, t: &Triangle) -> Real {
    let mut min = g(o, v, &closest_on_triangle(v, t));
    for i in 0..3 {
        min = min.min(g(o, v, &closest_on_segment(v, &t[i], &t[(i + 1) % 3])));
    }
    min.min(grid_min(t, |y| g(o, v, y), 60))
}

/// Moving edge vs fixed edge: 400×400 grid, exact inner minimum over the fixed edge for
/// 2001 positions on the moving one, exact parabola minimum over the moving edge for 401
/// positions on the fixed one.
fn brute_edge_edge(o: &Orbit, a: &Point3, b: &Point3, c: &Point3, d: &Point3, grid: usize) -> Real {
    let mut min = Real::INFINITY;
    for i in 0..=grid {
        let x = lerp(a, b, i as Real / grid as Real);
        for j in 0..=grid {
            min = min.min(g(o, &x, &lerp(c, d, j as Real / grid as Real)));
        }
    }
    for i in 0..=2000 {
        let x = lerp(a, b, i as Real / 2000.0);
        min = min.min(g(o, &x, &closest_on_segment(&x, c, d)));
    }
    for j in 0..=400 {
        let y = lerp(c, d, j as Real / 400.0);
        min = min.min(parabola_min(|s| g(o, &lerp(a, b, s), &y)));
    }
    min
}

/// Fixed vertex y vs moving triangle: 60×60 barycentric grid plus exact parabola minima
/// along 201 lines parallel to each edge (which include the three edges).
fn brute_face_vertex(o: &Orbit, t: &Triangle, y: &Point3) -> Real {
    let mut min = grid_min(t, |x| g(o, x, y), 60);
    for k in 0..3 {
        let (p, q, r) = (t[k], t[(k + 1) % 3], t[(k + 2) % 3]);
        for i in 0..=200 {
            let u = i as Real / 200.0; // line from p + u (r − p) to q + u (r − q)
            let (from, to) = (lerp(&p, &r, u), lerp(&q, &r, u));
            min = min.min(parabola_min(|s| g(o, &lerp(&from, &to, s), y)));
        }
    }
    min
}

fn grid_min(t: &Triangle, h: impl Fn(&Point3) -> Real, n: usize) -> Real {
    let mut min = Real::INFINITY;
    for i in 0..=n {
        for j in 0..=n - i {
            let (u, v) = (i as Real / n as Real, j as Real / n as Real);
            min = min.min(h(&(t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v)));
        }
    }
    min
}

/// The 15 feature pairs of Schröcker & Weber Listing 2 (coarser edge grids; the exact inner
/// minima keep it accurate).
fn brute_triangle_triangle(o: &Orbit, m: &Triangle, f: &Triangle) -> Real {
    let mut min = Real::INFINITY;
    for i in 0..3 {
        min = min.min(brute_vertex_face(o, &m[i], f));
        min = min.min(brute_face_vertex(o, m, &f[i]));
        for j in 0..3 {
            min = min.min(brute_edge_edge(o, &m[i], &m[(i + 1) % 3], &f[j], &f[(j + 1) % 3], 40));
        }
    }
    min
}

// ---------------------------------------------------------------- strategies

fn point() -> impl Strategy<Value = Point3> {
    prop::array::uniform3(-1.0..1.0f64).prop_map(|c| Point3::new(c[0], c[1], c[2]))
}

/// Mostly generic triangles; sometimes a segment [a, b, b], a point, or a collinear one.
fn triangle() -> impl Strategy<Value = Triangle> {
    (point(), point(), point(), 0..8u8, -0.5..1.5f64).prop_map(|(a, b, c, kind, l)| match kind {
        0 => [a, b, b],
        1 => [a, a, a],
        2 => [a, b, lerp(&a, &b, l)],
        _ => [a, b, c],
    })
}

/// M = s (A Aᵀ + 0.01 I) with s log-uniform in [0.01, 100] so that R² M crosses the
/// identity (non-convex G, Remark 1 of §6) in some cases; constant in [0.5, 5],
/// radius in [0, 0.3], centre in [-1, 1]³.
fn orbit() -> impl Strategy<Value = Orbit> {
    (prop::array::uniform9(-1.0..1.0f64), -2.0..2.0f64, point(), 0.5..5.0f64, 0.0..0.3f64, 0..6u8).prop_map(|(a, log_s, centre, constant, radius, zero)| {
        let a = Matrix3::from_row_slice(&a);
        let m = (a * a.transpose() + Matrix3::identity() * 0.01) * 10f64.powf(log_s);
        let radius = if zero == 0 { 0.0 } else { radius };
        Orbit { quadratic: DistortionQuadratic { centre, m, constant }, radius }
    })
}

fn check(verdict: bool, brute: Real, what: &str) -> Result<(), TestCaseError> {
    prop_assert!(verdict || brute > CLEAR_HIT, "{what}: unsound, brute force {brute:e} but answer false");
    prop_assert!(!verdict || brute <= NEAR_HIT, "{what}: useless, brute force {brute:e} but answer true");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn vertex_vs_face_matches_brute_force(o in orbit(), v in point(), t in triangle()) {
        check(o.vertex_may_hit_triangle(&v, &t), brute_vertex_face(&o, &v, &t), "vertex-face")?;
    }

    #[test]
    fn edge_vs_edge_matches_brute_force(o in orbit(), a in point(), b in point(), c in point(), d in point(), kind in 0..8u8) {
        let (b, d) = match kind { 0 => (a, d), 1 => (b, c), _ => (b, d) }; // zero-length edges
        check(o.edge_may_hit_edge(&a, &b, &c, &d), brute_edge_edge(&o, &a, &b, &c, &d, 400), "edge-edge")?;
    }

    #[test]
    fn face_vs_vertex_matches_brute_force(o in orbit(), t in triangle(), y in point()) {
        check(o.triangle_may_hit_vertex(&t, &y), brute_face_vertex(&o, &t, &y), "face-vertex")?;
    }

    #[test]
    fn face_vs_vertex_near_the_face(o in orbit(), t in triangle(), u in 0.0..1.0f64, v in 0.0..1.0f64, h in -0.3..0.3f64) {
        // The fixed vertex just off the face: the interior (Ψ) candidate matters here.
        let (u, v) = if u + v > 1.0 { (1.0 - u, 1.0 - v) } else { (u, v) };
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        let n = if n.norm() > 1e-6 { n.normalize() } else { Vector3::z() };
        let y = t[0] + (t[1] - t[0]) * u + (t[2] - t[0]) * v + n * h;
        check(o.triangle_may_hit_vertex(&t, &y), brute_face_vertex(&o, &t, &y), "face-vertex near")?;
    }
}

/// Bisects the radius at which `may_hit` flips (it is monotone: G decreases with R).
/// `None` if it already says "may hit" at R = 0.
fn flip_radius(o: &Orbit, may_hit: impl Fn(&Orbit) -> bool) -> Option<(Orbit, Orbit)> {
    let (mut lo, mut hi) = (Orbit { radius: 0.0, ..*o }, Orbit { radius: 10.0, ..*o });
    if may_hit(&lo) {
        return None;
    }
    assert!(may_hit(&hi), "R ϱ > 7 exceeds every distance in [-1, 1]³");
    for _ in 0..64 {
        let mid = Orbit { radius: 0.5 * (lo.radius + hi.radius), ..*o };
        if may_hit(&mid) { hi = mid } else { lo = mid }
    }
    Some((lo, hi))
}

/// At the flip point the verdict must agree with brute force to its sampling accuracy:
/// just below it ("no"), brute force finds no clear hit; just above it ("may hit"), brute
/// force is within 5e-5 of contact (rather than NEAR_HIT).
fn check_flip(flip: Option<(Orbit, Orbit)>, brute: impl Fn(&Orbit) -> Real, what: &str) -> Result<(), TestCaseError> {
    if let Some((lo, hi)) = flip {
        let (below, above) = (brute(&lo), brute(&hi));
        prop_assert!(below > CLEAR_HIT, "{what}: unsound at R = {}: brute force {below:e}", lo.radius);
        prop_assert!(above <= 5e-5, "{what}: conservative at R = {}: brute force {above:e}", hi.radius);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn vertex_vs_face_flips_at_contact(o in orbit(), v in point(), t in triangle()) {
        let flip = flip_radius(&o, |o| o.vertex_may_hit_triangle(&v, &t));
        check_flip(flip, |o| brute_vertex_face(o, &v, &t), "vertex-face")?;
    }

    #[test]
    fn edge_vs_edge_flips_at_contact(o in orbit(), a in point(), b in point(), c in point(), d in point()) {
        let flip = flip_radius(&o, |o| o.edge_may_hit_edge(&a, &b, &c, &d));
        check_flip(flip, |o| brute_edge_edge(o, &a, &b, &c, &d, 100), "edge-edge")?;
    }

    #[test]
    fn face_vs_vertex_flips_at_contact(o in orbit(), t in triangle(), y in point()) {
        let flip = flip_radius(&o, |o| o.triangle_may_hit_vertex(&t, &y));
        check_flip(flip, |o| brute_face_vertex(o, &t, &y), "face-vertex")?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn triangle_vs_triangle_matches_brute_force(o in orbit(), m in triangle(), f in triangle()) {
        check(o.triangle_may_hit_triangle(&m, &f), brute_triangle_triangle(&o, &m, &f), "triangle-triangle")?;
    }
}

/// The random cases are not all one-sided: both verdicts occur often for every test.
#[test]
fn random_cases_contain_hits_and_misses() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = (orbit(), triangle(), triangle());
    let mut counts = [[0usize; 2]; 4];
    for _ in 0..2000 {
        let (o, m, f) = strategy.new_tree(&mut runner).unwrap().current();
        counts[0][o.vertex_may_hit_triangle(&m[0], &f) as usize] += 1;
        counts[1][o.edge_may_hit_edge(&m[0], &m[1], &f[0], &f[1]) as usize] += 1;
        counts[2][o.triangle_may_hit_vertex(&m, &f[0]) as usize] += 1;
        counts[3][o.triangle_may_hit_triangle(&m, &f) as usize] += 1;
    }
    for (k, c) in counts.iter().enumerate() {
        assert!(c[0] >= 200 && c[1] >= 200, "test {k}: misses {} hits {}", c[0], c[1]);
    }
}

// ---------------------------------------------------------------- hand cases

fn orbit_with(m: Matrix3, centre: Point3, constant: Real, radius: Real) -> Orbit {
    Orbit { quadratic: DistortionQuadratic { centre, m, constant }, radius }
}

fn rigid() -> Orbit {
    orbit_with(Matrix3::identity(), Point3::origin(), 1.0, 0.0)
}

fn p(x: Real, y: Real, z: Real) -> Point3 {
    Point3::new(x, y, z)
}

fn floor(z: Real) -> Triangle {
    [p(-1.0, -1.0, z), p(1.0, -1.0, z), p(0.0, 1.0, z)]
}

#[test]
fn zero_radius_is_exact_contact() {
    let o = rigid();
    // vertex on / just above / clearly above the face
    assert!(o.vertex_may_hit_triangle(&p(0.1, 0.0, 0.0), &floor(0.0)));
    assert!(o.vertex_may_hit_triangle(&p(1.0, -1.0, 0.0), &floor(0.0)), "corner");
    assert!(o.vertex_may_hit_triangle(&p(0.1, 0.0, 1e-9), &floor(0.0)), "1e-9 is within the slack");
    assert!(!o.vertex_may_hit_triangle(&p(0.1, 0.0, 1e-3), &floor(0.0)));
    assert!(!o.vertex_may_hit_triangle(&p(0.0, -1.0 - 1e-3, 0.0), &floor(0.0)), "beside the edge");
    // crossing, skew-apart, collinear-overlapping, parallel-apart and end-to-end edges
    let (a, b) = (p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0));
    assert!(o.edge_may_hit_edge(&a, &b, &p(0.3, -1.0, 0.0), &p(0.3, 1.0, 0.0)));
    assert!(o.edge_may_hit_edge(&a, &b, &p(0.3, -1.0, 1e-9), &p(0.3, 1.0, 1e-9)));
    assert!(!o.edge_may_hit_edge(&a, &b, &p(0.3, -1.0, 1e-3), &p(0.3, 1.0, 1e-3)));
    assert!(o.edge_may_hit_edge(&a, &b, &p(0.5, 0.0, 0.0), &p(3.0, 0.0, 0.0)));
    assert!(!o.edge_may_hit_edge(&a, &b, &p(-0.5, 1e-3, 0.0), &p(0.5, 1e-3, 0.0)));
    assert!(o.edge_may_hit_edge(&a, &b, &p(1.0, 0.0, 0.0), &p(2.0, 0.0, 0.0)));
    assert!(!o.edge_may_hit_edge(&a, &b, &p(1.0 + 1e-3, 0.0, 0.0), &p(2.0, 0.0, 0.0)));
    // fixed vertex on / off the moving face
    assert!(o.triangle_may_hit_vertex(&floor(0.0), &p(0.0, 0.0, 0.0)));
    assert!(!o.triangle_may_hit_vertex(&floor(0.0), &p(0.0, 0.0, -1e-3)));
    // coplanar overlap, stacked, touching corner to face
    let shifted = [p(0.0, 0.0, 0.0), p(2.0, 0.5, 0.0), p(1.0, 2.0, 0.0)];
    assert!(o.triangle_may_hit_triangle(&floor(0.0), &shifted));
    // star of David: no vertex inside the other triangle, only the edges cross
    let star = |z: Real| [p(-1.0, 1.0 / 3.0, z), p(1.0, 1.0 / 3.0, z), p(0.0, -5.0 / 3.0, z)];
    assert!(o.triangle_may_hit_triangle(&floor(0.0), &star(0.0)));
    assert!(!o.triangle_may_hit_triangle(&floor(0.0), &star(1e-3)));
    assert!(!o.triangle_may_hit_triangle(&floor(0.0), &floor(1e-3)));
    assert!(o.triangle_may_hit_triangle(&floor(0.0), &floor(0.0)));
    let standing = [p(0.0, 0.0, 0.0), p(0.5, 0.0, 1.0), p(-0.5, 0.0, 1.0)];
    assert!(o.triangle_may_hit_triangle(&standing, &floor(0.0)));
    assert!(!o.triangle_may_hit_triangle(&standing, &floor(-1e-3)));
}

#[test]
fn interpenetration_alone_is_not_a_beginning_contact() {
    // Two triangles linked like chain links: each pierces the other's interior, but no
    // vertex touches a face and no edges touch, so no contact can begin (the contract).
    let o = rigid();
    let a = [p(-1.0, 0.0, -1.0), p(1.0, 0.0, -1.0), p(0.0, 0.0, 1.0)];
    let b = [p(0.0, -1.0, 0.5), p(0.0, 1.0, 0.5), p(0.0, 0.0, -3.0)];
    assert!(!o.triangle_may_hit_triangle(&a, &b));
}

#[test]
fn vertex_at_the_orbit_radius() {
    let m = Matrix3::new(2.0, 0.3, 0.0, 0.3, 1.0, 0.1, 0.0, 0.1, 3.0);
    let o = orbit_with(m, p(0.2, -0.1, 0.3), 1.3, 0.25);
    let v = p(0.1, 0.2, 0.4);
    let r = o.radius * o.quadratic.rate_sq(&v).sqrt();
    assert!(o.vertex_may_hit_triangle(&v, &floor(0.4 - r + 1e-9)));
    assert!(o.vertex_may_hit_triangle(&v, &floor(0.4 - r)));
    assert!(!o.vertex_may_hit_triangle(&v, &floor(0.4 - r - 1e-6)));
    // R instead of R·ϱ would be wrong here (ϱ(v) > 1).
    assert!(o.quadratic.rate_sq(&v) > 1.0);
}

#[test]
fn edge_and_face_at_the_orbit_radius() {
    // M = m I centred at the origin: ϱ² = k + m |x|². On the edge x = (s, 0, 0) against
    // y = (0, t, h): G = (1 − R² m) s² + t² + h² − R² k, minimum h² − R² k when R² m < 1;
    // likewise for the face z = 0 against y = (0, 0, h).
    let (k, radius) = (2.0, 0.2);
    for m in [0.5, 10.0] {
        let o = orbit_with(Matrix3::identity() * m, Point3::origin(), k, radius);
        let h0 = radius * Real::sqrt(k);
        let (a, b) = (p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0));
        let edge_at = |h: Real| o.edge_may_hit_edge(&a, &b, &p(0.0, -1.0, h), &p(0.0, 1.0, h));
        assert!(edge_at(h0 - 1e-9) && edge_at(h0));
        assert!(!edge_at(h0 + 1e-6));
        let face = [p(-1.0, -1.0, 0.0), p(1.0, -1.0, 0.0), p(0.0, 1.0, 0.0)];
        assert!(o.triangle_may_hit_vertex(&face, &p(0.0, 0.0, h0 - 1e-9)));
        assert!(o.triangle_may_hit_vertex(&face, &p(0.0, 0.0, h0)));
        assert!(!o.triangle_may_hit_vertex(&face, &p(0.0, 0.0, h0 + 1e-6)));
    }
}

#[test]
fn non_convex_face_orbit_is_decided_on_the_boundary() {
    // R² m > 1: G = (1 − R² m)|x|² + h² − R² k is concave in the plane, its minimum is at
    // the corner farthest from the origin: |x|² = 2 for (±1, −1, 0).
    let (k, m, radius) = (1.0, 50.0, 0.2);
    let o = orbit_with(Matrix3::identity() * m, Point3::origin(), k, radius);
    let face = [p(-1.0, -1.0, 0.0), p(1.0, -1.0, 0.0), p(0.0, 1.0, 0.0)];
    let h0 = Real::sqrt(radius * radius * k - (1.0 - radius * radius * m) * 2.0);
    assert!(o.triangle_may_hit_vertex(&face, &p(0.0, 0.0, h0 - 1e-9)));
    assert!(!o.triangle_may_hit_vertex(&face, &p(0.0, 0.0, h0 + 1e-6)));
}

#[test]
fn degenerate_triangles() {
    let o = orbit_with(Matrix3::identity() * 0.5, Point3::origin(), 2.0, 0.2);
    let h0 = 0.2 * Real::sqrt(2.0); // as in edge_and_face_at_the_orbit_radius
    let (a, b) = (p(-1.0, 0.0, 0.0), p(1.0, 0.0, 0.0));
    let segment = [a, b, b];
    let collinear = [a, b, p(0.25, 0.0, 0.0)];
    for t in [segment, collinear] {
        assert!(o.triangle_may_hit_vertex(&t, &p(0.0, 0.0, h0 - 1e-9)));
        assert!(!o.triangle_may_hit_vertex(&t, &p(0.0, 0.0, h0 + 1e-6)));
        // a fixed triangle standing in x = 0 with its apex straight below the origin
        let spike = |z: Real| [p(0.0, 0.0, z), p(0.0, -1.0, z - 2.0), p(0.0, 1.0, z - 2.0)];
        assert!(o.triangle_may_hit_triangle(&t, &spike(-h0 + 1e-9)));
        assert!(!o.triangle_may_hit_triangle(&t, &spike(-h0 - 1e-6)));
    }
    // a moving point, and a fixed segment / point
    let origin = Point3::origin();
    let point = [origin; 3];
    assert!(o.triangle_may_hit_vertex(&point, &p(0.0, h0 - 1e-9, 0.0)));
    assert!(!o.triangle_may_hit_vertex(&point, &p(0.0, h0 + 1e-6, 0.0)));
    let fixed_segment = [p(-1.0, h0 - 1e-9, 0.0), p(1.0, h0 - 1e-9, 0.0), p(1.0, h0 - 1e-9, 0.0)];
    assert!(o.vertex_may_hit_triangle(&origin, &fixed_segment));
    assert!(o.triangle_may_hit_triangle(&point, &fixed_segment));
    let far_segment = fixed_segment.map(|q| q + Vector3::y() * 2e-6);
    assert!(!o.vertex_may_hit_triangle(&origin, &far_segment));
    assert!(!o.triangle_may_hit_triangle(&point, &far_segment));
    assert!(o.triangle_may_hit_triangle(&point, &[p(0.0, h0, 0.0); 3]));
    assert!(!o.triangle_may_hit_triangle(&point, &[p(0.0, h0 + 1e-6, 0.0); 3]));
}

#[test]
fn non_finite_inputs_may_hit() {
    let o = rigid();
    let far = floor(10.0);
    let nan = p(Real::NAN, 0.0, 0.0);
    let inf = p(Real::INFINITY, 0.0, 0.0);
    for bad in [nan, inf] {
        assert!(o.vertex_may_hit_triangle(&bad, &far));
        assert!(o.edge_may_hit_edge(&bad, &p(0.0, 0.0, 0.0), &far[0], &far[1]));
        assert!(o.triangle_may_hit_vertex(&[bad, p(0.0, 1.0, 0.0), p(1.0, 0.0, 0.0)], &far[0]));
        assert!(o.triangle_may_hit_triangle(&floor(0.0), &[bad, far[1], far[2]]));
    }
    let mut bad_orbit = rigid();
    bad_orbit.radius = Real::NAN;
    assert!(bad_orbit.triangle_may_hit_triangle(&floor(0.0), &far));
    bad_orbit = rigid();
    bad_orbit.quadratic.m[(1, 2)] = Real::INFINITY;
    assert!(bad_orbit.triangle_may_hit_triangle(&floor(0.0), &far));
    bad_orbit = rigid();
    bad_orbit.quadratic.centre.y = Real::NAN;
    assert!(bad_orbit.vertex_may_hit_triangle(&p(0.0, 0.0, 0.0), &far));
    assert!(!rigid().triangle_may_hit_triangle(&floor(0.0), &far));
}
