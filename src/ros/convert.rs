//! Messages into the product's types and back: trajectories, joint states, collision
//! objects' shapes and poses in, reports out. Every bad value is a clear error.
use super::msg;
use crate::check::Report;
use crate::error::InputError;
use crate::math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use nalgebra::Quaternion;
use crate::motion::{validate_trajectory, JointState, RawPoint, Trajectory};
use crate::shape::{Ball, Cone, Cuboid, Cylinder, Shape, TriMesh};
use std::sync::Arc;

/// A `JointTrajectory` as the checker's trajectory (`time_from_start` in seconds).
pub fn trajectory(message: &msg::JointTrajectory) -> Result<Trajectory, InputError> {
    let points = message
        .points
        .iter()
        .map(|p| RawPoint {
            positions: p.positions.clone(),
            velocities: p.velocities.clone(),
            accelerations: p.accelerations.clone(),
            time_from_start: p.time_from_start.seconds(),
        })
        .collect();
    validate_trajectory(message.joint_names.clone(), points)
}

/// A `JointState`'s names and positions (velocities and efforts are not used).
pub fn joint_state(message: &msg::JointState) -> Result<JointState, InputError> {
    JointState::validated(message.name.clone(), message.position.clone())
}

/// A pose message as an isometry: finite, with a quaternion of norm near 1 (MoveIt
/// normalizes; a zero quaternion is an error).
pub fn isometry(pose: &msg::Pose) -> Result<Isometry3, String> {
    let p = pose.position;
    let q = pose.orientation;
    if ![p.x, p.y, p.z, q.x, q.y, q.z, q.w].iter().all(|v| v.is_finite()) {
        return Err("a pose has a value that is not finite".into());
    }
    let quaternion = Quaternion::new(q.w, q.x, q.y, q.z);
    let norm = quaternion.norm();
    if (norm - 1.0).abs() > 1e-3 {
        return Err(format!("a pose's quaternion [{}, {}, {}, {}] has norm {norm}, not 1", q.x, q.y, q.z, q.w));
    }
    Ok(Isometry3::from_parts(Translation3::new(p.x, p.y, p.z), UnitQuaternion::new_normalize(quaternion)))
}

/// A solid primitive as a shape (`shape_msgs/SolidPrimitive` conventions: centred,
/// cylinder and cone along z with `[height, radius]`).
pub fn primitive_shape(primitive: &msg::SolidPrimitive) -> Result<Shape, String> {
    let d = &primitive.dimensions;
    let need = |n: usize, what: &str| -> Result<(), String> {
        if d.len() < n {
            return Err(format!("a {what} needs {n} dimensions, found {}", d.len()));
        }
        match d[..n].iter().find(|v| !(v.is_finite() && **v > 0.0)) {
            Some(v) => Err(format!("{what} dimension {v} must be positive and finite")),
            None => Ok(()),
        }
    };
    Ok(match primitive.kind {
        msg::SolidPrimitive::BOX => {
            need(3, "box")?;
            Shape::Cuboid(Cuboid { half_extents: Vector3::new(d[0], d[1], d[2]) * 0.5 })
        }
        msg::SolidPrimitive::SPHERE => {
            need(1, "sphere")?;
            Shape::Ball(Ball { radius: d[0] })
        }
        msg::SolidPrimitive::CYLINDER => {
            need(2, "cylinder")?;
            Shape::Cylinder(Cylinder { half_height: d[0] * 0.5, radius: d[1] })
        }
        msg::SolidPrimitive::CONE => {
            need(2, "cone")?;
            Shape::Cone(Cone { half_height: d[0] * 0.5, radius: d[1] })
        }
        msg::SolidPrimitive::PRISM => return Err("prism primitives are not supported (send the prism as a mesh)".into()),
        other => return Err(format!("unknown primitive type {other}")),
    })
}

/// A `shape_msgs/Mesh` as a triangle mesh.
pub fn mesh_shape(mesh: &msg::Mesh) -> Result<Shape, String> {
    let vertices: Vec<Point3> = mesh.vertices.iter().map(|v| Point3::new(v.x, v.y, v.z)).collect();
    if vertices.iter().any(|v| !v.coords.iter().all(|c| c.is_finite())) {
        return Err("a mesh vertex is not finite".into());
    }
    let triangles = mesh.triangles.iter().map(|t| t.vertex_indices).collect();
    Ok(Shape::TriMesh(Arc::new(TriMesh::new(vertices, triangles)?)))
}

/// The report as a `CollisionVerdict` (NaN and -1 for the report's nulls).
pub fn verdict(report: &Report, header: msg::Header, source: &str, trajectory_stamp: msg::Time) -> msg::CollisionVerdict {
    let contacts = report
        .contacts
        .iter()
        .map(|c| msg::Contact {
            link: c.link.clone(),
            other: c.other.clone(),
            time_of_contact: c.time_of_contact,
            time_of_separation: c.time_of_separation.unwrap_or(f64::NAN),
            point: msg::Point { x: c.point[0], y: c.point[1], z: c.point[2] },
            normal: c.normal.map_or(msg::Vector3 { x: f64::NAN, y: f64::NAN, z: f64::NAN }, |n| msg::Vector3 { x: n[0], y: n[1], z: n[2] }),
            max_penetration_depth: c.max_penetration_depth.unwrap_or(f64::NAN),
        })
        .collect();
    msg::CollisionVerdict {
        header,
        source: source.to_string(),
        trajectory_stamp,
        verdict: report.verdict.name().to_string(),
        certified: report.certified,
        method: report.method.clone(),
        time_of_contact: report.time_of_contact.unwrap_or(f64::NAN),
        segment_index: report.segment_index.map_or(-1, |i| i as i32),
        contacts,
        max_penetration_depth: report.max_penetration_depth.unwrap_or(f64::NAN),
        min_clearance: report.min_clearance.unwrap_or(f64::NAN),
        tolerance: report.tolerance,
        elapsed_ms: report.elapsed_ms,
        error: report.error.clone().unwrap_or_default(),
    }
}
