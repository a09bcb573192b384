//! Triangle–triangle intersection test after Šinjur (seed 003) §5.
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
//!   decided by exact signs. A determinant whose magnitude is below
//!   [`REL_EPS`] times a bound on its terms (products of coordinate differences) is taken
//!   as 0: near-touching is reported as touching rather than missed. For inputs whose
//!   determinants are computed exactly (e.g. small integer coordinates) the answer is exact.
//! - §5 case 1 says coplanar triangles intersect iff a corner of one lies in the other;
//!   that misses two triangles crossing like a star of David, so the coplanar test also
//!   checks the nine edge pairs.
//! - Degenerate triangles (collinear or repeated corners, a point) have no plane; they are
//!   replaced by the segment (or point) they span and tested as such.
//! - Triangles with a non-finite coordinate never intersect (`None`), and no `NaN` point is
//!   ever returned.
use crate::math::{Point3, Real, Triangle, Vector3};

/// Relative tolerance under which a determinant is treated as zero. It multiplies a
/// bound on the determinant's terms, so it is scale-invariant.
pub const REL_EPS: Real = 64.0 * Real::EPSILON;

/// Returns a point common to the closed triangles `a` and `b`, or `None` if they are
/// disjoint (Šinjur, seed 003 §5; see the module documentation for the robust details).
///
/// Touching at a corner or along an edge counts as intersecting. In the transversal case
/// the point is the midpoint of the overlap of the two intervals on the planes' common
/// line; in the coplanar case it is a corner of one triangle inside the other or a
/// crossing of two edges.
pub fn triangles_intersect(a: &Triangle, b: &Triangle) -> Option<Point3> {
    // §5 case 2 for the plane of `b`: sides of the corners of `a`.
    let eb1 = b[1] - b[0];
    let eb2 = b[2] - b[0];
    let nb = eb1.cross(&eb2);
    let ra = [a[0] - b[0], a[1] - b[0], a[2] - b[0]];
    let mut da = [nb.dot(&ra[0]), nb.dot(&ra[1]), nb.dot(&ra[2])];
    let tol_b = REL_EPS
        * 6.0
        * inf_norm(&eb1)
        * inf_norm(&eb2)
        * max3(inf_norm(&ra[0]), inf_norm(&ra[1]), inf_norm(&ra[2]));
    if same_strict_side(&da, tol_b) {
        return None;
    }
    // The same for the plane of `a` and the corners of `b`.
    let ea1 = a[1] - a[0];
    let ea2 = a[2] - a[0];
    let na = ea1.cross(&ea2);
    let rb = [b[0] - a[0], b[1] - a[0], b[2] - a[0]];
    let mut db = [na.dot(&rb[0]), na.dot(&rb[1]), na.dot(&rb[2])];
    let tol_a = REL_EPS
        * 6.0
        * inf_norm(&ea1)
        * inf_norm(&ea2)
        * max3(inf_norm(&rb[0]), inf_norm(&rb[1]), inf_norm(&rb[2]));
    if same_strict_side(&db, tol_a) {
        return None;
    }
    if !all_finite(a) || !all_finite(b) {
        return None;
    }
    let deg_a = is_degenerate(&na, &ea1, &ea2);
    let deg_b = is_degenerate(&nb, &eb1, &eb2);
    let hit = match (deg_a, deg_b) {
        (false, false) => {
            snap3(&mut da, tol_b);
            snap3(&mut db, tol_a);
            if da == [0.0; 3] {
                coplanar_triangles(a, b, &nb)
            } else if db == [0.0; 3] {
                coplanar_triangles(a, b, &na)
            } else {
                transversal(a, b, da, db)
            }
        }
        (true, false) => {
            let (p, q) = spanned_segment(a);
            segment_triangle_intersection(&p, &q, b)
        }
        (false, true) => {
            let (p, q) = spanned_segment(b);
            segment_triangle_intersection(&p, &q, a)
        }
        (true, true) => {
            let (p, q) = spanned_segment(a);
            let (r, s) = spanned_segment(b);
            segment_segment(&p, &q, &r, &s)
        }
    };
    hit.filter(|p| p.iter().all(|c| c.is_finite()))
}

/// Returns a point common to the closed segment `[p, q]` (which may be a single point) and
/// the closed triangle `t` (which may be degenerate), or `None`.
///
/// Same predicates and tolerances as [`triangles_intersect`]: the segment's end sides
/// relative to the plane of `t`, then the three `orient3d(p, q, t_i, t_i+1)` signs for the
/// line through the triangle, or a 2-D test when the segment lies in the plane.
pub fn segment_triangle_intersection(p: &Point3, q: &Point3, t: &Triangle) -> Option<Point3> {
    let e1 = t[1] - t[0];
    let e2 = t[2] - t[0];
    let n = e1.cross(&e2);
    if is_degenerate(&n, &e1, &e2) {
        let (r, s) = spanned_segment(t);
        return segment_segment(p, q, &r, &s).filter(|x| x.iter().all(|c| c.is_finite()));
    }
    let rp = p - t[0];
    let rq = q - t[0];
    let tol = REL_EPS * 6.0 * inf_norm(&e1) * inf_norm(&e2) * inf_norm(&rp).max(inf_norm(&rq));
    let dp = snap(n.dot(&rp), tol);
    let dq = snap(n.dot(&rq), tol);
    if (dp > 0.0 && dq > 0.0) || (dp < 0.0 && dq < 0.0) {
        return None;
    }
    let hit = if dp == 0.0 && dq == 0.0 {
        coplanar_segment_triangle(p, q, t, &n)
    } else if dp.is_nan() || dq.is_nan() {
        None
    } else {
        // The segment crosses the plane once; it meets `t` iff its line does.
        let o0 = orient3d(p, q, &t[0], &t[1]);
        let o1 = orient3d(p, q, &t[1], &t[2]);
        let o2 = orient3d(p, q, &t[2], &t[0]);
        if (o0 >= 0.0 && o1 >= 0.0 && o2 >= 0.0) || (o0 <= 0.0 && o1 <= 0.0 && o2 <= 0.0) {
            Some(lerp(p, q, dp / (dp - dq)))
        } else {
            None
        }
    };
    hit.filter(|x| x.iter().all(|c| c.is_finite()))
}

/// §5 case 3: both triangles cross the other's plane; `da`/`db` are the snapped plane
/// sides of the corners of `a` (w.r.t. the plane of `b`) and of `b` (w.r.t. `a`).
fn transversal(a: &Triangle, b: &Triangle, da: [Real; 3], db: [Real; 3]) -> Option<Point3> {
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
        da = da.map(|d| -d);
    }
    if sb < 0.0 {
        a.swap(1, 2);
        da.swap(1, 2);
        db = db.map(|d| -d);
    }
    // Along d = n_a × n_b, a meets L in [j, i] (i on a0a1, j on a0a2) and b in [k, l]
    // (k on b0b1, l on b0b2). They overlap iff k <= i and j <= l, and these two order
    // relations have the signs of the two determinants below.
    if orient3d(&a[0], &a[1], &b[0], &b[1]) > 0.0 || orient3d(&a[0], &a[2], &b[0], &b[2]) < 0.0 {
        return None;
    }
    let i = lerp(&a[0], &a[1], da[0] / (da[0] - da[1]));
    let j = lerp(&a[0], &a[2], da[0] / (da[0] - da[2]));
    let k = lerp(&b[0], &b[1], db[0] / (db[0] - db[1]));
    let l = lerp(&b[0], &b[2], db[0] / (db[0] - db[2]));
    let d = (a[1] - a[0])
        .cross(&(a[2] - a[0]))
        .cross(&(b[1] - b[0]).cross(&(b[2] - b[0])));
    let at = |p: &Point3| p.coords.dot(&d);
    let lo = if at(&k) > at(&j) { k } else { j };
    let hi = if at(&l) < at(&i) { l } else { i };
    Some(nalgebra::center(&lo, &hi))
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
fn coplanar_triangles(a: &Triangle, b: &Triangle, n: &Vector3) -> Option<Point3> {
    let (u, v) = projection_axes(n);
    let pa = a.map(|p| [p[u], p[v]]);
    let pb = b.map(|p| [p[u], p[v]]);
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
fn coplanar_segment_triangle(p: &Point3, q: &Point3, t: &Triangle, n: &Vector3) -> Option<Point3> {
    let (u, v) = projection_axes(n);
    let pp = [p[u], p[v]];
    let pq = [q[u], q[v]];
    let pt = t.map(|x| [x[u], x[v]]);
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
fn segment_segment(p: &Point3, q: &Point3, r: &Point3, s: &Point3) -> Option<Point3> {
    if orient3d(p, q, r, s) != 0.0 {
        return None;
    }
    // A normal of the common plane, from the best conditioned of three cross products.
    let u = q - p;
    let w = s - r;
    let candidates = [
        (u.cross(&w), inf_norm(&u) * inf_norm(&w)),
        (u.cross(&(r - p)), inf_norm(&u) * inf_norm(&(r - p))),
        (w.cross(&(p - r)), inf_norm(&w) * inf_norm(&(p - r))),
    ];
    let mut best: Option<Vector3> = None;
    let mut best_norm = 0.0;
    for (n, scale) in candidates {
        let m = inf_norm(&n);
        if m > REL_EPS * 2.0 * scale && m > best_norm {
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
        None => {
            let c = |x: &Point3| [x.x, x.y, x.z];
            collinear_overlap(&c(p), &c(q), &c(r), &c(s)).map(|t| lerp(p, q, t))
        }
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
    if d3 != d4 {
        Some((d3 / (d3 - d4)).clamp(0.0, 1.0))
    } else {
        Some(0.0)
    }
}

/// Overlap of collinear segments, compared along the coordinate axis in which their
/// common direction is largest. Returns the parameter on `[p, q]` of the overlap's middle.
fn collinear_overlap<const D: usize>(
    p: &[Real; D],
    q: &[Real; D],
    r: &[Real; D],
    s: &[Real; D],
) -> Option<Real> {
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
fn orient3d(p: &Point3, q: &Point3, r: &Point3, s: &Point3) -> Real {
    let u = q - p;
    let v = r - p;
    let w = s - p;
    let det = u.cross(&v).dot(&w);
    snap(
        det,
        REL_EPS * 6.0 * inf_norm(&u) * inf_norm(&v) * inf_norm(&w),
    )
}

/// `(q - p) × (r - p)` in 2-D, snapped to 0 within tolerance.
#[inline]
fn orient2d(p: &[Real; 2], q: &[Real; 2], r: &[Real; 2]) -> Real {
    let (ux, uy) = (q[0] - p[0], q[1] - p[1]);
    let (vx, vy) = (r[0] - p[0], r[1] - p[1]);
    let det = ux * vy - uy * vx;
    snap(
        det,
        REL_EPS * 2.0 * ux.abs().max(uy.abs()) * vx.abs().max(vy.abs()),
    )
}

/// The two segment ends spanning a degenerate triangle (its farthest pair of corners).
fn spanned_segment(t: &Triangle) -> (Point3, Point3) {
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

/// Zero area up to rounding: the normal is below the tolerance of its own terms.
#[inline]
fn is_degenerate(n: &Vector3, e1: &Vector3, e2: &Vector3) -> bool {
    inf_norm(n) <= REL_EPS * 2.0 * inf_norm(e1) * inf_norm(e2)
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
fn same_strict_side(d: &[Real; 3], tol: Real) -> bool {
    let lo = d[0].min(d[1]).min(d[2]);
    let hi = d[0].max(d[1]).max(d[2]);
    (lo > tol) | (hi < -tol)
}

#[inline]
fn snap(v: Real, tol: Real) -> Real {
    if v.abs() <= tol { 0.0 } else { v }
}

#[inline]
fn snap3(d: &mut [Real; 3], tol: Real) {
    for x in d.iter_mut() {
        *x = snap(*x, tol);
    }
}

#[inline]
fn inf_norm(v: &Vector3) -> Real {
    v.x.abs().max(v.y.abs()).max(v.z.abs())
}

#[inline]
fn max3(a: Real, b: Real, c: Real) -> Real {
    a.max(b).max(c)
}

#[inline]
fn lerp(p: &Point3, q: &Point3, t: Real) -> Point3 {
    p + (q - p) * t
}

fn all_finite(t: &Triangle) -> bool {
    t.iter().all(|p| p.iter().all(|c| c.is_finite()))
}
