//! The `ros2msg` schemas of what the audit writes to MCAP: a message's definition, then
//! each type it uses after a line of `=` and `MSG: package/Name`, as rosbag2 and
//! Foxglove write and read them. The definitions are ccd_guard's own `msg/` files and
//! the upstream ones of ROS 2 Jazzy (in `schemas/`), matching the layouts of
//! [`crate::moveit::msg`].

/// A message definition: the type's name and its text.
type Definition = (&'static str, &'static str);

const HEADER: Definition = ("std_msgs/Header", include_str!("schemas/std_msgs__Header.msg"));
const TIME: Definition = ("builtin_interfaces/Time", include_str!("schemas/builtin_interfaces__Time.msg"));
const DURATION: Definition = ("builtin_interfaces/Duration", include_str!("schemas/builtin_interfaces__Duration.msg"));
const POINT: Definition = ("geometry_msgs/Point", include_str!("schemas/geometry_msgs__Point.msg"));
const VECTOR3: Definition = ("geometry_msgs/Vector3", include_str!("schemas/geometry_msgs__Vector3.msg"));
const QUATERNION: Definition = ("geometry_msgs/Quaternion", include_str!("schemas/geometry_msgs__Quaternion.msg"));
const POSE: Definition = ("geometry_msgs/Pose", include_str!("schemas/geometry_msgs__Pose.msg"));
const COLOR: Definition = ("std_msgs/ColorRGBA", include_str!("schemas/std_msgs__ColorRGBA.msg"));
const IMAGE: Definition = ("sensor_msgs/CompressedImage", include_str!("schemas/sensor_msgs__CompressedImage.msg"));
const UV: Definition = ("visualization_msgs/UVCoordinate", include_str!("schemas/visualization_msgs__UVCoordinate.msg"));
const MESH_FILE: Definition = ("visualization_msgs/MeshFile", include_str!("schemas/visualization_msgs__MeshFile.msg"));
const MARKER: Definition = ("visualization_msgs/Marker", include_str!("schemas/visualization_msgs__Marker.msg"));
const MARKER_ARRAY: Definition = ("visualization_msgs/MarkerArray", include_str!("schemas/visualization_msgs__MarkerArray.msg"));
const CONTACT: Definition = ("ccd_guard/Contact", include_str!("../../msg/Contact.msg"));
const VERDICT: Definition = ("ccd_guard/CollisionVerdict", include_str!("../../msg/CollisionVerdict.msg"));

/// A schema to write: the type's ROS 2 name and its `ros2msg` text.
pub struct Schema {
    pub name: &'static str,
    pub text: String,
}

/// `ccd_guard/msg/CollisionVerdict`.
pub fn collision_verdict() -> Schema {
    ros2msg("ccd_guard/msg/CollisionVerdict", VERDICT, &[HEADER, TIME, CONTACT, POINT, VECTOR3])
}

/// `visualization_msgs/msg/MarkerArray` (Jazzy's Marker).
pub fn marker_array() -> Schema {
    ros2msg(
        "visualization_msgs/msg/MarkerArray",
        MARKER_ARRAY,
        &[MARKER, HEADER, TIME, POSE, POINT, QUATERNION, VECTOR3, COLOR, DURATION, IMAGE, UV, MESH_FILE],
    )
}

fn ros2msg(name: &'static str, top: Definition, uses: &[Definition]) -> Schema {
    let mut text = top.1.trim_end().to_string();
    for (used, definition) in uses {
        text.push_str(&format!("\n{}\nMSG: {used}\n{}", "=".repeat(80), definition.trim_end()));
    }
    text.push('\n');
    Schema { name, text }
}

#[cfg(test)]
mod tests {
    #[test]
    fn schemas_name_every_type_they_use_once() {
        let schema = super::marker_array();
        for used in ["visualization_msgs/Marker", "std_msgs/Header", "sensor_msgs/CompressedImage", "visualization_msgs/MeshFile"] {
            assert_eq!(schema.text.matches(&format!("MSG: {used}\n")).count(), 1, "{used}");
        }
        assert!(super::collision_verdict().text.starts_with("# "), "the definition first");
    }
}
