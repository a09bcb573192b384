//! The articulated continuous collision pipeline of Redon, Kim, Lin and Manocha
//! (Redon et al. 2004): exact first time of contact along the executed motion.
//!
//! Per segment of the trajectory: link enclosures by interval arithmetic
//! ([`crate::enclosure`]); stage 1, a dynamic BVH of swept boxes
//! ([`stage1_dynamic_bvh`]); stage 2, swept line-swept spheres ([`stage2_swept_lss`]);
//! stage 3, the simultaneous solver ([`solver`]) with continuous OBB tests
//! ([`continuous_obb`]), elementary triangle equations ([`elementary`]) and conservative
//! advancement for curved primitives ([`crate::motion_bounds::conservative_advancement`]).
//! The motion bounds it shares with the certifier and the clearance search are in
//! [`crate::motion_bounds`].
//! [`pipeline`] runs the segments and assembles contact events over the trajectory;
//! `exit_march` finds where each ends.
//!
//! Soundness: a pair is dropped on a time interval only where a test that holds for
//! every pose of the interval's enclosures (outward-rounded interval arithmetic, or
//! conservative advancement from a proven distance bound) shows it apart over all of
//! it. Only on the last cells, as wide as the time tolerance, is contact looked for by
//! the exact discrete test at instants of the cell: a touch between them could pass
//! unseen, which is why the certified method has the certifier prove a motion free. A
//! contact reported was found touching by the discrete test.
pub mod continuous_obb;
pub mod culling;
pub mod elementary;
mod exit_march;
mod kept_contact;
pub mod pipeline;
pub mod solver;
pub mod stage1_dynamic_bvh;
pub mod stage2_swept_lss;
pub mod statistics;

pub use pipeline::{PipelineOptions, PipelineResult, run_pipeline, run_pipeline_except};
pub use statistics::Statistics;
