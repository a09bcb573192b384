//! Nearest points between features (Lin 1993 App. A).
//!
//! Edge–edge corrects the thesis, which clamps both line parameters
//! to [0, 1] independently, which is wrong in general; here one is clamped, the other
//! re-projected and clamped, and the first re-projected again. Parallel edges get the
//! middle of the overlapping stretch (the thesis's choice, stable under small motion).
use crate::math::{Point3, Real};

/// Edges closer to parallel than this (squared sine of their angle) count as parallel.
const PARALLEL_SIN2: Real = 1e-20;

/// Parameter in [0, 1] and point of segment `a`-`b` nearest to `p`.
#[inline]
pub(super) fn point_segment(p: &Point3, a: &Point3, b: &Point3) -> (Real, Point3) {
    let e = b - a;
    let ee = e.norm_squared();
    let t = if ee > 0.0 { ((p - a).dot(&e) / ee).clamp(0.0, 1.0) } else { 0.0 };
    (t, a + e * t)
}

/// Nearest points of segments `p0`-`p1` and `q0`-`q1`: `(s, t, p, q)` with
/// `p = p0 + s (p1 - p0)` and `q = q0 + t (q1 - q0)`.
pub(super) fn segment_segment(p0: &Point3, p1: &Point3, q0: &Point3, q1: &Point3) -> (Real, Real, Point3, Point3) {
    let d1 = p1 - p0;
    let d2 = q1 - q0;
    let r = p0 - q0;
    let a = d1.norm_squared();
    let e = d2.norm_squared();
    let positive = |x: Real| x > 0.0;
    if !positive(a) || !positive(e) {
        // A degenerate segment: point against segment.
        if !positive(a) {
            let (t, q) = point_segment(p0, q0, q1);
            return (0.0, t, *p0, q);
        }
        let (s, p) = point_segment(q0, p0, p1);
        return (s, 0.0, p, *q0);
    }
    let b = d1.dot(&d2);
    let c = d1.dot(&r);
    let f = d2.dot(&r);
    let denom = a * e - b * b;
    let (s, t);
    if denom <= PARALLEL_SIN2 * a * e {
        // Parallel: the middle of the overlap of q's projection with [0, 1], or the
        // nearer end when they do not overlap.
        let (u0, u1) = (-c / a, (b - c) / a);
        let (lo, hi) = (u0.min(u1).max(0.0), u0.max(u1).min(1.0));
        let s0 = if lo <= hi {
            0.5 * (lo + hi)
        } else if u0.max(u1) < 0.0 {
            0.0
        } else {
            1.0
        };
        t = ((b * s0 + f) / e).clamp(0.0, 1.0);
        s = ((b * t - c) / a).clamp(0.0, 1.0);
    } else {
        // Clamp s on the lines' solution, re-project t, and if t must be clamped,
        // re-project s.
        let s0 = ((b * f - c * e) / denom).clamp(0.0, 1.0);
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
    (s, t, p0 + d1 * s, q0 + d2 * t)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn splitmix(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Against a fine search over s with the exact inner minimum over t: independent
    /// clamping of the two line parameters fails this on many random pairs.
    #[test]
    fn segment_segment_matches_search() {
        let mut st = 7u64;
        let mut rnd = || 2.0 * splitmix(&mut st) - 1.0;
        for _ in 0..400 {
            let mut pt = || Point3::new(rnd(), rnd(), rnd());
            let (p0, p1, q0, q1) = (pt(), pt(), pt(), pt());
            let (_, _, p, q) = segment_segment(&p0, &p1, &q0, &q1);
            let d = (p - q).norm();
            let n = 1000;
            let best = (0..=n)
                .map(|i| {
                    let x = p0 + (p1 - p0) * (i as Real / n as Real);
                    (x - point_segment(&x, &q0, &q1).1).norm()
                })
                .fold(Real::INFINITY, Real::min);
            assert!(d <= best + 1e-12, "{d} > {best}");
            assert!(d >= best - 1e-2, "{d} far below {best}");
        }
    }

    #[test]
    fn parallel_segments_take_the_middle_of_the_overlap() {
        let (p0, p1) = (Point3::new(0.0, 0.0, 0.0), Point3::new(2.0, 0.0, 0.0));
        let (q0, q1) = (Point3::new(1.0, 1.0, 0.0), Point3::new(3.0, 1.0, 0.0));
        let (s, t, p, q) = segment_segment(&p0, &p1, &q0, &q1);
        assert!((s - 0.75).abs() < 1e-15 && (t - 0.25).abs() < 1e-15, "{s} {t}");
        assert!(((p - q).norm() - 1.0).abs() < 1e-15);
    }
}
