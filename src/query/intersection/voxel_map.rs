//! A voxel map against any other shape: the map's hierarchy is walked down to the
//! cubes whose boxes meet the other shape's box, and each such cube, a solid box, is
//! tested exactly against the shape (a shape inside a cube, or a closed mesh holding a
//! cube, counts as in the other pairs).
use super::intersection_point;
use crate::math::{Isometry3, Point3};
use crate::shape::{Shape, VoxelMap};

/// A world point shared by the map's occupied cubes and the other shape, if any.
pub fn voxel_map_intersection(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3) -> Option<Point3> {
    let other_in_map = pose_map.inv_mul(pose_other);
    let mut point = None;
    map.find_near(&other.local_obb(), &other_in_map, |v| {
        let (cube, at) = map.voxel_cuboid(v);
        point = intersection_point(&Shape::Cuboid(cube), &(pose_map * at), other, pose_other);
        point.is_some()
    });
    point
}

/// Every voxel of the map whose cube touches the other shape (what a contact touches).
pub fn voxels_touching(map: &VoxelMap, pose_map: &Isometry3, other: &Shape, pose_other: &Isometry3) -> Vec<u32> {
    let other_in_map = pose_map.inv_mul(pose_other);
    map.voxels_near(&other.local_obb(), &other_in_map)
        .into_iter()
        .filter(|&v| {
            let (cube, at) = map.voxel_cuboid(v);
            intersection_point(&Shape::Cuboid(cube), &(pose_map * at), other, pose_other).is_some()
        })
        .collect()
}
