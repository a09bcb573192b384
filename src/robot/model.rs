//! The robot model: a tree of links joined by joints.
use crate::math::{Isometry3, Real, Vector3};
use crate::shape::Shape;
use std::collections::HashMap;

/// One `<collision>` element of a link: a shape placed in the link frame.
#[derive(Clone, Debug)]
pub struct CollisionElement {
    pub shape: Shape,
    pub origin: Isometry3,
    /// Where a mesh came from, for displays (rviz mesh markers).
    pub mesh_source: Option<MeshSource>,
}

/// A mesh's resource URI as rviz resolves it (`package://...`, or `file://` and the
/// absolute path) and the scale the URDF gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct MeshSource {
    pub uri: String,
    pub scale: Vector3,
}

#[derive(Clone, Debug)]
pub struct Link {
    pub name: String,
    pub collision: Vec<CollisionElement>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum JointKind {
    Revolute,
    Continuous,
    Prismatic,
    Fixed,
}

/// `<mimic>`: this joint's value is `multiplier * leader + offset`.
#[derive(Clone, Debug, PartialEq)]
pub struct Mimic {
    /// Index of the leading joint in [`Robot::joints`].
    pub leader: usize,
    pub multiplier: Real,
    pub offset: Real,
}

#[derive(Clone, Debug)]
pub struct Joint {
    pub name: String,
    pub kind: JointKind,
    pub parent_link: usize,
    pub child_link: usize,
    /// Pose of the joint frame in the parent link frame.
    pub origin: Isometry3,
    /// Unit axis in the joint frame.
    pub axis: Vector3,
    /// Position limits; infinite for continuous joints.
    pub lower: Real,
    pub upper: Real,
    /// Velocity limit (rad/s or m/s); infinite where the URDF gives none.
    pub max_velocity: Real,
    pub mimic: Option<Mimic>,
    /// Index into the joint vector of the variable that drives this joint (its own, or
    /// its leader's for a mimic joint); `None` for fixed joints.
    pub variable: Option<usize>,
}

/// A robot whose joints are listed parents-first, so forward kinematics is one pass.
#[derive(Clone, Debug)]
pub struct Robot {
    pub name: String,
    pub links: Vec<Link>,
    /// Sorted so that every joint's parent link is placed by an earlier joint (or is the root).
    pub joints: Vec<Joint>,
    pub root_link: usize,
    /// The independent joint variables: indices into `joints` of the non-fixed,
    /// non-mimic joints, in URDF order.
    pub variables: Vec<usize>,
    pub link_index: HashMap<String, usize>,
    pub joint_index: HashMap<String, usize>,
    /// The joint that places each link (`None` for the root), kept with the joints
    /// ([`Self::new`], [`Self::attach_fixed`]).
    placing: Vec<Option<usize>>,
}

impl Robot {
    /// A robot of `links` and `joints` (sorted parents first), with its tables.
    pub fn new(
        name: String,
        links: Vec<Link>,
        joints: Vec<Joint>,
        root_link: usize,
        variables: Vec<usize>,
        (link_index, joint_index): (HashMap<String, usize>, HashMap<String, usize>),
    ) -> Self {
        let mut placing = vec![None; links.len()];
        for (j, joint) in joints.iter().enumerate() {
            placing[joint.child_link] = Some(j);
        }
        Self { name, links, joints, root_link, variables, link_index, joint_index, placing }
    }

    /// Adds `link`, fixed to `parent` at `origin` by a joint named `joint_name`; returns
    /// the new link's index. Both names must be new to the model (a link that took an
    /// existing link's name would take its place, and its collision exemptions): the
    /// caller refuses clashing names as bad input.
    pub fn attach_fixed(&mut self, link: Link, parent: usize, origin: crate::math::Isometry3, joint_name: String) -> usize {
        debug_assert!(self.link_named(&link.name).is_none() && self.joint_named(&joint_name).is_none(), "attach_fixed: a name the model has");
        let (l, j) = (self.links.len(), self.joints.len());
        self.link_index.insert(link.name.clone(), l);
        self.links.push(link);
        self.joints.push(Joint {
            name: joint_name.clone(),
            kind: JointKind::Fixed,
            parent_link: parent,
            child_link: l,
            origin,
            axis: crate::math::Vector3::z(),
            lower: 0.0,
            upper: 0.0,
            max_velocity: Real::INFINITY,
            mimic: None,
            variable: None,
        });
        self.joint_index.insert(joint_name, j);
        self.placing.push(Some(j));
        l
    }

    pub fn link_named(&self, name: &str) -> Option<usize> {
        self.link_index.get(name).copied()
    }

    pub fn joint_named(&self, name: &str) -> Option<usize> {
        self.joint_index.get(name).copied()
    }

    /// The joint that places each link (`None` for the root).
    pub fn placing_joints(&self) -> &[Option<usize>] {
        &self.placing
    }

    /// The joints from `link` up to the root, the one placing `link` first.
    pub fn joints_to_root(&self, link: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.placing[link], |&j| self.placing[self.joints[j].parent_link])
    }

    /// Names of the independent joint variables, in joint-vector order.
    pub fn variable_names(&self) -> impl Iterator<Item = &str> {
        self.variables.iter().map(|&j| self.joints[j].name.as_str())
    }

    /// The index in the joint vector of a joint's own variable (not for mimic or fixed).
    pub fn variable_of_joint(&self, name: &str) -> Option<usize> {
        let j = self.joint_named(name)?;
        self.variables.iter().position(|&v| v == j)
    }

    /// The default joint vector: 0 clamped into each joint's limits.
    pub fn default_positions(&self) -> Vec<Real> {
        self.variables.iter().map(|&j| 0.0f64.clamp(self.joints[j].lower, self.joints[j].upper)).collect()
    }

    /// MoveIt's default self-collision exceptions without an SRDF: links joined directly
    /// by a joint, and, as MoveIt's setup assistant does, links joined through a chain
    /// of links that have no collision geometry (a geometry-less link is a connector).
    pub fn adjacent_link_pairs(&self) -> Vec<(usize, usize)> {
        let n = self.links.len();
        let mut neighbours: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut pairs = Vec::new();
        for j in &self.joints {
            neighbours[j.parent_link].push(j.child_link);
            neighbours[j.child_link].push(j.parent_link);
            pairs.push((j.parent_link, j.child_link));
        }
        for start in 0..n {
            // Walk from `start` through geometry-less links only.
            let mut seen = vec![false; n];
            seen[start] = true;
            let mut stack = neighbours[start].clone();
            while let Some(l) = stack.pop() {
                if std::mem::replace(&mut seen[l], true) {
                    continue;
                }
                if start < l {
                    pairs.push((start, l));
                }
                if self.links[l].collision.is_empty() {
                    stack.extend(neighbours[l].iter().copied());
                }
            }
        }
        pairs
    }
}
