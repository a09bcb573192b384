//! The two depth measures of Keerthi & Sridharan ("On computing depth of collision
//! in two dimensions") for convex polygons.
//!
//! - `I(A,B)`, the translational measure (Cameron and Culley's MTD; Keerthi & Sridharan §3,
//!   algorithm `compute_I`): build the Minkowski difference `A ⊖ B = {a − b}` in
//!   O(m + n) by merging the edges of A and of −B in order of angle (Lozano-Pérez,
//!   Guibas–Ramshaw–Stolfi), then `I` is the least distance from the origin to the
//!   lines of its edges, when the origin is inside.
//! - `D(d;A,B)`, the directional measure (Keerthi & Sridharan §4): the largest `β` with
//!   `A ∩ (B + β d)` non-empty, `−∞` (here `None`) when no translate of B along `d`
//!   meets A. By Lemma 1(i), `D(d;A,B) = D(d;A⊖B,{0})`: where the line `{β d}` leaves
//!   the difference. For intersecting polygons it is the translation along `d` that
//!   separates them; for disjoint ones whose line of translates meets A it is signed,
//!   as in the paper's closing remark of section 5 (negative when B must move back).
//!   Here it is computed on the merged difference in O(m + n); Keerthi & Sridharan's section 5
//!   reaches O(log m · log n) by a bimodal search over the polygons' chains, which this
//!   module does not implement (the difference is built anyway for `I`).
//!
//! Polygons are vertex lists in counter-clockwise order (clockwise ones are reversed,
//! repeated consecutive vertices dropped); convexity is assumed, not checked: a
//! non-convex input gives a meaningless number, never a panic.
use nalgebra::{Point2, Vector2};

type P2 = Point2<f64>;
type V2 = Vector2<f64>;

/// The Minkowski difference `A ⊖ B` as a counter-clockwise polygon: edge `i` runs from
/// `vertices[i]` along `edges[i]` to `vertices[i + 1]`. Edge vectors are the polygons'
/// own (an edge of A, or of −B, or their sum when parallel), not differences of the
/// merged vertices, so each edge's line is as exact as the input.
#[derive(Clone, Debug)]
pub struct MinkowskiDifference {
    pub vertices: Vec<P2>,
    pub edges: Vec<V2>,
}

/// Keerthi & Sridharan's `I(A,B)` and its direction: translating B by `depth * normal` separates
/// the polygons (`normal` unit, the outward normal of the nearest edge of `A ⊖ B`,
/// pointing from A towards B).
#[derive(Clone, Copy, Debug)]
pub struct PlanarPenetration {
    pub depth: f64,
    pub normal: V2,
    /// The edge of the difference it comes from.
    pub edge: usize,
}

/// `I(A,B)` (Keerthi & Sridharan §3); `None` when the polygons do not intersect or an input
/// is empty or not finite.
pub fn translational_depth(a: &[P2], b: &[P2]) -> Option<PlanarPenetration> {
    minkowski_difference(a, b)?.translational_depth()
}

/// `D(d;A,B)` (Keerthi & Sridharan §4): the largest `β` such that B translated by `β d`
/// still meets A; `None` for the paper's `−∞` (no translate of B along `d` meets A),
/// for a zero `d` and for bad input. Scales as `D(αd) = D(d)/α` (Lemma 1(iii)).
pub fn directional_depth(a: &[P2], b: &[P2], d: &V2) -> Option<f64> {
    minkowski_difference(a, b)?.directional_depth(d)
}

/// `A ⊖ B` by merging edges by angle (Keerthi & Sridharan §3, step 1), O(m + n).
pub fn minkowski_difference(a: &[P2], b: &[P2]) -> Option<MinkowskiDifference> {
    let p = normalize(a.iter().copied())?;
    let q = normalize(b.iter().map(|x| P2::from(-x.coords)))?;
    let (n, m) = (p.len(), q.len());
    let mut vertices = Vec::with_capacity(n + m);
    let mut edges = Vec::with_capacity(n + m);
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let vertex = P2::from(p[i % n].coords + q[j % m].coords);
        let ep = p[(i + 1) % n] - p[i % n];
        let eq = q[(j + 1) % m] - q[j % m];
        // Which edge comes first by angle (both lists start at their lowest vertex,
        // so angles run over [0, 2π) and two current edges differ by less than π).
        let order = if i >= n {
            -1.0
        } else if j >= m {
            1.0
        } else {
            let c = cross(&ep, &eq);
            if c == 0.0 && ep.dot(&eq) < 0.0 { pseudo_angle(&eq) - pseudo_angle(&ep) } else { c }
        };
        let edge = if order > 0.0 {
            i += 1;
            ep
        } else if order < 0.0 {
            j += 1;
            eq
        } else {
            i += 1;
            j += 1;
            ep + eq
        };
        vertices.push(vertex);
        edges.push(edge);
    }
    Some(MinkowskiDifference { vertices, edges })
}

impl MinkowskiDifference {
    /// Largest vertex magnitude, for tolerances.
    fn scale(&self) -> f64 {
        self.vertices.iter().map(|v| v.coords.norm()).fold(0.0, f64::max)
    }

    /// `I` (Keerthi & Sridharan §3, steps 2 and 3): the nearest edge line, `r_i` signed
    /// positive inwards; `None` if the origin is outside some edge by more than a
    /// relative 1e-13 (touching counts, with depth 0).
    pub fn translational_depth(&self) -> Option<PlanarPenetration> {
        let tolerance = 1e-13 * self.scale();
        let mut best: Option<PlanarPenetration> = None;
        for (i, (v, e)) in self.vertices.iter().zip(&self.edges).enumerate() {
            let len = e.norm();
            if len == 0.0 {
                continue;
            }
            let r = cross(&v.coords, e) / len;
            if r < -tolerance {
                return None;
            }
            if best.as_ref().is_none_or(|b| r < b.depth) {
                best = Some(PlanarPenetration { depth: r, normal: V2::new(e.y, -e.x) / len, edge: i });
            }
        }
        if self.area() <= 1e-13 * self.scale() * self.scale() {
            // A segment or a point: only the origin on it intersects, with depth 0.
            if !self.flat_contains_origin(tolerance) {
                return None;
            }
        }
        let mut best = best.unwrap_or(PlanarPenetration { depth: 0.0, normal: V2::x(), edge: 0 });
        best.depth = best.depth.max(0.0);
        Some(best)
    }

    /// `D(d)` (Keerthi & Sridharan §4, Lemma 1(i)): the largest `β` with `β d` in the
    /// difference, clipping the line `{β d}` by the half-plane of every edge.
    pub fn directional_depth(&self, d: &V2) -> Option<f64> {
        if !(d.norm() > 0.0 && d.iter().all(|x| x.is_finite())) {
            return None;
        }
        let tolerance = 1e-13 * self.scale();
        let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
        for (v, e) in self.vertices.iter().zip(&self.edges) {
            let len = e.norm();
            if len == 0.0 {
                continue;
            }
            // Inside the edge's half-plane: cross(e, β d − v) >= 0.
            let (ed, ev) = (cross(e, d), cross(e, &v.coords));
            if ed < 0.0 {
                hi = hi.min(ev / ed);
            } else if ed > 0.0 {
                lo = lo.max(ev / ed);
            } else if ev > tolerance * len {
                return None;
            }
        }
        if !hi.is_finite() {
            // A degenerate difference: a point, or a segment along d (the edges above
            // checked that the line meets it).
            let dd = d.norm_squared();
            let on_line = self.vertices.iter().all(|v| cross(d, &v.coords).abs() <= tolerance * d.norm());
            return on_line.then(|| self.vertices.iter().map(|v| v.coords.dot(d) / dd).fold(f64::NEG_INFINITY, f64::max)).filter(|x| x.is_finite());
        }
        let slack = tolerance / d.norm();
        (lo <= hi + slack).then_some(hi)
    }

    /// Twice the signed area.
    fn area(&self) -> f64 {
        let n = self.vertices.len();
        (0..n).map(|i| cross(&self.vertices[i].coords, &self.vertices[(i + 1) % n].coords)).sum()
    }

    /// Whether the origin lies within `tolerance` of a flat difference (the segment
    /// between its extreme vertices).
    fn flat_contains_origin(&self, tolerance: f64) -> bool {
        let Some(first) = self.vertices.first() else { return false };
        let far = self.vertices.iter().max_by(|x, y| (*x - first).norm_squared().total_cmp(&(*y - first).norm_squared())).unwrap_or(first);
        let ab = far - first;
        let t = if ab.norm_squared() > 0.0 { (-first.coords.dot(&ab) / ab.norm_squared()).clamp(0.0, 1.0) } else { 0.0 };
        (first.coords + ab * t).norm() <= tolerance
    }
}

fn cross(a: &V2, b: &V2) -> f64 {
    a.x * b.y - a.y * b.x
}

/// A number that grows with the angle of `v` over [0, 2π) (in [0, 4)).
fn pseudo_angle(v: &V2) -> f64 {
    let s = v.x.abs() + v.y.abs();
    if s == 0.0 {
        return 0.0;
    }
    let p = v.x / s; // in [-1, 1]
    if v.y >= 0.0 { 1.0 - p } else { 3.0 + p }
}

/// Drops repeated consecutive vertices, makes the order counter-clockwise and starts
/// at the lowest (then leftmost) vertex. `None` when empty or not finite.
fn normalize(points: impl Iterator<Item = P2>) -> Option<Vec<P2>> {
    let mut p: Vec<P2> = Vec::new();
    for x in points {
        if !(x.x.is_finite() && x.y.is_finite()) {
            return None;
        }
        if p.last() != Some(&x) {
            p.push(x);
        }
    }
    while p.len() > 1 && p.first() == p.last() {
        p.pop();
    }
    if p.is_empty() {
        return None;
    }
    let n = p.len();
    let area: f64 = (0..n).map(|i| cross(&p[i].coords, &p[(i + 1) % n].coords)).sum();
    if area < 0.0 {
        p.reverse();
    }
    let low = (0..n).min_by(|&i, &j| p[i].y.total_cmp(&p[j].y).then(p[i].x.total_cmp(&p[j].x))).unwrap_or(0);
    p.rotate_left(low);
    Some(p)
}
