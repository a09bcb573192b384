//! The seam between the node's runtime and a middleware.
//!
//! A transport puts the node on the ROS graph: it subscribes to the node's topics,
//! serves its service and the gate's actions, and turns what arrives into [`Work`] for
//! the [`Queue`]; it sends what the worker hands back ([`Output`]). What a message
//! *means* is not its business: the message types, their CDR layout, the guard and the
//! gate's decisions are the [`crate::moveit`] floor's, the same for every transport.
//!
//! Transports, each behind a cargo feature:
//! - [`dds`] (feature `dds`, default): pure Rust, ros2-client on RustDDS; no ROS 2
//!   installation needed.
//!
//! [`Work`]: crate::node::work_queue::Work
use super::discovery::Discovery;
use super::names::NodeNames;
use super::parameters::NodeParameters;
use super::worker::{Output, Queue};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

#[cfg(feature = "dds")]
pub mod dds;

/// Called by the worker after each [`Output`] it hands over, so that a transport waiting
/// for traffic looks at its outputs at once.
pub type Wake = Box<dyn Fn() + Send>;

/// A middleware that carries the node's traffic.
pub trait Transport {
    /// What the node serves (its topics, service and gate actions), for the start-up log.
    fn describe(&self) -> String;
    /// How the worker wakes the transport's event loop (asked for once, before [`Self::serve`]).
    fn waker(&self) -> Result<Wake, TransportError>;
    /// The event loop: queue what arrives, send what the worker hands back, until `stop`
    /// is set.
    fn serve(&mut self, queue: &Queue, outputs: &mpsc::Receiver<Output>, stop: &AtomicBool) -> Result<(), TransportError>;
}

/// Why the node's transport could not be made, or stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum TransportError {
    /// This build has no transport (built with `--no-default-features`).
    #[error("this ccd_guard was built without a ROS transport (cargo feature `dds`); `check` and `demo` work, the node does not")]
    NotBuilt,
    #[cfg(feature = "dds")]
    #[error(transparent)]
    Dds(#[from] dds::DdsError),
}

/// The transport this build has, set up for the node `names` with `params`.
#[allow(unused_variables)]
pub fn open(names: &NodeNames, discovery: &Discovery, params: &NodeParameters) -> Result<Box<dyn Transport>, TransportError> {
    #[cfg(feature = "dds")]
    return Ok(Box::new(dds::DdsTransport::new(names, discovery, params)?));
    #[cfg(not(feature = "dds"))]
    Err(TransportError::NotBuilt)
}
