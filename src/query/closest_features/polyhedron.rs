//! A convex polyhedron in winged-edge form with its Voronoi cells (Lin 1993
//! ch. 2 "Representation", ch. 3 and §3.2.4–3.2.5).
//!
//! Built from a point cloud: hull polygons (`hull.rs`), then edges running from tail to
//! head with a left and a right face (left as seen from outside when walking from the
//! tail to the head), polygons with more than five edges cut into coplanar faces of at
//! most four sides (Lin 1993 §3.2.4–3.2.5), the edges around each vertex in cyclic order, and the
//! cells (`voronoi.rs`).
use super::feature::Feat;
use super::hull::{HullError, hull_polygons};
use super::voronoi::Cells;
use crate::math::{Point3, Real, Vector3};
use crate::shape::{SCANNED_VERTICES, SupportMap, farthest_along, hill_climb};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU32, Ordering};

/// Polygons with more edges than this are cut into faces of at most four sides.
pub(super) const MAX_FACE_SIDES: usize = 5;

#[derive(Clone, Copy, Debug)]
pub(super) struct Edge {
    pub tail: u32,
    pub head: u32,
    /// The face that runs from tail to head counter-clockwise (seen from outside).
    pub left: u32,
    /// The face that runs from head to tail.
    pub right: u32,
}

/// A side of a face: a hull edge, or a diagonal cut by the §3.2.4–3.2.5 subdivision, whose
/// other side is a coplanar sibling face.
#[derive(Clone, Copy, Debug)]
pub(super) struct Side {
    pub a: u32,
    pub b: u32,
    /// `Feat::E` for a hull edge, `Feat::F` (the sibling) for a diagonal.
    pub across: Feat,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Face {
    /// Outward unit normal; the plane is `normal · x = offset`.
    pub normal: Vector3,
    pub offset: Real,
    pub centroid: Point3,
    /// Sides counter-clockwise from outside: `sides[start..start + len]`.
    pub start: u32,
    pub len: u32,
}

/// A convex polyhedron with winged edges and precomputed Voronoi cells, for
/// [`closest_features`](super::closest_features).
#[derive(Debug)]
pub struct ConvexPolyhedron {
    pub(super) vertices: Vec<Point3>,
    pub(super) edges: Vec<Edge>,
    pub(super) faces: Vec<Face>,
    pub(super) sides: Vec<Side>,
    pub(super) polygon_count: usize,
    /// Edges around vertex `v` in cyclic order: `vertex_edges[vertex_start[v]..vertex_start[v + 1]]`.
    pub(super) vertex_edges: Vec<u32>,
    pub(super) vertex_start: Vec<u32>,
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
            vertices: self.vertices.clone(),
            edges: self.edges.clone(),
            faces: self.faces.clone(),
            sides: self.sides.clone(),
            polygon_count: self.polygon_count,
            vertex_edges: self.vertex_edges.clone(),
            vertex_start: self.vertex_start.clone(),
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
        let vertices = hull.vertices;
        let loops = hull.loops;
        // Edges from the polygons' directed sides.
        let mut directed: HashMap<(u32, u32), u32> = HashMap::new();
        for (p, l) in loops.iter().enumerate() {
            for i in 0..l.len() {
                if directed.insert((l[i], l[(i + 1) % l.len()]), p as u32).is_some() {
                    return Err(HullError::EdgeUsedTwice);
                }
            }
        }
        let mut edge_of: HashMap<(u32, u32), u32> = HashMap::new();
        let mut edges = Vec::new();
        for l in &loops {
            for i in 0..l.len() {
                let (a, b) = (l[i], l[(i + 1) % l.len()]);
                if edge_of.contains_key(&(b, a)) {
                    continue;
                }
                if !directed.contains_key(&(b, a)) {
                    return Err(HullError::NotClosed);
                }
                edge_of.insert((a, b), edges.len() as u32);
                edges.push(Edge { tail: a, head: b, left: u32::MAX, right: u32::MAX });
            }
        }
        let euler = vertices.len() as i64 - edges.len() as i64 + loops.len() as i64;
        if euler != 2 {
            return Err(HullError::EulerCharacteristic(euler));
        }
        let edge_id = |a: u32, b: u32| edge_of.get(&(a, b)).or_else(|| edge_of.get(&(b, a))).copied();

        // Faces: polygons, cut into pieces where they have more than five sides.
        let mut faces = Vec::new();
        let mut sides = Vec::new();
        let mut face_of_side: HashMap<(u32, u32), u32> = HashMap::new();
        for (p, l) in loops.iter().enumerate() {
            let (normal, offset) = hull.planes[p];
            let pieces = cut_polygon(l.len());
            let first = faces.len() as u32;
            for (k, piece) in pieces.iter().enumerate() {
                let start = sides.len() as u32;
                let m = piece.len();
                let mut centroid = Vector3::zeros();
                for i in 0..m {
                    let (ia, ib) = (piece[i], piece[(i + 1) % m]);
                    let (a, b) = (l[ia], l[ib]);
                    centroid += vertices[a as usize].coords;
                    let across = if (ia + 1) % l.len() == ib {
                        face_of_side.insert((a, b), first + k as u32);
                        Feat::E(edge_id(a, b).ok_or(HullError::MissingEdge)?)
                    } else if ib > ia {
                        // The diagonal towards the next piece of the strip.
                        Feat::F(first + k as u32 + 1)
                    } else {
                        Feat::F(first + k as u32 - 1)
                    };
                    sides.push(Side { a, b, across });
                }
                let centroid = Point3::from(centroid / m as Real);
                faces.push(Face { normal, offset, centroid, start, len: m as u32 });
            }
        }
        for e in &mut edges {
            e.left = face_of_side[&(e.tail, e.head)];
            e.right = face_of_side[&(e.head, e.tail)];
        }

        // Edges around each vertex in cyclic order: after the polygon that leaves v
        // along v→w comes the polygon that enters v along w→v.
        let mut out_of: HashMap<(u32, u32), u32> = HashMap::new(); // (polygon, v) -> w
        for (p, l) in loops.iter().enumerate() {
            for i in 0..l.len() {
                out_of.insert((p as u32, l[i]), l[(i + 1) % l.len()]);
            }
        }
        let mut some_polygon = vec![u32::MAX; vertices.len()];
        for (p, l) in loops.iter().enumerate() {
            for &v in l {
                some_polygon[v as usize] = p as u32;
            }
        }
        let mut vertex_edges = Vec::new();
        let mut vertex_start = vec![0u32];
        let mut vertex_polygons = Vec::new();
        for v in 0..vertices.len() as u32 {
            let p0 = some_polygon[v as usize];
            let mut p = p0;
            let mut ring_edges = Vec::new();
            let mut ring_polygons = Vec::new();
            loop {
                let w = out_of[&(p, v)];
                ring_polygons.push(p);
                ring_edges.push(edge_id(v, w).ok_or(HullError::MissingEdge)?);
                p = directed[&(w, v)];
                if p == p0 {
                    break;
                }
                if ring_edges.len() > edges.len() {
                    return Err(HullError::OpenVertexRing);
                }
            }
            // ring_edges[j] leaves polygon ring_polygons[j]; rotate so that edge j lies
            // between polygons j-1 and j (the convention of `voronoi.rs`).
            ring_edges.rotate_right(1);
            vertex_edges.extend(&ring_edges);
            vertex_start.push(vertex_edges.len() as u32);
            vertex_polygons.push(ring_polygons);
        }
        let polygon_normals: Vec<Vector3> = hull.planes.iter().map(|(n, _)| *n).collect();
        let scale = vertices.iter().map(|v| v.coords.norm()).fold(hull.size, Real::max);
        let mut poly = ConvexPolyhedron {
            vertices,
            edges,
            faces,
            sides,
            polygon_count: loops.len(),
            vertex_edges,
            vertex_start,
            cells: Cells::default(),
            scale,
            support_hint: AtomicU32::new(0),
        };
        poly.cells = Cells::build(&poly, &vertex_polygons, &polygon_normals);
        let finite = |v: &Vector3| v.iter().all(|c| c.is_finite());
        if !poly.cells.planes.iter().all(|p| finite(&p.n) && p.w.is_finite()) {
            return Err(HullError::VoronoiPlaneUndefined);
        }
        Ok(poly)
    }

    /// The hull's vertices (only its corners), indexed by [`Feature::Vertex`](super::Feature).
    pub fn vertices(&self) -> &[Point3] {
        &self.vertices
    }

    pub fn vertex_count(&self) -> usize {
        self.vertices.len()
    }

    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }

    /// Faces as features: hull polygons, those with more than five edges cut into
    /// coplanar pieces (Lin 1993 §3.2.4–3.2.5).
    pub fn face_count(&self) -> usize {
        self.faces.len()
    }

    /// Faces of the hull before the §3.2.4–3.2.5 cut (maximal coplanar polygons).
    pub fn polygon_count(&self) -> usize {
        self.polygon_count
    }

    /// The (tail, head) vertices of an edge.
    pub fn edge(&self, e: u32) -> (u32, u32) {
        let e = &self.edges[e as usize];
        (e.tail, e.head)
    }

    /// Outward unit normal and offset of a face's plane (`normal · x = offset`).
    pub fn face_plane(&self, f: u32) -> (Vector3, Real) {
        let f = &self.faces[f as usize];
        (f.normal, f.offset)
    }

    /// The corners of a face, counter-clockwise seen from outside.
    pub fn face_vertices(&self, f: u32) -> impl Iterator<Item = u32> + '_ {
        self.face_sides(f).iter().map(|s| s.a)
    }

    /// The edges at a vertex, in cyclic order around it.
    pub fn vertex_edges(&self, v: u32) -> &[u32] {
        &self.vertex_edges[self.vertex_start[v as usize] as usize..self.vertex_start[v as usize + 1] as usize]
    }

    pub(super) fn face_sides(&self, f: u32) -> &[Side] {
        let f = &self.faces[f as usize];
        &self.sides[f.start as usize..(f.start + f.len) as usize]
    }

    pub(super) fn vertex(&self, v: u32) -> Point3 {
        self.vertices[v as usize]
    }

    /// Tail and head positions of an edge.
    pub(super) fn edge_points(&self, e: u32) -> (Point3, Point3) {
        let e = &self.edges[e as usize];
        (self.vertices[e.tail as usize], self.vertices[e.head as usize])
    }

    /// The vertices joined to vertex `v` by an edge (a hull edge, or a diagonal of a
    /// face cut into pieces).
    pub fn neighbours(&self, v: u32) -> impl Iterator<Item = u32> + '_ {
        self.vertex_edges(v).iter().map(move |&e| self.other_end(e, v))
    }

    /// The vertex at the other end of edge `e` from `v`.
    fn other_end(&self, e: u32, v: u32) -> u32 {
        let e = &self.edges[e as usize];
        if e.tail == v { e.head } else { e.tail }
    }
}

/// Cuts a convex polygon of `k` corners (indices `0..k`, counter-clockwise) into a
/// strip of quadrilaterals (the last piece may be a triangle) when `k > 5`: piece `j`
/// has corners `j, j+1, k-2-j, k-1-j`. Each piece has two hull sides (three for the
/// first) and at most two diagonals, shared with the pieces before and after it.
fn cut_polygon(k: usize) -> Vec<Vec<usize>> {
    if k <= MAX_FACE_SIDES {
        return vec![(0..k).collect()];
    }
    let mut pieces = Vec::new();
    let (mut lo, mut hi) = (0, k - 1);
    while hi - lo + 1 > 4 {
        pieces.push(vec![lo, lo + 1, hi - 1, hi]);
        lo += 1;
        hi -= 1;
    }
    pieces.push((lo..=hi).collect());
    pieces
}

/// Support points by hill climbing over the vertex graph from the last answer: on a
/// convex polytope a vertex with no better neighbour is a global maximiser (small
/// hulls are scanned instead).
impl SupportMap for ConvexPolyhedron {
    fn core_support(&self, dir: &Vector3) -> Point3 {
        if self.vertices.len() <= SCANNED_VERTICES {
            return farthest_along(&self.vertices, dir).expect("a polyhedron has vertices");
        }
        hill_climb(&self.vertices, |v| self.neighbours(v), &self.support_hint, dir)
    }
}
