//! The static scene: collision objects placed in the robot's root frame.
mod file;
mod object_parts;
pub mod octomap_stream;

pub use file::{load_scene, parse_scene};
pub use object_parts::{PoseError, PrimitiveError, PrimitiveKind, pose_from_parts, solid_primitive};

use crate::math::Isometry3;
use crate::shape::Shape;

/// One collision object (`moveit_msgs/CollisionObject` with one shape).
#[derive(Clone, Debug)]
pub struct Obstacle {
    pub id: String,
    pub shape: Shape,
    pub pose: Isometry3,
}

#[derive(Clone, Debug, Default)]
pub struct Scene {
    pub frame_id: Option<String>,
    pub objects: Vec<Obstacle>,
}
