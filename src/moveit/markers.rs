//! What rviz shows of a verdict (`~/markers`): each contact's point and normal, the
//! colliding links at the time of contact (meshes in red), and the boxes the colliding
//! links sweep over the contact (from the pose enclosures the pipeline uses, so they
//! hold the whole motion, not samples of it). The first marker deletes the last
//! verdict's markers.
use super::msg::{self, ColorRgba, Marker, MarkerArray};
use crate::bounding_volume::Aabb;
use crate::check::{CheckInput, Report};
use crate::collision::{Body, CollisionWorld};
use crate::enclosure::link_enclosures;
use crate::math::{Isometry3, Point3, Real, UnitQuaternion};
use crate::query::intersection::voxels_touching;
use crate::shape::Shape;

const RED: ColorRgba = ColorRgba { r: 0.9, g: 0.1, b: 0.1, a: 0.85 };
const YELLOW: ColorRgba = ColorRgba { r: 1.0, g: 0.85, b: 0.0, a: 1.0 };
const ORANGE: ColorRgba = ColorRgba { r: 1.0, g: 0.5, b: 0.0, a: 0.15 };
const WHITE: ColorRgba = ColorRgba { r: 1.0, g: 1.0, b: 1.0, a: 1.0 };
/// Boxes per segment piece of a contact's swept bounds.
const SWEEP_PIECES: usize = 8;

/// The markers of a report (only the deletion when it has no contact).
pub fn contact_markers(input: &CheckInput, report: &Report, frame: &str) -> MarkerArray {
    let header = msg::Header { stamp: msg::Time::now(), frame_id: frame.to_string() };
    let new = |ns: &str, id: usize, kind: i32, color: ColorRgba| Marker {
        header: header.clone(),
        ns: ns.to_string(),
        id: id as i32,
        kind,
        action: Marker::ADD,
        color,
        ..Marker::default()
    };
    let mut markers = vec![Marker { header: header.clone(), action: Marker::DELETEALL, ..Marker::default() }];
    let world = &input.world;
    for (i, contact) in report.contacts.iter().enumerate() {
        let p = point(contact.point);
        let mut sphere = new("contact_points", i, Marker::SPHERE, YELLOW);
        sphere.pose.position = p;
        sphere.scale = msg::Vector3 { x: 0.02, y: 0.02, z: 0.02 };
        markers.push(sphere);
        if let Some(n) = contact.normal {
            let mut arrow = new("contact_normals", i, Marker::ARROW, YELLOW);
            arrow.points = vec![p, point([contact.point[0] + 0.1 * n[0], contact.point[1] + 0.1 * n[1], contact.point[2] + 0.1 * n[2]])];
            arrow.scale = msg::Vector3 { x: 0.006, y: 0.012, z: 0.02 };
            markers.push(arrow);
        }
        let mut label = new("contact_labels", i, Marker::TEXT_VIEW_FACING, WHITE);
        label.pose.position = msg::Point { z: p.z + 0.05, ..p };
        label.scale.z = 0.04;
        label.text = format!("{} / {} at {:.3} s", contact.link, contact.other, contact.time_of_contact);
        markers.push(label);
    }
    // The colliding links at the first contact of each event, and their sweep over it.
    let mut link_id = 0;
    let mut sweep_id = 0;
    let mut voxel_id = 0;
    let new_voxels = |m: Marker| Marker { header: header.clone(), ns: "voxels_at_contact".into(), action: Marker::ADD, color: RED, ..m };
    for contact in &report.contacts {
        let links: Vec<usize> = [&contact.link, &contact.other].into_iter().filter_map(|name| world.robot.link_named(name)).collect();
        let poses = world.robot.link_poses(&input.motion.positions_at(contact.time_of_contact));
        for &l in &links {
            // A link's elements are its `<collision>` entries, in order.
            for (k, element) in world.elements.iter().filter(|e| e.body == Body::Link(l)).enumerate() {
                let mut m = new("links_at_contact", link_id, Marker::CUBE, RED);
                link_id += 1;
                let source = world.robot.links[l].collision.get(k).and_then(|c| c.mesh_source.as_ref());
                shape_marker(&mut m, &element.shape, poses[l] * element.origin, source);
                markers.push(m);
            }
            for cubes in voxel_markers(world, l, &contact.other, &poses) {
                markers.push(Marker { id: voxel_id, ..new_voxels(cubes) });
                voxel_id += 1;
            }
            let end = contact.time_of_separation.unwrap_or(input.motion.end_time());
            for aabb in swept_boxes(world, input, l, contact.time_of_contact, end) {
                let mut m = new("swept_bounds", sweep_id, Marker::CUBE, ORANGE);
                sweep_id += 1;
                let c = nalgebra::center(&aabb.mins, &aabb.maxs);
                m.pose.position = msg::Point { x: c.x, y: c.y, z: c.z };
                let e = aabb.maxs - aabb.mins;
                m.scale = msg::Vector3 { x: e.x, y: e.y, z: e.z };
                markers.push(m);
            }
        }
    }
    MarkerArray { markers }
}

/// The cubes of an octomap object `other` that link `l` touches with the links at
/// `poses`, as cube lists (one per cube size) in the world frame.
fn voxel_markers(world: &CollisionWorld, l: usize, other: &str, poses: &[Isometry3]) -> Vec<Marker> {
    let mut lists = Vec::new();
    let maps = world.elements.iter().filter(|e| matches!(e.body, Body::Obstacle(_)) && world.body_name(e.body) == other);
    for map_element in maps {
        let Shape::VoxelMap(map) = &map_element.shape else { continue };
        let mut touched: Vec<u32> = Vec::new();
        for element in world.elements.iter().filter(|e| e.body == Body::Link(l)) {
            touched.extend(voxels_touching(map, &map_element.origin, &element.shape, &world.element_pose(element, poses)));
        }
        touched.sort_unstable();
        touched.dedup();
        let mut by_size: Vec<(u8, Vec<msg::Point>)> = Vec::new();
        for v in touched {
            let level = map.voxels()[v as usize].level;
            let centre = map_element.origin * map.voxel_centre(v).0;
            let p = msg::Point { x: centre.x, y: centre.y, z: centre.z };
            match by_size.iter_mut().find(|(s, _)| *s == level) {
                Some((_, points)) => points.push(p),
                None => by_size.push((level, vec![p])),
            }
        }
        for (level, points) in by_size {
            let edge = map.resolution() * (1u32 << level) as Real;
            lists.push(Marker {
                kind: Marker::CUBE_LIST,
                pose: pose_message(&Isometry3::from_parts(Default::default(), map_element.origin.rotation)),
                scale: msg::Vector3 { x: edge, y: edge, z: edge },
                points: points.into_iter().map(|p| rotate_back(&map_element.origin, p)).collect(),
                ..Marker::default()
            });
        }
    }
    lists
}

/// A world point in the frame of the map's rotation (cube lists are drawn in the
/// marker's pose, whose rotation aligns the cubes with the map's axes).
fn rotate_back(origin: &Isometry3, p: msg::Point) -> msg::Point {
    let q = origin.rotation.inverse_transform_vector(&crate::math::Vector3::new(p.x, p.y, p.z));
    msg::Point { x: q.x, y: q.y, z: q.z }
}

fn point(p: [Real; 3]) -> msg::Point {
    msg::Point { x: p[0], y: p[1], z: p[2] }
}

/// A marker drawing `shape` at `pose`: the mesh file when rviz can load it, else the
/// primitive (a mesh without a file: its bounding box).
fn shape_marker(m: &mut Marker, shape: &Shape, pose: Isometry3, mesh: Option<&crate::robot::MeshSource>) {
    let mut pose = pose;
    let (kind, scale) = match shape {
        Shape::Cuboid(c) => (Marker::CUBE, c.half_extents * 2.0),
        Shape::Ball(b) => (Marker::SPHERE, crate::math::Vector3::repeat(2.0 * b.radius)),
        Shape::Cylinder(c) => (Marker::CYLINDER, crate::math::Vector3::new(2.0 * c.radius, 2.0 * c.radius, 2.0 * c.half_height)),
        Shape::Capsule(c) => (Marker::CYLINDER, crate::math::Vector3::new(2.0 * c.radius, 2.0 * c.radius, 2.0 * (c.half_height + c.radius))),
        Shape::Cone(c) => (Marker::CYLINDER, crate::math::Vector3::new(2.0 * c.radius, 2.0 * c.radius, 2.0 * c.half_height)),
        Shape::TriMesh(t) => match mesh {
            Some(source) => {
                m.mesh_resource = source.uri.clone();
                (Marker::MESH_RESOURCE, source.scale)
            }
            None => box_of(&mut pose, &t.local_aabb()),
        },
        Shape::VoxelMap(map) => box_of(&mut pose, &map.local_aabb()),
    };
    m.kind = kind;
    m.scale = msg::Vector3 { x: scale.x, y: scale.y, z: scale.z };
    m.pose = pose_message(&pose);
}

/// A cube marker of a box given in the frame `pose` places: moves `pose` to its centre.
fn box_of(pose: &mut Isometry3, aabb: &Aabb) -> (i32, crate::math::Vector3) {
    let c = nalgebra::center(&aabb.mins, &aabb.maxs);
    *pose *= Isometry3::translation(c.x, c.y, c.z);
    (Marker::CUBE, aabb.maxs - aabb.mins)
}

fn pose_message(pose: &Isometry3) -> msg::Pose {
    let t = pose.translation.vector;
    let q: &UnitQuaternion = &pose.rotation;
    msg::Pose { position: msg::Point { x: t.x, y: t.y, z: t.z }, orientation: msg::Quaternion { x: q.i, y: q.j, z: q.k, w: q.w } }
}

/// Boxes that hold link `l`'s collision geometry over `[t0, t1]`: per segment piece,
/// the interval pose enclosure applied to the corners of each element's box.
fn swept_boxes(world: &CollisionWorld, input: &CheckInput, l: usize, t0: Real, t1: Real) -> Vec<Aabb> {
    let mut boxes = Vec::new();
    let mut enclosures = Vec::new();
    for segment in &input.motion.segments {
        let (a, b) = (t0.max(segment.start_time), t1.min(segment.start_time + segment.duration));
        if b < a {
            continue;
        }
        for k in 0..SWEEP_PIECES {
            let s0 = a - segment.start_time + (b - a) * k as Real / SWEEP_PIECES as Real;
            let s1 = a - segment.start_time + (b - a) * (k + 1) as Real / SWEEP_PIECES as Real;
            link_enclosures(&world.robot, segment, s0, s1, false, None, &mut enclosures);
            let mut aabb: Option<Aabb> = None;
            for element in world.elements.iter().filter(|e| e.body == Body::Link(l)) {
                for corner in element.body_obb.corners() {
                    let enclosed = enclosures[l].point(&Point3::from(corner.coords)).to_aabb();
                    aabb = Some(aabb.map_or(enclosed, |x| x.merged(&enclosed)));
                }
            }
            boxes.extend(aabb);
        }
    }
    boxes
}
