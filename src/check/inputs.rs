//! Loading what a check needs from files.
use crate::collision::CollisionWorld;
use crate::error::{InputError, InputResult};
use crate::motion::{JointMotion, JointState, Trajectory, load_joint_state, load_trajectory};
use crate::robot::resources::ResourceResolver;
use crate::robot::srdf::DisabledPair;
use crate::robot::{Robot, srdf, urdf};
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

/// The robot of `files` and its SRDF's disabled pairs.
pub fn load_robot(files: &InputFiles, resolver: &ResourceResolver) -> InputResult<(Robot, Option<Vec<DisabledPair>>)> {
    let robot = urdf::load_urdf(&files.urdf, resolver)?;
    let disabled = match &files.srdf {
        Some(path) => Some(srdf::parse_for_robot(&resolver.read_text(path)?, path, &robot)?),
        None => None,
    };
    Ok((robot, disabled))
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
        let motion = JointMotion::new(&world.robot, trajectory, start)?;
        if motion.waypoints.is_empty() {
            return Err(InputError::new("the trajectory has no points").at("points"));
        }
        Ok(Self { world: std::sync::Arc::new(world), motion })
    }
}
