//! Features of a convex polyhedron (Lin 1993 ch. 2, and §3.6 for the per-pair
//! cache): vertices, edges and faces as open sets, named by index. The names alone:
//! every other file of the walk uses them, and they use none (`polyhedron.rs` turns
//! the walk's names into the public ones).

/// A feature of a [`ConvexPolyhedron`]: `Vertex(i)` indexes
/// [`ConvexPolyhedron::vertices`], `Edge(i)` indexes the edges
/// ([`ConvexPolyhedron::edge`]) and `Face(i)` the faces ([`ConvexPolyhedron::face_count`];
/// a hull polygon with more than five edges is cut into coplanar faces, Lin 1993 §3.2.4–3.2.5).
///
/// [`ConvexPolyhedron`]: super::ConvexPolyhedron
/// [`ConvexPolyhedron::vertices`]: super::ConvexPolyhedron::vertices
/// [`ConvexPolyhedron::edge`]: super::ConvexPolyhedron::edge
/// [`ConvexPolyhedron::face_count`]: super::ConvexPolyhedron::face_count
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
