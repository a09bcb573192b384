//! Geometric queries, organised by the question they answer.
//!
//! - [`intersection`]: do two placed shapes touch, and where (the discrete core).
//! - [`gjk`]: distance and closest points of convex shapes.
//! - [`triangle_triangle`]: seed 003's triangle-triangle test.
pub mod gjk;
pub mod intersection;
pub mod triangle_triangle;
