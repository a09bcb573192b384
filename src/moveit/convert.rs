//! Messages into the product's types and back: trajectories, joint states, collision
//! objects' shapes and poses in, reports out. Every bad value is a clear error.
use super::msg;
use crate::check::Report;
use crate::error::InputError;
use crate::math::{Isometry3, Point3};
use crate::motion::{JointState, RawPoint, Trajectory, validate_trajectory};
use crate::scene::{PoseError, PrimitiveError, PrimitiveKind, pose_from_parts, solid_primitive};
use crate::shape::{MeshError, Shape, TriMesh};
use std::sync::Arc;

/// Why a `shape_msgs` primitive or mesh was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ShapeMessageError {
    #[error("prism primitives are not supported (send the prism as a mesh)")]
    Prism,
    #[error("unknown primitive type {0}")]
    UnknownPrimitive(u8),
    #[error(transparent)]
    Primitive(#[from] PrimitiveError),
    #[error("a mesh vertex is not finite")]
    MeshVertexNotFinite,
    /// A mesh the triangle mesh refuses, with its reason.
    #[error(transparent)]
    Mesh(MeshError),
}

/// Why a plan's parts do not make one trajectory.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlanError {
    #[error("{}", crate::motion::NO_POINTS)]
    NoPoints,
    #[error("the plan's parts move different joints ({first:?}, then {then:?})")]
    DifferentJoints { first: Vec<String>, then: Vec<String> },
}

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

/// A trajectory as a `JointTrajectory` message (the inverse of [`trajectory`]).
pub fn trajectory_message(trajectory: &Trajectory) -> msg::JointTrajectory {
    msg::JointTrajectory {
        joint_names: trajectory.joint_names.clone(),
        points: trajectory
            .points
            .iter()
            .map(|p| msg::JointTrajectoryPoint {
                positions: p.positions.clone(),
                velocities: p.velocities.clone().unwrap_or_default(),
                accelerations: p.accelerations.clone().unwrap_or_default(),
                effort: Vec::new(),
                time_from_start: msg::Duration::from_seconds(p.time_from_start),
            })
            .collect(),
        ..Default::default()
    }
}

/// A `JointState`'s names and positions (velocities and efforts are not used).
pub fn joint_state(message: &msg::JointState) -> Result<JointState, InputError> {
    JointState::validated(message.name.clone(), message.position.clone())
}

/// A pose message as an isometry: finite, with a quaternion of norm near 1 (MoveIt
/// normalizes; a zero quaternion is an error), as in scene files.
pub fn isometry(pose: &msg::Pose) -> Result<Isometry3, PoseError> {
    let (p, q) = (pose.position, pose.orientation);
    pose_from_parts([p.x, p.y, p.z], [q.x, q.y, q.z, q.w])
}

/// A solid primitive as a shape (`shape_msgs/SolidPrimitive`, as scene files give them).
pub fn primitive_shape(primitive: &msg::SolidPrimitive) -> Result<Shape, ShapeMessageError> {
    let kind = match primitive.kind {
        msg::SolidPrimitive::BOX => PrimitiveKind::Box,
        msg::SolidPrimitive::SPHERE => PrimitiveKind::Sphere,
        msg::SolidPrimitive::CYLINDER => PrimitiveKind::Cylinder,
        msg::SolidPrimitive::CONE => PrimitiveKind::Cone,
        msg::SolidPrimitive::PRISM => return Err(ShapeMessageError::Prism),
        other => return Err(ShapeMessageError::UnknownPrimitive(other)),
    };
    Ok(solid_primitive(kind, &primitive.dimensions)?)
}

/// A `shape_msgs/Mesh` as a triangle mesh.
pub fn mesh_shape(mesh: &msg::Mesh) -> Result<Shape, ShapeMessageError> {
    let vertices: Vec<Point3> = mesh.vertices.iter().map(|v| Point3::new(v.x, v.y, v.z)).collect();
    if vertices.iter().any(|v| !v.coords.iter().all(|c| c.is_finite())) {
        return Err(ShapeMessageError::MeshVertexNotFinite);
    }
    let triangles = mesh.triangles.iter().map(|t| t.vertex_indices).collect();
    Ok(Shape::TriMesh(Arc::new(TriMesh::new(vertices, triangles).map_err(ShapeMessageError::Mesh)?)))
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
        method: report.method.name().to_string(),
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

/// Consecutive parts as one trajectory: each part's times follow the previous part's
/// end; a part that starts where the previous one ended drops that repeated point.
pub fn concatenate(parts: &[msg::JointTrajectory]) -> Result<msg::JointTrajectory, PlanError> {
    let mut parts = parts.iter().filter(|p| !p.points.is_empty());
    let Some(first) = parts.next() else {
        return Err(PlanError::NoPoints);
    };
    let mut whole = first.clone();
    for part in parts {
        if part.joint_names != whole.joint_names {
            return Err(PlanError::DifferentJoints { first: whole.joint_names.clone(), then: part.joint_names.clone() });
        }
        let offset = whole.points.last().expect("non-empty").time_from_start.seconds();
        for (k, point) in part.points.iter().enumerate() {
            let last = whole.points.last().expect("non-empty");
            if k == 0 && point.time_from_start.seconds() == 0.0 && point.positions == last.positions {
                continue;
            }
            let mut point = point.clone();
            point.time_from_start = msg::Duration::from_seconds(offset + point.time_from_start.seconds());
            whole.points.push(point);
        }
    }
    Ok(whole)
}

/// An `invalid` verdict for input the node could not read or check (logged as a warning).
pub fn invalid_verdict(source: &str, options: &crate::check::CheckOptions, error: impl std::fmt::Display) -> msg::CollisionVerdict {
    log::warn!("{source}: {error}");
    let report = crate::check::Report::invalid(options.method.into(), options.tolerance, error.to_string());
    verdict(&report, msg::Header { stamp: msg::Time::now(), frame_id: String::new() }, source, msg::Time::default())
}
