//! The rcl transport (cargo feature `rcl`): the node as an rcl node, through r2r. What
//! rcl gives every node comes with it: any RMW of the ROS 2 installation
//! (`RMW_IMPLEMENTATION`), type hashes on every endpoint, `/rosout` (ccd_guard's log
//! goes through rcutils, which prints it as rcl does, at the level `--log-level` sets),
//! and the graph as the ros2 tools see it.
//!
//! Topics travel as raw CDR, read and written by the [`crate::moveit`] floor's types,
//! so both transports put the same bytes on the wire; the service, the parameter
//! services and the gate's actions use r2r's generated types, crossed over through
//! those same bytes ([`wire`]). One thread does all rcl I/O (r2r's node is not shared
//! between threads) and never waits on a check; it looks at the worker's outputs after
//! each short wait for rcl events.
pub mod gate;
pub mod parameters;
pub mod wire;

use super::{Transport, TransportError, Wake};
use crate::moveit::cdr;
use crate::moveit::convert;
use crate::moveit::gate::GateWork;
use crate::moveit::guard::TrajectoryJob;
use crate::moveit::msg::{self, RosMessage};
use crate::node::names::{NameError, NodeNames};
use crate::node::parameters::NodeParameters;
use crate::node::work_queue::{Pushed, Work};
use crate::node::worker::{CallId, Output, Queue, Request, Update};
use futures::{FutureExt, Stream, StreamExt};
use gate::RclGate;
use parameters::ParameterServices;
use r2r::QosProfile;
use r2r::ccd_guard::srv::CheckTrajectory;
use r2r::type_description_interfaces::srv::GetTypeDescription;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;
use wire::{WireError, from_r2r, to_r2r};

/// Why the node's rcl context, node or endpoints could not be made.
#[derive(Debug, thiserror::Error)]
pub enum RclError {
    #[error("rcl: {0}")]
    Rcl(r2r::Error),
    #[error(transparent)]
    Name(#[from] NameError),
    /// A topic, service or action that rcl would not make.
    #[error("{name}: {problem}")]
    Endpoint { name: String, problem: r2r::Error },
}

/// How long one wait for rcl events lasts at most: the worker's outputs wait at most
/// this long to be sent.
const SPIN: Duration = Duration::from_micros(500);

type RawStream = Box<dyn Stream<Item = Vec<u8>> + Unpin + Send>;
type Calls = Box<dyn Stream<Item = r2r::ServiceRequest<CheckTrajectory::Service>> + Unpin + Send>;
type TypeDescriptionCalls = Box<dyn Stream<Item = r2r::ServiceRequest<GetTypeDescription::Service>> + Unpin + Send>;

/// What a topic brings.
#[derive(Clone, Copy, Debug)]
enum Inbound {
    PlannedTrajectory,
    DisplayPlannedPath,
    JointStates,
    RobotDescription,
    CollisionObject,
    PlanningScene,
    Clock,
}

/// The rcl node, its endpoints, and the service calls waiting for the worker.
pub struct RclTransport {
    inbound: Vec<(Inbound, &'static str, RawStream)>,
    check_trajectory: Calls,
    calls: BTreeMap<u64, r2r::ServiceRequest<CheckTrajectory::Service>>,
    next_call: u64,
    verdict: r2r::PublisherUntyped,
    markers: r2r::PublisherUntyped,
    parameters: ParameterServices,
    /// `~/get_type_description` (rcl leaves it to client libraries, as `/rosout`).
    type_description: TypeDescriptionCalls,
    gate: Option<RclGate>,
    check_options: crate::check::CheckOptions,
    topic_names: Vec<String>,
    service_name: String,
    node: r2r::Node,
}

impl RclTransport {
    pub fn new(names: &NodeNames, params: &NodeParameters) -> Result<Self, RclError> {
        let context = r2r::Context::create().map_err(RclError::Rcl)?;
        let mut node = r2r::Node::create(context, &names.name, &names.namespace).map_err(RclError::Rcl)?;
        // rcl leaves a node's `/rosout` publisher to its client library (rclcpp and rclpy
        // make it; r2r does not): this is the node's, with rcl's QoS for it.
        let rosout_qos = QosProfile::default().reliable().transient_local().keep_last(1000).lifespan(Duration::from_secs(10));
        let rosout = node
            .create_publisher_untyped("/rosout", "rcl_interfaces/msg/Log", rosout_qos)
            .map_err(|problem| RclError::Endpoint { name: "/rosout".into(), problem })?;
        set_rcutils_sink(node.logger().to_string(), rosout);
        let mut topic_names = Vec::new();
        let latched = QosProfile::default().transient_local().keep_last(1);
        // r2r takes one sample per subscription per wait: a burst (MoveIt's collision
        // objects at start-up, plans published at once) waits in rmw's history, which
        // must hold it: a scene message dropped there would be a part of the world the
        // node never heard of. The work queue bounds what waits beyond.
        let burst = QosProfile::default().keep_last(1000);
        let mut inbound = Vec::new();
        for (kind, source, topic, type_name, qos) in [
            (Inbound::PlannedTrajectory, "planned_trajectory", "planned_trajectory", "trajectory_msgs/msg/JointTrajectory", burst.clone()),
            (Inbound::DisplayPlannedPath, "display_planned_path", "display_planned_path", "moveit_msgs/msg/DisplayTrajectory", burst.clone()),
            (Inbound::JointStates, "joint_states", "joint_states", "sensor_msgs/msg/JointState", QosProfile::default()),
            (Inbound::RobotDescription, "robot_description", "robot_description", "std_msgs/msg/String", latched),
            (Inbound::CollisionObject, "collision_object", "collision_object", "moveit_msgs/msg/CollisionObject", burst.clone()),
            (Inbound::PlanningScene, "monitored_planning_scene", "monitored_planning_scene", "moveit_msgs/msg/PlanningScene", burst),
            (Inbound::Clock, "/clock", "/clock", "rosgraph_msgs/msg/Clock", QosProfile::default().best_effort().keep_last(1)),
        ] {
            let resolved = names.resolve(topic)?;
            let stream = node.subscribe_raw(&resolved, type_name, qos).map_err(|problem| RclError::Endpoint { name: resolved.clone(), problem })?;
            if !matches!(kind, Inbound::Clock) {
                topic_names.push(resolved);
            }
            inbound.push((kind, source, Box::new(stream) as RawStream));
        }
        let mut publisher = |topic: &str, type_name: &str| -> Result<r2r::PublisherUntyped, RclError> {
            let resolved = names.resolve(topic)?;
            topic_names.push(resolved.clone());
            node.create_publisher_untyped(&resolved, type_name, QosProfile::default()).map_err(|problem| RclError::Endpoint { name: resolved, problem })
        };
        let verdict = publisher("~/verdict", "ccd_guard/msg/CollisionVerdict")?;
        let markers = publisher("~/markers", "visualization_msgs/msg/MarkerArray")?;
        let service_name = names.resolve("~/check_trajectory")?;
        let check_trajectory = node
            .create_service::<CheckTrajectory::Service>(&service_name, QosProfile::services_default())
            .map_err(|problem| RclError::Endpoint { name: service_name.clone(), problem })?;
        let parameters = ParameterServices::new(&mut node, names, params)?;
        let described = names.resolve("~/get_type_description")?;
        let type_description = node
            .create_service::<GetTypeDescription::Service>(&described, QosProfile::services_default())
            .map_err(|problem| RclError::Endpoint { name: described, problem })?;
        crate::moveit::clock::use_sim_time(params.use_sim_time);
        let gate = match params.gate_controllers.is_empty() {
            true => None,
            false => Some(RclGate::new(&mut node, &crate::node::transport::gate_actions(names, params)?)?),
        };
        Ok(Self {
            inbound,
            check_trajectory: Box::new(check_trajectory),
            calls: BTreeMap::new(),
            next_call: 0,
            verdict,
            markers,
            parameters,
            type_description: Box::new(type_description),
            gate,
            check_options: params.guard.check,
            topic_names,
            service_name,
            node,
        })
    }

    /// The event loop: wait briefly for rcl, queue what arrived, send what the worker
    /// made; until `stop` is set.
    fn event_loop(&mut self, queue: &Queue, outputs: &mpsc::Receiver<Output>, stop: &AtomicBool) {
        while !stop.load(Ordering::Relaxed) {
            self.node.spin_once(SPIN);
            self.read_parameter_calls(queue);
            self.read_type_description_calls();
            self.read_topics(queue);
            self.read_calls(queue);
            let mut gate_work = self.gate.as_mut().map(RclGate::read).unwrap_or_default();
            while let Ok(output) = outputs.try_recv() {
                self.send(output, &mut gate_work);
            }
            self.queue_gate_work(queue, gate_work);
        }
    }

    /// Answers the parameter services; a change goes into effect
    /// ([`crate::node::transport::take_parameters`]).
    fn read_parameter_calls(&mut self, queue: &Queue) {
        if let Some(changed) = self.parameters.serve() {
            self.check_options = crate::node::transport::take_parameters(queue, changed);
        }
    }

    /// Answers `~/get_type_description` ([`crate::node::type_descriptions`]).
    fn read_type_description_calls(&mut self) {
        while let Some(Some(request)) = self.type_description.next().now_or_never() {
            let answer = from_r2r(&request.message).map(|asked| crate::node::type_descriptions::describe(&asked));
            let sent = answer
                .and_then(|answer| to_r2r::<GetTypeDescription::Response>(&answer))
                .map_err(|e| e.to_string())
                .and_then(|answer| request.respond(answer).map_err(|e| e.to_string()));
            if let Err(e) = sent {
                log::warn!("get_type_description: {e}");
            }
        }
    }

    fn read_topics(&mut self, queue: &Queue) {
        let dropped_before = queue.dropped();
        let mut arrived = Vec::new();
        for (kind, source, stream) in &mut self.inbound {
            while let Some(Some(bytes)) = stream.next().now_or_never() {
                arrived.push((*kind, *source, bytes));
            }
        }
        for (kind, source, bytes) in arrived {
            self.take_in(queue, kind, source, &bytes);
        }
        let dropped = queue.dropped() - dropped_before;
        if dropped > 0 {
            log::warn!("queue full: dropped {dropped} older trajectories ({} so far)", queue.dropped());
        }
    }

    /// One message from a topic: a job, an update, or `/clock`'s time.
    fn take_in(&mut self, queue: &Queue, kind: Inbound, source: &'static str, bytes: &[u8]) {
        let update = match kind {
            Inbound::PlannedTrajectory => return self.job(queue, source, decode(bytes).map(|m| TrajectoryJob::from_joint_trajectory(source, m))),
            Inbound::DisplayPlannedPath => return self.job(queue, source, decode(bytes).map(|m| TrajectoryJob::from_display_trajectory(source, m))),
            Inbound::Clock => {
                if let Ok(clock) = decode::<msg::Clock>(bytes) {
                    crate::moveit::clock::set_sim_time(clock.clock);
                }
                return;
            }
            Inbound::JointStates => decode(bytes).map(Update::JointState),
            Inbound::RobotDescription => decode::<msg::StringMessage>(bytes).map(|s| Update::RobotDescription(s.data)),
            Inbound::CollisionObject => decode(bytes).map(|o| Update::CollisionObject(Box::new(o))),
            Inbound::PlanningScene => decode(bytes).map(|s| Update::PlanningScene(Box::new(s))),
        };
        match update {
            Ok(u @ Update::JointState(_)) => {
                queue.push(Work::JointState(u));
            }
            Ok(u) => {
                queue.push(Work::Update(u));
            }
            Err(e) => crate::node::transport::unreadable(queue, source, e.to_string()),
        }
    }

    fn job(&self, queue: &Queue, source: &str, job: Result<TrajectoryJob, UnreadableMessage>) {
        match job {
            Ok(job) => {
                if let (Pushed::Refused, _) = queue.push(Work::Trajectory(job)) {
                    log::warn!("queue full of service calls: trajectory dropped");
                }
            }
            Err(e) => self.publish_verdict(&convert::invalid_verdict(source, &self.check_options, e)),
        }
    }

    fn read_calls(&mut self, queue: &Queue) {
        while let Some(Some(request)) = self.check_trajectory.next().now_or_never() {
            let job = from_r2r::<msg::CheckTrajectoryRequest>(&request.message).map(TrajectoryJob::from_request);
            let call = CallId(self.next_call);
            self.next_call += 1;
            self.calls.insert(call.0, request);
            let verdict = match job {
                Ok(job) => match queue.push(Work::Call(Request::Service(call, job))) {
                    (Pushed::Refused, _) => convert::invalid_verdict("check_trajectory", &self.check_options, "busy: the queue is full of service calls"),
                    _ => continue,
                },
                Err(e) => convert::invalid_verdict("check_trajectory", &self.check_options, format!("unreadable request: {e}")),
            };
            self.respond(call, verdict);
        }
    }

    fn respond(&mut self, call: CallId, verdict: msg::CollisionVerdict) {
        let Some(request) = self.calls.remove(&call.0) else {
            log::error!("check_trajectory response to an unknown call {}", call.0);
            return;
        };
        let sent = to_r2r::<CheckTrajectory::Response>(&msg::CheckTrajectoryResponse { verdict })
            .map_err(|e| e.to_string())
            .and_then(|r| request.respond(r).map_err(|e| e.to_string()));
        if let Err(e) = sent {
            log::error!("check_trajectory response: {e}");
        }
    }

    fn publish_verdict(&self, verdict: &msg::CollisionVerdict) {
        publish(&self.verdict, verdict, "a verdict");
    }

    fn send(&mut self, output: Output, gate_work: &mut Vec<GateWork>) {
        match output {
            Output::GoalDecided(key, decision) => {
                if let Some(gate) = &mut self.gate {
                    gate.decided(key, decision, gate_work);
                }
            }
            Output::StopGoal(key, reason) => {
                if let Some(gate) = &mut self.gate {
                    gate.stop(key, reason, gate_work);
                }
            }
            Output::Verdict(result) => {
                log::info!("{}: {}", result.verdict.source, result.verdict.verdict);
                self.publish_verdict(&result.verdict);
                if let Some(markers) = &result.markers {
                    publish(&self.markers, markers, "markers");
                }
            }
            Output::Response(id, verdict) => self.respond(id, verdict),
        }
    }

    /// Hands the gate's work to the worker; a goal it has no room for is aborted.
    fn queue_gate_work(&mut self, queue: &Queue, work: Vec<GateWork>) {
        if let Some(gate) = &mut self.gate {
            crate::node::transport::queue_gate_work(queue, work, |key, more| gate.refuse_busy(key, more));
        }
    }
}

/// A message that could not be read from a topic (malformed CDR and the like).
#[derive(Debug, thiserror::Error)]
#[error("unreadable message: {0}")]
pub struct UnreadableMessage(#[from] crate::moveit::cdr::CdrError);

fn decode<M: RosMessage>(bytes: &[u8]) -> Result<M, UnreadableMessage> {
    Ok(cdr::from_cdr(bytes)?)
}

fn publish<M: RosMessage>(publisher: &r2r::PublisherUntyped, message: &M, what: &str) {
    let sent =
        cdr::to_cdr(message).map_err(WireError::from).map_err(|e| e.to_string()).and_then(|bytes| publisher.publish_raw(&bytes).map_err(|e| e.to_string()));
    if let Err(e) = sent {
        log::error!("publishing {what}: {e}");
    }
}

/// ccd_guard's log records go to rcutils under the node's logger (rcl prints them in its
/// format, at its level, `--log-level`, and to its log files) and on `/rosout`.
fn set_rcutils_sink(logger: String, rosout: r2r::PublisherUntyped) {
    let rosout = std::sync::Mutex::new(rosout);
    crate::node::logging::set_sink(crate::node::logging::Sink {
        write: Box::new(move |record| {
            let severity = match record.level {
                log::Level::Error => r2r::LogSeverity::Error,
                log::Level::Warn => r2r::LogSeverity::Warn,
                log::Level::Info => r2r::LogSeverity::Info,
                log::Level::Debug | log::Level::Trace => r2r::LogSeverity::Debug,
            };
            // rcutils takes C strings: a NUL byte (a joint name may hold one) is written out.
            let text = |s: &str| s.replace('\0', "\\0");
            r2r::log(&text(record.message), &text(&logger), &text(record.file), record.line, severity);
            // Not logged when it fails: that would come back here.
            if let (Ok(bytes), Ok(rosout)) = (cdr::to_cdr(&crate::node::logging::Log::of(record, &logger)), rosout.lock()) {
                let _ = rosout.publish_raw(&bytes);
            }
        }),
        replaces_console: true,
    });
}

impl Transport for RclTransport {
    fn describe(&self) -> String {
        let mut text = format!("rcl ({}); topics: {}; service: {}", rmw_name(), self.topic_names.join(", "), self.service_name);
        if let Some(gate) = &self.gate {
            text += &format!("; execution gate: {}", gate.action_names().collect::<Vec<_>>().join(", "));
        }
        text
    }

    /// The loop looks at the outputs after every short wait ([`SPIN`]): nothing to wake.
    fn waker(&self) -> Result<Wake, TransportError> {
        Ok(Box::new(|| {}))
    }

    fn serve(&mut self, queue: &Queue, outputs: &mpsc::Receiver<Output>, stop: &AtomicBool) -> Result<(), TransportError> {
        self.event_loop(queue, outputs, stop);
        Ok(())
    }
}

/// The RMW rcl loads, as `RMW_IMPLEMENTATION` names it (else the installation's default).
fn rmw_name() -> String {
    std::env::var("RMW_IMPLEMENTATION").unwrap_or_else(|_| "the default RMW".into())
}
