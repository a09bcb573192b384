//! The ROS 2 node's runtime: ccd_guard on the ROS graph, beside move_group.
//!
//! The MoveIt meaning of every message, the guard and the gate's decisions live in the
//! floor below ([`crate::moveit`]); this floor runs them. The data's path: a
//! [`transport`] reads messages into the [`work_queue`]; the [`worker`] thread runs the
//! guard over it, in arrival order, and hands back what to send, which the transport
//! sends. The command line ([`arguments`], [`names`]), the [`parameters`], the
//! environment ([`discovery`]) and the [`logging`] configure it; [`type_descriptions`]
//! answers `~/get_type_description` for every transport.
//!
//! The transport is the one seam a middleware fills ([`transport::Transport`]): the
//! pure-Rust DDS one (ros2-client on RustDDS, cargo feature `dds`, on by default) or the
//! rcl one (r2r, feature `rcl`, what `colcon build` builds). A build without any
//! transport still checks files (`check`, `demo`); its `node` says so and exits 2. See
//! `docs/architecture.md`.
pub mod arguments;
pub mod discovery;
pub mod logging;
pub mod names;
pub mod parameters;
pub mod transport;
pub mod type_descriptions;
pub mod work_queue;
pub mod worker;

use crate::moveit::guard::Guard;
use arguments::{RosArgumentError, RosArguments};
use discovery::{Discovery, DiscoveryError};
use names::{NameError, NodeNames};
use parameters::{NodeParameters, ParameterError};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use transport::TransportError;
use work_queue::WorkQueue;
use worker::{Output, Queue, Worker};

/// The node's default name.
pub const NODE_NAME: &str = "ccd_guard";

/// Why the node could not start, or stopped serving.
#[derive(Debug, thiserror::Error)]
pub enum NodeError {
    #[error(transparent)]
    Arguments(#[from] RosArgumentError),
    #[error(transparent)]
    Names(#[from] NameError),
    #[error("signal handler: {0}")]
    Signal(std::io::Error),
    #[error(transparent)]
    Parameters(#[from] ParameterError),
    #[error(transparent)]
    Discovery(#[from] DiscoveryError),
    #[error(transparent)]
    Transport(#[from] TransportError),
    /// The worker's thread could not be started.
    #[error("worker thread: {0}")]
    Worker(std::io::Error),
}

/// Runs the node until the process is stopped; returns the exit status on a start-up
/// error (bad arguments, parameters or environment, or no transport built in: 2, with
/// the reason on stderr).
pub fn run(args: &[String]) -> i32 {
    match start(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("ccd_guard node: {e}");
            2
        }
    }
}

fn start(args: &[String]) -> Result<(), NodeError> {
    let arguments = RosArguments::parse(args)?;
    let names = NodeNames::new(NODE_NAME, &arguments)?;
    logging::init(&names.name, arguments.log_level(&names.name));
    // SIGINT (Ctrl-C) and SIGTERM (what `ros2 launch` sends) stop the node cleanly.
    let stop = Arc::new(AtomicBool::new(false));
    for signal in [signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM] {
        signal_hook::flag::register(signal, stop.clone()).map_err(NodeError::Signal)?;
    }
    let params = NodeParameters::load(&arguments, &names)?;
    let discovery = Discovery::from_env()?;
    let queue: Arc<Queue> = Arc::new(WorkQueue::new(params.queue_size));
    let mut transport = transport::open(&names, &discovery, &params)?;
    let guard = Guard::new(params.guard.clone());
    log::info!(
        "ready: {} on domain {} ({:?} discovery); {}; {}",
        names.fully_qualified(),
        discovery.domain_id,
        discovery.range,
        guard.summary(),
        transport.describe()
    );
    let (outputs, received) = mpsc::channel();
    let wake = transport.waker()?;
    let worker = {
        let queue = queue.clone();
        let send = move |output: Output| {
            let _ = outputs.send(output);
            wake();
        };
        let gate = params.gate;
        std::thread::Builder::new().name("ccd_guard-worker".into()).spawn(move || Worker::new(guard, gate).run(&queue, send)).map_err(NodeError::Worker)?
    };
    let result = transport.serve(&queue, &received, &stop);
    if stop.load(Ordering::Relaxed) {
        log::info!("shutting down on a signal");
    }
    queue.close();
    let _ = worker.join();
    Ok(result?)
}
