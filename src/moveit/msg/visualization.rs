//! `visualization_msgs`: rviz markers.
use super::geometry::{Point, Pose, Vector3};
use super::sensor::CompressedImage;
use super::std::{ColorRgba, Duration, Header};
use serde::{Deserialize, Serialize};

/// `visualization_msgs/msg/UVCoordinate`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct UvCoordinate {
    pub u: f32,
    pub v: f32,
}

/// `visualization_msgs/msg/MeshFile`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MeshFile {
    pub filename: String,
    pub data: Vec<u8>,
}

/// `visualization_msgs/msg/Marker`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Marker {
    pub header: Header,
    pub ns: String,
    pub id: i32,
    #[serde(rename = "type")]
    pub kind: i32,
    pub action: i32,
    pub pose: Pose,
    pub scale: Vector3,
    pub color: ColorRgba,
    pub lifetime: Duration,
    pub frame_locked: bool,
    pub points: Vec<Point>,
    pub colors: Vec<ColorRgba>,
    pub texture_resource: String,
    pub texture: CompressedImage,
    pub uv_coordinates: Vec<UvCoordinate>,
    pub text: String,
    pub mesh_resource: String,
    pub mesh_file: MeshFile,
    pub mesh_use_embedded_materials: bool,
}

impl Marker {
    pub const ARROW: i32 = 0;
    pub const CUBE: i32 = 1;
    pub const SPHERE: i32 = 2;
    pub const CYLINDER: i32 = 3;
    pub const LINE_LIST: i32 = 5;
    pub const CUBE_LIST: i32 = 6;
    pub const SPHERE_LIST: i32 = 7;
    pub const TEXT_VIEW_FACING: i32 = 9;
    pub const MESH_RESOURCE: i32 = 10;
    pub const TRIANGLE_LIST: i32 = 11;

    pub const ADD: i32 = 0;
    pub const DELETE: i32 = 2;
    pub const DELETEALL: i32 = 3;
}

/// `visualization_msgs/msg/MarkerArray`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MarkerArray {
    pub markers: Vec<Marker>,
}
