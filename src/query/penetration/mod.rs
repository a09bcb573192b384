//! Penetration depth (Keerthi & Sridharan, "On computing depth of collision
//! in two dimensions"): how far one shape must be translated to separate from another.
//!
//! Both measures of Keerthi & Sridharan live on the Minkowski difference `M = A − B = {a − b}`
//! (the configuration-space obstacle of B against A). Translating B by `t` separates
//! the shapes exactly when `t` leaves the interior of `M`, so
//!
//! - the translational measure `I(A,B)` (Cameron and Culley's MTD, Keerthi & Sridharan §3)
//!   is the distance from the origin to the boundary of `M`, attained along the
//!   outward normal `n` of the facet of `M` nearest the origin, with `I = h_M(n)`
//!   (the support function of `M`);
//! - the directional measure `D(d;A,B)` (Keerthi & Sridharan §4, Lemma 1(i):
//!   `D(d;A,B) = D(d;A−B,{0})`) is where the ray from the origin along `d` leaves `M`.
//!
//! Sign convention, everywhere in this module: **translating B by `depth * normal`
//! separates the shapes** (leaves them touching); `normal` is unit and points from A
//! towards B (the way B must go). This is the opposite of
//! [`crate::query::gjk::SeparatingPlane::normal`], which points from B towards A.
//!
//! Files, one concept each:
//! - [`planar`]: the two measures of Keerthi & Sridharan on convex polygons, from the Minkowski
//!   difference built by merging edges by angle, O(m + n).
//! - [`translational`]: [`penetration_depth`] of any two [`crate::shape::SupportMap`]s:
//!   cores by EPA, margins added, polished along ray exits where EPA stops short.
//! - `epa`: the expanding polytope algorithm (van den Bergen) on a support function.
//! - `start_simplex`: a GJK run that ends in a polytope holding the origin, EPA's seed.
//! - [`minkowski_facets`]: the exact MTD of two polytopes from the facets of the hull of
//!   all pairwise vertex differences ([`polytope_penetration_exact`]).
//! - [`directional`]: [`directional_depth`], `D(d;A,B)` in space, by a GJK ray cast
//!   finished with Newton steps on the GJK distance.
//! - `difference`: the support function of `A − B` shared by the 3D queries.
//! - [`vertex_cloud`]: the convex hull of a vertex list as a support map.
//! - [`shape_depth`]: [`shape_penetration`] of any two element shapes, meshes by their
//!   triangles.
//! - [`overlap_bound`]: an upper bound of a depth from projections on a few axes, which
//!   spares a mesh's depth the EPA of triangles that cannot be the deepest.
use crate::math::{Point3, Real, Vector3};

mod difference;
pub mod directional;
mod epa;
pub mod minkowski_facets;
pub mod overlap_bound;
pub mod planar;
pub mod shape_depth;
mod start_simplex;
pub mod translational;
pub mod vertex_cloud;
pub mod voxel_map_depth;

pub use directional::directional_depth;
pub use minkowski_facets::polytope_penetration_exact;
pub use shape_depth::{DepthFeatures, deepest_depth_above, deepest_features, deepest_features_seeded, features_depth, features_penetration, shape_penetration};
pub use translational::penetration_depth;
pub use vertex_cloud::VertexCloud;

/// The minimum translational distance of two intersecting convex shapes (world frame).
#[derive(Clone, Copy, Debug)]
pub struct Penetration {
    /// The length of the shortest translation of B that separates the shapes (they
    /// touch after it); at least 0.
    pub depth: Real,
    /// Unit, in the world frame, from A towards B: translating B by `depth * normal`
    /// separates the shapes (equivalently A by `-depth * normal`).
    pub normal: Vector3,
    /// The point of A deepest inside B along `normal` (on A's surface, world frame).
    pub point_a: Point3,
    /// The point of B deepest inside A against `normal` (on B's surface, world frame);
    /// `point_a - point_b = depth * normal`.
    pub point_b: Point3,
}
