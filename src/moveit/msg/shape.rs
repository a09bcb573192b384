//! `shape_msgs`: solid primitives, meshes and planes of collision objects.
use super::geometry::{Point, Polygon};
use serde::{Deserialize, Serialize};

/// `shape_msgs/msg/SolidPrimitive`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SolidPrimitive {
    /// `BOX`, `SPHERE`, `CYLINDER`, `CONE` or `PRISM`.
    #[serde(rename = "type")]
    pub kind: u8,
    /// At most 3 (`float64[<=3]`): box `[x, y, z]`; sphere `[radius]`; cylinder and cone
    /// `[height, radius]`; prism `[height]`.
    pub dimensions: Vec<f64>,
    /// The prism's cross-section.
    pub polygon: Polygon,
}

impl SolidPrimitive {
    pub const BOX: u8 = 1;
    pub const SPHERE: u8 = 2;
    pub const CYLINDER: u8 = 3;
    pub const CONE: u8 = 4;
    pub const PRISM: u8 = 5;
}

/// `shape_msgs/msg/MeshTriangle`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MeshTriangle {
    pub vertex_indices: [u32; 3],
}

/// `shape_msgs/msg/Mesh`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Mesh {
    pub triangles: Vec<MeshTriangle>,
    pub vertices: Vec<Point>,
}

/// `shape_msgs/msg/Plane`: `coef[0]·x + coef[1]·y + coef[2]·z + coef[3] = 0`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Plane {
    pub coef: [f64; 4],
}
