//! Closest features of convex polyhedra (Lin 1993 ch. 3, Lin–Canny).
//!
//! The incremental closest-feature algorithm of Lin and Canny as described in Lin 1993
//! (ch. 3), with corrections where the thesis's text is garbled or inconsistent:
//! - [`ConvexPolyhedron`] (`polyhedron.rs`, `hull.rs`, `winged_edge.rs`): a winged-edge
//!   convex polyhedron built from a point cloud (parry3d-f64's hull, coplanar triangles
//!   merged), with precomputed Voronoi cells (`voronoi.rs`, ch. 3), flared (ch. 3) and
//!   split so that no cell has more than five side planes (§3.2.4–3.2.5: polygons with more
//!   than five edges are cut into coplanar faces of at most four sides, cones of
//!   vertices with more than five edges into pyramidal sub-cells);
//! - [`closest_features`] (`walk.rs`, `cases.rs`): the walk over feature pairs with
//!   the six pair cases (§3.3.1), nearest points of features (`nearest.rs`, App. A) and
//!   the O(n) local-minimum escapes (`escape.rs`, ch. 3), which also diagnose
//!   interpenetration; computed in the relative frame (`frame.rs`, §3.6). A walk
//!   that cycles or exceeds its step cap ends in an exhaustive fallback, flagged in
//!   the answer and counted by [`fallback_count`];
//! - [`WarmStart`] and [`closest_features_cached`] (`cache.rs`): the per-pair cache
//!   for coherent queries (§3.3.3–3.4, §3.6).
//!
//! The files import one another in one direction only: `feature` (the names), `frame`,
//! `nearest` and `hull` use none of the others; `winged_edge` uses `feature` and `hull`;
//! `voronoi` uses `winged_edge`; `polyhedron` puts `winged_edge` and `voronoi` together;
//! `escape`, `cases`, `walk` and `cache` use `polyhedron`, each also those before it.
mod cache;
mod cases;
mod escape;
mod feature;
mod frame;
mod hull;
mod nearest;
mod polyhedron;
mod voronoi;
mod walk;
mod winged_edge;

pub use cache::{WarmStart, closest_features_cached};
pub use feature::{Feature, FeaturePair};
pub use hull::HullError;
pub use polyhedron::ConvexPolyhedron;
pub use walk::{ClosestFeatures, closest_features, fallback_count};
