//! A convex polytope given by its vertices (any points; their hull is the shape) as a
//! support map, so that polytopes enter [`super::penetration_depth`] and GJK.
use crate::math::{Point3, Vector3};
use crate::shape::{SupportMap, farthest_along};

/// The convex hull of a list of points (body frame), through its support function.
/// An empty list acts as the single point at the origin.
#[derive(Clone, Copy, Debug)]
pub struct VertexCloud<'a>(pub &'a [Point3]);

impl SupportMap for VertexCloud<'_> {
    fn core_support(&self, d: &Vector3) -> Point3 {
        farthest_along(self.0, d).unwrap_or_else(Point3::origin)
    }
}
