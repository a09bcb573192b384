//! The collision world: a robot and a scene, and which of their pairs are checked.
//!
//! [`CollisionWorld`] holds the geometry and the allowed-collision rules;
//! [`StateChecker`] answers "which pairs touch in this configuration" with a broad
//! phase over element boxes and the exact tests of [`crate::query::intersection`].
mod state_checker;
mod world;

pub use state_checker::{StateChecker, StateContact};
pub use world::{Body, CollisionWorld, Element};
