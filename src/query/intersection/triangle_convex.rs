//! One triangle (of a mesh) against one convex primitive, both in the mesh's frame.
use super::triangle_box_overlap;
use crate::math::{Isometry3, Point3, Triangle};
use crate::query::gjk;
use crate::shape::{Shape, TriangleShape};

/// A common point (mesh frame) of the triangle and the primitive placed by `convex_in_mesh`.
pub fn triangle_convex_intersection(tri: &Triangle, convex: &Shape, convex_in_mesh: &Isometry3) -> Option<Point3> {
    let support = convex.as_support_map()?;
    let hit = match convex {
        Shape::Cuboid(c) => {
            let local = tri.map(|p| convex_in_mesh.inverse_transform_point(&p));
            triangle_box_overlap(&local, &c.half_extents)
        }
        _ => gjk::intersects(&TriangleShape(tri), &Isometry3::identity(), support, convex_in_mesh),
    };
    if !hit {
        return None;
    }
    let cp = gjk::closest_points(&TriangleShape(tri), &Isometry3::identity(), support, convex_in_mesh);
    Some(nalgebra::center(&cp.point_a, &cp.point_b))
}
