//! Shapes of collision geometry, each in its own local frame.
//!
//! Primitives follow `shape_msgs/SolidPrimitive` and URDF conventions: centred at the
//! origin, axis of revolution along z. Primitives are solid; triangle meshes are
//! surfaces, with solid containment added where a mesh is closed (see
//! [`crate::query::intersection`]).
mod primitives;
mod support_map;
mod trimesh;
mod voxel_map;

pub use primitives::{Ball, Capsule, Cone, Cuboid, Cylinder};
pub use support_map::{SCANNED_VERTICES, SupportMap, TriangleShape, VertexGraph, farthest_along, hill_climb, support_aabb};
pub use trimesh::{MeshError, MeshHull, ReducedHull, TriMesh};
pub use voxel_map::{KEY_CENTRE, TREE_DEPTH, Voxel, VoxelMap, VoxelMapError, VoxelNodeContent, placed_aabb};

use crate::bounding_volume::{Aabb, Obb};
use crate::math::Point3;
use std::sync::Arc;

/// One piece of collision geometry.
#[derive(Clone, Debug)]
pub enum Shape {
    Cuboid(Cuboid),
    Ball(Ball),
    Cylinder(Cylinder),
    Cone(Cone),
    Capsule(Capsule),
    TriMesh(Arc<TriMesh>),
    /// The occupied cubes of an octomap, solid (always an obstacle).
    VoxelMap(Arc<VoxelMap>),
}

impl Shape {
    /// Box in the shape's own frame.
    pub fn local_aabb(&self) -> Aabb {
        match self {
            Shape::TriMesh(mesh) => mesh.local_aabb(),
            Shape::VoxelMap(map) => map.local_aabb(),
            convex => support_aabb(convex.as_support_map().expect("primitives are convex"), &crate::math::Isometry3::identity()),
        }
    }

    /// Oriented box in the shape's own frame (the root box of a mesh's hierarchy).
    pub fn local_obb(&self) -> Obb {
        match self {
            Shape::TriMesh(mesh) => mesh.obb_tree().root_obb(),
            Shape::VoxelMap(map) if !map.is_empty() => map.node_obb(0),
            _ => Obb::from_aabb(&self.local_aabb()),
        }
    }

    /// The shape as a convex support map, `None` for meshes and voxel maps.
    pub fn as_support_map(&self) -> Option<&dyn SupportMap> {
        match self {
            Shape::Cuboid(s) => Some(s),
            Shape::Ball(s) => Some(s),
            Shape::Cylinder(s) => Some(s),
            Shape::Cone(s) => Some(s),
            Shape::Capsule(s) => Some(s),
            Shape::TriMesh(_) | Shape::VoxelMap(_) => None,
        }
    }

    /// Whether a point given in the shape's frame lies in the solid (closed) shape.
    /// Open meshes contain no point.
    pub fn contains_local_point(&self, p: &Point3) -> bool {
        match self {
            Shape::Cuboid(s) => s.contains_point(p),
            Shape::Ball(s) => s.contains_point(p),
            Shape::Cylinder(s) => s.contains_point(p),
            Shape::Cone(s) => s.contains_point(p),
            Shape::Capsule(s) => s.contains_point(p),
            Shape::TriMesh(m) => m.contains_point(p),
            Shape::VoxelMap(m) => m.contains_point(p),
        }
    }

    /// A short name for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Shape::Cuboid(_) => "box",
            Shape::Ball(_) => "sphere",
            Shape::Cylinder(_) => "cylinder",
            Shape::Cone(_) => "cone",
            Shape::Capsule(_) => "capsule",
            Shape::TriMesh(_) => "mesh",
            Shape::VoxelMap(_) => "octomap",
        }
    }
}
