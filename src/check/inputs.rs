//! Loading what a check needs from files.
use crate::collision::CollisionWorld;
use crate::error::InputResult;
use crate::motion::{JointMotion, JointState, Trajectory, load_joint_state, load_trajectory};
use crate::robot::Robot;
use crate::robot::description::{self, DescriptionSource};
use crate::robot::resources::ResourceResolver;
use crate::robot::srdf::DisabledPair;
use crate::scene::{Scene, load_scene};
use std::path::PathBuf;

/// The files of a `check` run.
#[derive(Clone, Debug, Default)]
pub struct InputFiles {
    pub urdf: PathBuf,
    pub srdf: Option<PathBuf>,
    pub scene: Option<PathBuf>,
    pub trajectory: PathBuf,
    pub start_state: Option<PathBuf>,
}

/// A world and a motion in it, ready to check. The world is shared: the ROS node checks
/// every trajectory in the world of its current scene without copying it.
pub struct CheckInput {
    pub world: std::sync::Arc<CollisionWorld>,
    pub motion: JointMotion,
}

/// The robot of `files` and its SRDF's disabled pairs, by the node's path
/// ([`description::load_robot`]).
pub fn load_robot(files: &InputFiles, resolver: &ResourceResolver) -> InputResult<(Robot, Option<Vec<DisabledPair>>)> {
    let srdf = files.srdf.as_deref().map(DescriptionSource::File);
    Ok(description::load_robot(DescriptionSource::File(&files.urdf), srdf, resolver)?)
}

impl CheckInput {
    pub fn load(files: &InputFiles, resolver: &ResourceResolver) -> InputResult<Self> {
        let (robot, disabled) = load_robot(files, resolver)?;
        let scene = match &files.scene {
            Some(path) => load_scene(path, resolver)?,
            None => Scene::default(),
        };
        let trajectory = load_trajectory(&files.trajectory)?;
        let start = files.start_state.as_deref().map(load_joint_state).transpose()?;
        Self::from_parts(crate::collision::CollisionWorld::new(robot, scene, disabled.as_deref()), &trajectory, start.as_ref())
            .map_err(|e| e.with_file(&files.trajectory))
    }

    pub fn from_parts(world: CollisionWorld, trajectory: &Trajectory, start: Option<&JointState>) -> InputResult<Self> {
        Self::new(std::sync::Arc::new(world), trajectory, start)
    }

    /// The one way from a world, a trajectory and the joints it leaves out (held from
    /// `start`) to a check's input: for the command line and the node alike.
    pub fn new(world: std::sync::Arc<CollisionWorld>, trajectory: &Trajectory, start: Option<&JointState>) -> InputResult<Self> {
        let motion = JointMotion::new(&world.robot, trajectory, start)?;
        Ok(Self { world, motion })
    }
}
