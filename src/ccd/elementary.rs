//! Elementary continuous tests between two moving triangles (Redon et al. 2004 §5.2.1): the
//! vertex-face equations (14) and edge-edge equations (13), bounded over a time
//! interval by interval arithmetic (§5.2.3), with the interval Newton culling step
//! (§5.2.4). Two triangles that are disjoint at the start of an interval can only start
//! touching at a root of one of these 15 equations.
use crate::enclosure::{Interval, IntervalVector3};

/// The 15 equations as `f = (P[k0] - P[k1]) · ((P[k2] - P[k3]) × (P[k4] - P[k5]))` over
/// the six corners `P = [a0, a1, a2, b0, b1, b2]`.
const EQUATIONS: [[usize; 6]; 15] = [
    // Vertex of A against the face of B (eq. 14).
    [0, 3, 4, 3, 5, 3],
    [1, 3, 4, 3, 5, 3],
    [2, 3, 4, 3, 5, 3],
    // Vertex of B against the face of A.
    [3, 0, 1, 0, 2, 0],
    [4, 0, 1, 0, 2, 0],
    [5, 0, 1, 0, 2, 0],
    // Edge of A against edge of B (eq. 13): (c - a) · ((b - a) × (d - c)).
    [3, 0, 1, 0, 4, 3],
    [4, 0, 1, 0, 5, 4],
    [5, 0, 1, 0, 3, 5],
    [3, 1, 2, 1, 4, 3],
    [4, 1, 2, 1, 5, 4],
    [5, 1, 2, 1, 3, 5],
    [3, 2, 0, 2, 4, 3],
    [4, 2, 0, 2, 5, 4],
    [5, 2, 0, 2, 3, 5],
];

pub const ALL_EQUATIONS: u16 = (1 << 15) - 1;

type V = IntervalVector3;

fn dot(a: &V, b: &V) -> Interval {
    a.0[0] * b.0[0] + a.0[1] * b.0[1] + a.0[2] * b.0[2]
}

fn cross(a: &V, b: &V) -> V {
    IntervalVector3([a.0[1] * b.0[2] - a.0[2] * b.0[1], a.0[2] * b.0[0] - a.0[0] * b.0[2], a.0[0] * b.0[1] - a.0[1] * b.0[0]])
}

fn sub(a: &V, b: &V) -> V {
    *a - *b
}

fn value(k: &[usize; 6], p: &[V; 6]) -> Interval {
    let (x, y, z) = (sub(&p[k[0]], &p[k[1]]), sub(&p[k[2]], &p[k[3]]), sub(&p[k[4]], &p[k[5]]));
    dot(&x, &cross(&y, &z))
}

fn derivative(k: &[usize; 6], p: &[V; 6], v: &[V; 6]) -> Interval {
    let (x, y, z) = (sub(&p[k[0]], &p[k[1]]), sub(&p[k[2]], &p[k[3]]), sub(&p[k[4]], &p[k[5]]));
    let (dx, dy, dz) = (sub(&v[k[0]], &v[k[1]]), sub(&v[k[2]], &v[k[3]]), sub(&v[k[4]], &v[k[5]]));
    dot(&dx, &cross(&y, &z)) + dot(&x, &cross(&dy, &z)) + dot(&x, &cross(&y, &dz))
}

/// What is known of the corners over a time interval `[l, r]` split at `m`.
pub struct CornerBounds<'a> {
    /// Positions over `[l, r]`, all six in one frame (the tightest one available).
    pub positions: &'a [V; 6],
    /// For the Newton step: positions and velocities over `[l, r]` in one frame, and
    /// positions at the time `m` (in the frame of `positions`, or any one frame: the
    /// equations are invariant under rigid motions).
    pub newton: Option<NewtonBounds<'a>>,
}

pub struct NewtonBounds<'a> {
    pub positions: &'a [V; 6],
    pub velocities: &'a [V; 6],
    pub at_split: &'a [V; 6],
    pub l: f64,
    pub m: f64,
    pub r: f64,
}

/// The result for one triangle pair on one interval.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct EquationOutcome {
    /// Equations that may have a root in `[l, m]` and in `[m, r]`.
    pub left: u16,
    pub right: u16,
    pub evaluated: usize,
    pub newton_culled: usize,
}

/// Evaluates the active equations (`mask`) and keeps those that may vanish.
pub fn active_equations(mask: u16, bounds: &CornerBounds) -> EquationOutcome {
    let mut out = EquationOutcome::default();
    for (e, k) in EQUATIONS.iter().enumerate() {
        if mask & (1 << e) == 0 {
            continue;
        }
        out.evaluated += 1;
        if !value(k, bounds.positions).contains(0.0) {
            continue;
        }
        let (mut left, mut right) = (true, true);
        if let Some(n) = &bounds.newton {
            let slope = derivative(k, n.positions, n.velocities);
            if !slope.contains(0.0) {
                // N = m - f(m) / f'([l, r]) holds every root in [l, r] (eq. 18).
                let newton = Interval::point(n.m) - value(k, n.at_split) / slope;
                left = newton.intersect(Interval::new(n.l, n.m)).is_some();
                right = newton.intersect(Interval::new(n.m, n.r)).is_some();
                if !left && !right {
                    out.newton_culled += 1;
                    continue;
                }
            }
        }
        if left {
            out.left |= 1 << e;
        }
        if right {
            out.right |= 1 << e;
        }
    }
    out
}
