//! Distance of a mesh's surface and a voxel map's cubes: a best-first branch and bound
//! over pairs of nodes of both hierarchies at once (Lin 1993 §4.1), the
//! mesh's OBB tree against the map's box hierarchy, with the exact distance of a
//! triangle and a cube at the leaves. Each pair of nodes is bounded below by the gap of
//! the two boxes along the map's axes and the mesh box's own axes, so a cube far from
//! the mesh's triangles never meets them one by one.
use crate::bounding_volume::{Aabb, Obb};
use crate::math::{Isometry3, Real, Vector3};
use crate::partitioning::NodeContent;
use crate::query::gjk::{self, ClosestPoints};
use crate::shape::{TriMesh, TriangleShape, VoxelMap, VoxelNodeContent};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The closest points of the mesh's triangles and the map's cubes (world frame:
/// `point_a` on the map, `point_b` on the mesh) if closer than `cutoff`.
pub fn mesh_voxel_map_distance(map: &VoxelMap, pose_map: &Isometry3, mesh: &TriMesh, pose_mesh: &Isometry3, cutoff: Real) -> Option<ClosestPoints> {
    let nodes = mesh.obb_tree().nodes();
    if map.is_empty() || nodes.is_empty() {
        return None;
    }
    let mesh_in_map = pose_map.inv_mul(pose_mesh);
    let map_in_mesh = mesh_in_map.inverse();
    let rotation = *mesh_in_map.rotation.to_rotation_matrix().matrix();
    // A mesh node's box in the map's frame.
    let placed = |i: u32| {
        let obb = &nodes[i as usize].obb;
        Obb { center: mesh_in_map * obb.center, axes: rotation * obb.axes, half_extents: obb.half_extents }
    };
    // Lower bounds as the bits of non-negative floats, which order as the floats do.
    let key = |bound: Real| Reverse(bound.max(0.0).to_bits());
    let mut best: Option<ClosestPoints> = None;
    let mut limit = cutoff;
    let mut heap = BinaryHeap::from([(key(0.0), 0u32, 0u32)]);
    while let Some((Reverse(lower), i, n)) = heap.pop() {
        if Real::from_bits(lower) >= limit {
            break;
        }
        match (nodes[i as usize].content, map.node_content(n)) {
            (NodeContent::Triangle(t), VoxelNodeContent::Voxel(v)) => {
                let (cube, at) = map.voxel_cuboid(v);
                let cp = gjk::closest_points(&TriangleShape(&mesh.triangle(t)), &Isometry3::identity(), &cube, &(map_in_mesh * at));
                if cp.distance < limit {
                    limit = cp.distance;
                    best = Some(ClosestPoints { distance: cp.distance, point_a: pose_mesh * cp.point_b, point_b: pose_mesh * cp.point_a });
                    if limit <= 0.0 {
                        break;
                    }
                }
            }
            (mesh_node, map_node) => {
                let (mesh_box, map_box) = (placed(i), map.node_aabb(n));
                // Split the larger box (a leaf is never split).
                let children: [(u32, u32); 2] = match (mesh_node, map_node) {
                    (NodeContent::Children(l, r), VoxelNodeContent::Children(..))
                        if mesh_box.half_extents.norm_squared() >= map_box.half_extents().norm_squared() =>
                    {
                        [(l, n), (r, n)]
                    }
                    (_, VoxelNodeContent::Children(l, r)) => [(i, l), (i, r)],
                    (NodeContent::Children(l, r), _) => [(l, n), (r, n)],
                    (NodeContent::Triangle(_), VoxelNodeContent::Voxel(_)) => unreachable!("two leaves are measured above"),
                };
                for (ci, cn) in children {
                    let bound = if ci != i { box_gap(&placed(ci), &map_box) } else { box_gap(&mesh_box, &map.node_aabb(cn)) };
                    if bound < limit {
                        heap.push((key(bound), ci, cn));
                    }
                }
            }
        }
    }
    best
}

/// A lower bound of the distance between an oriented box and an axis-aligned one (same
/// frame): the larger of the distance between the oriented box's axis-aligned bounds
/// and the other box, and the largest gap along the oriented box's own axes; lowered
/// past its own rounding.
pub(crate) fn box_gap(obb: &Obb, aabb: &Aabb) -> Real {
    let d = obb.center - aabb.center();
    let e = aabb.half_extents();
    let abs_axes = obb.axes.abs();
    // Along the map's axes the oriented box reaches |axes| · half extents.
    let reach: Vector3 = abs_axes * obb.half_extents;
    let along_map = (d.abs() - reach - e).map(|g| g.max(0.0)).norm();
    let along_own = (0..3).map(|k| obb.axes.column(k).dot(&d).abs() - obb.half_extents[k] - abs_axes.column(k).dot(&e)).fold(0.0, Real::max);
    let scale = d.abs().sum() + reach.sum() + e.sum() + obb.center.coords.abs().sum();
    along_map.max(along_own) - 1e-12 * (1.0 + scale)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Point3, UnitQuaternion};
    use crate::shape::Cuboid;

    /// The bound never exceeds the boxes' distance (GJK on the two boxes).
    #[test]
    fn box_gap_is_a_lower_bound() {
        let mut next = crate::math::test_uniform(7);
        let mut positive = 0;
        for _ in 0..2000 {
            let axes = UnitQuaternion::from_euler_angles(6.0 * next(), 6.0 * next(), 6.0 * next()).to_rotation_matrix().into_inner();
            let obb = Obb {
                center: Point3::new(next() - 0.5, next() - 0.5, next() - 0.5),
                axes,
                half_extents: Vector3::new(0.3 * next(), 0.2 * next(), 0.1 * next()),
            };
            let min = Point3::new(next() - 0.5, next() - 0.5, next() - 0.5);
            let aabb = Aabb::new(min, min + Vector3::new(0.2 * next(), 0.3 * next(), 0.1 * next()));
            let centre = aabb.center();
            let exact = gjk::closest_points(
                &Cuboid { half_extents: obb.half_extents },
                &obb.frame(),
                &Cuboid { half_extents: aabb.half_extents() },
                &Isometry3::translation(centre.x, centre.y, centre.z),
            )
            .distance;
            let bound = box_gap(&obb, &aabb);
            assert!(bound <= exact, "bound {bound} above the distance {exact}");
            positive += (bound > 0.5 * exact) as usize;
        }
        // And it is a useful bound, not 0 everywhere.
        assert!(positive > 1000, "{positive} of 2000 bounds above half the distance");
    }
}
