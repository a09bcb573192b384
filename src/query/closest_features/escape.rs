//! The O(n) escapes of the walk (Lin 1993 ch. 3 "Local minimum" and
//! §3.3.1 `find_closest`), which here also diagnose penetration (Lin 1993 ch. 7: only the
//! exterior is partitioned, so the walk itself cannot see it).
//!
//! A feature that lies beneath a face but inside the face's prism is either inside the
//! other body (penetration) or closest to some other feature of it; both are decided
//! by looking at every face, edge and vertex once.
use super::feature::Feat;
use super::nearest::{point_segment, segment_segment};
use super::polyhedron::ConvexPolyhedron;
use crate::math::{Point3, Real};

pub(super) enum Escape {
    /// A point (in the polyhedron's frame) of the query feature inside the polyhedron.
    Inside(Point3),
    /// The feature of the polyhedron closest to the query feature.
    Closest(Feat),
}

/// Whether `x` lies in face `f`'s prism (exact planes, `slack` outwards).
pub(super) fn in_prism(poly: &ConvexPolyhedron, f: u32, x: &Point3, slack: Real) -> bool {
    let planes = poly.cells.cell(Feat::F(f));
    planes.iter().all(|pl| pl.value(x) >= -slack)
}

/// Height of `x` above face `f`'s plane.
#[inline]
pub(super) fn height(poly: &ConvexPolyhedron, f: u32, x: &Point3) -> Real {
    let face = &poly.winged.faces[f as usize];
    face.normal.dot(&x.coords) - face.offset
}

/// Point `x` against the whole polyhedron: inside (within `contact`) or its closest
/// feature.
pub(super) fn escape_point(poly: &ConvexPolyhedron, x: &Point3, contact: Real) -> Escape {
    let outside = (0..poly.winged.faces.len() as u32).map(|f| height(poly, f, x)).fold(Real::NEG_INFINITY, Real::max);
    if outside <= contact {
        return Escape::Inside(*x);
    }
    Escape::Closest(closest_feature_to_point(poly, x))
}

/// The feature whose open set holds the point of `poly` nearest to `x` (outside).
pub(super) fn closest_feature_to_point(poly: &ConvexPolyhedron, x: &Point3) -> Feat {
    let mut best = Real::INFINITY;
    let mut feat = Feat::V(0);
    for (v, p) in poly.winged.vertices.iter().enumerate() {
        let d = (x - p).norm();
        if d < best {
            best = d;
            feat = Feat::V(poly.cells.locate_subcell(v as u32, x));
        }
    }
    for e in 0..poly.winged.edges.len() as u32 {
        let (t, h) = poly.edge_points(e);
        let (s, y) = point_segment(x, &t, &h);
        let d = (x - y).norm();
        if s > 0.0 && s < 1.0 && d < best {
            best = d;
            feat = Feat::E(e);
        }
    }
    for f in 0..poly.winged.faces.len() as u32 {
        let h = height(poly, f, x);
        if h > 0.0 && h < best && in_prism(poly, f, x, 0.0) {
            best = h;
            feat = Feat::F(f);
        }
    }
    feat
}

/// Segment `a`-`b` against the whole polyhedron: a point of it inside (within
/// `contact`, by clipping against every face plane) or the feature nearest to it.
pub(super) fn escape_segment(poly: &ConvexPolyhedron, a: &Point3, b: &Point3, contact: Real) -> Escape {
    let (mut lo, mut hi) = (0.0, 1.0);
    for f in 0..poly.winged.faces.len() as u32 {
        // Keep contact - h >= 0.
        let (va, vb) = (contact - height(poly, f, a), contact - height(poly, f, b));
        if va < 0.0 && vb < 0.0 {
            lo = 2.0;
            break;
        }
        if va < 0.0 {
            lo = Real::max(lo, va / (va - vb));
        } else if vb < 0.0 {
            hi = Real::min(hi, va / (va - vb));
        }
        if lo > hi {
            break;
        }
    }
    if lo <= hi {
        return Escape::Inside(a + (b - a) * (0.5 * (lo + hi)));
    }
    let mut best = Real::INFINITY;
    let mut feat = Feat::V(0);
    for (v, p) in poly.winged.vertices.iter().enumerate() {
        let y = point_segment(p, a, b).1;
        let d = (p - y).norm();
        if d < best {
            best = d;
            feat = Feat::V(poly.cells.locate_subcell(v as u32, &y));
        }
    }
    for e in 0..poly.winged.edges.len() as u32 {
        let (t, h) = poly.edge_points(e);
        let (_, s, y, z) = segment_segment(a, b, &t, &h);
        let d = (y - z).norm();
        if s > 0.0 && s < 1.0 && d < best {
            best = d;
            feat = Feat::E(e);
        }
    }
    for f in 0..poly.winged.faces.len() as u32 {
        for x in [a, b] {
            let h = height(poly, f, x);
            if h > 0.0 && h < best && in_prism(poly, f, x, 0.0) {
                best = h;
                feat = Feat::F(f);
            }
        }
    }
    Escape::Closest(feat)
}

/// The lowest-dimensional feature within `tol` of a point on the surface (for the
/// answer of the exhaustive fallback).
pub(super) fn locate_surface_point(poly: &ConvexPolyhedron, x: &Point3, tol: Real) -> Feat {
    for (v, p) in poly.winged.vertices.iter().enumerate() {
        if (x - p).norm() <= tol {
            return Feat::V(poly.cells.vertex_first[v]);
        }
    }
    for e in 0..poly.winged.edges.len() as u32 {
        let (t, h) = poly.edge_points(e);
        if (x - point_segment(x, &t, &h).1).norm() <= tol {
            return Feat::E(e);
        }
    }
    for f in 0..poly.winged.faces.len() as u32 {
        if height(poly, f, x).abs() <= tol && in_prism(poly, f, x, tol) {
            return Feat::F(f);
        }
    }
    closest_feature_to_point(poly, x)
}
