//! What the three continuous checks share about a moving world, each of them looking
//! down to it: the CCD pipeline ([`crate::ccd`]), the certifier ([`crate::certifier`])
//! and the clearance search ([`crate::clearance`]).
//!
//! - [`element_motion`]: where an element (a link's collision shape or an obstacle) is at a
//!   time, and its pose relative to another over a time interval (interval enclosures
//!   along the kinematic chain, Redon et al. 2004 §4.1);
//! - [`time_cells`]: the dyadic time cells of a segment and the link enclosures over them,
//!   computed once per cell for every pair;
//! - [`element_nodes`]: the nodes of an element's hierarchy (OBB tree, voxel map) and
//!   their leaves' shapes;
//! - [`conservative_advancement`]: bounds on how far any point of a shape moves over an
//!   interval, in every direction or along one, and the separation test built on them;
//! - [`second_order`]: the gap of two shapes along a direction over a cell, to second
//!   order in its length (the pose rates' spread);
//! - [`joint_levers`]: how far an element moves per unit of each joint variable, the
//!   Lipschitz bound of a pair's distance in joint space.
//!
//! Soundness: every bound here holds for every pose the interval enclosures hold, with
//! outward rounding: a bound may be too loose, never too tight, so a separation proven
//! from it holds over the whole interval.
pub mod conservative_advancement;
pub mod element_motion;
pub mod element_nodes;
pub mod joint_levers;
pub mod second_order;
pub mod time_cells;
