//! The translational depth of any two element shapes (meshes too): where both are
//! convex, [`penetration_depth`] of the two; where a mesh is involved, the largest depth
//! over its triangles that meet the other shape (as coal measures a mesh's
//! penetration), descending the OBB tree only where its boxes meet the other's box, and
//! giving EPA only the triangles whose [`overlap_bound`] can beat the deepest found; where
//! a voxel map is involved, the largest depth over its cubes that meet the other shape
//! ([`super::voxel_map_depth`]).
use super::voxel_map_depth::voxel_map_penetration;
use super::overlap_bound::{overlap_bound, Part};
use super::{penetration_depth, Penetration};
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Real};
use crate::partitioning::NodeContent;
use crate::shape::{Shape, TriMesh, TriangleShape};

/// The depth of two placed shapes; `None` when they do not intersect.
pub fn shape_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<Penetration> {
    match (a, b) {
        (Shape::VoxelMap(m), other) => voxel_map_penetration(m, pose_a, other, pose_b, true),
        (other, Shape::VoxelMap(m)) => voxel_map_penetration(m, pose_b, other, pose_a, false),
        _ => deepest_features(a, pose_a, b, pose_b).map(|(p, _)| p),
    }
}

/// Where a depth between two shapes comes from: the triangle of each mesh whose depth
/// it is (`None` for a convex shape, which counts whole).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DepthFeatures {
    pub a: Option<u32>,
    pub b: Option<u32>,
}

/// The depth of two placed shapes (meshes and convex shapes; not voxel maps, `None`)
/// and the triangles it comes from; `None` when they do not intersect. The triangles (or
/// triangle pairs) whose boxes meet the other shape are measured in the order of their
/// [`overlap_bound`]s, as long as a bound can beat the deepest found.
pub fn deepest_features(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3) -> Option<(Penetration, DepthFeatures)> {
    let features = |a, b| DepthFeatures { a, b };
    let world = |mesh: &TriMesh, pose: &Isometry3, t: u32| mesh.triangle(t).map(|p| pose * p);
    match (a, b) {
        (Shape::VoxelMap(_), _) | (_, Shape::VoxelMap(_)) => None,
        (Shape::TriMesh(ma), Shape::TriMesh(mb)) => {
            let mut candidates = Vec::new();
            for (ta, box_a) in triangles_meeting(ma, pose_a, &b.local_obb(), pose_b) {
                let tri_a = world(ma, pose_a, ta);
                for (tb, _) in triangles_meeting(mb, pose_b, &box_a, pose_a) {
                    candidates.push((overlap_bound(&Part::Triangle(tri_a), &Part::Triangle(world(mb, pose_b, tb))), (ta, tb)));
                }
            }
            let depth = |(ta, tb): (u32, u32)| penetration_depth(&TriangleShape(&ma.triangle(ta)), pose_a, &TriangleShape(&mb.triangle(tb)), pose_b);
            deepest_by_bound(candidates, depth).map(|(p, (ta, tb))| (p, features(Some(ta), Some(tb))))
        }
        (Shape::TriMesh(m), convex) => {
            let sb = convex.as_support_map()?;
            let candidates = triangles_meeting(m, pose_a, &convex.local_obb(), pose_b).into_iter().map(|(t, _)| (overlap_bound(&Part::Triangle(world(m, pose_a, t)), &Part::Convex(sb, pose_b)), t)).collect();
            deepest_by_bound(candidates, |t| penetration_depth(&TriangleShape(&m.triangle(t)), pose_a, sb, pose_b)).map(|(p, t)| (p, features(Some(t), None)))
        }
        (convex, Shape::TriMesh(m)) => {
            let sa = convex.as_support_map()?;
            let candidates = triangles_meeting(m, pose_b, &convex.local_obb(), pose_a).into_iter().map(|(t, _)| (overlap_bound(&Part::Convex(sa, pose_a), &Part::Triangle(world(m, pose_b, t))), t)).collect();
            deepest_by_bound(candidates, |t| penetration_depth(sa, pose_a, &TriangleShape(&m.triangle(t)), pose_b)).map(|(p, t)| (p, features(None, Some(t))))
        }
        (ca, cb) => Some((penetration_depth(ca.as_support_map()?, pose_a, cb.as_support_map()?, pose_b)?, features(None, None))),
    }
}

/// The deepest of the candidates, each an upper bound of its depth and what names it:
/// measured by `depth` deepest bound first, while a bound is above the deepest found.
fn deepest_by_bound<T: Copy>(mut candidates: Vec<(Real, T)>, mut depth: impl FnMut(T) -> Option<Penetration>) -> Option<(Penetration, T)> {
    candidates.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut deepest: Option<(Penetration, T)> = None;
    for (bound, item) in candidates {
        if bound <= 0.0 || deepest.as_ref().is_some_and(|d| bound <= d.0.depth) {
            break;
        }
        if let Some(p) = depth(item)
            && deepest.as_ref().is_none_or(|d| p.depth > d.0.depth)
        {
            deepest = Some((p, item));
        }
    }
    deepest
}

/// The depth of the given features alone: the named triangle of each mesh, a convex
/// shape whole (at most the shapes' depth, and equal to it where the features are the
/// deepest); `None` when they do not intersect, or the features do not fit the shapes.
pub fn features_penetration(a: &Shape, pose_a: &Isometry3, b: &Shape, pose_b: &Isometry3, features: DepthFeatures) -> Option<Penetration> {
    let triangle = |shape: &Shape, t: Option<u32>| match (shape, t) {
        (Shape::TriMesh(m), Some(t)) if (t as usize) < m.triangle_indices().len() => Some(m.triangle(t)),
        _ => None,
    };
    match (triangle(a, features.a), triangle(b, features.b)) {
        (Some(ta), Some(tb)) => penetration_depth(&TriangleShape(&ta), pose_a, &TriangleShape(&tb), pose_b),
        (Some(ta), None) if features.b.is_none() => penetration_depth(&TriangleShape(&ta), pose_a, b.as_support_map()?, pose_b),
        (None, Some(tb)) if features.a.is_none() => penetration_depth(a.as_support_map()?, pose_a, &TriangleShape(&tb), pose_b),
        (None, None) if features == (DepthFeatures { a: None, b: None }) => penetration_depth(a.as_support_map()?, pose_a, b.as_support_map()?, pose_b),
        _ => None,
    }
}

/// The mesh's triangles whose tree boxes meet `other` (a box in the frame that
/// `pose_other` places), each with its own box in the mesh frame.
fn triangles_meeting(mesh: &TriMesh, pose: &Isometry3, other: &Obb, pose_other: &Isometry3) -> Vec<(u32, Obb)> {
    let other_in_mesh = pose.inv_mul(pose_other);
    let nodes = mesh.obb_tree().nodes();
    let mut found = Vec::new();
    let mut stack = if nodes.is_empty() { Vec::new() } else { vec![0u32] };
    while let Some(i) = stack.pop() {
        let node = &nodes[i as usize];
        if !node.obb.intersects(other, &other_in_mesh) {
            continue;
        }
        match node.content {
            NodeContent::Children(l, r) => stack.extend([l, r]),
            NodeContent::Triangle(t) => found.push((t, Obb::from_aabb(&Aabb::from_points(mesh.triangle(t).iter()).loosened(Real::EPSILON)))),
        }
    }
    found
}
