//! How far apart are two placed shapes, and where are their closest points?
//!
//! Exact distances for every pair of element shapes: GJK where both are convex (balls
//! and capsules through their cores and margins), and a branch and bound over a mesh's
//! OBB tree or a voxel map's hierarchy otherwise (Lin 1993 §4.1: a hierarchy of convex pieces, whose bounds
//! prune the pairs that cannot be closer than the best found so far; the leaves are
//! the mesh's triangles, so the distance of a real mesh is exact). Shapes that
//! intersect, also by one lying inside the other, are at distance 0.
mod mesh_convex;
mod mesh_mesh;
mod mesh_voxel_map;
mod voxel_map;

pub use mesh_convex::mesh_convex_distance;
pub use mesh_mesh::mesh_mesh_distance;
pub use mesh_voxel_map::mesh_voxel_map_distance;
pub use voxel_map::voxel_map_distance;

use super::gjk::{self, ClosestPoints};
use super::intersection::{containment_point, intersection_point};
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::shape::{Cuboid, Shape, SupportMap};

/// The distance and closest points (world frame) of two placed shapes, if it is below
/// `cutoff`; `None` when it is not (pass `Real::INFINITY` for the distance whatever it is).
pub fn shape_distance(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    let found = match (a, b) {
        // Each cube's distance already counts a shape inside it, or it inside a mesh.
        (Shape::VoxelMap(m), other) => return voxel_map_distance(m, pose_a, other, pose_b, cutoff),
        (other, Shape::VoxelMap(m)) => return voxel_map_distance(m, pose_b, other, pose_a, cutoff).map(swapped),
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => mesh_mesh_distance(ma, pose_a, mb, pose_b, cutoff),
        (Shape::TriMesh(m), convex) => mesh_convex_distance(m, pose_a, convex, pose_b, cutoff),
        (convex, Shape::TriMesh(m)) => mesh_convex_distance(m, pose_b, convex, pose_a, cutoff).map(swapped),
        (ca, cb) => {
            let (sa, sb) = (ca.as_support_map()?, cb.as_support_map()?);
            Some(gjk::closest_points(sa, pose_a, sb, pose_b)).filter(|cp| cp.distance < cutoff)
        }
    };
    let with_mesh = matches!(a, Shape::TriMesh(_)) || matches!(b, Shape::TriMesh(_));
    let contact = |p: Point3| ClosestPoints { distance: 0.0, point_a: p, point_b: p };
    match found {
        // Surfaces apart: one solid may still hold the other.
        Some(cp) if cp.distance > 0.0 && with_mesh => Some(intersection_point(a, pose_a, b, pose_b).map_or(cp, contact)),
        // No surface within the cutoff (above 0, so the surfaces are apart): one solid
        // may still hold the other, and then the distance is 0, below any cutoff.
        None if with_mesh && cutoff > 0.0 => containment_point(a, pose_a, b, pose_b).map(contact),
        None if with_mesh => intersection_point(a, pose_a, b, pose_b).map(contact),
        other => other,
    }
}

pub(crate) fn swapped(cp: ClosestPoints) -> ClosestPoints {
    ClosestPoints { distance: cp.distance, point_a: cp.point_b, point_b: cp.point_a }
}

/// How close to a node box's distance its lower bound must come before the branch and
/// bound takes it (a share of the distance): any proven lower bound keeps the search
/// exact, a looser one only opens more nodes, and GJK reaches a curved shape's distance
/// only linearly.
const NODE_BOUND_PRECISION: Real = 0.05;

/// A proven lower bound of the distance of a node's box (`a` placed by `pose_a`) to a
/// convex shape (`b` placed by `pose_b`), and the plane that proves it (its unit normal
/// from `b` towards `a`, zero where there is none), for a branch and bound that prunes
/// at `enough`; `None` where the bound reaches `enough`. The gap along the parent's
/// plane (`parent_normal`) comes first: a child lies in its parent, so that plane often
/// prunes it without GJK.
fn node_bound(a: &Cuboid, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3, parent_normal: &Vector3, enough: Real) -> Option<(Real, Vector3)> {
    if *parent_normal != Vector3::zeros() && gjk::gap_along(a, pose_a, b, pose_b, parent_normal) >= enough {
        return None;
    }
    let plane = gjk::separating_plane_enough(a, pose_a, b, pose_b, enough, NODE_BOUND_PRECISION, parent_normal);
    let bound = plane.gap.max(0.0);
    (bound < enough).then_some((bound, plane.normal))
}

/// A node box as a cuboid and its pose in the owner's frame.
fn node_cuboid(obb: &Obb) -> (Cuboid, Isometry3) {
    (Cuboid { half_extents: obb.half_extents }, obb.frame())
}
