//! EPA's seed: a GJK run on the difference of the cores that ends either in a solid
//! polytope (4 or 5 support points) holding the origin, or in a direction along which
//! the difference reaches no farther than a tolerance past the origin (the cores
//! touch, or the difference is flat, or they are apart by GJK's last step).
//!
//! Degenerate ends of GJK (the origin on a segment or a triangle of support points,
//! as for two identical shapes, whose difference is symmetric about the origin) are
//! blown up with supports along perpendicular directions, and a triangle grows into a
//! bipyramid with the supports on both sides of its plane, so that the polytope holds
//! the triangle and with it the origin.
use super::difference::{Difference, SupportPoint};
use crate::math::{Real, Vector3};

pub(super) enum Start {
    /// Four (a tetrahedron) or five (a triangle and two apexes on either side of it)
    /// support points spanning a solid that holds the origin, up to the tolerance.
    Polytope(Vec<SupportPoint>),
    /// A unit direction `n` with `h(n) <= tolerance` and its support point: the
    /// depth of the cores is at most that.
    Boundary(Vector3, SupportPoint),
}

const MAX_ITERATIONS: usize = 64;

/// GJK on the cores from a direction chosen off the axes (symmetric shapes tie on
/// the axes). `tolerance` is absolute (a small fraction of the scale).
pub(super) fn start(diff: &Difference, tolerance: Real) -> Start {
    let dir = Vector3::new(0.5773, 0.6133, 0.5391).normalize();
    let first = diff.core_support(&dir);
    if dir.dot(&first.w) <= tolerance {
        return Start::Boundary(dir, first);
    }
    let mut simplex = vec![first];
    let mut v = first.w;
    for _ in 0..MAX_ITERATIONS {
        let norm = v.norm();
        if norm <= tolerance {
            break;
        }
        let n = -v / norm;
        let w = diff.core_support(&n);
        if n.dot(&w.w) <= tolerance {
            return Start::Boundary(n, w);
        }
        if simplex.iter().any(|s| s.w == w.w) {
            break;
        }
        simplex.push(w);
        let points: Vec<Vector3> = simplex.iter().map(|s| s.w).collect();
        let c = closest(&points);
        if c.inside {
            return Start::Polytope(simplex);
        }
        let stalled = c.v.norm() >= norm * (1.0 - 1e-14);
        simplex = c.keep[..c.len].iter().map(|&i| simplex[i]).collect();
        v = c.v;
        if stalled {
            break;
        }
    }
    blow_up(diff, simplex, tolerance)
}

/// Grows the support points GJK stopped with (the origin within tolerance of their
/// hull) into a solid polytope, or finds a direction of the boundary on the way.
fn blow_up(diff: &Difference, simplex: Vec<SupportPoint>, tolerance: Real) -> Start {
    let mut basis: Vec<SupportPoint> = Vec::with_capacity(5);
    for s in simplex {
        if off_span(&basis, &s.w) > tolerance {
            basis.push(s);
        }
    }
    // The best direction seen, should every extension fail (rounding only).
    let mut best: Option<(Real, Vector3, SupportPoint)> = None;
    while basis.len() < 4 {
        let triangle = basis.len() == 3;
        let mut added = false;
        for n in extension_directions(&basis) {
            let s = diff.core_support(&n);
            let h = n.dot(&s.w);
            if !h.is_finite() {
                continue;
            }
            if h <= tolerance {
                return Start::Boundary(n, s);
            }
            if best.as_ref().is_none_or(|b| h < b.0) {
                best = Some((h, n, s));
            }
            // Both sides of a triangle's plane: the bipyramid holds the triangle.
            if off_span(&basis[..basis.len().min(3)], &s.w) > tolerance {
                basis.push(s);
                added = true;
                if !triangle {
                    break;
                }
            }
        }
        if !added {
            // The difference lies in the span of `basis` as far as rounding tells.
            return match best {
                Some((_, n, s)) => Start::Boundary(n, s),
                None => Start::Boundary(Vector3::x(), diff.core_support(&Vector3::x())),
            };
        }
    }
    Start::Polytope(basis)
}

/// Distance of `p` from the affine span of the points of `basis` (up to 3 of them);
/// infinite for an empty basis.
fn off_span(basis: &[SupportPoint], p: &Vector3) -> Real {
    match basis.len() {
        0 => Real::INFINITY,
        1 => (p - basis[0].w).norm(),
        2 => {
            let u = basis[1].w - basis[0].w;
            (p - basis[0].w).cross(&u).norm() / u.norm()
        }
        _ => {
            let n = (basis[1].w - basis[0].w).cross(&(basis[2].w - basis[0].w));
            (p - basis[0].w).dot(&n).abs() / n.norm()
        }
    }
}

/// Directions whose supports may leave the span of `basis`: the axes for a point, four
/// perpendiculars for a segment, the two normals of a triangle.
fn extension_directions(basis: &[SupportPoint]) -> Vec<Vector3> {
    match basis.len() {
        0 | 1 => vec![Vector3::x(), -Vector3::x(), Vector3::y(), -Vector3::y(), Vector3::z(), -Vector3::z()],
        2 => {
            let u = (basis[1].w - basis[0].w).normalize();
            let e1 = perpendicular(&u);
            let e2 = u.cross(&e1);
            vec![e1, e2, -e1, -e2]
        }
        _ => {
            let n = (basis[1].w - basis[0].w).cross(&(basis[2].w - basis[0].w)).normalize();
            vec![n, -n]
        }
    }
}

/// A unit vector perpendicular to the unit `u`.
pub(super) fn perpendicular(u: &Vector3) -> Vector3 {
    let other = if u.x.abs() < 0.6 { Vector3::x() } else { Vector3::y() };
    u.cross(&other).normalize()
}

/// The closest point of a simplex (1 to 4 points) to the origin, the points whose hull
/// holds it, and whether the origin is inside a solid tetrahedron.
pub(super) struct Closest {
    pub v: Vector3,
    pub keep: [usize; 4],
    pub len: usize,
    pub inside: bool,
}

pub(super) fn closest(p: &[Vector3]) -> Closest {
    match p.len() {
        1 => Closest { v: p[0], keep: [0, 0, 0, 0], len: 1, inside: false },
        2 => closest_on_segment(p, 0, 1),
        3 => closest_on_triangle(p, [0, 1, 2]),
        _ => closest_on_tetrahedron(p),
    }
}

fn closest_on_segment(p: &[Vector3], i: usize, j: usize) -> Closest {
    let (a, ab) = (p[i], p[j] - p[i]);
    let denom = ab.norm_squared();
    let t = if denom > 0.0 { (-a.dot(&ab) / denom).clamp(0.0, 1.0) } else { 0.0 };
    if t <= 0.0 {
        Closest { v: a, keep: [i, 0, 0, 0], len: 1, inside: false }
    } else if t >= 1.0 {
        Closest { v: p[j], keep: [j, 0, 0, 0], len: 1, inside: false }
    } else {
        // The point's rounding leaves a component along the segment of about an ulp
        // of the coordinates, which tilts a short `v` (GJK's direction) by
        // eps·scale/|v|; it is perpendicular to the segment in exact arithmetic.
        let v = a + ab * t;
        let v = v - ab * (ab.dot(&v) / denom);
        Closest { v, keep: [i, j, 0, 0], len: 2, inside: false }
    }
}

/// The origin's projection on the triangle's plane when it falls inside (weights from
/// the areas it cuts), otherwise the best edge.
fn closest_on_triangle(p: &[Vector3], [i, j, k]: [usize; 3]) -> Closest {
    let (a, b, c) = (p[i], p[j], p[k]);
    let n = (b - a).cross(&(c - a));
    let nn = n.norm_squared();
    if nn > 0.0 && nn.is_finite() {
        let v = n * (n.dot(&a) / nn);
        let la = (b - v).cross(&(c - v)).dot(&n);
        let lb = (c - v).cross(&(a - v)).dot(&n);
        let lc = (a - v).cross(&(b - v)).dot(&n);
        if la >= 0.0 && lb >= 0.0 && lc >= 0.0 {
            return Closest { v, keep: [i, j, k, 0], len: 3, inside: false };
        }
    }
    let mut best = closest_on_segment(p, i, j);
    for (x, y) in [(i, k), (j, k)] {
        let c = closest_on_segment(p, x, y);
        if c.v.norm_squared() < best.v.norm_squared() {
            best = c;
        }
    }
    best
}

/// Inside when the origin is, for every face, on the side of the opposite corner (or
/// on the face); otherwise the best face the origin sees. A flat tetrahedron holds no
/// origin: its faces are searched.
fn closest_on_tetrahedron(p: &[Vector3]) -> Closest {
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let volume = (p[1] - p[0]).dot(&(p[2] - p[0]).cross(&(p[3] - p[0])));
    let size = (1..4).map(|i| (p[i] - p[0]).norm()).fold(0.0, Real::max);
    // Not above (NaN counts as flat).
    let flat = volume.abs().partial_cmp(&(1e-13 * size * size * size)) != Some(std::cmp::Ordering::Greater);
    let mut seen = [flat; 4];
    if !flat {
        for (i, f) in FACES.iter().enumerate() {
            let n = (p[f[1]] - p[f[0]]).cross(&(p[f[2]] - p[f[0]]));
            let origin_side = -n.dot(&p[f[0]]);
            let corner_side = n.dot(&(p[i] - p[f[0]]));
            seen[i] = origin_side * corner_side < 0.0;
        }
        if seen.iter().all(|s| !s) {
            return Closest { v: Vector3::zeros(), keep: [0, 1, 2, 3], len: 4, inside: true };
        }
    }
    let mut best: Option<Closest> = None;
    for (f, s) in FACES.iter().zip(seen) {
        if s {
            let c = closest_on_triangle(p, *f);
            if best.as_ref().is_none_or(|b| c.v.norm_squared() < b.v.norm_squared()) {
                best = Some(c);
            }
        }
    }
    best.unwrap_or(Closest { v: Vector3::zeros(), keep: [0, 1, 2, 3], len: 4, inside: true })
}
