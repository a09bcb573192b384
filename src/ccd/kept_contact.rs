//! The discrete test at an instant of a time cell the solver has refined to its time
//! tolerance, where it bisects for the first time of contact. Every leaf pair the solver
//! did not keep over the cell is proven apart over all of it, so at any instant of the
//! cell two elements touch only at a leaf pair it kept, or where one solid holds the
//! other with no surfaces meeting (the containment test the plain test ends with): the
//! plain test's answer from the few leaves kept, rather than a descent of both
//! hierarchies at every step of the bisection. The solver descends the hierarchies on
//! that last cell (above it, a mesh whose hull is apart at a cell's start is kept whole:
//! time is refined before geometry); a pair that still has hierarchy nodes there (its
//! work over budget) gets the plain test.
//!
//! The answers are the plain test's but where a triangle within GJK's 1e-12 of touching
//! a primitive counts as touching (the plain test's boxes set it aside first): a time of
//! entry then comes earlier, within the bisection's width; exits and depths are the
//! same bit for bit.
use crate::collision::Element;
use crate::math::{Isometry3, Point3};
use crate::motion_bounds::element_nodes::leaf_triangle;
use crate::query::intersection::{containment_point, intersection_point, triangle_convex_intersection};
use crate::query::triangle_triangle::triangles_intersect;
use crate::shape::Shape;

/// What the solver kept of one element pair over a cell.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Kept {
    /// Only leaf pairs (leaf node indices of each element's hierarchy; for a primitive,
    /// its own index), of a mesh against a mesh or a convex primitive: the pair touches
    /// at one of these or by containment.
    Leaves(Vec<(u32, u32)>),
    /// Hierarchy nodes not descended yet, or shapes the leaves do not serve (voxel maps,
    /// two primitives): the plain test.
    Whole,
}

impl Kept {
    /// Whether leaves of a pair of these shapes can be tested on their own.
    pub(super) fn serves(a: &Shape, b: &Shape) -> bool {
        match (a, b) {
            (Shape::TriMesh(_), Shape::TriMesh(_)) => true,
            (Shape::TriMesh(_), convex) | (convex, Shape::TriMesh(_)) => convex.as_support_map().is_some() && !matches!(convex, Shape::VoxelMap(_)),
            _ => false,
        }
    }
}

/// A common world point of two elements at the poses given, if they touch, from what the
/// solver kept of them over a cell holding this instant.
pub(super) fn contact_among_kept(ea: &Element, pose_a: &Isometry3, eb: &Element, pose_b: &Isometry3, kept: &Kept) -> Option<Point3> {
    let Kept::Leaves(leaves) = kept else {
        return intersection_point(&ea.shape, pose_a, &eb.shape, pose_b);
    };
    let b_in_a = pose_a.inv_mul(pose_b);
    let touching = leaves.iter().find_map(|&(a, b)| match (&ea.shape, &eb.shape) {
        (Shape::TriMesh(_), Shape::TriMesh(_)) => {
            let tri_b = leaf_triangle(eb, b).map(|p| b_in_a * p);
            triangles_intersect(&leaf_triangle(ea, a), &tri_b).map(|p| pose_a * p)
        }
        (Shape::TriMesh(_), convex) => triangle_convex_intersection(&leaf_triangle(ea, a), convex, &b_in_a).map(|p| pose_a * p),
        (convex, Shape::TriMesh(_)) => triangle_convex_intersection(&leaf_triangle(eb, b), convex, &pose_b.inv_mul(pose_a)).map(|p| pose_b * p),
        _ => unreachable!("leaves are kept only of the shapes they serve"),
    });
    touching.or_else(|| containment_point(&ea.shape, pose_a, &eb.shape, pose_b))
}
