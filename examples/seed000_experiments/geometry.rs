//! Exact (floating-point) distances between triangles and convex polygons, used only to
//! confirm verdicts by dense sampling. Independent of the orbit code.
use ccd_guard::math::{Point3, Real, Triangle};

/// Triangle fan of a convex polygon.
pub fn fan(vertices: &[Point3]) -> Vec<Triangle> {
    (1..vertices.len() - 1).map(|i| [vertices[0], vertices[i], vertices[i + 1]]).collect()
}

/// Closest point of triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5).
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
    let denom = 1.0 / (va + vb + vc);
    a + ab * (vb * denom) + ac * (vc * denom)
}

/// Distance between segments [p1, q1] and [p2, q2] (Ericson 5.1.9).
fn segment_segment(p1: &Point3, q1: &Point3, p2: &Point3, q2: &Point3) -> Real {
    let (d1, d2, r) = (q1 - p1, q2 - p2, p1 - p2);
    let (a, e, f) = (d1.dot(&d1), d2.dot(&d2), d2.dot(&r));
    let (s, t);
    if a <= 1e-300 && e <= 1e-300 {
        return r.norm();
    }
    if a <= 1e-300 {
        s = 0.0;
        t = (f / e).clamp(0.0, 1.0);
    } else {
        let c = d1.dot(&r);
        if e <= 1e-300 {
            t = 0.0;
            s = (-c / a).clamp(0.0, 1.0);
        } else {
            let b = d1.dot(&d2);
            let denom = a * e - b * b;
            let s0 = if denom > 0.0 { ((b * f - c * e) / denom).clamp(0.0, 1.0) } else { 0.0 };
            let t0 = (b * s0 + f) / e;
            if t0 < 0.0 {
                t = 0.0;
                s = (-c / a).clamp(0.0, 1.0);
            } else if t0 > 1.0 {
                t = 1.0;
                s = ((b - c) / a).clamp(0.0, 1.0);
            } else {
                t = t0;
                s = s0;
            }
        }
    }
    ((p1 + d1 * s) - (p2 + d2 * t)).norm()
}

/// Does the closed segment [p, q] meet the closed triangle (non-parallel case)?
fn segment_crosses_triangle(p: &Point3, q: &Point3, t: &Triangle) -> bool {
    let n = (t[1] - t[0]).cross(&(t[2] - t[0]));
    let (dp, dq) = (n.dot(&(p - t[0])), n.dot(&(q - t[0])));
    if dp * dq > 0.0 || dp == dq {
        return false; // same side, or parallel (coplanar contact is found by distances)
    }
    let x = p + (q - p) * (dp / (dp - dq));
    (closest_on_triangle(&x, t) - x).norm() <= 1e-14
}

/// Euclidean distance of two closed triangles (0 when they intersect).
pub fn triangle_distance(a: &Triangle, b: &Triangle) -> Real {
    for i in 0..3 {
        let j = (i + 1) % 3;
        if segment_crosses_triangle(&a[i], &a[j], b) || segment_crosses_triangle(&b[i], &b[j], a) {
            return 0.0;
        }
    }
    let mut d = Real::INFINITY;
    for i in 0..3 {
        d = d.min((closest_on_triangle(&a[i], b) - a[i]).norm());
        d = d.min((closest_on_triangle(&b[i], a) - b[i]).norm());
        for j in 0..3 {
            d = d.min(segment_segment(&a[i], &a[(i + 1) % 3], &b[j], &b[(j + 1) % 3]));
        }
    }
    d
}

/// Distance of two triangulated (convex) polygons.
pub fn polygon_distance(a: &[Triangle], b: &[Triangle]) -> Real {
    a.iter().flat_map(|x| b.iter().map(move |y| triangle_distance(x, y))).fold(Real::INFINITY, Real::min)
}
