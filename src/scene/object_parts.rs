//! The parts of a collision object, as both the scene file and the node's
//! `moveit_msgs/CollisionObject` give them: a solid primitive from its type and
//! `shape_msgs/SolidPrimitive` dimensions, and a pose from a position and a quaternion.
use crate::math::{Isometry3, Real, Translation3, UnitQuaternion, Vector3};
use crate::shape::{Ball, Cone, Cuboid, Cylinder, Shape};

/// A solid primitive's type (`shape_msgs/SolidPrimitive`'s, which scene files name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PrimitiveKind {
    Box,
    Sphere,
    Cylinder,
    Cone,
}

impl PrimitiveKind {
    /// The kind a scene file's `type` names (`box`, `sphere`, `cylinder`, `cone`); `None`
    /// for a type that is not a primitive.
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "box" => Some(PrimitiveKind::Box),
            "sphere" => Some(PrimitiveKind::Sphere),
            "cylinder" => Some(PrimitiveKind::Cylinder),
            "cone" => Some(PrimitiveKind::Cone),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            PrimitiveKind::Box => "box",
            PrimitiveKind::Sphere => "sphere",
            PrimitiveKind::Cylinder => "cylinder",
            PrimitiveKind::Cone => "cone",
        }
    }

    /// How many dimensions it takes.
    fn dimension_count(self) -> usize {
        match self {
            PrimitiveKind::Box => 3,
            PrimitiveKind::Sphere => 1,
            PrimitiveKind::Cylinder | PrimitiveKind::Cone => 2,
        }
    }
}

/// The primitive `kind` with its dimensions: box `[x, y, z]`; sphere `[radius]`; cylinder
/// and cone [height, radius], axis along z. `Err` for wrong dimensions.
pub fn solid_primitive(kind: PrimitiveKind, dimensions: &[Real]) -> Result<Shape, PrimitiveError> {
    let count = kind.dimension_count();
    let d = dimensions;
    if d.len() != count {
        return Err(PrimitiveError::DimensionCount { kind, needed: count, found: d.len() });
    }
    if let Some(v) = d.iter().find(|v| !(v.is_finite() && **v > 0.0)) {
        return Err(PrimitiveError::NotPositive(*v));
    }
    Ok(match kind {
        PrimitiveKind::Box => Shape::Cuboid(Cuboid { half_extents: Vector3::new(d[0], d[1], d[2]) * 0.5 }),
        PrimitiveKind::Sphere => Shape::Ball(Ball { radius: d[0] }),
        PrimitiveKind::Cylinder => Shape::Cylinder(Cylinder { half_height: d[0] * 0.5, radius: d[1] }),
        PrimitiveKind::Cone => Shape::Cone(Cone { half_height: d[0] * 0.5, radius: d[1] }),
    })
}

/// Why a solid primitive's dimensions were refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PrimitiveError {
    #[error("a {} needs {needed} dimensions, found {found}", kind.name())]
    DimensionCount { kind: PrimitiveKind, needed: usize, found: usize },
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
