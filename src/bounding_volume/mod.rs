//! Bounding volumes: axis-aligned boxes for broad phases, oriented boxes for mesh
//! hierarchies, line-swept spheres around links.
mod aabb;
mod lss;
mod obb;

pub use aabb::Aabb;
pub use lss::Lss;
pub use obb::Obb;
