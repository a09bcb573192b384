//! Closest features of convex polyhedra (seed 001, Lin–Canny; digest §2).
//!
//! The incremental closest-feature algorithm of Lin and Canny as described in seed 001
//! (Lin thesis digest §2), with the digest's corrections:
//! - [`ConvexPolyhedron`] (`polyhedron.rs`, `hull.rs`): a winged-edge convex
//!   polyhedron built from a point cloud (parry3d-f64's hull, coplanar triangles
//!   merged), with precomputed Voronoi cells (`voronoi.rs`, §2.2), flared (§2.7) and
//!   split so that no cell has more than five side planes (§2.8: polygons with more
//!   than five edges are cut into coplanar faces of at most four sides, cones of
//!   vertices with more than five edges into pyramidal sub-cells);
//! - [`closest_features`] (`walk.rs`, `cases.rs`): the walk over feature pairs with
//!   the six pair cases (§2.5), nearest points of features (`nearest.rs`, §2.4) and
//!   the O(n) local-minimum escapes (`escape.rs`, §2.7), which also diagnose
//!   interpenetration; computed in the relative frame (`frame.rs`, §2.10). A walk
//!   that cycles or exceeds its step cap ends in an exhaustive fallback, flagged in
//!   the answer and counted by [`fallback_count`];
//! - [`WarmStart`] and [`closest_features_cached`] (`cache.rs`): the per-pair cache
//!   for coherent queries (§2.9, §9).
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

pub use cache::{WarmStart, closest_features_cached};
pub use feature::{Feature, FeaturePair};
pub use polyhedron::ConvexPolyhedron;
pub use walk::{ClosestFeatures, closest_features, fallback_count};
