//! Geometric queries, organised by the question they answer.
//!
//! - [`intersection`]: do two placed shapes touch, and where (the discrete core).
//! - [`gjk`]: distance and closest points of convex shapes.
//! - [`distance`]: distance and closest points of any two element shapes (meshes too).
//! - [`triangle_triangle`]: the triangle-triangle test of Šinjur 2001 §5.
//! - [`closest_features`]: Lin 1993's closest features of convex polyhedra (Lin–Canny).
//! - [`penetration`]: Keerthi & Sridharan's depth of collision, in the plane and in space.
//! - [`mesh_hull`]: a mesh's convex bound (a few extreme vertices and a margin from GJK),
//!   and so every shape's.
pub mod closest_features;
pub mod distance;
pub mod gjk;
pub mod intersection;
pub mod mesh_hull;
pub mod penetration;
pub mod triangle_triangle;
