//! Distances between triangles and convex polygons, used only to confirm verdicts by
//! dense sampling. Independent of the orbit code.
use ccd_guard::math::{Isometry3, Point3, Real, Triangle};
use ccd_guard::query::gjk;
use ccd_guard::shape::TriangleShape;

/// Triangle fan of a convex polygon.
pub fn fan(vertices: &[Point3]) -> Vec<Triangle> {
    (1..vertices.len() - 1).map(|i| [vertices[0], vertices[i], vertices[i + 1]]).collect()
}

/// Euclidean distance of two closed triangles (0 when they intersect): the library's
/// converged GJK, which is cross-checked against coal.
pub fn triangle_distance(a: &Triangle, b: &Triangle) -> Real {
    let identity = Isometry3::identity();
    gjk::closest_points(&TriangleShape(a), &identity, &TriangleShape(b), &identity).distance
}

/// Distance of two triangulated (convex) polygons.
pub fn polygon_distance(a: &[Triangle], b: &[Triangle]) -> Real {
    a.iter().flat_map(|x| b.iter().map(move |y| triangle_distance(x, y))).fold(Real::INFINITY, Real::min)
}
