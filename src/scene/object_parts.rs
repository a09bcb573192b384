//! The parts of a collision object, as both the scene file and the node's
//! `moveit_msgs/CollisionObject` give them: a solid primitive from its type and
//! `shape_msgs/SolidPrimitive` dimensions, and a pose from a position and a quaternion.
use crate::math::{Isometry3, Real, Translation3, UnitQuaternion, Vector3};
use crate::shape::{Ball, Cone, Cuboid, Cylinder, Shape};

/// The primitive `kind` (box, sphere, cylinder, cone) with its dimensions: box
/// [x, y, z]; sphere [radius]; cylinder and cone [height, radius], axis along z.
/// `None` for a kind that is not a primitive; `Err` for wrong dimensions.
pub fn solid_primitive(kind: &str, dimensions: &[Real]) -> Option<Result<Shape, PrimitiveError>> {
    let count = match kind {
        "box" => 3,
        "sphere" => 1,
        "cylinder" | "cone" => 2,
        _ => return None,
    };
    let d = dimensions;
    if d.len() != count {
        return Some(Err(PrimitiveError::DimensionCount { kind: kind.to_string(), needed: count, found: d.len() }));
    }
    if let Some(v) = d.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
        return Some(Err(PrimitiveError::NotPositive(*v)));
    }
    Some(Ok(match kind {
        "box" => Shape::Cuboid(Cuboid { half_extents: Vector3::new(d[0], d[1], d[2]) * 0.5 }),
        "sphere" => Shape::Ball(Ball { radius: d[0] }),
        "cylinder" => Shape::Cylinder(Cylinder { half_height: d[0] * 0.5, radius: d[1] }),
        _ => Shape::Cone(Cone { half_height: d[0] * 0.5, radius: d[1] }),
    }))
}

/// Why a solid primitive's dimensions were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PrimitiveError {
    #[error("a {kind} needs {needed} dimensions, found {found}")]
    DimensionCount { kind: String, needed: usize, found: usize },
    #[error("dimension {0} must be positive and finite")]
    NotPositive(Real),
}

/// Why a pose was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PoseError {
    #[error("pose has a value that is not finite")]
    NotFinite,
    /// The quaternion `[x, y, z, w]` is further than 1e-3 from unit norm.
    #[error("orientation [{}, {}, {}, {}] is not a unit quaternion (x, y, z, w)", .0[0], .0[1], .0[2], .0[3])]
    NotUnit([Real; 4]),
}

/// A pose from a position and a quaternion `[x, y, z, w]` (ROS order) of norm 1 within
/// 1e-3, normalized.
pub fn pose_from_parts(position: [Real; 3], [x, y, z, w]: [Real; 4]) -> Result<Isometry3, PoseError> {
    if position.iter().chain([x, y, z, w].iter()).any(|v| !v.is_finite()) {
        return Err(PoseError::NotFinite);
    }
    let q = nalgebra::Quaternion::new(w, x, y, z);
    if (q.norm() - 1.0).abs() > 1e-3 {
        return Err(PoseError::NotUnit([x, y, z, w]));
    }
    Ok(Isometry3::from_parts(Translation3::new(position[0], position[1], position[2]), UnitQuaternion::from_quaternion(q)))
}
