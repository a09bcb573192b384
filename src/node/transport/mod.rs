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
//! - [`rcl`] (feature `rcl`): rcl through r2r, in a sourced ROS 2 (what `colcon build`
//!   of the package builds); any RMW, and what rcl gives every node. A build with both
//!   runs on rcl.
//!
//! [`Work`]: crate::node::work_queue::Work
use super::discovery::Discovery;
use super::names::{NameError, NodeNames};
use super::parameters::NodeParameters;
use super::work_queue::{Pushed, Work};
use super::worker::{Output, Queue, Request, Update};
use crate::moveit::gate::{GateWork, GoalKey};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

#[cfg(feature = "dds")]
pub mod dds;
#[cfg(feature = "rcl")]
pub mod rcl;

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
    #[error("this ccd_guard was built without a ROS transport (cargo feature `dds` or `rcl`); `check` and `demo` work, the node does not")]
    NotBuilt,
    #[cfg(feature = "dds")]
    #[error(transparent)]
    Dds(#[from] dds::DdsError),
    #[cfg(feature = "rcl")]
    #[error(transparent)]
    Rcl(#[from] rcl::RclError),
}

/// The transport this build has, set up for the node `names` with `params`.
#[allow(unused_variables)]
pub fn open(names: &NodeNames, discovery: &Discovery, params: &NodeParameters) -> Result<Box<dyn Transport>, TransportError> {
    #[cfg(feature = "rcl")]
    return Ok(Box::new(rcl::RclTransport::new(names, params)?));
    #[cfg(all(feature = "dds", not(feature = "rcl")))]
    return Ok(Box::new(dds::DdsTransport::new(names, discovery, params)?));
    #[cfg(not(any(feature = "dds", feature = "rcl")))]
    Err(TransportError::NotBuilt)
}

/// Puts parameters that the parameter services changed into effect: the queue's bound
/// and the ROS clock at once, the rest through the worker, in order with its work (so the
/// next check runs with them). Returns the check's options, for the verdicts the
/// transport makes itself (unreadable input).
pub fn take_parameters(queue: &Queue, changed: NodeParameters) -> crate::check::CheckOptions {
    queue.set_capacity(changed.queue_size);
    crate::moveit::clock::use_sim_time(changed.use_sim_time);
    let check = changed.guard.check;
    queue.push(Work::Update(Update::Parameters(Box::new(changed))));
    check
}

/// A message on `topic` that could not be read: one of the scene's goes to the worker,
/// which marks the scene as lacking it (no trajectory certified free until a whole
/// planning scene) and says so on `~/verdict`; one of the others is logged.
pub fn unreadable(queue: &Queue, topic: &'static str, why: String) {
    match topic {
        "collision_object" | "monitored_planning_scene" => {
            queue.push(Work::Update(Update::Unreadable { topic, why }));
        }
        _ => log::warn!("{topic}: {why}; ignored"),
    }
}

/// Each gated controller with the gate's action for it (`~/C/follow_joint_trajectory`)
/// and the controller's own (`NS/C/follow_joint_trajectory`), resolved with the remaps.
pub fn gate_actions(names: &NodeNames, params: &NodeParameters) -> Result<Vec<(String, String, String)>, NameError> {
    let namespace = params.gate_controllers_namespace.trim_end_matches('/');
    let namespace = if namespace.starts_with('/') || namespace.is_empty() { namespace.to_string() } else { format!("/{namespace}") };
    params
        .gate_controllers
        .iter()
        .map(|c| {
            Ok((c.clone(), names.resolve(&format!("~/{c}/follow_joint_trajectory"))?, names.resolve(&format!("{namespace}/{c}/follow_joint_trajectory"))?))
        })
        .collect()
}

/// Hands the gate's work to the worker; a goal it has no room for is refused through
/// `refuse_busy`, whose answer may bring more work.
pub fn queue_gate_work(queue: &Queue, mut work: Vec<GateWork>, mut refuse_busy: impl FnMut(GoalKey, &mut Vec<GateWork>)) {
    while !work.is_empty() {
        let mut more = Vec::new();
        for item in work {
            let pushed = match item {
                GateWork::Check(goal) => queue.push(Work::Call(Request::Goal(goal))),
                GateWork::Started { goal, start } => queue.push(Work::Update(Update::GoalStarted(Box::new(goal), start))),
                GateWork::Ended(key) => queue.push(Work::Update(Update::GoalEnded(key))),
                GateWork::Withdrawn(key) => {
                    queue.withdraw_calls(|call| matches!(call, Request::Goal(goal) if goal.key == key));
                    continue;
                }
            };
            if let (Pushed::Refused, Some(Work::Call(Request::Goal(goal)))) = pushed {
                refuse_busy(goal.key, &mut more);
            }
        }
        work = more;
    }
}
