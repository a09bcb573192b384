//! The six feature-pair cases of the walk (Lin 1993 §3.3.1, with
//! corrections where the thesis's text is garbled or inconsistent: E–E clamping in `nearest.rs`, the wedge test as
//! −N_F ∈ cone(N_L, N_R) through the edge's cell, heights signed as in ch. 2, and a
//! standard Cyrus–Beck clip, §3.3.2).
//!
//! Each case looks at a pair (p-feature, q-feature) with the p-feature of lower or
//! equal dimension; the mirrored cases swap the bodies. A case either moves to a
//! neighbouring pair, or stops: `Done` when each nearest point lies in the other
//! feature's (flared) Voronoi cell, `Contact` when the bodies touch or overlap.
//! Contact is diagnosed where the walk would otherwise cycle (Lin 1993 ch. 3): an edge
//! crossing a face inside its prism, two features closer than the contact tolerance,
//! and the local-minimum escapes of `escape.rs`.
use super::escape::{Escape, escape_point, escape_segment, height, in_prism};
use super::feature::Feat;
use super::frame::Frame;
use super::nearest::{point_segment, segment_segment};
use super::polyhedron::ConvexPolyhedron;
use super::voronoi::Plane;
use crate::math::{Point3, Real};

/// An edge whose heights above a face differ by less than this times its length is
/// parallel to the face (an edge–face pair may then be final).
const EDGE_FACE_PARALLEL: Real = 1e-9;
/// Faces whose normals satisfy 1 + n_p · n_q <= this are antiparallel (a face–face
/// pair may then be final).
const FACE_FACE_ANTIPARALLEL: Real = 1e-15;

/// Tolerances of one query (lengths).
#[derive(Clone, Copy, Debug)]
pub(super) struct Tol {
    /// Outward shift of every constraint plane (Lin 1993 ch. 3).
    pub flare: Real,
    /// Features closer than this touch.
    pub contact: Real,
}

/// The two bodies seen from the p side.
pub(super) struct Bodies<'a> {
    pub p: &'a ConvexPolyhedron,
    pub q: &'a ConvexPolyhedron,
    pub p2q: &'a Frame,
    pub q2p: &'a Frame,
    pub tol: Tol,
}

/// What a case decided. Points on p are in p's frame, points on q in q's.
#[derive(Clone, Copy, Debug)]
pub(super) enum Step {
    Move(Feat, Feat),
    Done(Point3, Point3),
    Contact(Point3, Point3),
}

impl Step {
    pub fn swap(self) -> Step {
        match self {
            Step::Move(a, b) => Step::Move(b, a),
            Step::Done(a, b) => Step::Done(b, a),
            Step::Contact(a, b) => Step::Contact(b, a),
        }
    }
}

fn vpos(poly: &ConvexPolyhedron, sub: u32) -> Point3 {
    poly.winged.vertices[poly.cells.subcones[sub as usize].vertex as usize]
}

impl Bodies<'_> {
    fn in_p(&self, f: Feat, x: &Point3) -> Option<Feat> {
        self.p.cells.violated(&self.p.winged, f, x, self.tol.flare)
    }

    fn in_q(&self, f: Feat, x: &Point3) -> Option<Feat> {
        self.q.cells.violated(&self.q.winged, f, x, self.tol.flare)
    }

    pub fn vertex_vertex(&self, vp: u32, vq: u32) -> Step {
        let p = vpos(self.p, vp);
        let pq = self.p2q.point(&p);
        let q = vpos(self.q, vq);
        if (pq - q).norm() <= self.tol.contact {
            return Step::Contact(p, q);
        }
        if let Some(n) = self.in_q(Feat::V(vq), &pq) {
            return Step::Move(Feat::V(vp), n);
        }
        if let Some(n) = self.in_p(Feat::V(vp), &self.q2p.point(&q)) {
            return Step::Move(n, Feat::V(vq));
        }
        Step::Done(p, q)
    }

    pub fn vertex_edge(&self, vp: u32, eq: u32) -> Step {
        let p = vpos(self.p, vp);
        let pq = self.p2q.point(&p);
        let (t, h) = self.q.edge_points(eq);
        let (s, q) = point_segment(&pq, &t, &h);
        if (pq - q).norm() <= self.tol.contact {
            return Step::Contact(p, q);
        }
        if let Some(end) = clamped_end(s) {
            // Nearest at an endpoint: the vertex, as near and of lower dimension.
            return Step::Move(Feat::V(vp), Feat::V(self.q.cells.edge_ends[eq as usize][end]));
        }
        if let Some(n) = self.in_q(Feat::E(eq), &pq) {
            return Step::Move(Feat::V(vp), n);
        }
        if let Some(n) = self.in_p(Feat::V(vp), &self.q2p.point(&q)) {
            return Step::Move(n, Feat::E(eq));
        }
        Step::Done(p, q)
    }

    pub fn vertex_face(&self, vp: u32, fq: u32) -> Step {
        let p = vpos(self.p, vp);
        let pq = self.p2q.point(&p);
        if let Some(n) = self.in_q(Feat::F(fq), &pq) {
            return Step::Move(Feat::V(vp), n);
        }
        let h = height(self.q, fq, &pq);
        let q = pq - self.q.winged.faces[fq as usize].normal * h;
        if h.abs() <= self.tol.contact {
            return Step::Contact(p, q);
        }
        if h < 0.0 {
            // Local minimum (Lin 1993 ch. 3): inside q, or closest to another feature.
            return match escape_point(self.q, &pq, self.tol.contact) {
                Escape::Inside(_) => Step::Contact(p, pq),
                Escape::Closest(f) => Step::Move(Feat::V(vp), f),
            };
        }
        if let Some(n) = self.in_p(Feat::V(vp), &self.q2p.point(&q)) {
            return Step::Move(n, Feat::F(fq));
        }
        Step::Done(p, q)
    }

    pub fn edge_edge(&self, ep: u32, eq: u32) -> Step {
        let (tp, hp) = self.p.edge_points(ep);
        let (tq, hq) = self.q.edge_points(eq);
        let (s, u, x, y) = segment_segment(&self.p2q.point(&tp), &self.p2q.point(&hp), &tq, &hq);
        let xp = tp + (hp - tp) * s;
        if (x - y).norm() <= self.tol.contact {
            return Step::Contact(xp, y);
        }
        if let Some(end) = clamped_end(s) {
            return Step::Move(Feat::V(self.p.cells.edge_ends[ep as usize][end]), Feat::E(eq));
        }
        if let Some(end) = clamped_end(u) {
            return Step::Move(Feat::E(ep), Feat::V(self.q.cells.edge_ends[eq as usize][end]));
        }
        if let Some(n) = self.in_q(Feat::E(eq), &x) {
            return Step::Move(Feat::E(ep), n);
        }
        if let Some(n) = self.in_p(Feat::E(ep), &self.q2p.point(&y)) {
            return Step::Move(n, Feat::E(eq));
        }
        Step::Done(xp, y)
    }

    /// Edge of p against face of q, in q's frame (Lin 1993 §3.3.1 "Edge–face").
    pub fn edge_face(&self, ep: u32, fq: u32) -> Step {
        let (tp, hp) = self.p.edge_points(ep);
        let (t, h) = (self.p2q.point(&tp), self.p2q.point(&hp));
        let at_p = |lambda: Real| tp + (hp - tp) * lambda;
        let face = self.q.winged.faces[fq as usize];
        let planes = self.q.cells.cell(Feat::F(fq));
        let Some((lo, hi, lo_to, hi_to)) = clip(planes, &t, &h, self.tol.flare) else {
            return Step::Move(Feat::E(ep), closest_boundary(self.q, fq, &t, &h));
        };
        let (ht, hh) = (height(self.q, fq, &t), height(self.q, fq, &h));
        let (h0, h1) = (ht + lo * (hh - ht), ht + hi * (hh - ht));
        let c = self.tol.contact;
        if h0.min(h1) <= c {
            if h0.max(h1) < -c {
                // Beneath the face inside its prism: local minimum (Lin 1993 ch. 3).
                return match escape_segment(self.q, &t, &h, c) {
                    Escape::Inside(x) => Step::Contact(self.q2p.point(&x), x),
                    Escape::Closest(f) => Step::Move(Feat::E(ep), f),
                };
            }
            // The clipped edge reaches the plane: it meets the face if the crossing
            // lies in the exact prism, else the boundary of the face is nearer.
            let lambda = if (hh - ht).abs() > 2.0 * c { (-ht / (hh - ht)).clamp(lo, hi) } else { 0.5 * (lo + hi) };
            let x = t + (h - t) * lambda;
            if in_prism(self.q, fq, &x, c) {
                return Step::Contact(at_p(lambda), x - face.normal * height(self.q, fq, &x));
            }
            return Step::Move(Feat::E(ep), closest_boundary(self.q, fq, &t, &h));
        }
        if (hh - ht).abs() <= EDGE_FACE_PARALLEL * (h - t).norm() {
            // Parallel above the face: final if the face lies in the edge's wedge,
            // i.e. -N_F within cone(N_L, N_R), tested on the projected point.
            let (lambda, hl) = if (h0 - h1).abs() <= c {
                (0.5 * (lo + hi), 0.5 * (h0 + h1))
            } else if h0 < h1 {
                (lo, h0)
            } else {
                (hi, h1)
            };
            let y = t + (h - t) * lambda - face.normal * hl;
            if let Some(n) = self.in_p(Feat::E(ep), &self.q2p.point(&y)) {
                return Step::Move(n, Feat::F(fq));
            }
            return Step::Done(at_p(lambda), y);
        }
        // Not parallel: the nearer clipped end is an endpoint of the edge (go to that
        // vertex) or lies on the prism's boundary (go to that side of the face).
        let ends = self.p.cells.edge_ends[ep as usize];
        match (h0 < h1, lo_to, hi_to) {
            (true, None, _) => Step::Move(Feat::V(ends[0]), Feat::F(fq)),
            (true, Some(side), _) => Step::Move(Feat::E(ep), side),
            (false, _, None) => Step::Move(Feat::V(ends[1]), Feat::F(fq)),
            (false, _, Some(side)) => Step::Move(Feat::E(ep), side),
        }
    }

    /// Face of p against face of q (Lin 1993 §3.3.1 "Face–face"), in q's frame.
    pub fn face_face(&self, fp: u32, fq: u32) -> Step {
        let c = self.tol.contact;
        let np = self.p2q.vector(&self.p.winged.faces[fp as usize].normal);
        let fqd = self.q.winged.faces[fq as usize];
        let corners_p: Vec<(u32, Point3)> = self.p.face_vertices(fp).map(|v| (v, self.p2q.point(&self.p.vertex(v)))).collect();
        if 1.0 + np.dot(&fqd.normal) <= FACE_FACE_ANTIPARALLEL {
            let planes = self.q.cells.cell(Feat::F(fq));
            let overlap = clip_polygon(corners_p.iter().map(|(_, x)| *x).collect(), planes, self.tol.flare);
            if !overlap.is_empty() {
                let hs: Vec<Real> = overlap.iter().map(|x| height(self.q, fq, x)).collect();
                let (lo, hi) = hs.iter().fold((Real::INFINITY, Real::NEG_INFINITY), |(l, h), &v| (l.min(v), h.max(v)));
                let x = if hi - lo <= c {
                    Point3::from(overlap.iter().map(|x| x.coords).sum::<nalgebra::Vector3<Real>>() / overlap.len() as Real)
                } else {
                    overlap[hs.iter().enumerate().min_by(|a, b| a.1.total_cmp(b.1)).map(|m| m.0).unwrap_or(0)]
                };
                let hx = height(self.q, fq, &x);
                let y = x - fqd.normal * hx;
                if lo <= c && hi >= -c {
                    return Step::Contact(self.q2p.point(&x), y);
                }
                if hi < -c {
                    // p's face is beneath q's inside its prism: local minimum.
                    return match escape_point(self.q, &x, c) {
                        Escape::Inside(_) => Step::Contact(self.q2p.point(&x), x),
                        Escape::Closest(f) => Step::Move(Feat::F(fp), f),
                    };
                }
                // Both above each other: the slab between the planes separates.
                return Step::Done(self.q2p.point(&x), y);
            }
        } else if let Some(step) = self.faces_cross(fp, fq, &corners_p) {
            return step;
        }
        self.nearest_boundary_pair(fp, fq, &corners_p)
    }

    /// Contact when a side of either face meets the other face.
    fn faces_cross(&self, fp: u32, fq: u32, corners_p: &[(u32, Point3)]) -> Option<Step> {
        let c = self.tol.contact;
        let m = corners_p.len();
        for i in 0..m {
            let (a, b) = (corners_p[i].1, corners_p[(i + 1) % m].1);
            if let Some(x) = crossing(self.q, fq, &a, &b, c) {
                return Some(Step::Contact(self.q2p.point(&x), x - self.q.winged.faces[fq as usize].normal * height(self.q, fq, &x)));
            }
        }
        let corners_q: Vec<Point3> = self.q.face_vertices(fq).map(|v| self.q2p.point(&self.q.vertex(v))).collect();
        let m = corners_q.len();
        for i in 0..m {
            if let Some(x) = crossing(self.p, fp, &corners_q[i], &corners_q[(i + 1) % m], c) {
                let on_p = x - self.p.winged.faces[fp as usize].normal * height(self.p, fp, &x);
                return Some(Step::Contact(on_p, self.p2q.point(&x)));
            }
        }
        None
    }

    /// The nearest of: a corner of one face over the other's prism, a pair of sides.
    fn nearest_boundary_pair(&self, fp: u32, fq: u32, corners_p: &[(u32, Point3)]) -> Step {
        let mut best = Real::INFINITY;
        let mut step = Step::Move(Feat::F(fp), Feat::F(fq));
        let nq = self.q.winged.faces[fq as usize].normal;
        for (v, x) in corners_p {
            let h = height(self.q, fq, x);
            if h.abs() < best && in_prism(self.q, fq, x, 0.0) {
                best = h.abs();
                let foot = self.q2p.point(&(x - nq * h));
                step = Step::Move(Feat::V(self.p.cells.locate_subcell(*v, &foot)), Feat::F(fq));
            }
        }
        for v in self.q.face_vertices(fq) {
            let x = self.q2p.point(&self.q.vertex(v));
            let h = height(self.p, fp, &x);
            if h.abs() < best && in_prism(self.p, fp, &x, 0.0) {
                best = h.abs();
                let foot = self.p2q.point(&(x - self.p.winged.faces[fp as usize].normal * h));
                step = Step::Move(Feat::F(fp), Feat::V(self.q.cells.locate_subcell(v, &foot)));
            }
        }
        for sp in self.p.face_sides(fp) {
            let (a, b) = (self.p2q.point(&self.p.vertex(sp.a)), self.p2q.point(&self.p.vertex(sp.b)));
            for sq in self.q.face_sides(fq) {
                let (_, _, x, y) = segment_segment(&a, &b, &self.q.vertex(sq.a), &self.q.vertex(sq.b));
                let d = (x - y).norm();
                if d < best {
                    best = d;
                    step = match (sp.across, sq.across) {
                        (Feat::F(_), Feat::F(_)) => Step::Move(sp.across, Feat::F(fq)),
                        (Feat::F(_), eq) => Step::Move(Feat::F(fp), eq),
                        (ep, Feat::F(_)) => Step::Move(ep, Feat::F(fq)),
                        (ep, eq) => Step::Move(ep, eq),
                    };
                }
            }
        }
        step
    }
}

/// Where segment `a`-`b` meets face `f` of `poly` (exact prism, `tol` slack), if it does.
fn crossing(poly: &ConvexPolyhedron, f: u32, a: &Point3, b: &Point3, tol: Real) -> Option<Point3> {
    let (ha, hb) = (height(poly, f, a), height(poly, f, b));
    if ha.min(hb) > tol || ha.max(hb) < -tol {
        return None;
    }
    let lambda = if (hb - ha).abs() > 2.0 * tol { (-ha / (hb - ha)).clamp(0.0, 1.0) } else { 0.5 };
    let x = a + (b - a) * lambda;
    in_prism(poly, f, &x, tol).then_some(x)
}

/// Cyrus–Beck clip of segment `a`-`b` against planes kept on their positive side
/// (shifted outwards by `slack`): the parameter range and the plane that bounds each
/// end (`None` where the end is the segment's own).
fn clip(planes: &[Plane], a: &Point3, b: &Point3, slack: Real) -> Option<(Real, Real, Option<Feat>, Option<Feat>)> {
    let (mut lo, mut hi) = (0.0, 1.0);
    let (mut lo_to, mut hi_to) = (None, None);
    for pl in planes {
        let (va, vb) = (pl.value(a) + slack, pl.value(b) + slack);
        if va < 0.0 && vb < 0.0 {
            return None;
        }
        if va < 0.0 {
            let t = va / (va - vb);
            if t > lo {
                lo = t;
                lo_to = Some(pl.to);
            }
        } else if vb < 0.0 {
            let t = va / (va - vb);
            if t < hi {
                hi = t;
                hi_to = Some(pl.to);
            }
        }
    }
    (lo <= hi).then_some((lo, hi, lo_to, hi_to))
}

/// Sutherland–Hodgman clip of a convex polygon against planes (kept on their
/// positive side, shifted outwards by `slack`).
fn clip_polygon(mut poly: Vec<Point3>, planes: &[Plane], slack: Real) -> Vec<Point3> {
    for pl in planes {
        if poly.is_empty() {
            break;
        }
        let mut out = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            let (a, b) = (poly[i], poly[(i + 1) % poly.len()]);
            let (va, vb) = (pl.value(&a) + slack, pl.value(&b) + slack);
            if va >= 0.0 {
                out.push(a);
            }
            if (va >= 0.0) != (vb >= 0.0) {
                out.push(a + (b - a) * (va / (va - vb)));
            }
        }
        poly = out;
    }
    poly
}

/// The boundary feature of face `f` nearest to segment `a`-`b` (Lin 1993 §3.3.1
/// `closest_boundary_feature`): a corner, a side's edge, or for a diagonal the
/// sibling face.
fn closest_boundary(poly: &ConvexPolyhedron, f: u32, a: &Point3, b: &Point3) -> Feat {
    let mut best = Real::INFINITY;
    let mut to = Feat::F(f);
    for s in poly.face_sides(f) {
        let (_, t, x, y) = segment_segment(a, b, &poly.vertex(s.a), &poly.vertex(s.b));
        let d = (x - y).norm();
        if d < best {
            best = d;
            to = match clamped_end(t) {
                Some(0) => Feat::V(poly.cells.locate_subcell(s.a, &x)),
                Some(_) => Feat::V(poly.cells.locate_subcell(s.b, &x)),
                None => s.across,
            };
        }
    }
    to
}

/// Which end (0: tail, 1: head) a clamped segment parameter sits at.
#[inline]
fn clamped_end(t: Real) -> Option<usize> {
    if t <= 0.0 {
        Some(0)
    } else if t >= 1.0 {
        Some(1)
    } else {
        None
    }
}
