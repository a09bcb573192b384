//! ccd_guard: continuous collision checking of planned robot trajectories.
//!
//! The modules follow the path of the data, lowest floor first; a module uses only the
//! floors below it:
//! 1. [`error`], [`math`] and [`panic_guard`]: typed input errors, numeric types, other
//!    code's panics as errors;
//! 2. [`bounding_volume`]: AABB, OBB, line-swept spheres;
//! 3. [`partitioning`]: OBB trees, AABB trees, broad phases;
//! 4. [`shape`]: primitives, triangle meshes, voxel maps, support maps;
//! 5. [`query`]: intersection, distance, closest features, penetration depth, GJK;
//! 6. [`robot`], [`scene`] and [`motion`]: what is read from files and messages;
//! 7. [`enclosure`]: interval arithmetic and the links' pose enclosures over time;
//! 8. [`collision`]: the robot and the scene together, in one configuration;
//! 9. [`motion_bounds`]: the elements' motion over time cells, shared by the three
//!    continuous checks above it;
//! 10. [`ccd`] (the CCD pipeline), [`certifier`] (the affine-ball certifier) and
//!     [`clearance`] (minimum clearance, event depths): siblings;
//! 11. [`check`]: a method over a whole trajectory, and the report;
//! 12. [`moveit`]: what ROS 2 and MoveIt messages mean, with no transport inside (the
//!     message types, the planning scene, the guard, the execution gate's decisions);
//! 13. [`bag`] (recorded bags: reading, the world replayed, the audit of their plans)
//!     and [`node`] (the ROS 2 node's runtime, and its transports behind one seam):
//!     siblings;
//! 14. `cli` (in the binary, `src/cli`) and [`demo`]: the command line.
//!
//! The user reference is in `docs/` (start at `README.md`); `docs/architecture.md`
//! describes the floors and the seams, and what each cargo feature gives.

pub mod error;
pub mod math;
pub mod panic_guard;

pub mod bounding_volume;

pub mod partitioning;

pub mod shape;

pub mod query;

pub mod motion;
pub mod robot;
pub mod scene;

pub mod enclosure;

pub mod collision;

pub mod motion_bounds;

pub mod ccd;
pub mod certifier;
pub mod clearance;

pub mod check;

pub mod moveit;

pub mod bag;
pub mod node;

pub mod demo;
