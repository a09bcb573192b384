//! The node's copy of move_group's planning scene: the world's collision objects, the
//! objects attached to links, the allowed collision matrix and the current joint values,
//! kept in step with `collision_object` and `monitored_planning_scene` (full scenes and
//! diffs). It builds the [`CollisionWorld`] a check runs in.
use super::convert::{ShapeMessageError, isometry, mesh_shape, primitive_shape};
use super::msg;
use crate::collision::CollisionWorld;
use crate::math::Isometry3;
use crate::robot::srdf::DisabledPair;
use crate::robot::{CollisionElement, Link, Robot};
use crate::scene::octomap_stream::{OctomapError, voxel_map_from_message};
use crate::scene::{Obstacle, PoseError, Scene};
use crate::shape::Shape;
use std::collections::BTreeMap;

/// The key of a rejected allowed collision matrix.
const ACM: &str = "allowed_collision_matrix";
/// The world object a planning scene's octomap becomes (MoveIt's `OCTOMAP_NS`).
pub const OCTOMAP_ID: &str = "<octomap>";

/// What the scene lacks after a PlanningScene it could not take in at all.
pub const UNTAKEN_SCENE: &str = "a PlanningScene";

/// Why (part of) a planning scene message could not be taken in.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum PlanningSceneError {
    #[error("{names} joint names but {positions} positions")]
    JointCount { names: usize, positions: usize },
    #[error("position of '{0}' is not finite")]
    JointNotFinite(String),
    #[error("a collision object to add needs an id")]
    MissingId,
    #[error("collision object '{id}': {problem}")]
    CollisionObject { id: String, problem: SceneObjectError },
    #[error("attached object '{id}': {problem}")]
    AttachedObject { id: String, problem: SceneObjectError },
    /// The planning scene's octomap, of `bytes` bytes of data.
    #[error("octomap '{id}' ({bytes} bytes): {problem}")]
    Octomap { id: String, bytes: usize, problem: SceneObjectError },
    /// The allowed collision matrix is not `n` x `n` for its `n` entry names.
    #[error("the allowed collision matrix is not {0} x {0}")]
    MatrixNotSquare(usize),
    #[error("the allowed collision matrix's default entries do not pair up")]
    MatrixDefaults,
    /// Every part of a planning scene that could not be taken in (more than one).
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Parts(Vec<PlanningSceneError>),
}

/// What is wrong with one object of a planning scene: a collision object, an attached
/// object or the octomap.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SceneObjectError {
    #[error("frame '{frame}' is neither the planning frame '{planning_frame}' nor a link of the robot")]
    UnknownFrame { frame: String, planning_frame: String },
    #[error(transparent)]
    Pose(#[from] PoseError),
    #[error(transparent)]
    Shape(#[from] ShapeMessageError),
    #[error("planes are not supported (send a thin box instead)")]
    Planes,
    #[error("{primitives} primitives but {poses} primitive poses")]
    PrimitivePoses { primitives: usize, poses: usize },
    #[error("{meshes} meshes but {poses} mesh poses")]
    MeshPoses { meshes: usize, poses: usize },
    #[error("has no shapes")]
    NoShapes,
    #[error("MOVE of an object the scene does not have")]
    MoveOfMissing,
    #[error("unknown operation {0}")]
    UnknownOperation(u8),
    #[error("the robot has no link '{0}'")]
    NoSuchLink(String),
    /// An attached object becomes a link of its own: one named as a robot link would
    /// take that link's place (and its collision exemptions).
    #[error("the id names a link of the robot; an attached object needs a name of its own")]
    IdIsALink,
    /// The fixed joint that holds an attached object, `<id>_attachment`, would take the
    /// place of a robot joint of that name.
    #[error("its attachment joint '{0}' names a joint of the robot")]
    AttachmentJointClash(String),
    #[error(transparent)]
    Octomap(#[from] OctomapError),
}

/// The name of the fixed joint that holds the attached object `id` on its link.
fn attachment_joint(id: &str) -> String {
    format!("{id}_attachment")
}

/// A collision object: its pose in the planning frame and its shapes relative to it.
#[derive(Clone, Debug)]
struct WorldObject {
    pose: Isometry3,
    shapes: Vec<(Shape, Isometry3)>,
}

/// An object attached to a link: shapes in the link frame, and the links it may touch.
#[derive(Clone, Debug)]
struct AttachedObject {
    link: String,
    shapes: Vec<(Shape, Isometry3)>,
    touch_links: Vec<String>,
}

/// The robot and everything around it, as the node knows it.
#[derive(Clone, Debug)]
pub struct PlanningSceneState {
    robot: Robot,
    disabled: Option<Vec<DisabledPair>>,
    planning_frame: String,
    objects: BTreeMap<String, WorldObject>,
    attached: BTreeMap<String, AttachedObject>,
    /// Pairs of names (links or objects) the allowed collision matrix lets touch; a
    /// name paired with `*` may touch anything (the matrix's default entries).
    allowed: Vec<(String, String)>,
    /// The latest joint values, by joint name.
    current: BTreeMap<String, f64>,
    /// What move_group has and the node could not take in (an object id, or
    /// `allowed_collision_matrix`), and why. While any is left, no trajectory can be
    /// certified free: the node's scene lacks something.
    rejected: BTreeMap<String, String>,
    /// The attached objects not taken in, by id, and why (apart: removing every world
    /// object does not detach them).
    rejected_attached: BTreeMap<String, String>,
    /// What the scene lacks as a whole, by what lost it (a planning scene message that
    /// could not be read or was half applied, what topics had brought before a reload),
    /// and why. Only a whole planning scene (`is_diff: false`) makes up for it.
    incomplete: BTreeMap<String, String>,
}

impl PlanningSceneState {
    /// The robot, its self-collision rules (SRDF pairs, else adjacent links), and the
    /// scene file's objects. `planning_frame` empty: the scene file's frame, else the
    /// robot's root link (the root stands at the origin of the scene's frame).
    pub fn new(robot: Robot, disabled: Option<Vec<DisabledPair>>, scene: Scene, planning_frame: &str) -> Self {
        let planning_frame = match (planning_frame, &scene.frame_id) {
            ("", Some(frame)) if !frame.is_empty() => frame.clone(),
            ("", _) => robot.links[robot.root_link].name.clone(),
            (frame, _) => frame.to_string(),
        };
        let mut objects: BTreeMap<String, WorldObject> = BTreeMap::new();
        for o in scene.objects {
            objects.entry(o.id).or_insert_with(|| WorldObject { pose: Isometry3::identity(), shapes: Vec::new() }).shapes.push((o.shape, o.pose));
        }
        Self {
            robot,
            disabled,
            planning_frame,
            objects,
            attached: BTreeMap::new(),
            allowed: Vec::new(),
            current: BTreeMap::new(),
            rejected: BTreeMap::new(),
            rejected_attached: BTreeMap::new(),
            incomplete: BTreeMap::new(),
        }
    }

    pub fn robot(&self) -> &Robot {
        &self.robot
    }

    pub fn planning_frame(&self) -> &str {
        &self.planning_frame
    }

    /// The latest joint values as a joint state (for the joints a trajectory leaves out).
    pub fn current_state(&self) -> crate::motion::JointState {
        crate::motion::JointState { name: self.current.keys().cloned().collect(), position: self.current.values().copied().collect() }
    }

    /// The latest `joint_states` value of `joint`, if any came.
    pub fn measured_position(&self, joint: &str) -> Option<f64> {
        self.current.get(joint).copied()
    }

    /// The joint vector of the latest joint values (defaults where they say nothing).
    /// Attached objects add fixed joints only, so it also fits [`Self::collision_world`]'s robot.
    pub fn current_positions(&self) -> Vec<f64> {
        let mut q = self.robot.default_positions();
        for (name, value) in &self.current {
            if let Some(v) = self.robot.variable_of_joint(name) {
                q[v] = *value;
            }
        }
        q
    }

    /// Merges joint values in (a `joint_states` message, a scene's robot state). Joints
    /// the robot lacks are ignored, as robot_state_publisher's extra joints are.
    pub fn update_joints(&mut self, names: &[String], positions: &[f64]) -> Result<(), PlanningSceneError> {
        if names.len() != positions.len() {
            return Err(PlanningSceneError::JointCount { names: names.len(), positions: positions.len() });
        }
        if let Some(k) = positions.iter().position(|v| !v.is_finite()) {
            return Err(PlanningSceneError::JointNotFinite(names[k].clone()));
        }
        for (name, value) in names.iter().zip(positions) {
            if self.robot.variable_of_joint(name).is_some() {
                self.current.insert(name.clone(), *value);
            }
        }
        Ok(())
    }

    /// The pose of `frame` in the planning frame: the planning frame itself, the root
    /// link or no frame are the identity; a robot link is placed at the current joints.
    fn frame_pose(&self, frame: &str) -> Result<Isometry3, SceneObjectError> {
        let frame = frame.trim_start_matches('/');
        if frame.is_empty() || frame == self.planning_frame || frame == self.robot.links[self.robot.root_link].name {
            return Ok(Isometry3::identity());
        }
        let Some(link) = self.robot.link_named(frame) else {
            return Err(SceneObjectError::UnknownFrame { frame: frame.to_string(), planning_frame: self.planning_frame.clone() });
        };
        Ok(self.robot.link_poses(&self.current_positions())[link])
    }

    /// What the scene lacks, and why: the parts not taken in, then what it lacks as a
    /// whole (see the fields).
    pub fn missing(&self) -> impl Iterator<Item = (&String, &String)> {
        self.rejected.iter().chain(&self.rejected_attached).chain(&self.incomplete)
    }

    /// Whether the scene lacks anything ([`Self::missing`]).
    pub fn is_incomplete(&self) -> bool {
        !self.rejected.is_empty() || !self.rejected_attached.is_empty() || !self.incomplete.is_empty()
    }

    /// Lists `id` as not taken in, with `why` (an update of it that failed inside).
    pub fn reject(&mut self, id: &str, why: &str) {
        self.rejected.insert(id.to_string(), why.to_string());
    }

    /// Notes that the scene lacks something as a whole (`what` lost it, `why`): until a
    /// whole planning scene arrives, nothing is certified free.
    pub fn mark_incomplete(&mut self, what: &str, why: &str) {
        self.incomplete.insert(what.to_string(), why.to_string());
    }

    /// Applies a `CollisionObject` (ADD, REMOVE, APPEND, MOVE). On error the object is
    /// left as it was and is listed as rejected until an ADD or REMOVE of it succeeds.
    pub fn apply_collision_object(&mut self, object: &msg::CollisionObject) -> Result<(), PlanningSceneError> {
        let result = self.collision_object(object);
        self.note(&object.id, object.operation, &result);
        result
    }

    /// Keeps the rejections of world objects up to date after an operation on `id`.
    fn note(&mut self, id: &str, operation: u8, result: &Result<(), PlanningSceneError>) {
        match result {
            Err(e) => {
                self.rejected.insert(id.to_string(), e.to_string());
            }
            Ok(()) if operation == msg::CollisionObject::REMOVE && id.is_empty() => self.rejected.retain(|k, _| k == ACM || k == OCTOMAP_ID),
            Ok(()) if operation == msg::CollisionObject::ADD || operation == msg::CollisionObject::REMOVE => {
                self.rejected.remove(id);
            }
            Ok(()) => {}
        }
    }

    /// Keeps the rejections of attached objects up to date after an ADD or REMOVE of `id`.
    fn note_attached(&mut self, id: &str, result: &Result<(), PlanningSceneError>) {
        match result {
            Err(e) => drop(self.rejected_attached.insert(id.to_string(), e.to_string())),
            Ok(()) => drop(self.rejected_attached.remove(id)),
        }
    }

    fn collision_object(&mut self, object: &msg::CollisionObject) -> Result<(), PlanningSceneError> {
        let what = |problem: SceneObjectError| PlanningSceneError::CollisionObject { id: object.id.clone(), problem };
        match object.operation {
            msg::CollisionObject::REMOVE => {
                if object.id.is_empty() {
                    // As MoveIt's removeAllCollisionObjects: every object but the octomap.
                    self.objects.retain(|id, _| id == OCTOMAP_ID);
                } else {
                    self.objects.remove(&object.id);
                }
                Ok(())
            }
            msg::CollisionObject::MOVE => {
                let frame = self.frame_pose(&object.header.frame_id).map_err(what)?;
                let pose = frame * isometry(&object.pose).map_err(|e| what(e.into()))?;
                match self.objects.get_mut(&object.id) {
                    Some(existing) => {
                        existing.pose = pose;
                        Ok(())
                    }
                    None => Err(what(SceneObjectError::MoveOfMissing)),
                }
            }
            msg::CollisionObject::ADD | msg::CollisionObject::APPEND => {
                if object.id.is_empty() {
                    return Err(PlanningSceneError::MissingId);
                }
                let frame = self.frame_pose(&object.header.frame_id).map_err(what)?;
                let pose = frame * isometry(&object.pose).map_err(|e| what(e.into()))?;
                let shapes = object_shapes(object).map_err(what)?;
                match (object.operation, self.objects.get_mut(&object.id)) {
                    (msg::CollisionObject::APPEND, Some(existing)) => {
                        // Appended shapes are given relative to the new pose.
                        let to_existing = existing.pose.inverse() * pose;
                        existing.shapes.extend(shapes.into_iter().map(|(s, p)| (s, to_existing * p)));
                    }
                    _ => {
                        self.objects.insert(object.id.clone(), WorldObject { pose, shapes });
                    }
                }
                Ok(())
            }
            other => Err(what(SceneObjectError::UnknownOperation(other))),
        }
    }

    /// Applies an `AttachedCollisionObject` (its object's ADD or REMOVE), noting a
    /// rejection as [`Self::apply_collision_object`] does.
    pub fn apply_attached_object(&mut self, attached: &msg::AttachedCollisionObject) -> Result<(), PlanningSceneError> {
        let object = &attached.object;
        if object.operation == msg::CollisionObject::REMOVE && object.id.is_empty() {
            // Detaching every object of one link clears the rejections of those alone.
            let detached: Vec<String> = self.attached.iter().filter(|(_, a)| a.link == attached.link_name).map(|(id, _)| id.clone()).collect();
            let result = self.attached_object(attached);
            if result.is_ok() {
                detached.iter().for_each(|id| drop(self.rejected_attached.remove(id)));
            }
            return result;
        }
        let result = self.attached_object(attached);
        self.note_attached(&object.id, &result);
        result
    }

    fn attached_object(&mut self, attached: &msg::AttachedCollisionObject) -> Result<(), PlanningSceneError> {
        let id = &attached.object.id;
        if attached.object.operation == msg::CollisionObject::REMOVE {
            match id.is_empty() {
                true => self.attached.retain(|_, a| a.link != attached.link_name),
                false => {
                    self.attached.remove(id);
                }
            }
            return Ok(());
        }
        let what = |problem: SceneObjectError| PlanningSceneError::AttachedObject { id: id.clone(), problem };
        if self.robot.link_named(&attached.link_name).is_none() {
            return Err(what(SceneObjectError::NoSuchLink(attached.link_name.clone())));
        }
        if self.robot.link_named(id).is_some() {
            return Err(what(SceneObjectError::IdIsALink));
        }
        if self.robot.joint_named(&attachment_joint(id)).is_some() {
            return Err(what(SceneObjectError::AttachmentJointClash(attachment_joint(id))));
        }
        // The object's shapes in the link frame: header frame -> planning frame -> link.
        let link_pose = self.frame_pose(&attached.link_name).map_err(what)?;
        let header_frame = if attached.object.header.frame_id.is_empty() { attached.link_name.as_str() } else { attached.object.header.frame_id.as_str() };
        let in_link = link_pose.inverse() * self.frame_pose(header_frame).map_err(what)? * isometry(&attached.object.pose).map_err(|e| what(e.into()))?;
        let shapes = object_shapes(&attached.object).map_err(what)?.into_iter().map(|(s, p)| (s, in_link * p)).collect();
        self.objects.remove(id);
        self.attached.insert(id.clone(), AttachedObject { link: attached.link_name.clone(), shapes, touch_links: attached.touch_links.clone() });
        Ok(())
    }

    /// The world of this scene with `attached` objects added, their frames placed at
    /// `joints` (over the latest values): a plan's start state that holds objects.
    pub fn with_attached(
        &self,
        joints: Option<&crate::motion::JointState>,
        attached: &[msg::AttachedCollisionObject],
    ) -> Result<CollisionWorld, PlanningSceneError> {
        let mut scene = self.clone();
        if let Some(joints) = joints {
            scene.update_joints(&joints.name, &joints.position)?;
        }
        for object in attached {
            scene.apply_attached_object(object)?;
        }
        Ok(scene.collision_world())
    }

    /// Applies a `PlanningScene`: a full scene replaces the objects, the attached objects
    /// and the matrix; a diff changes what it names. Bad joint values take nothing in, and
    /// the scene counts as lacking that message until a whole scene; otherwise every part
    /// that can be taken in is, the rest is rejected (a bad matrix allows nothing: every
    /// pair is checked), and the error lists what was not.
    pub fn apply_planning_scene(&mut self, scene: &msg::PlanningScene) -> Result<(), PlanningSceneError> {
        let state = &scene.robot_state;
        if let Err(e) = self.update_joints(&state.joint_state.name, &state.joint_state.position) {
            self.mark_incomplete(UNTAKEN_SCENE, &format!("a PlanningScene whose robot state could not be taken in: {e}"));
            return Err(e);
        }
        if !scene.is_diff {
            self.objects.clear();
            self.allowed.clear();
            self.rejected.clear();
            self.incomplete.clear();
        }
        // As move_group does: a diff's robot state counts only when it says something; a
        // robot state that is not itself a diff replaces the attached objects.
        let carries_state = !state.joint_state.name.is_empty() || !state.attached_collision_objects.is_empty();
        if !scene.is_diff || (carries_state && !state.is_diff) {
            self.attached.clear();
            self.rejected_attached.clear();
        }
        let mut errors = Vec::new();
        for attached in &state.attached_collision_objects {
            errors.extend(self.apply_attached_object(attached).err());
        }
        for object in &scene.world.collision_objects {
            errors.extend(self.apply_collision_object(object).err());
        }
        // As MoveIt's processOctomapMsg: a full scene replaces the map (an empty one
        // removes it), a diff replaces it only when it carries one.
        let octomap = &scene.world.octomap;
        if !scene.is_diff || !octomap.octomap.data.is_empty() {
            errors.extend(self.apply_octomap(octomap).err());
        }
        let acm = &scene.allowed_collision_matrix;
        if !acm.entry_names.is_empty() || !acm.default_entry_names.is_empty() {
            match allowed_pairs(acm) {
                Ok(pairs) => {
                    self.allowed = pairs;
                    self.rejected.remove(ACM);
                }
                Err(e) => {
                    self.allowed.clear();
                    self.rejected.insert(ACM.to_string(), e.to_string());
                    errors.push(e);
                }
            }
        }
        match errors.len() {
            0 => Ok(()),
            1 => Err(errors.remove(0)),
            _ => Err(PlanningSceneError::Parts(errors)),
        }
    }

    /// Replaces the planning scene's octomap (`PlanningSceneWorld.octomap`); empty data
    /// removes it. The map stands at `origin` in the frame of the message's header, as
    /// MoveIt places it, and becomes the world object [`OCTOMAP_ID`]. A map that cannot
    /// be taken in is rejected, so that no trajectory is proven free while the node
    /// ignores it.
    pub fn apply_octomap(&mut self, map: &msg::OctomapWithPose) -> Result<(), PlanningSceneError> {
        self.objects.remove(OCTOMAP_ID);
        self.rejected.remove(OCTOMAP_ID);
        if map.octomap.data.is_empty() {
            return Ok(());
        }
        let result = self.octomap_object(map);
        match result {
            Ok(object) => {
                self.objects.insert(OCTOMAP_ID.to_string(), object);
                Ok(())
            }
            Err(problem) => {
                let why = PlanningSceneError::Octomap { id: map.octomap.id.clone(), bytes: map.octomap.data.len(), problem };
                self.rejected.insert(OCTOMAP_ID.to_string(), why.to_string());
                Err(why)
            }
        }
    }

    fn octomap_object(&self, map: &msg::OctomapWithPose) -> Result<WorldObject, SceneObjectError> {
        let frame = if map.header.frame_id.is_empty() { &map.octomap.header.frame_id } else { &map.header.frame_id };
        let pose = self.frame_pose(frame)? * isometry(&map.origin)?;
        let data: Vec<u8> = map.octomap.data.iter().map(|&b| b as u8).collect();
        let voxels = voxel_map_from_message(map.octomap.binary, &map.octomap.id, map.octomap.resolution, &data)?;
        Ok(WorldObject { pose, shapes: vec![(Shape::VoxelMap(std::sync::Arc::new(voxels)), Isometry3::identity())] })
    }

    /// The world a check runs in: the robot with its attached objects as links of their
    /// own (fixed to the link they hang on), the world objects, the matrix applied.
    pub fn collision_world(&self) -> CollisionWorld {
        let mut robot = self.robot.clone();
        let mut extra_disabled = Vec::new();
        for (id, attached) in &self.attached {
            let parent = robot.link_named(&attached.link).expect("attached to a known link");
            let collision = attached.shapes.iter().map(|(s, p)| CollisionElement { shape: s.clone(), origin: *p, mesh_source: None }).collect();
            robot.attach_fixed(Link { name: id.clone(), collision }, parent, Isometry3::identity(), attachment_joint(id));
            for touch in attached.touch_links.iter().chain(std::iter::once(&attached.link)) {
                extra_disabled.push(DisabledPair { link1: id.clone(), link2: touch.clone(), reason: Some("touch link".into()) });
            }
        }
        let scene = Scene {
            frame_id: Some(self.planning_frame.clone()),
            objects: self
                .objects
                .iter()
                .flat_map(|(id, o)| o.shapes.iter().map(move |(s, p)| Obstacle { id: id.clone(), shape: s.clone(), pose: o.pose * p }))
                .collect(),
        };
        let disabled = match &self.disabled {
            Some(pairs) => Some(pairs.iter().cloned().chain(extra_disabled).collect::<Vec<_>>()),
            None => {
                let adjacent = self.robot.adjacent_link_pairs().into_iter().map(|(a, b)| DisabledPair {
                    link1: self.robot.links[a].name.clone(),
                    link2: self.robot.links[b].name.clone(),
                    reason: Some("adjacent".into()),
                });
                Some(adjacent.chain(extra_disabled).collect())
            }
        };
        let mut world = CollisionWorld::new(robot, scene, disabled.as_deref());
        let names: Vec<String> = world.robot.links.iter().map(|l| l.name.clone()).chain(self.objects.keys().cloned()).collect();
        for (a, b) in &self.allowed {
            for x in names.iter().filter(|n| a == "*" || *n == a) {
                for y in names.iter().filter(|n| b == "*" || *n == b) {
                    if x != y {
                        world.allow_collision(x, y);
                    }
                }
            }
        }
        world
    }

    /// The ids of the world's objects.
    pub fn object_ids(&self) -> impl Iterator<Item = &str> {
        self.objects.keys().map(String::as_str)
    }
}

/// The shapes of a collision object relative to its pose. Planes are refused: an
/// unbounded plane has no place in a check that must stay sound.
fn object_shapes(object: &msg::CollisionObject) -> Result<Vec<(Shape, Isometry3)>, SceneObjectError> {
    if !object.planes.is_empty() {
        return Err(SceneObjectError::Planes);
    }
    if object.primitives.len() != object.primitive_poses.len() {
        return Err(SceneObjectError::PrimitivePoses { primitives: object.primitives.len(), poses: object.primitive_poses.len() });
    }
    if object.meshes.len() != object.mesh_poses.len() {
        return Err(SceneObjectError::MeshPoses { meshes: object.meshes.len(), poses: object.mesh_poses.len() });
    }
    let mut shapes = Vec::new();
    for (p, pose) in object.primitives.iter().zip(&object.primitive_poses) {
        shapes.push((primitive_shape(p)?, isometry(pose)?));
    }
    for (m, pose) in object.meshes.iter().zip(&object.mesh_poses) {
        shapes.push((mesh_shape(m)?, isometry(pose)?));
    }
    if shapes.is_empty() {
        return Err(SceneObjectError::NoShapes);
    }
    Ok(shapes)
}

/// The allowed pairs of a matrix (`enabled[i][j]` true: i and j may touch), plus every
/// default entry that allows a name to touch anything.
fn allowed_pairs(acm: &msg::AllowedCollisionMatrix) -> Result<Vec<(String, String)>, PlanningSceneError> {
    let n = acm.entry_names.len();
    if acm.entry_values.len() != n || acm.entry_values.iter().any(|row| row.enabled.len() != n) {
        return Err(PlanningSceneError::MatrixNotSquare(n));
    }
    if acm.default_entry_names.len() != acm.default_entry_values.len() {
        return Err(PlanningSceneError::MatrixDefaults);
    }
    let mut pairs = Vec::new();
    for (i, row) in acm.entry_values.iter().enumerate() {
        for (j, &enabled) in row.enabled.iter().enumerate() {
            if enabled && i < j {
                pairs.push((acm.entry_names[i].clone(), acm.entry_names[j].clone()));
            }
        }
    }
    for (name, &allowed) in acm.default_entry_names.iter().zip(&acm.default_entry_values) {
        if allowed {
            pairs.push((name.clone(), "*".to_string()));
        }
    }
    Ok(pairs)
}
