//! Bounding volumes: axis-aligned boxes for broad phases, oriented boxes for mesh hierarchies.
mod aabb;
mod obb;

pub use aabb::Aabb;
pub use obb::Obb;
