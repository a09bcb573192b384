//! The collision routine of Schröcker & Weber §6 (Listings 1 and 2) on top of
//! `ccd_guard::certifier::orbit`.
use crate::geometry::fan;
use crate::motion::Curve;
use ccd_guard::certifier::metric::ObjectMetric;
use ccd_guard::certifier::orbit::Orbit;
use ccd_guard::math::{Point3, Real, Triangle};

/// Moving polygon with its pre-computed metric data (the pre-processing step of §6).
pub struct Moving {
    pub triangles: Vec<Triangle>,
    pub metric: ObjectMetric,
    /// max_{x ∈ P} ϱ(x) (ϱ² convex: attained at a vertex), the factor of eq. 11.
    pub rho_max: Real,
}

impl Moving {
    pub fn new(vertices: &[Point3], mass_points: &[Point3]) -> Moving {
        let metric = ObjectMetric::from_points(mass_points);
        Moving { triangles: fan(vertices), rho_max: metric.max_distortion_rate(vertices), metric }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub eps: Real,
    pub max_depth: u32,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    /// Polygon-vs-fat-polygon tests (calls of Listing 2).
    pub tests: u64,
    /// Deepest recursion level reached (root call = 0).
    pub max_depth: u32,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Verdict {
    /// Proven: no contact begins during [0, 1] (with a free start: no contact at all).
    Free,
    /// Stopped at eq. 11 (`by_eps`) or at the depth limit on the interval [t0, t1].
    Possible { t0: Real, t1: Real, by_eps: bool },
}

/// Listing 1, stopping at the first possible collision (depth-first in time order).
pub fn collision(p: &Moving, fixed: &[Point3], c: &Curve, s: &Settings, stats: &mut Stats) -> Verdict {
    recurse(p, fixed, c, s, 0, stats)
}

fn recurse(p: &Moving, fixed: &[Point3], c: &Curve, s: &Settings, depth: u32, stats: &mut Stats) -> Verdict {
    stats.max_depth = stats.max_depth.max(depth);
    if depth > s.max_depth {
        return Verdict::Possible { t0: c.t0, t1: c.t1, by_eps: false };
    }
    let halves = c.split();
    let (g, radius) = c.bounding_ball(&p.metric, &halves);
    if radius * p.rho_max < s.eps {
        return Verdict::Possible { t0: c.t0, t1: c.t1, by_eps: true };
    }
    stats.tests += 1;
    if intersection(p, fixed, &g, radius) {
        match recurse(p, fixed, &halves.0, s, depth + 1, stats) {
            Verdict::Free => recurse(p, fixed, &halves.1, s, depth + 1, stats),
            v => v,
        }
    } else {
        Verdict::Free
    }
}

/// Listing 2: F' = g⁻¹(F), then every moving triangle (zero position) against every
/// fixed triangle with the orbit tests of §4.
pub fn intersection(p: &Moving, fixed: &[Point3], g: &crate::motion::Affine, radius: Real) -> bool {
    let Some(g_inv) = g.inverse() else { return true };
    let mapped: Vec<Point3> = fixed.iter().map(|y| g_inv.apply(y)).collect();
    let orbit = Orbit { quadratic: p.metric.quadratic(), radius };
    let n = mapped.len();
    p.triangles.iter().any(|m| (1..n - 1).any(|i| orbit.triangle_may_hit_triangle(m, &[mapped[0], mapped[i], mapped[i + 1]])))
}
