//! Motion enclosures: interval arithmetic with outward rounding, interval poses, and
//! the poses of every link over a time interval of the executed motion (Redon et al.
//! 2004 §3.3 and §4.1). An enclosure may only be too large, never too small.
mod interval;
mod interval_pose;
mod link_motion;
mod on_demand;

pub use interval::Interval;
pub use interval_pose::{AxisRotation, IntervalMatrix3, IntervalPose, IntervalVector3};
pub use link_motion::{KinematicTree, LinkEnclosure, LinkJet, link_enclosures, link_jets};
pub use on_demand::{EnclosuresOnDemand, JetsOnDemand};
