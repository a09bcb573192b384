//! The Gilbert-Johnson-Keerthi distance algorithm on support maps.
//!
//! Used for every convex pair that has no closed-form test (cylinders, cones,
//! triangles against round shapes). Balls and capsules enter with their cores (point,
//! segment) and margins, so round surfaces are exact rather than polytope-approximated.
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::shape::SupportMap;

/// Closest points between two convex shapes (world frame).
#[derive(Clone, Copy, Debug)]
pub struct ClosestPoints {
    /// Distance between the full shapes; 0 when they intersect.
    pub distance: Real,
    /// On the first shape (a common point when they intersect).
    pub point_a: Point3,
    /// On the second shape (equal to `point_a` when they intersect).
    pub point_b: Point3,
}

#[derive(Clone, Copy)]
struct Vertex {
    w: Vector3,
    a: Point3,
    b: Point3,
}

const MAX_ITERATIONS: usize = 128;
/// Relative convergence tolerance on the squared distance (van den Bergen's test).
const RELATIVE_TOLERANCE: Real = 1e-13;

/// Support of A - B in A's frame, with `b_to_a` placing B there.
fn support(a: &dyn SupportMap, b: &dyn SupportMap, b_to_a: &Isometry3, dir: &Vector3) -> Vertex {
    let pa = a.core_support(dir);
    let local_dir = b_to_a.rotation.inverse_transform_vector(&-dir);
    let pb = b_to_a * b.core_support(&local_dir);
    Vertex { w: pa - pb, a: pa, b: pb }
}

/// Distance and closest points of two convex shapes placed by `pose_a` and `pose_b`.
pub fn closest_points(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> ClosestPoints {
    let b_to_a = pose_a.inv_mul(pose_b);
    let (core_distance, pa, pb, _, _) = core_closest_points(a, b, &b_to_a, None).expect("no early exit requested");
    let margin = a.margin() + b.margin();
    let (point_a, point_b, distance) = if core_distance > margin {
        let n = (pb - pa) / core_distance;
        (pa + n * a.margin(), pb - n * b.margin(), core_distance - margin)
    } else if core_distance > 0.0 {
        // Margins overlap: report the middle of the overlap of the two surfaces.
        let n = (pb - pa) / core_distance;
        let mid = pa + n * (a.margin() + (core_distance - b.margin())) * 0.5;
        (mid, mid, 0.0)
    } else {
        (pa, pa, 0.0)
    };
    ClosestPoints { distance, point_a: pose_a * point_a, point_b: pose_a * point_b }
}

/// Whether two convex shapes may touch or overlap (closed shapes). "No" is decided
/// only on a proven lower bound of the distance (a separating plane), so it errs
/// towards "may touch" and serves culling.
pub fn may_intersect(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> bool {
    let b_to_a = pose_a.inv_mul(pose_b);
    let margin = a.margin() + b.margin();
    match core_closest_points(a, b, &b_to_a, Some(margin)) {
        None => false,
        Some((_, _, _, lower_bound, _)) => lower_bound <= margin,
    }
}

/// Whether two convex shapes touch or overlap (closed shapes), decided on GJK's
/// converged distance: the discrete test, exact to GJK's relative tolerance (touching
/// within about 1e-12 of the shapes' size counts).
pub fn intersects(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> bool {
    let b_to_a = pose_a.inv_mul(pose_b);
    let margin = a.margin() + b.margin();
    match core_closest_points(a, b, &b_to_a, Some(margin)) {
        None => false,
        Some((distance, pa, pb, _, _)) => {
            let scale = 1.0 + pa.coords.norm() + pb.coords.norm();
            distance <= margin + 1e-12 * scale
        }
    }
}

/// A proven lower bound on the distance between two convex shapes (0 when they may
/// touch), from the best separating plane GJK found.
pub fn distance_lower_bound(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> Real {
    separating_plane(a, pose_a, b, pose_b).gap.max(0.0)
}

/// A plane between two convex shapes: every point `p` of A and `q` of B have
/// `(p - q) · normal >= gap` (proven; `gap <= 0` proves nothing).
#[derive(Clone, Copy, Debug)]
pub struct SeparatingPlane {
    pub gap: Real,
    /// Unit, from B towards A, in the frame the poses are given in.
    pub normal: Vector3,
}

/// The best separating plane GJK finds between two convex shapes.
pub fn separating_plane(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> SeparatingPlane {
    let b_to_a = pose_a.inv_mul(pose_b);
    let (_, _, _, lower, normal) = core_closest_points(a, b, &b_to_a, None).expect("no early exit requested");
    SeparatingPlane { gap: lower - a.margin() - b.margin(), normal: pose_a.rotation * normal }
}

/// GJK on the cores in A's frame: (distance, point on A, point on B, proven lower
/// bound on the distance, the unit normal `n` of the plane that proves it: every
/// `p - q` has `(p - q) · n >= bound`). With
/// `separation_exit = Some(m)` it returns `None` as soon as a separating plane
/// proves the cores farther apart than `m`.
fn core_closest_points(a: &dyn SupportMap, b: &dyn SupportMap, b_to_a: &Isometry3, separation_exit: Option<Real>) -> Option<(Real, Point3, Point3, Real, Vector3)> {
    let mut simplex: [Vertex; 4] = [support(a, b, b_to_a, &Vector3::x()); 4];
    let mut len = 1;
    let mut v = simplex[0].w;
    let mut bary = [1.0, 0.0, 0.0, 0.0];
    let scale = simplex[0].w.norm().max(simplex[0].a.coords.norm()).max(1e-300);
    let mut lower: Real = 0.0;
    let mut lower_normal = Vector3::zeros();
    for _ in 0..MAX_ITERATIONS {
        let vv = v.norm_squared();
        if vv <= (1e-15 * scale) * (1e-15 * scale) {
            return Some(witness(0.0, &simplex[..len], &bary, 0.0, lower_normal));
        }
        let w = support(a, b, b_to_a, &-v);
        let vw = v.dot(&w.w);
        // Every point x of A - B has x·v >= w·v: a separating plane. Rounded down by a
        // relative 1e-12 of the magnitudes involved.
        let norm = vv.sqrt();
        let bound = vw / norm - 1e-12 * (w.w.norm() + norm + w.a.coords.norm() + w.b.coords.norm());
        if bound > lower {
            lower = bound;
            lower_normal = v / norm;
        }
        if let Some(m) = separation_exit {
            // The plane through w orthogonal to v separates the cores by vw / |v|.
            if vw > 0.0 && vw * vw > m * m * vv && vw > m * vv.sqrt() {
                return None;
            }
            // |v| bounds the distance from above: within the margins, they touch.
            if m > 0.0 && vv <= m * m {
                return Some(witness(vv.sqrt(), &simplex[..len], &bary, 0.0, lower_normal));
            }
        }
        if vv - vw <= RELATIVE_TOLERANCE * vv || simplex[..len].iter().any(|s| s.w == w.w) {
            break;
        }
        simplex[len] = w;
        len += 1;
        let Some((new_v, new_len, new_bary, inside)) = closest_on_simplex(&mut simplex, len) else {
            // The new point is (within rounding) in the plane of the triangle: that
            // triangle already held the closest point.
            len -= 1;
            break;
        };
        if inside {
            return Some(witness(0.0, &simplex[..new_len], &new_bary, 0.0, lower_normal));
        }
        if new_v.norm_squared() >= vv {
            // No progress (rounding): keep the previous, better answer.
            len -= 1;
            break;
        }
        v = new_v;
        len = new_len;
        bary = new_bary;
    }
    let d = v.norm();
    Some(witness(d, &simplex[..len], &bary, lower.min(d), lower_normal))
}

fn witness(distance: Real, simplex: &[Vertex], bary: &[Real; 4], lower: Real, normal: Vector3) -> (Real, Point3, Point3, Real, Vector3) {
    let mut pa = Vector3::zeros();
    let mut pb = Vector3::zeros();
    for (s, l) in simplex.iter().zip(bary) {
        pa += s.a.coords * *l;
        pb += s.b.coords * *l;
    }
    (distance, Point3::from(pa), Point3::from(pb), lower, normal)
}

/// Closest point of the simplex to the origin; reduces the simplex to the support
/// set of that point. Returns (point, new length, barycentric weights, origin inside),
/// or `None` for a tetrahedron too flat to decide on.
fn closest_on_simplex(s: &mut [Vertex; 4], len: usize) -> Option<(Vector3, usize, [Real; 4], bool)> {
    match len {
        2 => {
            let (v, l, b) = closest_on_segment(s, [0, 1]);
            Some((v, l, b, false))
        }
        3 => {
            let (v, l, b) = closest_on_triangle(s, [0, 1, 2]);
            Some((v, l, b, false))
        }
        _ => closest_on_tetrahedron(s),
    }
}

fn reorder(s: &mut [Vertex; 4], idx: &[usize]) {
    let copy = *s;
    for (k, &i) in idx.iter().enumerate() {
        s[k] = copy[i];
    }
}

fn closest_on_segment(s: &mut [Vertex; 4], idx: [usize; 2]) -> (Vector3, usize, [Real; 4]) {
    let (a, b) = (s[idx[0]].w, s[idx[1]].w);
    let ab = b - a;
    let denom = ab.norm_squared();
    let t = if denom > 0.0 { (-a.dot(&ab) / denom).clamp(0.0, 1.0) } else { 0.0 };
    if t <= 0.0 {
        reorder(s, &[idx[0]]);
        (a, 1, [1.0, 0.0, 0.0, 0.0])
    } else if t >= 1.0 {
        reorder(s, &[idx[1]]);
        (b, 1, [1.0, 0.0, 0.0, 0.0])
    } else {
        reorder(s, &idx);
        (a + ab * t, 2, [1.0 - t, t, 0.0, 0.0])
    }
}

/// Ericson, Real-Time Collision Detection §5.1.5, for the point at the origin.
fn closest_on_triangle(s: &mut [Vertex; 4], idx: [usize; 3]) -> (Vector3, usize, [Real; 4]) {
    let (a, b, c) = (s[idx[0]].w, s[idx[1]].w, s[idx[2]].w);
    let (ab, ac, ap) = (b - a, c - a, -a);
    let (d1, d2) = (ab.dot(&ap), ac.dot(&ap));
    if d1 <= 0.0 && d2 <= 0.0 {
        reorder(s, &[idx[0]]);
        return (a, 1, [1.0, 0.0, 0.0, 0.0]);
    }
    let bp = -b;
    let (d3, d4) = (ab.dot(&bp), ac.dot(&bp));
    if d3 >= 0.0 && d4 <= d3 {
        reorder(s, &[idx[1]]);
        return (b, 1, [1.0, 0.0, 0.0, 0.0]);
    }
    let vc = d1 * d4 - d3 * d2;
    if vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0 {
        let t = d1 / (d1 - d3);
        reorder(s, &[idx[0], idx[1]]);
        return (a + ab * t, 2, [1.0 - t, t, 0.0, 0.0]);
    }
    let cp = -c;
    let (d5, d6) = (ab.dot(&cp), ac.dot(&cp));
    if d6 >= 0.0 && d5 <= d6 {
        reorder(s, &[idx[2]]);
        return (c, 1, [1.0, 0.0, 0.0, 0.0]);
    }
    let vb = d5 * d2 - d1 * d6;
    if vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0 {
        let t = d2 / (d2 - d6);
        reorder(s, &[idx[0], idx[2]]);
        return (a + ac * t, 2, [1.0 - t, t, 0.0, 0.0]);
    }
    let va = d3 * d6 - d5 * d4;
    if va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0 {
        let t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
        reorder(s, &[idx[1], idx[2]]);
        return (b + (c - b) * t, 2, [1.0 - t, t, 0.0, 0.0]);
    }
    let denom = va + vb + vc;
    if denom == 0.0 || !denom.is_finite() {
        // Degenerate triangle: fall back to its longest edge.
        return closest_on_segment(s, [idx[0], idx[1]]);
    }
    let (v, w) = (vb / denom, vc / denom);
    reorder(s, &idx);
    (a + ab * v + ac * w, 3, [1.0 - v - w, v, w, 0.0])
}

fn closest_on_tetrahedron(s: &mut [Vertex; 4]) -> Option<(Vector3, usize, [Real; 4], bool)> {
    let p = [s[0].w, s[1].w, s[2].w, s[3].w];
    let vol = |a: Vector3, b: Vector3, c: Vector3, d: Vector3| (b - a).dot(&(c - a).cross(&(d - a)));
    let total = vol(p[0], p[1], p[2], p[3]);
    let edge = (1..4).map(|i| (p[i] - p[0]).norm()).fold(0.0, Real::max);
    if !(total.abs() > 1e-10 * edge * edge * edge) {
        return None;
    }
    const FACES: [[usize; 4]; 4] = [[0, 1, 2, 3], [0, 1, 3, 2], [0, 2, 3, 1], [1, 2, 3, 0]];
    let mut best: Option<(Vector3, usize, [Real; 4], [Vertex; 4])> = None;
    for f in FACES {
        let n = (p[f[1]] - p[f[0]]).cross(&(p[f[2]] - p[f[0]]));
        let side_origin = -p[f[0]].dot(&n);
        let side_other = (p[f[3]] - p[f[0]]).dot(&n);
        // Origin strictly on the other side of the face than the fourth vertex.
        if side_origin * side_other < 0.0 {
            let mut candidate = *s;
            let (v, l, b) = closest_on_triangle(&mut candidate, [f[0], f[1], f[2]]);
            if best.as_ref().is_none_or(|(bv, ..)| v.norm_squared() < bv.norm_squared()) {
                best = Some((v, l, b, candidate));
            }
        }
    }
    if let Some((v, l, b, candidate)) = best {
        *s = candidate;
        return Some((v, l, b, false));
    }
    // Origin inside: barycentric coordinates from signed volumes.
    let o = Vector3::zeros();
    let b = [
        vol(o, p[1], p[2], p[3]) / total,
        vol(p[0], o, p[2], p[3]) / total,
        vol(p[0], p[1], o, p[3]) / total,
        vol(p[0], p[1], p[2], o) / total,
    ];
    if b.iter().any(|x| !(-1e-9..=1.0 + 1e-9).contains(x)) {
        return None;
    }
    Some((Vector3::zeros(), 4, b, true))
}
