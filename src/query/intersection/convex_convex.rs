//! Primitive against primitive: closed forms for balls and boxes, GJK otherwise.
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Point3};
use crate::query::gjk;
use crate::shape::Shape;

/// A common world point of two convex primitives, if they intersect.
pub fn convex_intersection(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Point3> {
    let (sa, sb) = (a.as_support_map()?, b.as_support_map()?);
    match (a, b) {
        (Shape::Ball(ba), Shape::Ball(bb)) => {
            let (ca, cb) = (pose_a.translation.vector, pose_b.translation.vector);
            let d = (cb - ca).norm();
            if d > ba.radius + bb.radius {
                return None;
            }
            let t = if d > 0.0 { (ba.radius + (d - bb.radius)) * 0.5 / d } else { 0.0 };
            return Some(Point3::from(ca + (cb - ca) * t));
        }
        (Shape::Cuboid(ca), Shape::Cuboid(cb)) => {
            let obb_a = Obb::from_aabb(&crate::bounding_volume::Aabb::new((-ca.half_extents).into(), ca.half_extents.into()));
            let obb_b = Obb::from_aabb(&crate::bounding_volume::Aabb::new((-cb.half_extents).into(), cb.half_extents.into()));
            if !obb_a.intersects(&obb_b, &pose_a.inv_mul(pose_b)) {
                return None;
            }
        }
        _ => {
            if !gjk::intersects(sa, pose_a, sb, pose_b) {
                return None;
            }
        }
    }
    let cp = gjk::closest_points(sa, pose_a, sb, pose_b);
    // The separating-axis test and GJK agree up to rounding; a touching pair may come
    // back at a distance of a few ulps, which is still a contact.
    Some(nalgebra::center(&cp.point_a, &cp.point_b))
}
