//! Features of a convex polyhedron (Lin 1993 ch. 2, and §3.6 for the per-pair
//! cache): vertices, edges and faces as open sets, named by index.
use super::polyhedron::ConvexPolyhedron;

/// A feature of a [`ConvexPolyhedron`]: `Vertex(i)` indexes
/// [`ConvexPolyhedron::vertices`], `Edge(i)` indexes the edges
/// ([`ConvexPolyhedron::edge`]) and `Face(i)` the faces ([`ConvexPolyhedron::face_count`];
/// a hull polygon with more than five edges is cut into coplanar faces, Lin 1993 §3.2.4–3.2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    Vertex(u32),
    Edge(u32),
    Face(u32),
}

/// A feature of the first polyhedron and one of the second.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FeaturePair {
    pub a: Feature,
    pub b: Feature,
}

/// A feature as the walk sees it: a vertex is named by one of its Voronoi sub-cells
/// (a vertex with more than five edges has several, Lin 1993 §3.2.4–3.2.5), edges and faces by
/// their index. Constraint planes point to one of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum Feat {
    /// A sub-cell of a vertex's cone (index into the polyhedron's sub-cones).
    V(u32),
    E(u32),
    F(u32),
}

impl Feat {
    /// The public name.
    pub(super) fn public(self, poly: &ConvexPolyhedron) -> Feature {
        match self {
            Feat::V(s) => Feature::Vertex(poly.cells.subcones[s as usize].vertex),
            Feat::E(e) => Feature::Edge(e),
            Feat::F(f) => Feature::Face(f),
        }
    }

    /// From the public name (a vertex starts in its first sub-cell); `None` when the
    /// index does not exist on `poly`.
    pub(super) fn from_public(f: Feature, poly: &ConvexPolyhedron) -> Option<Feat> {
        match f {
            Feature::Vertex(v) if (v as usize) < poly.vertices.len() => Some(Feat::V(poly.cells.vertex_first[v as usize])),
            Feature::Edge(e) if (e as usize) < poly.edges.len() => Some(Feat::E(e)),
            Feature::Face(f) if (f as usize) < poly.faces.len() => Some(Feat::F(f)),
            _ => None,
        }
    }

    /// Whether the index exists on `poly` (for pairs kept in a cache).
    pub(super) fn valid(self, poly: &ConvexPolyhedron) -> bool {
        match self {
            Feat::V(s) => (s as usize) < poly.cells.subcones.len(),
            Feat::E(e) => (e as usize) < poly.edges.len(),
            Feat::F(f) => (f as usize) < poly.faces.len(),
        }
    }
}
