//! The winged-edge boundary of a convex polyhedron (Lin 1993 ch. 2 "Representation"):
//! vertices, edges running from tail to head with a left and a right face (left as seen
//! from outside when walking from the tail to the head), faces with their sides
//! counter-clockwise, and the edges around each vertex in cyclic order.
//!
//! Built from the hull's polygons (`hull.rs`); polygons with more than five edges are
//! cut into coplanar faces of at most four sides (Lin 1993 §3.2.4–3.2.5), so that no
//! face's Voronoi cell has more than five side planes. The cells themselves are built
//! on this boundary by `voronoi.rs`, and `polyhedron.rs` puts the two together.
use super::feature::Feat;
use super::hull::HullError;
use crate::math::{Point3, Real, Vector3};
use std::collections::HashMap;

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

/// The boundary of a convex polyhedron in winged-edge form.
#[derive(Clone, Debug)]
pub(super) struct WingedEdge {
    pub vertices: Vec<Point3>,
    pub edges: Vec<Edge>,
    pub faces: Vec<Face>,
    pub sides: Vec<Side>,
    /// Hull polygons before the §3.2.4–3.2.5 cut.
    pub polygon_count: usize,
    /// Edges around vertex `v` in cyclic order: `vertex_edges[vertex_start[v]..vertex_start[v + 1]]`.
    pub vertex_edges: Vec<u32>,
    pub vertex_start: Vec<u32>,
}

/// The edges around each vertex in cyclic order (`edges` and `start` as in
/// [`WingedEdge`]), and the polygons around it in the same order (edge j between
/// polygons j-1 and j, the convention of `voronoi.rs`).
struct VertexRings {
    edges: Vec<u32>,
    start: Vec<u32>,
    polygons: Vec<Vec<u32>>,
}

impl WingedEdge {
    /// The boundary whose polygons are `loops` (vertex indices counter-clockwise from
    /// outside) with `planes` (outward unit normal and offset), and per vertex the
    /// polygons around it in the order of its edges (edge j between polygons j-1 and j),
    /// which the Voronoi cells need. Err where the loops do not close into a polyhedron
    /// of Euler characteristic 2.
    pub(super) fn from_polygons(vertices: Vec<Point3>, loops: &[Vec<u32>], planes: &[(Vector3, Real)]) -> Result<(Self, Vec<Vec<u32>>), HullError> {
        let directed = directed_sides(loops)?;
        let (mut edges, edge_of) = edges_of(loops, &directed)?;
        let euler = vertices.len() as i64 - edges.len() as i64 + loops.len() as i64;
        if euler != 2 {
            return Err(HullError::EulerCharacteristic(euler));
        }
        let (faces, sides, face_of_side) = faces_of(&vertices, loops, planes, &edge_of)?;
        for e in &mut edges {
            e.left = face_of_side[&(e.tail, e.head)];
            e.right = face_of_side[&(e.head, e.tail)];
        }
        let rings = vertex_rings(vertices.len(), loops, &directed, &edge_of, edges.len())?;
        let winged = WingedEdge { vertices, edges, faces, sides, polygon_count: loops.len(), vertex_edges: rings.edges, vertex_start: rings.start };
        Ok((winged, rings.polygons))
    }

    /// The edges at a vertex, in cyclic order around it.
    pub(super) fn vertex_edges(&self, v: u32) -> &[u32] {
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

    /// The vertex at the other end of edge `e` from `v`.
    pub(super) fn other_end(&self, e: u32, v: u32) -> u32 {
        let e = &self.edges[e as usize];
        if e.tail == v { e.head } else { e.tail }
    }
}

/// A number (a polygon, an edge or a face) per directed pair of vertices `(a, b)`.
type ByVertices = HashMap<(u32, u32), u32>;

/// The edge between vertices `a` and `b`, whichever way it runs.
fn edge_id(edge_of: &ByVertices, a: u32, b: u32) -> Option<u32> {
    edge_of.get(&(a, b)).or_else(|| edge_of.get(&(b, a))).copied()
}

/// The polygon of each directed side `(a, b)`; Err where two polygons run along one
/// side the same way.
fn directed_sides(loops: &[Vec<u32>]) -> Result<ByVertices, HullError> {
    let mut directed: ByVertices = HashMap::new();
    for (p, l) in loops.iter().enumerate() {
        for i in 0..l.len() {
            if directed.insert((l[i], l[(i + 1) % l.len()]), p as u32).is_some() {
                return Err(HullError::EdgeUsedTwice);
            }
        }
    }
    Ok(directed)
}

/// Edges from the polygons' directed sides (faces not yet set), each under the direction
/// it runs; Err where a side has no polygon running back along it.
fn edges_of(loops: &[Vec<u32>], directed: &ByVertices) -> Result<(Vec<Edge>, ByVertices), HullError> {
    let mut edge_of: ByVertices = HashMap::new();
    let mut edges = Vec::new();
    for l in loops {
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
    Ok((edges, edge_of))
}

/// Faces: the polygons, cut into pieces where they have more than five sides; their
/// sides; and the face of each directed hull side.
fn faces_of(
    vertices: &[Point3],
    loops: &[Vec<u32>],
    planes: &[(Vector3, Real)],
    edge_of: &ByVertices,
) -> Result<(Vec<Face>, Vec<Side>, ByVertices), HullError> {
    let mut faces = Vec::new();
    let mut sides = Vec::new();
    let mut face_of_side: ByVertices = HashMap::new();
    for (p, l) in loops.iter().enumerate() {
        let (normal, offset) = planes[p];
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
                    Feat::E(edge_id(edge_of, a, b).ok_or(HullError::MissingEdge)?)
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
    Ok((faces, sides, face_of_side))
}

/// Edges around each vertex in cyclic order: after the polygon that leaves v along v→w
/// comes the polygon that enters v along w→v.
fn vertex_rings(vertex_count: usize, loops: &[Vec<u32>], directed: &ByVertices, edge_of: &ByVertices, edge_count: usize) -> Result<VertexRings, HullError> {
    let mut out_of: HashMap<(u32, u32), u32> = HashMap::new(); // (polygon, v) -> w
    for (p, l) in loops.iter().enumerate() {
        for i in 0..l.len() {
            out_of.insert((p as u32, l[i]), l[(i + 1) % l.len()]);
        }
    }
    let mut some_polygon = vec![u32::MAX; vertex_count];
    for (p, l) in loops.iter().enumerate() {
        for &v in l {
            some_polygon[v as usize] = p as u32;
        }
    }
    let mut rings = VertexRings { edges: Vec::new(), start: vec![0u32], polygons: Vec::new() };
    for v in 0..vertex_count as u32 {
        let p0 = some_polygon[v as usize];
        let mut p = p0;
        let mut ring_edges = Vec::new();
        let mut ring_polygons = Vec::new();
        loop {
            let w = out_of[&(p, v)];
            ring_polygons.push(p);
            ring_edges.push(edge_id(edge_of, v, w).ok_or(HullError::MissingEdge)?);
            p = directed[&(w, v)];
            if p == p0 {
                break;
            }
            if ring_edges.len() > edge_count {
                return Err(HullError::OpenVertexRing);
            }
        }
        // ring_edges[j] leaves polygon ring_polygons[j]; rotate so that edge j lies
        // between polygons j-1 and j (the convention of `voronoi.rs`).
        ring_edges.rotate_right(1);
        rings.edges.extend(&ring_edges);
        rings.start.push(rings.edges.len() as u32);
        rings.polygons.push(ring_polygons);
    }
    Ok(rings)
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
