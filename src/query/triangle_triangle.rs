//! Triangle–triangle intersection test after Šinjur 2001 §5.
//!
//! §5 distinguishes three situations for triangles `A` and `B` with planes `P1`, `P2`:
//!
//! 2. all corners of one triangle lie strictly on one side of the other's plane: no
//!    intersection (the early rejection, done first for both planes);
//! 3. otherwise each triangle meets the other's plane in a segment (possibly a point) on
//!    the common line `L = P1 ∩ P2`, and the triangles intersect iff the two segments
//!    overlap;
//! 1. both planes coincide: a 2-D test in the common plane.
//!
//! Robustness choices (not in the seed):
//! - Every decision is a sign of an orientation determinant (plane side, or the order of
//!   two interval ends on `L`); no decision depends on a division. The order of the
//!   interval ends on `L` is read from `orient3d(a0, a1, b0, b1)` and
//!   `orient3d(a0, a2, b0, b2)` once both triangles are put in a canonical vertex order
//!   (the formulation of Guigue & Devillers 2003), so that touching configurations are
//!   decided by signs, not by comparing computed intersection points.
//! - A determinant whose magnitude is at most [`REL_EPS`] times its permanent (the same
//!   sum of products of coordinate differences with all terms made positive, which bounds
//!   its rounding error) is snapped to 0. Only signs that rounding could have flipped are
//!   snapped; every other sign, in particular every rejection, is the sign of the exact
//!   determinant of the given coordinates. Snapping turns strict tests into non-strict
//!   ones, so it never loses an exact contact: near-touching is reported rather than
//!   missed. Inputs whose determinants are computed exactly (e.g. small integer
//!   coordinates) get exact answers.
//! - The interval test on `L` runs only when no plane side was snapped. When a corner is
//!   on the other plane up to rounding, `L` is not reliable and the test falls back to
//!   "some edge of one triangle meets the other", where each edge–triangle test uses one
//!   plane only.
//! - A contact that rests on a snapped sign is confirmed metrically: some candidate point
//!   must lie within [`TOUCH_REL`] times the triangles' size of both triangles. This keeps
//!   "touching up to rounding" from turning into a far-away false contact when a plane is
//!   ill-conditioned.
//! - §5 case 1 says coplanar triangles intersect iff a corner of one lies in the other;
//!   that misses two triangles crossing like a star of David, so the coplanar test also
//!   checks the nine edge pairs.
//! - Degenerate triangles (collinear or repeated corners, a point, and slivers whose
//!   normal is below [`DEGENERATE_SIN`] times its permanent) are replaced by the segment
//!   (or point) they span and tested as such. A contact deeper than that width inside a
//!   sliver can be missed; no other exact contact is.
//! - The returned point is checked against both triangles; if rounding put it measurably
//!   outside one (nearly parallel planes, slivers), the best of a few other candidates is
//!   returned instead. Its distance to either triangle is typically below `1e-14` of the
//!   triangles' size, and below about `1e-15 / sin` for slivers of angle `sin`.
//! - Triangles with a non-finite coordinate never intersect (`None`), and no `NaN` point is
//!   ever returned. Coordinates should stay well below `1e100` in magnitude so that
//!   products of three coordinate differences do not overflow.
use crate::math::{Point3, Real, Triangle, Vector3};

/// A triangle's corners as vectors, the internals' working type.
type Tri = [Vector3; 3];

/// A determinant at most `REL_EPS` times its permanent is treated as zero. The rounding
/// error of the 3-D and 2-D orientation determinants as evaluated here is below about
/// `4 * EPSILON` times the permanent, so the snap covers it with margin.
pub const REL_EPS: Real = 16.0 * Real::EPSILON;

/// A triangle whose normal is at most `DEGENERATE_SIN` times its permanent (about: the
/// sine of its angle at corner 0) is handled as the segment it nearly is. Below that its
/// plane is too uncertain for plane-side snapping to mean anything; the width lost is
/// below `DEGENERATE_SIN` times the triangle's size.
pub const DEGENERATE_SIN: Real = 1e-9;

/// A point whose distance to either triangle exceeds this fraction of the triangles' size
/// is replaced by a better candidate, if one exists.
const REFINE_REL: Real = 1e-11;

/// A contact found only thanks to snapped signs is kept only if some candidate point is
/// within this fraction of the triangles' size of both triangles.
pub const TOUCH_REL: Real = 1e-9;

/// Returns a point common to the closed triangles `a` and `b`, or `None` if they are
/// disjoint (Šinjur §5; see the module documentation for the robust details).
///
/// Touching at a corner or along an edge counts as intersecting. In the transversal case
/// the point is the midpoint of the overlap of the two intervals on the planes' common
/// line; in the coplanar case it is a corner of one triangle inside the other or a
/// crossing of two edges. If rounding put that point measurably outside a triangle, the
/// best of a few other candidates is returned instead.
///
/// Cost: two plane-side rejections (about 40 flops each) come first; hits also pay for
/// checking the point against both triangles.
pub fn triangles_intersect(a: &Triangle, b: &Triangle) -> Option<Point3> {
    triangles_intersect_v(&corners(a), &corners(b)).map(Point3::from)
}

/// [`triangles_intersect`] on the corners as vectors.
fn triangles_intersect_v(a: &Tri, b: &Tri) -> Option<Vector3> {
    // §5 case 2 for the plane of `b`: sides of the corners of `a`.
    let eb1 = b[1] - b[0];
    let eb2 = b[2] - b[0];
    let nb = eb1.cross(&eb2);
    let pb = abs_cross(&eb1, &eb2);
    let da = plane_sides(&nb, &pb, &b[0], a);
    if same_strict_side(&da) {
        return None;
    }
    // The same for the plane of `a` and the corners of `b`.
    let ea1 = a[1] - a[0];
    let ea2 = a[2] - a[0];
    let na = ea1.cross(&ea2);
    let pa = abs_cross(&ea1, &ea2);
    let db = plane_sides(&na, &pa, &a[0], b);
    if same_strict_side(&db) {
        return None;
    }
    if !all_finite(a) || !all_finite(b) {
        return None;
    }
    let deg_a = is_degenerate(&na, &pa);
    let deg_b = is_degenerate(&nb, &pb);
    // Each path answers for the snapped signs; `certain` says no sign was snapped.
    let (hit, certain) = match (deg_a, deg_b) {
        (false, false) => {
            if da == [0.0; 3] {
                // §5 case 1.
                (coplanar_triangles(a, b, &nb), false)
            } else if db == [0.0; 3] {
                (coplanar_triangles(a, b, &na), false)
            } else if da.contains(&0.0) || db.contains(&0.0) {
                // Some corner is on the other plane up to rounding: the common line is
                // not reliable, but each edge-triangle test uses a single plane.
                (edges_meet_triangles(a, b, &da, &db, &na, &nb), false)
            } else {
                // §5 case 3 with all plane sides certain.
                match transversal(a, b, da, db) {
                    Some((p, certain)) => (Some(p), certain),
                    None => (None, true),
                }
            }
        }
        (true, false) => {
            let (p, q) = spanned_segment(a);
            (segment_triangle(&p, &q, b).map(|(x, _)| x), false)
        }
        (false, true) => {
            let (p, q) = spanned_segment(b);
            (segment_triangle(&p, &q, a).map(|(x, _)| x), false)
        }
        (true, true) => {
            let (p, q) = spanned_segment(a);
            let (r, s) = spanned_segment(b);
            (segment_segment(&p, &q, &r, &s), false)
        }
    };
    let (badness, p) = refine_point(a, b, hit?);
    // A contact that rests on snapped signs must also be a contact metrically.
    let accept = certain || badness <= TOUCH_REL * triangles_size(a, b);
    Some(p).filter(|p| accept && is_finite(p))
}

/// Returns a point common to the closed segment `[p, q]` (which may be a single point) and
/// the closed triangle `t` (which may be degenerate), or `None`.
///
/// Same predicates, tolerances and guarantees as [`triangles_intersect`]: the segment's
/// end sides relative to the plane of `t`, then the three `orient3d(p, q, t_i, t_i+1)`
/// signs for the line through the triangle, or a 2-D test when the segment lies in the
/// plane; a contact resting on a snapped sign is confirmed metrically ([`TOUCH_REL`]).
pub fn segment_triangle_intersection(p: &Point3, q: &Point3, t: &Triangle) -> Option<Point3> {
    segment_triangle_confirmed(&p.coords, &q.coords, &corners(t)).map(Point3::from)
}

/// [`segment_triangle_intersection`] on the corners as vectors.
fn segment_triangle_confirmed(p: &Vector3, q: &Vector3, t: &Tri) -> Option<Vector3> {
    let (x, certain) = segment_triangle(p, q, t)?;
    if certain {
        return Some(x);
    }
    let size = inf_norm(&(q - p)).max(triangles_size(t, t));
    let badness = |x: &Vector3| distance_to_segment(x, p, q).max(distance_to_triangle(x, t));
    [x, *p, *q].into_iter().map(|x| (badness(&x), x)).filter(|(d, _)| *d <= TOUCH_REL * size).min_by(|u, v| u.0.total_cmp(&v.0)).map(|(_, x)| x)
}

/// [`segment_triangle_intersection`] without the metric confirmation; the flag says that
/// no sign was snapped.
fn segment_triangle(p: &Vector3, q: &Vector3, t: &Tri) -> Option<(Vector3, bool)> {
    if !all_finite(&[*p, *q, *q]) || !all_finite(t) {
        return None;
    }
    let e1 = t[1] - t[0];
    let e2 = t[2] - t[0];
    let n = e1.cross(&e2);
    let perm = abs_cross(&e1, &e2);
    let hit = if is_degenerate(&n, &perm) {
        let (r, s) = spanned_segment(t);
        segment_segment(p, q, &r, &s).map(|x| (x, false))
    } else {
        let [dp, dq, _] = plane_sides(&n, &perm, &t[0], &[*p, *q, *q]);
        edge_triangle(p, q, dp, dq, t, &n)
    };
    hit.filter(|(x, _)| is_finite(x))
}

/// Segment `[p, q]` against the non-degenerate triangle `t` of normal `n`, given the
/// snapped plane sides `dp`, `dq` of its ends. The flag says that no sign was snapped.
fn edge_triangle(p: &Vector3, q: &Vector3, dp: Real, dq: Real, t: &Tri, n: &Vector3) -> Option<(Vector3, bool)> {
    if (dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) || dp.is_nan() || dq.is_nan() {
        return None;
    }
    if dp == 0.0 && dq == 0.0 {
        return coplanar_segment_triangle(p, q, t, n).map(|x| (x, false));
    }
    // The segment crosses the plane once; it meets `t` iff its line does.
    let o0 = orient3d(p, q, &t[0], &t[1]);
    let o1 = orient3d(p, q, &t[1], &t[2]);
    let o2 = orient3d(p, q, &t[2], &t[0]);
    if (o0 >= 0.0 && o1 >= 0.0 && o2 >= 0.0) || (o0 <= 0.0 && o1 <= 0.0 && o2 <= 0.0) {
        let certain = dp != 0.0 && dq != 0.0 && o0 != 0.0 && o1 != 0.0 && o2 != 0.0;
        Some((lerp(p, q, dp / (dp - dq)), certain))
    } else {
        None
    }
}

/// Two closed triangles intersect iff an edge of one meets the other (the corners of
/// their common polygon lie on edges). Used when some plane side is zero.
fn edges_meet_triangles(a: &Tri, b: &Tri, da: &[Real; 3], db: &[Real; 3], na: &Vector3, nb: &Vector3) -> Option<Vector3> {
    for k in 0..3 {
        let k1 = (k + 1) % 3;
        if let Some((p, _)) = edge_triangle(&a[k], &a[k1], da[k], da[k1], b, nb) {
            return Some(p);
        }
        if let Some((p, _)) = edge_triangle(&b[k], &b[k1], db[k], db[k1], a, na) {
            return Some(p);
        }
    }
    None
}

/// The largest coordinate extent of an edge of either triangle.
fn triangles_size(a: &Tri, b: &Tri) -> Real {
    (0..3).map(|k| inf_norm(&(a[(k + 1) % 3] - a[k])).max(inf_norm(&(b[(k + 1) % 3] - b[k])))).fold(0.0, Real::max)
}

/// Keeps `p` if it lies in both triangles up to [`REFINE_REL`]; otherwise picks the
/// candidate closest to lying in both: `p`, the corners, the edge–triangle crossings and
/// the coplanar-projection points. Returns the larger of its distances to the two
/// triangles, and the point. Runs only for hits.
fn refine_point(a: &Tri, b: &Tri, p: Vector3) -> (Real, Vector3) {
    let badness = |x: &Vector3| distance_to_triangle(x, a).max(distance_to_triangle(x, b));
    let mut best = (badness(&p), p);
    if best.0 <= REFINE_REL * triangles_size(a, b) {
        return best;
    }
    let mut consider = |x: Option<Vector3>| {
        if let Some(x) = x {
            let d = badness(&x);
            if d < best.0 {
                best = (d, x);
            }
        }
    };
    for x in a.iter().chain(b.iter()) {
        consider(Some(*x));
    }
    for k in 0..3 {
        let k1 = (k + 1) % 3;
        consider(segment_triangle(&a[k], &a[k1], b).map(|(x, _)| x));
        consider(segment_triangle(&b[k], &b[k1], a).map(|(x, _)| x));
    }
    for t in [a, b] {
        let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
        if n != Vector3::zeros() {
            consider(coplanar_triangles(a, b, &n));
        }
    }
    best
}

/// Euclidean distance from `x` to the closed triangle `t` (its spanned segment if it is
/// degenerate): the distance to the plane if `x` projects inside, else to the nearest
/// edge. Unlike barycentric closest-point formulas this stays accurate for slivers.
fn distance_to_triangle(x: &Vector3, t: &Tri) -> Real {
    let (e1, e2) = (t[1] - t[0], t[2] - t[0]);
    let n = e1.cross(&e2);
    if is_degenerate(&n, &abs_cross(&e1, &e2)) {
        let (p, q) = spanned_segment(t);
        return distance_to_segment(x, &p, &q);
    }
    let inside = (0..3).all(|k| (t[(k + 1) % 3] - t[k]).cross(&(x - t[k])).dot(&n) >= 0.0);
    if inside {
        return (n.dot(&(x - t[0])) / n.norm()).abs();
    }
    (0..3).map(|k| distance_to_segment(x, &t[k], &t[(k + 1) % 3])).fold(Real::INFINITY, Real::min)
}

fn distance_to_segment(x: &Vector3, p: &Vector3, q: &Vector3) -> Real {
    let d = q - p;
    let l = d.norm_squared();
    let t = if l > 0.0 { ((x - p).dot(&d) / l).clamp(0.0, 1.0) } else { 0.0 };
    (x - (p + d * t)).norm()
}

/// §5 case 3: both triangles cross the other's plane; `da`/`db` are the snapped plane
/// sides of the corners of `a` (w.r.t. the plane of `b`) and of `b` (w.r.t. `a`).
fn transversal(a: &Tri, b: &Tri, da: [Real; 3], db: [Real; 3]) -> Option<(Vector3, bool)> {
    // Rotate each triangle so that corner 0 is alone on its side: corners 1 and 2 are on
    // the other side or on the plane (or corner 0 is on the plane and 1, 2 strictly on one
    // side). Rotation keeps the orientation, so the plane sides are unchanged.
    let (ia, sa) = apex(&da)?;
    let (ib, sb) = apex(&db)?;
    let mut a = [a[ia], a[(ia + 1) % 3], a[(ia + 2) % 3]];
    let mut b = [b[ib], b[(ib + 1) % 3], b[(ib + 2) % 3]];
    let mut da = [da[ia], da[(ia + 1) % 3], da[(ia + 2) % 3]];
    let mut db = [db[ib], db[(ib + 1) % 3], db[(ib + 2) % 3]];
    // Canonical orientation: a0 on the positive side of plane b (swapping b1, b2 flips
    // that plane), b0 on the positive side of plane a.
    if sa < 0.0 {
        b.swap(1, 2);
        db.swap(1, 2);
        da = [-da[0], -da[1], -da[2]];
    }
    if sb < 0.0 {
        a.swap(1, 2);
        da.swap(1, 2);
        db = [-db[0], -db[1], -db[2]];
    }
    // Along d = n_a × n_b, a meets L in [j, i] (i on a0a1, j on a0a2) and b in [k, l]
    // (k on b0b1, l on b0b2). They overlap iff k <= i and j <= l, and these two order
    // relations have the signs of the two determinants below.
    let o1 = orient3d(&a[0], &a[1], &b[0], &b[1]);
    let o2 = orient3d(&a[0], &a[2], &b[0], &b[2]);
    if o1 > 0.0 || o2 < 0.0 {
        return None;
    }
    let i = lerp(&a[0], &a[1], da[0] / (da[0] - da[1]));
    let j = lerp(&a[0], &a[2], da[0] / (da[0] - da[2]));
    let k = lerp(&b[0], &b[1], db[0] / (db[0] - db[1]));
    let l = lerp(&b[0], &b[2], db[0] / (db[0] - db[2]));
    let d = (a[1] - a[0]).cross(&(a[2] - a[0])).cross(&(b[1] - b[0]).cross(&(b[2] - b[0])));
    let at = |p: &Vector3| p.dot(&d);
    let lo = if at(&k) > at(&j) { k } else { j };
    let hi = if at(&l) < at(&i) { l } else { i };
    Some(((lo + hi) * 0.5, o1 != 0.0 && o2 != 0.0))
}

/// The corner that is alone on its side of the other plane, and its side (+1 or -1 after
/// taking a corner on the plane as lying opposite to the two others).
fn apex(d: &[Real; 3]) -> Option<(usize, Real)> {
    for r in 0..3 {
        let (s0, s1, s2) = (d[r], d[(r + 1) % 3], d[(r + 2) % 3]);
        if s0 > 0.0 && s1 <= 0.0 && s2 <= 0.0 {
            return Some((r, 1.0));
        }
        if s0 < 0.0 && s1 >= 0.0 && s2 >= 0.0 {
            return Some((r, -1.0));
        }
        if s0 == 0.0 && s1 < 0.0 && s2 < 0.0 {
            return Some((r, 1.0));
        }
        if s0 == 0.0 && s1 > 0.0 && s2 > 0.0 {
            return Some((r, -1.0));
        }
    }
    None
}

/// §5 case 1: coplanar triangles, tested in the coordinate plane that drops the largest
/// component of the normal `n`. Corners inside the other triangle, then edge crossings.
fn coplanar_triangles(a: &Tri, b: &Tri, n: &Vector3) -> Option<Vector3> {
    let (u, v) = projection_axes(n);
    let pa = project(a, u, v);
    let pb = project(b, u, v);
    for k in 0..3 {
        if point_in_triangle_2d(&pa[k], &pb) {
            return Some(a[k]);
        }
    }
    for k in 0..3 {
        if point_in_triangle_2d(&pb[k], &pa) {
            return Some(b[k]);
        }
    }
    for e in 0..3 {
        let e1 = (e + 1) % 3;
        for f in 0..3 {
            let f1 = (f + 1) % 3;
            if let Some(t) = segment_segment_2d(&pa[e], &pa[e1], &pb[f], &pb[f1]) {
                return Some(lerp(&a[e], &a[e1], t));
            }
        }
    }
    None
}

/// A segment lying in the plane (normal `n`) of the non-degenerate triangle `t`.
fn coplanar_segment_triangle(p: &Vector3, q: &Vector3, t: &Tri, n: &Vector3) -> Option<Vector3> {
    let (u, v) = projection_axes(n);
    let pp = [p[u], p[v]];
    let pq = [q[u], q[v]];
    let pt = project(t, u, v);
    if point_in_triangle_2d(&pp, &pt) {
        return Some(*p);
    }
    if point_in_triangle_2d(&pq, &pt) {
        return Some(*q);
    }
    for e in 0..3 {
        if let Some(s) = segment_segment_2d(&pp, &pq, &pt[e], &pt[(e + 1) % 3]) {
            return Some(lerp(p, q, s));
        }
    }
    None
}

/// Closed segments `[p, q]` and `[r, s]` in 3-D (either may be a point).
fn segment_segment(p: &Vector3, q: &Vector3, r: &Vector3, s: &Vector3) -> Option<Vector3> {
    if orient3d(p, q, r, s) != 0.0 {
        return None;
    }
    // A normal of the common plane, from the best conditioned of three cross products.
    let u = q - p;
    let w = s - r;
    let (rp, pr) = (r - p, p - r);
    let candidates = [(u, w), (u, rp), (w, pr)];
    let mut best: Option<Vector3> = None;
    let mut best_norm = 0.0;
    for (x, y) in candidates {
        let n = x.cross(&y);
        let m = inf_norm(&n);
        if !is_degenerate(&n, &abs_cross(&x, &y)) && m > best_norm {
            best = Some(n);
            best_norm = m;
        }
    }
    match best {
        Some(n) => {
            let (a, b) = projection_axes(&n);
            let t = segment_segment_2d(&[p[a], p[b]], &[q[a], q[b]], &[r[a], r[b]], &[s[a], s[b]])?;
            Some(lerp(p, q, t))
        }
        None => collinear_overlap(&coordinates(p), &coordinates(q), &coordinates(r), &coordinates(s)).map(|t| lerp(p, q, t)),
    }
}

/// Closed 2-D segments `[p, q]` and `[r, s]`; returns the parameter on `[p, q]` of a
/// common point.
fn segment_segment_2d(p: &[Real; 2], q: &[Real; 2], r: &[Real; 2], s: &[Real; 2]) -> Option<Real> {
    let d1 = orient2d(p, q, r);
    let d2 = orient2d(p, q, s);
    if (d1 > 0.0 && d2 > 0.0) || (d1 < 0.0 && d2 < 0.0) {
        return None;
    }
    let d3 = orient2d(r, s, p);
    let d4 = orient2d(r, s, q);
    if (d3 > 0.0 && d4 > 0.0) || (d3 < 0.0 && d4 < 0.0) {
        return None;
    }
    if d1 == 0.0 && d2 == 0.0 && d3 == 0.0 && d4 == 0.0 {
        return collinear_overlap(p, q, r, s);
    }
    if d3 != d4 { Some((d3 / (d3 - d4)).clamp(0.0, 1.0)) } else { Some(0.0) }
}

/// Overlap of collinear segments, compared along the coordinate axis in which their
/// common direction is largest. Returns the parameter on `[p, q]` of the overlap's middle.
fn collinear_overlap<const D: usize>(p: &[Real; D], q: &[Real; D], r: &[Real; D], s: &[Real; D]) -> Option<Real> {
    let mut axis = 0;
    let mut best = -1.0;
    for (x, y) in [(p, q), (r, s), (p, r), (p, s)] {
        for k in 0..D {
            let m = (y[k] - x[k]).abs();
            if m > best {
                best = m;
                axis = k;
            }
        }
        if best > 0.0 {
            break;
        }
    }
    let (p1, q1, r1, s1) = (p[axis], q[axis], r[axis], s[axis]);
    let lo = p1.min(q1).max(r1.min(s1));
    let hi = p1.max(q1).min(r1.max(s1));
    if lo.is_nan() || hi.is_nan() || lo > hi {
        return None;
    }
    if q1 == p1 {
        return Some(0.0);
    }
    Some(((0.5 * (lo + hi) - p1) / (q1 - p1)).clamp(0.0, 1.0))
}

fn point_in_triangle_2d(x: &[Real; 2], t: &[[Real; 2]; 3]) -> bool {
    let o0 = orient2d(&t[0], &t[1], x);
    let o1 = orient2d(&t[1], &t[2], x);
    let o2 = orient2d(&t[2], &t[0], x);
    (o0 >= 0.0 && o1 >= 0.0 && o2 >= 0.0) || (o0 <= 0.0 && o1 <= 0.0 && o2 <= 0.0)
}

/// `((q - p) × (r - p)) · (s - p)`, snapped to 0 within tolerance.
#[inline]
fn orient3d(p: &Vector3, q: &Vector3, r: &Vector3, s: &Vector3) -> Real {
    let u = q - p;
    let v = r - p;
    let w = s - p;
    let det = u.cross(&v).dot(&w);
    snap(det, REL_EPS * abs_cross(&u, &v).dot(&w.abs()))
}

/// `(q - p) × (r - p)` in 2-D, snapped to 0 within tolerance.
#[inline]
fn orient2d(p: &[Real; 2], q: &[Real; 2], r: &[Real; 2]) -> Real {
    let (ux, uy) = (q[0] - p[0], q[1] - p[1]);
    let (vx, vy) = (r[0] - p[0], r[1] - p[1]);
    let det = ux * vy - uy * vx;
    snap(det, REL_EPS * ((ux * vy).abs() + (uy * vx).abs()))
}

/// The two segment ends spanning a degenerate triangle (its farthest pair of corners).
fn spanned_segment(t: &Tri) -> (Vector3, Vector3) {
    let l01 = (t[1] - t[0]).norm_squared();
    let l12 = (t[2] - t[1]).norm_squared();
    let l20 = (t[0] - t[2]).norm_squared();
    if l01 >= l12 && l01 >= l20 {
        (t[0], t[1])
    } else if l12 >= l20 {
        (t[1], t[2])
    } else {
        (t[2], t[0])
    }
}

/// Nearly zero area: the normal `n = e1 × e2` is tiny relative to its permanent
/// `perm = abs_cross(e1, e2)` (see [`DEGENERATE_SIN`]). Exact zero area always counts.
#[inline]
fn is_degenerate(n: &Vector3, perm: &Vector3) -> bool {
    inf_norm(n) <= DEGENERATE_SIN * inf_norm(perm)
}

/// The permanent of the cross product: `|e1| × |e2|` with the subtractions made additions.
#[inline]
fn abs_cross(e1: &Vector3, e2: &Vector3) -> Vector3 {
    let (x1, y1, z1) = (e1.x.abs(), e1.y.abs(), e1.z.abs());
    let (x2, y2, z2) = (e2.x.abs(), e2.y.abs(), e2.z.abs());
    Vector3::new(y1 * z2 + z1 * y2, z1 * x2 + x1 * z2, x1 * y2 + y1 * x2)
}

/// Snapped sides `n · (p - origin)` of three points relative to the plane through
/// `origin` with normal `n = e1 × e2`, whose permanent is `perm`.
#[inline]
fn plane_sides(n: &Vector3, perm: &Vector3, origin: &Vector3, pts: &Tri) -> [Real; 3] {
    // Written out: `array::map` with a closure is not reliably inlined here.
    let side = |p: &Vector3| {
        let r = p - origin;
        snap(n.dot(&r), REL_EPS * perm.dot(&r.abs()))
    };
    [side(&pts[0]), side(&pts[1]), side(&pts[2])]
}

/// The triangle's corners in the coordinate plane of axes `u`, `v`.
#[inline]
fn project(t: &Tri, u: usize, v: usize) -> [[Real; 2]; 3] {
    [[t[0][u], t[0][v]], [t[1][u], t[1][v]], [t[2][u], t[2][v]]]
}

/// The two coordinate axes kept when projecting along the largest component of `n`.
fn projection_axes(n: &Vector3) -> (usize, usize) {
    let (x, y, z) = (n.x.abs(), n.y.abs(), n.z.abs());
    if x >= y && x >= z {
        (1, 2)
    } else if y >= z {
        (2, 0)
    } else {
        (0, 1)
    }
}

/// All three values beyond `tol` on the same side of 0 (branch-free: this is the hot
/// rejection of random-looking pairs).
#[inline]
fn same_strict_side(d: &[Real; 3]) -> bool {
    let lo = d[0].min(d[1]).min(d[2]);
    let hi = d[0].max(d[1]).max(d[2]);
    (lo > 0.0) | (hi < 0.0)
}

#[inline]
fn snap(v: Real, tol: Real) -> Real {
    if v.abs() <= tol { 0.0 } else { v }
}

#[inline]
fn inf_norm(v: &Vector3) -> Real {
    v.x.abs().max(v.y.abs()).max(v.z.abs())
}

#[inline]
fn lerp(p: &Vector3, q: &Vector3, t: Real) -> Vector3 {
    p + (q - p) * t
}

fn all_finite(t: &Tri) -> bool {
    is_finite(&t[0]) && is_finite(&t[1]) && is_finite(&t[2])
}

/// The corners of `t` as vectors.
#[inline]
fn corners(t: &Triangle) -> Tri {
    [t[0].coords, t[1].coords, t[2].coords]
}

/// No coordinate is infinite or NaN.
#[inline]
fn is_finite(v: &Vector3) -> bool {
    v.x.is_finite() && v.y.is_finite() && v.z.is_finite()
}

/// The coordinates as an array, for the dimension-generic helpers.
#[inline]
fn coordinates(v: &Vector3) -> [Real; 3] {
    [v.x, v.y, v.z]
}
