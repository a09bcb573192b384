//! A convex polyhedron: its winged-edge boundary with its Voronoi cells (Lin 1993
//! ch. 2 "Representation", ch. 3 and §3.2.4–3.2.5), as the closest-feature walk uses it.
//!
//! Built from a point cloud: hull polygons (`hull.rs`), then the winged-edge boundary
//! (`winged_edge.rs`, polygons with more than five edges cut into coplanar faces of at
//! most four sides, Lin 1993 §3.2.4–3.2.5), then the cells (`voronoi.rs`). This file
//! also names the walk's features publicly ([`Feature`]).
use super::feature::{Feat, Feature};
use super::hull::{HullError, hull_polygons};
use super::voronoi::Cells;
use super::winged_edge::{Side, WingedEdge};
use crate::math::{Point3, Real, Vector3};
use crate::shape::{SCANNED_VERTICES, SupportMap, farthest_along, hill_climb};
use std::sync::atomic::{AtomicU32, Ordering};

/// A convex polyhedron with winged edges and precomputed Voronoi cells, for
/// [`closest_features`](super::closest_features).
#[derive(Debug)]
pub struct ConvexPolyhedron {
    pub(super) winged: WingedEdge,
    pub(super) cells: Cells,
    /// Largest distance of a vertex from the local origin, or the hull's size if
    /// larger: the unit of the query tolerances.
    pub(super) scale: Real,
    /// Where the support function's hill climbing starts (the last answer).
    support_hint: AtomicU32,
}

impl Clone for ConvexPolyhedron {
    fn clone(&self) -> Self {
        Self {
            winged: self.winged.clone(),
            cells: self.cells.clone(),
            scale: self.scale,
            support_hint: AtomicU32::new(self.support_hint.load(Ordering::Relaxed)),
        }
    }
}

impl ConvexPolyhedron {
    /// The convex hull of `points`. Err for fewer than four points, non-finite
    /// coordinates, flat or collinear clouds, or a hull that fails the checks of
    /// `hull.rs`. Duplicate points and points inside faces or edges are fine.
    pub fn from_points(points: &[Point3]) -> Result<Self, HullError> {
        let hull = hull_polygons(points)?;
        let (winged, vertex_polygons) = WingedEdge::from_polygons(hull.vertices, &hull.loops, &hull.planes)?;
        let polygon_normals: Vec<Vector3> = hull.planes.iter().map(|(n, _)| *n).collect();
        let scale = winged.vertices.iter().map(|v| v.coords.norm()).fold(hull.size, Real::max);
        let cells = Cells::build(&winged, &vertex_polygons, &polygon_normals);
        let finite = |v: &Vector3| v.iter().all(|c| c.is_finite());
        if !cells.planes.iter().all(|p| finite(&p.n) && p.w.is_finite()) {
            return Err(HullError::VoronoiPlaneUndefined);
        }
        Ok(ConvexPolyhedron { winged, cells, scale, support_hint: AtomicU32::new(0) })
    }

    /// The hull's vertices (only its corners), indexed by [`Feature::Vertex`].
    pub fn vertices(&self) -> &[Point3] {
        &self.winged.vertices
    }

    pub fn vertex_count(&self) -> usize {
        self.winged.vertices.len()
    }

    pub fn edge_count(&self) -> usize {
        self.winged.edges.len()
    }

    /// Faces as features: hull polygons, those with more than five edges cut into
    /// coplanar pieces (Lin 1993 §3.2.4–3.2.5).
    pub fn face_count(&self) -> usize {
        self.winged.faces.len()
    }

    /// Faces of the hull before the §3.2.4–3.2.5 cut (maximal coplanar polygons).
    pub fn polygon_count(&self) -> usize {
        self.winged.polygon_count
    }

    /// The (tail, head) vertices of an edge.
    pub fn edge(&self, e: u32) -> (u32, u32) {
        let e = &self.winged.edges[e as usize];
        (e.tail, e.head)
    }

    /// Outward unit normal and offset of a face's plane (`normal · x = offset`).
    pub fn face_plane(&self, f: u32) -> (Vector3, Real) {
        let f = &self.winged.faces[f as usize];
        (f.normal, f.offset)
    }

    /// The corners of a face, counter-clockwise seen from outside.
    pub fn face_vertices(&self, f: u32) -> impl Iterator<Item = u32> + '_ {
        self.face_sides(f).iter().map(|s| s.a)
    }

    /// The edges at a vertex, in cyclic order around it.
    pub fn vertex_edges(&self, v: u32) -> &[u32] {
        self.winged.vertex_edges(v)
    }

    pub(super) fn face_sides(&self, f: u32) -> &[Side] {
        self.winged.face_sides(f)
    }

    pub(super) fn vertex(&self, v: u32) -> Point3 {
        self.winged.vertex(v)
    }

    /// Tail and head positions of an edge.
    pub(super) fn edge_points(&self, e: u32) -> (Point3, Point3) {
        self.winged.edge_points(e)
    }

    /// The vertices joined to vertex `v` by an edge (a hull edge, or a diagonal of a
    /// face cut into pieces).
    pub fn neighbours(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        self.vertex_edges(v).iter().map(move |&e| self.winged.other_end(e, v))
    }

    /// The public name of a feature as the walk sees it.
    pub(super) fn public(&self, f: Feat) -> Feature {
        match f {
            Feat::V(s) => Feature::Vertex(self.cells.subcones[s as usize].vertex),
            Feat::E(e) => Feature::Edge(e),
            Feat::F(f) => Feature::Face(f),
        }
    }

    /// A feature as the walk sees it, from its public name (a vertex starts in its first
    /// sub-cell); `None` when the index does not exist here.
    pub(super) fn internal(&self, f: Feature) -> Option<Feat> {
        match f {
            Feature::Vertex(v) if (v as usize) < self.winged.vertices.len() => Some(Feat::V(self.cells.vertex_first[v as usize])),
            Feature::Edge(e) if (e as usize) < self.winged.edges.len() => Some(Feat::E(e)),
            Feature::Face(f) if (f as usize) < self.winged.faces.len() => Some(Feat::F(f)),
            _ => None,
        }
    }

    /// Whether the feature's index exists here (for pairs kept in a cache).
    pub(super) fn has(&self, f: Feat) -> bool {
        match f {
            Feat::V(s) => (s as usize) < self.cells.subcones.len(),
            Feat::E(e) => (e as usize) < self.winged.edges.len(),
            Feat::F(f) => (f as usize) < self.winged.faces.len(),
        }
    }
}

/// Support points by hill climbing over the vertex graph from the last answer: on a
/// convex polytope a vertex with no better neighbour is a global maximiser (small
/// hulls are scanned instead).
impl SupportMap for ConvexPolyhedron {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        if self.winged.vertices.len() <= SCANNED_VERTICES {
            return farthest_along(&self.winged.vertices, dir).expect("a polyhedron has vertices");
        }
        hill_climb(&self.winged.vertices, |v| self.neighbours(v), &self.support_hint, dir)
    }
}
