//! The Gilbert-Johnson-Keerthi distance algorithm on support maps (Gilbert, Johnson and
//! Keerthi 1988).
//!
//! Used for every convex pair that has no closed-form test (cylinders, cones,
//! triangles against round shapes). Balls and capsules enter with their cores (point,
//! segment) and margins, so round surfaces are exact rather than polytope-approximated.
//!
//! Soundness: the gaps of the separating planes ([`separating_plane`], [`gap_along`],
//! [`distance_lower_bound`]) are rounded down, so they are proven lower bounds of the
//! distance, which the continuous checks' proofs rest on; [`closest_points`] is
//! accurate to GJK's tolerance, and a caller that takes its distance as a bound allows
//! for that.
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
/// Absolute convergence tolerance on the distance, relative to the shapes' size: near
/// contact the relative test asks for more than rounding allows.
const ABSOLUTE_TOLERANCE: Real = 1e-14;
/// Steps in a row that may fail to shorten the distance (within rounding) before GJK
/// gives up on progress.
const MAX_STALLS: usize = 4;

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
    let CoreClosest { distance: core_distance, point_a: pa, point_b: pb, .. } = converged(a, b, &b_to_a);
    let margin = a.margin() + b.margin();
    let (point_a, point_b, distance) = if core_distance > margin {
        let n = (pb - pa) / core_distance;
        (pa + n * a.margin(), pb - n * b.margin(), core_distance - margin)
    } else if core_distance > 0.0 {
        // Margins overlap: report the middle of the stretch of the segment between the
        // core points that lies in both shapes (within a's margin of pa and b's of pb).
        let n = (pb - pa) / core_distance;
        let (lo, hi) = ((core_distance - b.margin()).max(0.0), a.margin().min(core_distance));
        let mid = pa + n * ((lo + hi) * 0.5);
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
    match core_closest_points(a, b, &b_to_a, Exit::Separation(margin), &Vector3::x()) {
        CoreResult::Separated => false,
        CoreResult::Closest(core) => core.lower_bound <= margin,
    }
}

/// Whether two convex shapes touch or overlap (closed shapes), decided on GJK's
/// converged distance: the discrete test, exact to GJK's relative tolerance (touching
/// within about 1e-12 of the shapes' size counts).
pub fn intersects(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> bool {
    let b_to_a = pose_a.inv_mul(pose_b);
    let margin = a.margin() + b.margin();
    match core_closest_points(a, b, &b_to_a, Exit::Separation(margin), &Vector3::x()) {
        CoreResult::Separated => false,
        CoreResult::Closest(core) => {
            let scale = 1.0 + core.point_a.coords.norm() + core.point_b.coords.norm();
            core.distance <= margin + 1e-12 * scale
        }
    }
}

/// A proven lower bound on the distance between two convex shapes (0 when they may
/// touch), from the best separating plane GJK found.
pub fn distance_lower_bound(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> Real {
    separating_plane(a, pose_a, b, pose_b).gap.max(0.0)
}

/// The best separating plane GJK finds between two convex shapes, for a branch and
/// bound that needs no more than it asks: GJK stops as soon as its best plane proves
/// the shapes more than `enough` apart, or lies within `precision` (a share of the
/// distance) of the distance it has reached. Against a curved shape GJK approaches the
/// distance only linearly, so running it to convergence costs tens of steps where a few
/// settle the question. The normal is zero where no plane was found. `hint`, a unit
/// direction from B towards A in the poses' frame near the closest points' (a parent
/// node's plane; zero for none), is where GJK starts.
pub fn separating_plane_enough(
    a: &dyn SupportMap,
    pose_a: &Isometry3,
    b: &dyn SupportMap,
    pose_b: &Isometry3,
    enough: Real,
    precision: Real,
    hint: &Vector3,
) -> SeparatingPlane {
    let b_to_a = pose_a.inv_mul(pose_b);
    let margin = a.margin() + b.margin();
    let stop = Exit::LowerBound { enough: enough + margin, precision };
    match core_closest_points(a, b, &b_to_a, stop, &first_direction(pose_a, hint)) {
        CoreResult::Closest(core) => SeparatingPlane { gap: core.lower_bound - margin, normal: pose_a.rotation * core.normal },
        CoreResult::Separated => unreachable!("a lower bound's exit never reports a separation alone"),
    }
}

/// The gap between two convex shapes along the unit direction `n` (from B towards A):
/// every point `p` of A and `q` of B have `(p - q) · n >= gap` (proven: rounded down by a
/// relative 1e-12 of the points' magnitudes). A lower bound of their distance whatever
/// `n` is; a branch and bound tries its parent's plane on a child this way before GJK.
pub fn gap_along(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3, n: &Vector3) -> Real {
    let pa = pose_a * a.support(&pose_a.rotation.inverse_transform_vector(&-n));
    let pb = pose_b * b.support(&pose_b.rotation.inverse_transform_vector(n));
    (pa - pb).dot(n) - 1e-12 * (pa.coords.norm() + pb.coords.norm() + n.norm())
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
    separating_plane_from(a, pose_a, b, pose_b, &Vector3::zeros())
}

/// [`separating_plane`], GJK started from `hint` (as in [`separating_plane_enough`]):
/// the plane a pair had a moment ago.
pub fn separating_plane_from(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3, hint: &Vector3) -> SeparatingPlane {
    let b_to_a = pose_a.inv_mul(pose_b);
    let core = match core_closest_points(a, b, &b_to_a, Exit::Converged, &first_direction(pose_a, hint)) {
        CoreResult::Closest(core) => core,
        CoreResult::Separated => unreachable!("no early exit was asked for"),
    };
    SeparatingPlane { gap: core.lower_bound - a.margin() - b.margin(), normal: pose_a.rotation * core.normal }
}

/// Where GJK takes its first point of A - B, in A's frame: the farthest along -hint
/// (a direction from B towards A in the poses' frame), or along x without one.
fn first_direction(pose_a: &Isometry3, hint: &Vector3) -> Vector3 {
    if *hint == Vector3::zeros() { Vector3::x() } else { -pose_a.rotation.inverse_transform_vector(hint) }
}

/// What GJK on the cores found (as parry's `GJKResult` says it).
enum CoreResult {
    /// It ran to the end.
    Closest(CoreClosest),
    /// A separating plane proved the cores farther apart than the exit distance asked for.
    Separated,
}

/// GJK's answer on the cores, in A's frame.
struct CoreClosest {
    distance: Real,
    /// The closest points on A's and on B's core.
    point_a: Point3,
    point_b: Point3,
    /// A proven lower bound of the distance, and the unit normal `n` of the plane that
    /// proves it: every `p - q` has `(p - q) · n >= lower_bound`.
    lower_bound: Real,
    normal: Vector3,
}

/// When GJK may stop before it converges.
#[derive(Clone, Copy, Debug)]
enum Exit {
    /// Run to the end.
    Converged,
    /// As soon as a separating plane proves the cores farther apart than this
    /// ([`CoreResult::Separated`]), or `|v|` proves them within it.
    Separation(Real),
    /// As soon as the best separating plane proves the cores farther apart than
    /// `enough`, or lies within `precision` (a share of `|v|`) of `|v|`; the result's
    /// `lower_bound` is that plane's.
    LowerBound { enough: Real, precision: Real },
}

/// GJK run to the end (no early exit).
fn converged(a: &dyn SupportMap, b: &dyn SupportMap, b_to_a: &Isometry3) -> CoreClosest {
    match core_closest_points(a, b, b_to_a, Exit::Converged, &Vector3::x()) {
        CoreResult::Closest(core) => core,
        CoreResult::Separated => unreachable!("no early exit was asked for"),
    }
}

/// GJK on the cores in A's frame ([`CoreClosest`]), stopping early as `exit` allows.
///
/// Against curved shapes the simplices GJK builds near convergence are needles and
/// nearly flat tetrahedra (a polygon's corner or edge paired with close points of a
/// rim); the sub-algorithms below are written to stay accurate on them, and a step
/// that fails to shorten the distance does not end the search at once: near a flat
/// contact the support ties between a near and a far corner of a polygon, and the
/// far one gains nothing while turning the direction so that the next support does.
fn core_closest_points(a: &dyn SupportMap, b: &dyn SupportMap, b_to_a: &Isometry3, exit: Exit, first: &Vector3) -> CoreResult {
    let mut simplex: [Vertex; 4] = [support(a, b, b_to_a, first); 4];
    let mut len = 1;
    let mut v = simplex[0].w;
    let mut bary = [1.0, 0.0, 0.0, 0.0];
    let scale = simplex[0].w.norm().max(simplex[0].a.coords.norm()).max(1e-300);
    let mut lower: Real = 0.0;
    let mut lower_normal = Vector3::zeros();
    // The shortest point found so far while steps fail to shorten it (otherwise the
    // current one).
    let mut best: Option<(Vector3, [Vertex; 4], usize, [Real; 4])> = None;
    let mut stalls = 0;
    for _ in 0..MAX_ITERATIONS {
        let vv = v.norm_squared();
        if vv <= (1e-15 * scale) * (1e-15 * scale) {
            return CoreResult::Closest(witness(0.0, &v, &simplex[..len], &bary, 0.0, lower_normal));
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
        match exit {
            Exit::Converged => {}
            Exit::Separation(m) => {
                // The plane through w orthogonal to v separates the cores by vw / |v|
                // (proven: rounded down as above).
                if bound > m {
                    return CoreResult::Separated;
                }
                // |v| bounds the distance from above: within the margins, they touch.
                if m > 0.0 && vv <= m * m {
                    return CoreResult::Closest(witness(norm, &v, &simplex[..len], &bary, 0.0, lower_normal));
                }
            }
            Exit::LowerBound { enough, precision } => {
                if lower > enough || norm - lower <= precision * norm {
                    return CoreResult::Closest(witness(norm, &v, &simplex[..len], &bary, lower.min(norm), lower_normal));
                }
            }
        }
        // Converged: |v| exceeds the distance by at most (vv - vw) / |v|.
        if vv - vw <= RELATIVE_TOLERANCE * vv + ABSOLUTE_TOLERANCE * scale * norm || simplex[..len].iter().any(|s| s.w == w.w) {
            break;
        }
        let mut points = [simplex[0].w, simplex[1].w, simplex[2].w, simplex[3].w];
        points[len] = w.w;
        let Some(Closest { v: new_v, support: idx, len: new_len, weights: new_bary, inside }) = closest_on_simplex(&points, len + 1) else {
            break;
        };
        if inside {
            let mut next = simplex;
            next[len] = w;
            return CoreResult::Closest(witness(0.0, &new_v, &next[..new_len], &new_bary, 0.0, lower_normal));
        }
        let new_vv = new_v.norm_squared();
        let best_vv = best.as_ref().map_or(vv, |b| b.0.norm_squared());
        if new_vv < best_vv {
            stalls = 0;
            best = None;
        } else {
            // No progress within rounding (in exact arithmetic every step shortens v).
            stalls += 1;
            if stalls > MAX_STALLS || new_vv.sqrt() > norm * (1.0 + 1e-9) + 1e-15 * scale {
                break;
            }
            if best.is_none() {
                best = Some((v, simplex, len, bary));
            }
        }
        let mut next = simplex;
        next[len] = w;
        for (k, &i) in idx[..new_len].iter().enumerate() {
            simplex[k] = next[i];
        }
        v = new_v;
        len = new_len;
        bary = new_bary;
    }
    if let Some(b) = best {
        (v, simplex, len, bary) = b;
    }
    let d = v.norm();
    CoreResult::Closest(witness(d, &v, &simplex[..len], &bary, lower.min(d), lower_normal))
}

/// The witness points of the simplex's point `v`; apart (`distance > 0`) they are made
/// to differ by exactly `v`, so that their direction is GJK's (the weights of a needle
/// are less precise than its point).
fn witness(distance: Real, v: &Vector3, simplex: &[Vertex], bary: &[Real; 4], lower: Real, normal: Vector3) -> CoreClosest {
    let mut pa = Vector3::zeros();
    let mut pb = Vector3::zeros();
    for (s, l) in simplex.iter().zip(bary) {
        pa += s.a.coords * *l;
        pb += s.b.coords * *l;
    }
    if distance > 0.0 {
        let error = (pa - pb - v) * 0.5;
        pa -= error;
        pb += error;
    }
    CoreClosest { distance, point_a: Point3::from(pa), point_b: Point3::from(pb), lower_bound: lower, normal }
}

/// The closest point of a simplex to the origin: the point, the corners whose hull
/// holds it (indices into the simplex) with their barycentric weights, and whether the
/// origin is inside (a tetrahedron).
struct Closest {
    v: Vector3,
    support: [usize; 4],
    len: usize,
    weights: [Real; 4],
    inside: bool,
}

impl Closest {
    fn outside(v: Vector3, support: &[usize], weights: &[Real]) -> Self {
        let mut c = Closest { v, support: [0; 4], len: support.len(), weights: [0.0; 4], inside: false };
        c.support[..support.len()].copy_from_slice(support);
        c.weights[..weights.len()].copy_from_slice(weights);
        c
    }
}

/// Closest point of the simplex `p[..len]` to the origin, or `None` when a
/// tetrahedron's weights come out unusable (not finite).
fn closest_on_simplex(p: &[Vector3; 4], len: usize) -> Option<Closest> {
    match len {
        2 => Some(closest_on_segment(p, [0, 1])),
        3 => Some(closest_on_triangle(p, [0, 1, 2], plane(&p[0], &p[1], &p[2]))),
        _ => closest_on_tetrahedron(p),
    }
}

fn closest_on_segment(p: &[Vector3; 4], [i, j]: [usize; 2]) -> Closest {
    let (a, b) = (p[i], p[j]);
    let ab = b - a;
    let denom = ab.norm_squared();
    let t = if denom > 0.0 { (-a.dot(&ab) / denom).clamp(0.0, 1.0) } else { 0.0 };
    if t <= 0.0 {
        Closest::outside(a, &[i], &[1.0])
    } else if t >= 1.0 {
        Closest::outside(b, &[j], &[1.0])
    } else {
        Closest::outside(a + ab * t, &[i, j], &[1.0 - t, t])
    }
}

/// The plane of a triangle, for measuring the origin against it: a normal oriented as
/// `(b - a) x (c - a)` and the point of the longest edge's line nearest the origin
/// (`None` when degenerate).
///
/// Needles (two close corners and a far one) are poorly determined across: the normal
/// is the product of the shortest and the longest edges, so the rounding of the short
/// edge only turns it about the long one, and heights measured from a point of the
/// long edge's line barely feel that turn. (The product of two long edges would tilt
/// the normal by about an ulp of the length over the width, about any axis.)
fn plane(a: &Vector3, b: &Vector3, c: &Vector3) -> Option<(Vector3, Vector3)> {
    let edges = [b - a, c - a, c - b];
    let lens = edges.map(|e| e.norm_squared());
    let long = if lens[0] >= lens[1] && lens[0] >= lens[2] {
        0
    } else if lens[1] >= lens[2] {
        1
    } else {
        2
    };
    let (o1, o2) = ((long + 1) % 3, (long + 2) % 3);
    let short = if lens[o1] <= lens[o2] { o1 } else { o2 };
    // ab x ac = ab x bc = ac x bc: the lower index first keeps the orientation.
    let n = edges[short.min(long)].cross(&edges[short.max(long)]);
    let nn = n.norm_squared();
    if !(nn > 0.0 && nn.is_finite()) {
        return None;
    }
    let (p0, e) = (if long == 2 { b } else { a }, edges[long]);
    Some((n, p0 - e * (p0.dot(&e) / lens[long])))
}

/// Closest point of a triangle (its plane from [`plane`]) to the origin: the origin's
/// projection on the plane when that falls inside (every barycentric weight, from the
/// areas it cuts, at least zero), otherwise the best of the three edges. Reading the
/// weights off the projection instead of classifying regions first (Ericson's tests,
/// which cancel badly on needles) keeps rounding to moving the boundary between the
/// cases by about an ulp of the triangle's size, where both give the same distance.
fn closest_on_triangle(p: &[Vector3; 4], [i, j, k]: [usize; 3], plane: Option<(Vector3, Vector3)>) -> Closest {
    let (a, b, c) = (p[i], p[j], p[k]);
    if let Some((n, on_line)) = plane {
        let nn = n.norm_squared();
        let v = n * (n.dot(&on_line) / nn);
        // Each weight from the edge opposite its corner (a needle's far corner then
        // pairs with the short edge).
        let la = (b - v).cross(&(c - b)).dot(&n);
        let lb = (c - v).cross(&(a - c)).dot(&n);
        let lc = (a - v).cross(&(b - a)).dot(&n);
        if la >= 0.0 && lb >= 0.0 && lc >= 0.0 {
            let sum = la + lb + lc;
            return Closest::outside(v, &[i, j, k], &[la / sum, lb / sum, lc / sum]);
        }
    }
    let mut best = closest_on_segment(p, [i, j]);
    for e in [[i, k], [j, k]] {
        let c = closest_on_segment(p, e);
        if c.v.norm_squared() < best.v.norm_squared() {
            best = c;
        }
    }
    best
}

/// Closest point of a tetrahedron to the origin. Face i is opposite corner i; the
/// origin is inside when it lies, for every face, on the side of the opposite corner
/// (heights measured as in [`plane`], so that the needles and flat tetrahedra GJK
/// builds against curved shapes are still told apart), and its barycentric weights are
/// the ratios of the heights of the origin and of that corner over the face. Otherwise
/// the closest point lies on a face the origin sees. A face whose corner lies within
/// 1e-13 of the coordinates' size of its plane (or a degenerate face) counts as seen:
/// the side of such a corner is rounding, and the tetrahedron is then as thin as that,
/// so its faces hold its closest point to within that much.
fn closest_on_tetrahedron(p: &[Vector3; 4]) -> Option<Closest> {
    const FACES: [[usize; 3]; 4] = [[1, 2, 3], [0, 2, 3], [0, 1, 3], [0, 1, 2]];
    let size = p.iter().map(|x| x.norm_squared()).fold(0.0, Real::max).sqrt();
    let mut weights = [0.0; 4];
    let mut seen: [Option<Option<(Vector3, Vector3)>>; 4] = [None; 4];
    for (i, f) in FACES.iter().enumerate() {
        let face = plane(&p[f[0]], &p[f[1]], &p[f[2]]);
        if let Some((n, on_plane)) = face {
            let origin_height = -n.dot(&on_plane);
            let corner_height = n.dot(&(p[i] - on_plane));
            let thin = 1e-13 * size;
            if origin_height * corner_height > 0.0 && corner_height * corner_height > thin * thin * n.norm_squared() {
                weights[i] = origin_height / corner_height;
                continue;
            }
        }
        seen[i] = Some(face);
    }
    if seen.iter().all(Option::is_none) {
        let sum: Real = weights.iter().sum();
        if !(sum > 0.0 && sum.is_finite()) {
            return None;
        }
        return Some(Closest { v: Vector3::zeros(), support: [0, 1, 2, 3], len: 4, weights: weights.map(|w| w / sum), inside: true });
    }
    let mut best: Option<Closest> = None;
    for (f, face) in FACES.iter().zip(seen) {
        if let Some(face) = face {
            let c = closest_on_triangle(p, *f, face);
            if best.as_ref().is_none_or(|b| c.v.norm_squared() < b.v.norm_squared()) {
                best = Some(c);
            }
        }
    }
    best
}
