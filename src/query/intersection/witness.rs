//! Intersection along a march: a motion sampled step by step meets the same triangles
//! sample after sample, so the triangle (or triangle pair) that touched last is tested
//! first (the same exact leaf test), then the triangles across its edges (where a
//! contact sliding over the surface went), and the whole descent runs only where none
//! of them touches: most of an exit march's descents that would find a contact are
//! spared, with the same events and depths bit for bit. Where one solid held the other
//! last time with no surfaces meeting (an obstacle inside a link's closed mesh, or one
//! mesh inside another; a mesh inside a primitive has a triangle meeting the solid
//! primitive as its witness), the containment test comes first: the descent would walk
//! every node to find no surface and end in the same test. Whether the shapes touch is
//! answered as [`super::intersection_point`] answers it, the witness or not: a witness
//! that touches (or holds) proves contact, one that does not proves nothing. The common
//! point may be another one than the descent's.
use super::mesh_convex::{mesh_convex_containment, mesh_convex_touch};
use super::mesh_mesh::{mesh_mesh_containment, mesh_mesh_touch};
use super::{intersection_point, triangle_convex_intersection};
use crate::math::{Isometry3, Point3};
use crate::query::triangle_triangle::triangles_intersect;
use crate::shape::{Shape, TriMesh};

/// What touched when two shapes were last found intersecting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TouchWitness {
    /// Nothing to try first.
    #[default]
    Unknown,
    /// A triangle of the mesh (against a convex shape, whichever side the mesh is on).
    Triangle(u32),
    /// A triangle of the first mesh and one of the second.
    TrianglePair(u32, u32),
    /// One solid held the other, no surfaces meeting.
    Contained,
}

impl TouchWitness {
    /// What a descent found: the triangles that touch, else (touching with none) a
    /// containment.
    fn found<T>(point: Option<Point3>, touched: Option<Option<T>>, triangles: impl FnOnce(T) -> Self) -> Self {
        match (point, touched.flatten()) {
            (_, Some(t)) => triangles(t),
            (Some(_), None) => TouchWitness::Contained,
            (None, None) => TouchWitness::Unknown,
        }
    }
}

/// The witness triangle `t` of `mesh` (if it has one), then the triangles across its
/// edges: where a contact slides over the surface, where it went.
fn around(mesh: &TriMesh, t: u32) -> impl Iterator<Item = u32> + '_ {
    std::iter::once(t).chain(mesh.try_triangle(t).is_some().then(|| mesh.edge_neighbours(t)).into_iter().flatten())
}

/// A world point shared by both shapes if they intersect (exactly when
/// [`intersection_point`] finds one), trying `witness` first and leaving there what
/// touched this time.
pub fn intersection_point_witnessed(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3, witness: &mut TouchWitness) -> Option<Point3> {
    match (a, b) {
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => {
            let b_in_a = pose_a.inv_mul(pose_b);
            if let TouchWitness::TrianglePair(ta, tb) = *witness {
                for (ta, tb) in around(ma, ta).flat_map(|ta| around(mb, tb).map(move |tb| (ta, tb))) {
                    if let (Some(tri_a), Some(tri_b)) = (ma.try_triangle(ta), mb.try_triangle(tb))
                        && let Some(p) = triangles_intersect(&tri_a, &tri_b.map(|p| b_in_a * p))
                    {
                        *witness = TouchWitness::TrianglePair(ta, tb);
                        return Some(pose_a * p);
                    }
                }
            }
            if *witness == TouchWitness::Contained
                && let Some(p) = mesh_mesh_containment(ma, pose_a, mb, pose_b)
            {
                return Some(p);
            }
            let (point, touched) = mesh_mesh_touch(ma, pose_a, mb, pose_b).unzip();
            *witness = TouchWitness::found(point, touched, |(ta, tb)| TouchWitness::TrianglePair(ta, tb));
            point
        }
        (Shape::TriMesh(m), convex) | (convex, Shape::TriMesh(m)) if !matches!(convex, Shape::VoxelMap(_)) => {
            let (pose_mesh, pose_convex) = if matches!(a, Shape::TriMesh(_)) { (pose_a, pose_b) } else { (pose_b, pose_a) };
            if let TouchWitness::Triangle(t) = *witness {
                let convex_in_mesh = pose_mesh.inv_mul(pose_convex);
                for t in around(m, t) {
                    if let Some(triangle) = m.try_triangle(t)
                        && let Some(p) = triangle_convex_intersection(&triangle, convex, &convex_in_mesh)
                    {
                        *witness = TouchWitness::Triangle(t);
                        return Some(pose_mesh * p);
                    }
                }
            }
            if *witness == TouchWitness::Contained
                && let Some(p) = mesh_convex_containment(m, pose_mesh, convex, pose_convex)
            {
                return Some(p);
            }
            let (point, touched) = mesh_convex_touch(m, pose_mesh, convex, pose_convex).unzip();
            *witness = TouchWitness::found(point, touched, TouchWitness::Triangle);
            point
        }
        _ => intersection_point(a, pose_a, b, pose_b),
    }
}
