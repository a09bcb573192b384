//! Do two placed shapes intersect, and at which world point?
//!
//! Exact discrete collision for one configuration: closed-form or separating-axis tests
//! where both sides are primitives, GJK for the other convex pairs, OBB-tree traversal
//! for meshes with the triangle-triangle test of Šinjur 2001 §5 at the leaves, the
//! hierarchy of a voxel map down to its cubes. Primitives are solid; a mesh counts as
//! solid where it is closed, so a shape entirely inside another is a collision even
//! when no surfaces touch.
mod convex_convex;
mod mesh_convex;
mod mesh_mesh;
mod triangle_box;
mod triangle_convex;
mod voxel_map;
mod witness;

pub use convex_convex::convex_intersection;
pub use mesh_convex::{mesh_convex_containment, mesh_convex_intersection};
pub use mesh_mesh::{mesh_mesh_containment, mesh_mesh_intersection};
pub use triangle_box::triangle_box_overlap;
pub use triangle_convex::triangle_convex_intersection;
pub use voxel_map::{voxel_map_intersection, voxels_touching};
pub use witness::{TouchWitness, intersection_point_witnessed};

use crate::math::{Isometry3, Point3};
use crate::shape::Shape;

/// A world point shared by both shapes if they intersect (touching counts).
pub fn intersection_point(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Point3> {
    match (a, b) {
        (Shape::VoxelMap(m), other) => voxel_map_intersection(m, pose_a, other, pose_b),
        (other, Shape::VoxelMap(m)) => voxel_map_intersection(m, pose_b, other, pose_a),
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => mesh_mesh_intersection(ma, pose_a, mb, pose_b),
        (Shape::TriMesh(m), convex) => mesh_convex_intersection(m, pose_a, convex, pose_b),
        (convex, Shape::TriMesh(m)) => mesh_convex_intersection(m, pose_b, convex, pose_a),
        (ca, cb) => convex_intersection(ca, pose_a, cb, pose_b),
    }
}

/// A world point shared by a mesh and another shape if one lies entirely inside the
/// other, the surfaces not tested (for a caller that knows they are apart); `None` for
/// shapes without a mesh.
pub fn containment_point(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Point3> {
    match (a, b) {
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => mesh_mesh_containment(ma, pose_a, mb, pose_b),
        (Shape::TriMesh(m), convex) if convex.as_support_map().is_some() => mesh_convex_containment(m, pose_a, convex, pose_b),
        (convex, Shape::TriMesh(m)) if convex.as_support_map().is_some() => mesh_convex_containment(m, pose_b, convex, pose_a),
        _ => None,
    }
}
