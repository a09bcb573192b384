//! Robot plus scene, the list of collision elements, and the pair rules.
use crate::bounding_volume::Obb;
use crate::math::{Isometry3, Real};
use crate::robot::Robot;
use crate::robot::srdf::DisabledPair;
use crate::scene::Scene;
use crate::shape::Shape;

/// What an element belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    /// A robot link (index into `Robot::links`).
    Link(usize),
    /// A scene object (index into `Scene::objects`).
    Obstacle(usize),
}

/// One piece of geometry: a shape on a body, with its place on the body.
#[derive(Clone, Debug)]
pub struct Element {
    pub body: Body,
    pub shape: Shape,
    /// Pose in the body frame (link frame; the world frame for obstacles).
    pub origin: Isometry3,
    /// The shape's own bounding box, for the broad phase.
    pub local_obb: Obb,
    /// The same box in the body frame (`origin` applied), grown to cover the rounding.
    pub body_obb: Obb,
}

impl Element {
    fn new(body: Body, shape: Shape, origin: Isometry3) -> Self {
        if let Shape::TriMesh(mesh) = &shape {
            // The mesh's convex bound is reduced now (once per mesh), not in a check.
            mesh.hull();
        }
        let local_obb = shape.local_obb();
        Self { body, shape, origin, local_obb, body_obb: placed_obb(&local_obb, &origin) }
    }
}

/// `obb` placed by `pose`: its centre and axes computed in floating point, the half
/// extents grown by far more than their rounding can move the box.
fn placed_obb(obb: &Obb, pose: &Isometry3) -> Obb {
    let rotation = pose.rotation.to_rotation_matrix().into_inner();
    let size = obb.center.coords.abs().sum() + pose.translation.vector.abs().sum() + obb.half_extents.sum();
    Obb { center: pose * obb.center, axes: rotation * obb.axes, half_extents: obb.half_extents.add_scalar(16.0 * Real::EPSILON * size + Real::MIN_POSITIVE) }
}

#[derive(Clone, Debug)]
pub struct CollisionWorld {
    pub robot: Robot,
    pub scene: Scene,
    pub elements: Vec<Element>,
    /// `checked_links[a * n + b]`: whether links a and b are checked against each other.
    checked_links: Vec<bool>,
    /// (link, obstacle) pairs never checked (an allowed collision matrix's entries).
    allowed_link_obstacle: std::collections::HashSet<(usize, usize)>,
}

impl CollisionWorld {
    /// Self-collision rules: the SRDF's disabled pairs when given, else
    /// [`Robot::adjacent_link_pairs`] (MoveIt's default).
    pub fn new(robot: Robot, scene: Scene, disabled: Option<&[DisabledPair]>) -> Self {
        let n = robot.links.len();
        let mut checked_links = vec![true; n * n];
        for i in 0..n {
            checked_links[i * n + i] = false;
        }
        let mut disable = |a: usize, b: usize| {
            checked_links[a * n + b] = false;
            checked_links[b * n + a] = false;
        };
        match disabled {
            Some(pairs) => {
                for p in pairs {
                    match (robot.link_named(&p.link1), robot.link_named(&p.link2)) {
                        (Some(a), Some(b)) => disable(a, b),
                        _ => log::warn!("SRDF disables '{}' - '{}', and the robot lacks one of them", p.link1, p.link2),
                    }
                }
            }
            None => robot.adjacent_link_pairs().into_iter().for_each(|(a, b)| disable(a, b)),
        }
        let mut elements = Vec::new();
        for (l, link) in robot.links.iter().enumerate() {
            for c in &link.collision {
                elements.push(Element::new(Body::Link(l), c.shape.clone(), c.origin));
            }
        }
        for (o, object) in scene.objects.iter().enumerate() {
            // A map with no occupied cube holds nothing to touch.
            if matches!(&object.shape, Shape::VoxelMap(m) if m.is_empty()) {
                continue;
            }
            elements.push(Element::new(Body::Obstacle(o), object.shape.clone(), object.pose));
        }
        Self { robot, scene, elements, checked_links, allowed_link_obstacle: Default::default() }
    }

    /// Never checks the two named bodies against each other (MoveIt's allowed collision
    /// matrix): two links, or a link and an object. Returns false when a name is neither.
    pub fn allow_collision(&mut self, a: &str, b: &str) -> bool {
        let body =
            |name: &str| self.robot.link_named(name).map(Body::Link).or_else(|| self.scene.objects.iter().position(|o| o.id == name).map(Body::Obstacle));
        let n = self.robot.links.len();
        match (body(a), body(b)) {
            (Some(Body::Link(x)), Some(Body::Link(y))) => {
                self.checked_links[x * n + y] = false;
                self.checked_links[y * n + x] = false;
            }
            (Some(Body::Link(l)), Some(Body::Obstacle(_))) | (Some(Body::Obstacle(_)), Some(Body::Link(l))) => {
                let object = if a == self.robot.links[l].name { b } else { a };
                // Every obstacle of the object (an object may have several shapes).
                for (o, _) in self.scene.objects.iter().enumerate().filter(|(_, ob)| ob.id == object) {
                    self.allowed_link_obstacle.insert((l, o));
                }
            }
            (Some(Body::Obstacle(_)), Some(Body::Obstacle(_))) => {}
            _ => return false,
        }
        true
    }

    /// Whether the pair of bodies is ever checked.
    pub fn is_checked(&self, a: Body, b: Body) -> bool {
        match (a, b) {
            (Body::Obstacle(_), Body::Obstacle(_)) => false,
            (Body::Link(x), Body::Link(y)) => self.checked_links[x * self.robot.links.len() + y],
            (Body::Link(l), Body::Obstacle(o)) | (Body::Obstacle(o), Body::Link(l)) => {
                self.allowed_link_obstacle.is_empty() || !self.allowed_link_obstacle.contains(&(l, o))
            }
        }
    }

    /// Whether any two links with geometry are checked against each other.
    pub fn checks_link_pairs(&self) -> bool {
        let with_geometry: Vec<usize> = (0..self.robot.links.len()).filter(|&l| !self.robot.links[l].collision.is_empty()).collect();
        with_geometry.iter().any(|&a| with_geometry.iter().any(|&b| a != b && self.is_checked(Body::Link(a), Body::Link(b))))
    }

    /// Name of a body: the link name or the object id.
    pub fn body_name(&self, body: Body) -> &str {
        match body {
            Body::Link(l) => &self.robot.links[l].name,
            Body::Obstacle(o) => &self.scene.objects[o].id,
        }
    }

    /// World pose of an element, given the link poses.
    pub fn element_pose(&self, element: &Element, link_poses: &[Isometry3]) -> Isometry3 {
        match element.body {
            Body::Link(l) => link_poses[l] * element.origin,
            Body::Obstacle(_) => element.origin,
        }
    }
}
