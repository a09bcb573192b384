//! Checking a whole trajectory: the methods, their inputs, and the report.
//!
//! - [`inputs`]: files into a [`CollisionWorld`](crate::collision::CollisionWorld) and a
//!   [`JointMotion`](crate::motion::JointMotion).
//! - [`sampled`]: discrete checks along the motion (what MoveIt does; proves nothing).
//! - [`pipeline_method`]: the articulated CCD pipeline of Redon et al. 2004 ([`crate::ccd`]).
//! - [`certified_method`]: the pipeline, then the affine-ball certifier of Schröcker & Weber
//!   ([`crate::certifier`]) for a proven `collision_free`.
//! - [`clearance_plot`]: the clearance over time as an SVG plot (`--plot`).
//! - [`measures`]: the minimum clearance and penetration depths a report carries.
//! - [`report`]: the contract's JSON report and its text form.
//! - [`run`]: one check (method, then measures), for the CLI and the ROS node alike.
pub mod certified_method;
pub mod clearance_plot;
pub mod inputs;
pub mod measures;
pub mod pipeline_method;
pub mod report;
pub mod run;
pub mod sampled;

pub use inputs::{CheckInput, InputFiles};
pub use report::{ContactEvent, DecidedBy, Report, ReportMethod, Verdict};
pub use run::{CheckOptions, CheckOutcome, check_trajectory};

/// How a trajectory is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// The CCD pipeline plus the affine-ball certifier (proves "collision free").
    Certified,
    /// The articulated CCD pipeline alone (exact first contact, no certificate).
    Pipeline,
    /// Discrete checks at sampled states; may say collision or uncertain, never free.
    Sampled,
}

impl Method {
    pub fn name(self) -> &'static str {
        match self {
            Method::Certified => "certified",
            Method::Pipeline => "pipeline",
            Method::Sampled => "sampled",
        }
    }
}
