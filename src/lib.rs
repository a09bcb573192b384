//! ccd_guard: continuous collision checking of planned robot trajectories.
//!
//! The modules follow the path of the data:
//! robot model ([`robot`]) and scene ([`scene`]) are read from files, the trajectory
//! ([`motion`]) says where every joint is at every time, shapes ([`shape`]) and their
//! bounding volumes ([`bounding_volume`]) are organised in hierarchies and broad phases
//! ([`partitioning`]), geometric questions are answered by [`query`], the
//! [`collision`] world puts robot and scene together for one configuration, the
//! continuous checks follow motion enclosures ([`enclosure`]) through the CCD pipeline
//! ([`ccd`]) and the affine-ball certifier ([`certifier`]), and [`check`] runs a method
//! over a whole trajectory and writes the report.
pub mod bounding_volume;
pub mod ccd;
pub mod certifier;
pub mod check;
pub mod clearance;
pub mod collision;
pub mod demo;
pub mod enclosure;
pub mod error;
pub mod math;
pub mod motion;
pub mod partitioning;
pub mod query;
pub mod robot;
pub mod ros;
pub mod scene;
pub mod shape;
