//! Spatial partitioning: the OBB hierarchy of a mesh, and the broad phases that find
//! candidate pairs among many bounding boxes.
mod aabb_tree;
mod obb_tree;

pub use aabb_tree::AabbTree;
pub use obb_tree::{NodeContent, ObbNode, ObbTree};
pub mod broad_phase;

pub use broad_phase::{BroadPhaseKind, SortAndSweep, UniformGrid, brute_force_pairs, choose_broad_phase, overlapping_pairs};
