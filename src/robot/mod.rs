//! The robot: links with collision geometry, joints, forward kinematics.
//!
//! Read from URDF ([`urdf`]) with meshes resolved by [`resources`], the self-collision
//! exceptions from SRDF ([`srdf`]); [`description`] loads both, from files, URIs or
//! texts, for the command line and the node alike; [`kinematics`] places every link for a
//! joint vector.
pub mod description;
pub mod kinematics;
mod mesh_file;
pub use mesh_file::load_mesh;
mod model;
pub mod resources;
pub mod srdf;
pub mod urdf;

pub use kinematics::JointPositions;
pub use model::{CollisionElement, Joint, JointKind, Link, MeshSource, Mimic, Robot};
