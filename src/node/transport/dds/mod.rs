//! The pure-Rust DDS transport (ros2-client on RustDDS, cargo feature `dds`): the node's
//! topics, service and gate actions on the ROS graph, with no ROS 2 installation. One
//! thread does all DDS I/O and never waits on a check; the worker thread
//! ([`crate::node::worker`]) runs the guard over the queue and hands back what to send.
//!
//! [`messages`] marks the message types as ros2-client's; [`relay`] speaks the gate's
//! action protocol on both sides.
pub mod messages;
pub mod parameters;
pub mod relay;

use super::{Transport, TransportError, Wake};
use crate::moveit::convert;
use crate::moveit::gate::GateWork;
use crate::moveit::guard::TrajectoryJob;
use crate::moveit::msg::{self, RosMessage};
use crate::node::discovery::{Discovery, DiscoveryRange};
use crate::node::names::{NameError, NodeNames};
use crate::node::parameters::{NodeParameters, RequestIdentity};
use crate::node::type_descriptions::{self, GetTypeDescriptionRequest, GetTypeDescriptionResponse};
use crate::node::work_queue::{Pushed, Work};
use crate::node::worker::{CallId, Output, Queue, Request, Update};
use parameters::ParameterServices;
use relay::{Relay, RelayError};
use ros2_client::dds::rustdds::DomainParticipantBuilder;
use ros2_client::dds::rustdds::mio1::{Events, Interest, Poll, Token, Waker};
use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::service::RmwRequestId;
use ros2_client::{Context, MessageTypeName, Name, Node, NodeName, NodeOptions, Publisher, QosProfile, Server, ServiceMapping, ServiceTypeName, Subscription};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

/// Why the node's DDS participant, node, topics, service or gate could not be made.
#[derive(Debug, thiserror::Error)]
pub enum DdsError {
    #[error("DDS participant: {0}")]
    Participant(ros2_client::dds::rustdds::dds::CreateError),
    #[error("ROS context: {0}")]
    Context(ros2_client::error::CreateError),
    #[error("node name: {0:?}")]
    NodeName(ros2_client::names::NameError),
    #[error("node: {0:?}")]
    Node(ros2_client::NodeCreateError),
    #[error(transparent)]
    Name(#[from] NameError),
    /// A resolved topic or service name that ros2-client refuses.
    #[error("{name}: {problem:?}")]
    GraphName { name: String, problem: ros2_client::names::NameError },
    #[error("topic {topic}: {problem:?}")]
    Topic { topic: String, problem: ros2_client::error::CreateError },
    #[error("subscription: {0:?}")]
    Subscription(ros2_client::error::CreateError),
    #[error("publisher: {0:?}")]
    Publisher(ros2_client::error::CreateError),
    #[error("service {service}: {problem:?}")]
    Service { service: String, problem: ros2_client::error::CreateError },
    #[error(transparent)]
    Gate(#[from] RelayError),
    #[error("{0}")]
    Poll(std::io::Error),
    #[error("poll: {0}")]
    Register(std::io::Error),
    /// The worker's waker, or the event loop's wait, failed.
    #[error("event loop: {0}")]
    EventLoop(std::io::Error),
}

/// A sample that could not be read from a topic (malformed CDR and the like).
#[derive(Debug, thiserror::Error)]
#[error("unreadable message on {topic}: {problem:?}")]
pub struct UnreadableMessage {
    topic: &'static str,
    problem: ros2_client::error::ReadError,
}

const PLANNED_TRAJECTORY: Token = Token(1);
const DISPLAY_PLANNED_PATH: Token = Token(2);
const JOINT_STATES: Token = Token(3);
const ROBOT_DESCRIPTION: Token = Token(4);
const COLLISION_OBJECT: Token = Token(5);
const PLANNING_SCENE: Token = Token(6);
const CHECK_TRAJECTORY: Token = Token(7);
const CLOCK: Token = Token(8);
const TYPE_DESCRIPTION: Token = Token(9);
/// The six parameter services: tokens from here.
const PARAMETER_SERVICES: usize = 10;
/// The gate's action servers: three tokens a controller from here.
const GATE_ACTIONS: usize = 200;
const WAKE: Token = Token(100);
/// Samples taken from one reader per wake-up, at most (so one busy topic cannot starve
/// the others).
const TAKE_LIMIT: usize = 64;

/// The DDS side: the node, its readers, writers and service. (Fields drop in order: the
/// readers and writers before their node, the node before the DDS participant, so that
/// a shutdown tears nothing down twice.)
pub struct DdsTransport {
    poll: Poll,
    planned_trajectory: Subscription<msg::JointTrajectory>,
    display_planned_path: Subscription<msg::DisplayTrajectory>,
    joint_states: Subscription<msg::JointState>,
    robot_description: Subscription<msg::StringMessage>,
    collision_object: Subscription<msg::CollisionObject>,
    planning_scene: Subscription<msg::PlanningScene>,
    check_trajectory: Server<msg::CheckTrajectoryRequest, msg::CheckTrajectoryResponse>,
    /// `/clock`, read while `use_sim_time` is on.
    clock: Subscription<msg::Clock>,
    parameters: ParameterServices,
    type_description: Server<GetTypeDescriptionRequest, GetTypeDescriptionResponse>,
    verdict: Publisher<msg::CollisionVerdict>,
    markers: Publisher<msg::MarkerArray>,
    /// The execution gate (with `gate_controllers`).
    gate: Option<Relay>,
    check_options: crate::check::CheckOptions,
    /// Service calls handed to the worker, by the identity it answers with.
    calls: BTreeMap<u64, RmwRequestId>,
    next_call: u64,
    topic_names: Vec<String>,
    service_name: String,
    node: Node,
    _context: Context,
}

/// ROS's default QoS for topics and services: reliable, volatile, keep last 10.
fn default_qos() -> QosProfile {
    QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::Volatile).history(History::KeepLast { depth: 10 })
}

/// How service requests carry their identity: from the parameter, else as the RMW that
/// the environment names does it.
fn service_mapping(parameter: Option<RequestIdentity>) -> ServiceMapping {
    match parameter {
        Some(RequestIdentity::Cyclone) => ServiceMapping::Cyclone,
        Some(RequestIdentity::Basic) => ServiceMapping::Basic,
        Some(RequestIdentity::Enhanced) => ServiceMapping::Enhanced,
        None => match std::env::var("RMW_IMPLEMENTATION").as_deref() {
            Ok("rmw_cyclonedds_cpp") => ServiceMapping::Cyclone,
            _ => ServiceMapping::Enhanced,
        },
    }
}

impl DdsTransport {
    pub fn new(names: &NodeNames, discovery: &Discovery, params: &NodeParameters) -> Result<Self, DdsError> {
        let builder = DomainParticipantBuilder::new(discovery.domain_id);
        let builder = match discovery.range {
            DiscoveryRange::Localhost => builder.with_only_networks([std::net::Ipv4Addr::LOCALHOST]),
            DiscoveryRange::Off => builder.with_only_networks(Vec::<std::net::IpAddr>::new()).same_host_loopback(false),
            DiscoveryRange::Subnet => builder,
        };
        let participant = builder.build().map_err(DdsError::Participant)?;
        let context = Context::from_domain_participant(participant).map_err(DdsError::Context)?;
        let node_name = NodeName::new(&names.namespace, &names.name).map_err(DdsError::NodeName)?;
        // The parameter services are ours ([`parameters`]); ros2-client serves them only
        // from a spinner, which this node does not run.
        let options = parameters::declare_to(NodeOptions::new().enable_rosout(true).start_parameter_services(false), params);
        let mut node = context.new_node(node_name, options).map_err(DdsError::Node)?;
        set_rosout_sink(&node);
        let qos = default_qos();
        let latched = QosProfile::publisher_default()
            .reliability_reliable(WhenFull::DEFAULT)
            .durability(Durability::TransientLocal)
            .history(History::KeepLast { depth: 1 });
        let mut topic_names = Vec::new();
        let mut subscribe = |node: &mut Node, topic: &str, type_package: &str, type_name: &str, qos: &QosProfile| -> Result<_, DdsError> {
            let resolved = names.resolve(topic)?;
            topic_names.push(resolved.clone());
            let name = Name::parse(&resolved).map_err(|problem| DdsError::GraphName { name: resolved.clone(), problem })?;
            node.create_topic(&name, MessageTypeName::new(type_package, type_name), qos).map_err(|problem| DdsError::Topic { topic: resolved, problem })
        };
        fn reader<M: RosMessage + ros2_client::Message>(node: &mut Node, topic: &ros2_client::dds::rustdds::Topic) -> Result<Subscription<M>, DdsError> {
            node.create_subscription::<M>(topic, None).map_err(DdsError::Subscription)
        }
        let t = subscribe(&mut node, "planned_trajectory", "trajectory_msgs", "JointTrajectory", &qos)?;
        let planned_trajectory = reader(&mut node, &t)?;
        let t = subscribe(&mut node, "display_planned_path", "moveit_msgs", "DisplayTrajectory", &qos)?;
        let display_planned_path = reader(&mut node, &t)?;
        let t = subscribe(&mut node, "joint_states", "sensor_msgs", "JointState", &qos)?;
        let joint_states = reader(&mut node, &t)?;
        let t = subscribe(&mut node, "robot_description", "std_msgs", "String", &latched)?;
        let robot_description = reader(&mut node, &t)?;
        let t = subscribe(&mut node, "collision_object", "moveit_msgs", "CollisionObject", &qos)?;
        let collision_object = reader(&mut node, &t)?;
        let t = subscribe(&mut node, "monitored_planning_scene", "moveit_msgs", "PlanningScene", &qos)?;
        let planning_scene = reader(&mut node, &t)?;
        let t = subscribe(&mut node, "~/verdict", "ccd_guard", "CollisionVerdict", &qos)?;
        let verdict = node.create_publisher(&t, None).map_err(DdsError::Publisher)?;
        let t = subscribe(&mut node, "~/markers", "visualization_msgs", "MarkerArray", &qos)?;
        let markers = node.create_publisher(&t, None).map_err(DdsError::Publisher)?;
        let service = names.resolve("~/check_trajectory")?;
        let service_name = Name::parse(&service).map_err(|problem| DdsError::GraphName { name: service.clone(), problem })?;
        let check_trajectory = node
            .create_server(service_mapping(params.service_mapping), &service_name, &ServiceTypeName::new("ccd_guard", "CheckTrajectory"), qos.clone(), qos)
            .map_err(|problem| DdsError::Service { service: service.clone(), problem })?;
        let mapping = service_mapping(params.service_mapping);
        let t = subscribe(
            &mut node,
            "/clock",
            "rosgraph_msgs",
            "Clock",
            &QosProfile::publisher_default().reliability_best_effort().history(History::KeepLast { depth: 1 }),
        )?;
        let clock = reader(&mut node, &t)?;
        topic_names.retain(|t| t != "/clock");
        let parameters = ParameterServices::new(&mut node, names, mapping, params)?;
        let described = names.resolve("~/get_type_description")?;
        let described_name = Name::parse(&described).map_err(|problem| DdsError::GraphName { name: described.clone(), problem })?;
        let type_description = node
            .create_server(mapping, &described_name, &ServiceTypeName::new("type_description_interfaces", "GetTypeDescription"), default_qos(), default_qos())
            .map_err(|problem| DdsError::Service { service: described, problem })?;
        crate::moveit::clock::use_sim_time(params.use_sim_time);
        let gate = match params.gate_controllers.is_empty() {
            true => None,
            false => Some(Relay::new(&mut node, mapping, &super::gate_actions(names, params)?)?),
        };
        let mut transport = Self {
            _context: context,
            node,
            poll: Poll::new().map_err(DdsError::Poll)?,
            planned_trajectory,
            display_planned_path,
            joint_states,
            robot_description,
            collision_object,
            planning_scene,
            check_trajectory,
            clock,
            parameters,
            type_description,
            verdict,
            markers,
            gate,
            check_options: params.guard.check,
            calls: BTreeMap::new(),
            next_call: 0,
            topic_names,
            service_name: service,
        };
        transport.register().map_err(DdsError::Register)?;
        Ok(transport)
    }

    fn register(&mut self) -> std::io::Result<()> {
        let registry = self.poll.registry();
        registry.register(&mut self.planned_trajectory, PLANNED_TRAJECTORY, Interest::READABLE)?;
        registry.register(&mut self.display_planned_path, DISPLAY_PLANNED_PATH, Interest::READABLE)?;
        registry.register(&mut self.joint_states, JOINT_STATES, Interest::READABLE)?;
        registry.register(&mut self.robot_description, ROBOT_DESCRIPTION, Interest::READABLE)?;
        registry.register(&mut self.collision_object, COLLISION_OBJECT, Interest::READABLE)?;
        registry.register(&mut self.planning_scene, PLANNING_SCENE, Interest::READABLE)?;
        registry.register(&mut self.check_trajectory, CHECK_TRAJECTORY, Interest::READABLE)?;
        registry.register(&mut self.clock, CLOCK, Interest::READABLE)?;
        registry.register(&mut self.type_description, TYPE_DESCRIPTION, Interest::READABLE)?;
        self.parameters.register(registry, PARAMETER_SERVICES)?;
        if let Some(gate) = &mut self.gate {
            gate.register(registry, GATE_ACTIONS)?;
        }
        Ok(())
    }

    /// The event loop: read what arrived, queue it, send what the worker made; until
    /// `stop` is set.
    fn event_loop(&mut self, queue: &Queue, outputs: &mpsc::Receiver<Output>, stop: &AtomicBool) -> std::io::Result<()> {
        let mut events = Events::with_capacity(64);
        while !stop.load(Ordering::Relaxed) {
            // The controllers' answers cannot wake the poll (see `Relay::register`): while
            // a gated goal is under way, look often.
            let wait = match self.gate.as_ref().is_some_and(Relay::busy) {
                true => Duration::from_millis(2),
                false => Duration::from_millis(200),
            };
            match self.poll.poll(&mut events, Some(wait)) {
                // A signal (SIGINT, SIGTERM) interrupts the wait: the loop's test sees it.
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
                Ok(()) => {}
            }
            // Edge-triggered: drain every reader on every wake-up (cheap when empty).
            self.read_clock();
            self.read_parameter_calls(queue);
            self.read_type_description_calls();
            self.read_topics(queue);
            self.read_calls(queue);
            let mut gate_work = self.gate.as_mut().map(Relay::read).unwrap_or_default();
            while let Ok(output) = outputs.try_recv() {
                self.send(output, &mut gate_work);
            }
            self.queue_gate_work(queue, gate_work);
        }
        Ok(())
    }

    /// Hands the gate's work to the worker; a goal it has no room for is aborted.
    fn queue_gate_work(&mut self, queue: &Queue, work: Vec<GateWork>) {
        if let Some(gate) = &mut self.gate {
            super::queue_gate_work(queue, work, |key, more| gate.refuse_busy(key, more));
        }
    }

    /// `/clock`'s latest time, for the ROS clock (which ignores it without `use_sim_time`).
    fn read_clock(&mut self) {
        for (message, _) in drain(&self.clock, "/clock") {
            if let Ok(clock) = message {
                crate::moveit::clock::set_sim_time(clock.clock);
            }
        }
    }

    /// Answers the parameter services; a change goes out on `/parameter_events` and into
    /// effect ([`super::take_parameters`]).
    fn read_parameter_calls(&mut self, queue: &Queue) {
        if let Some((changed, events)) = self.parameters.serve() {
            for event in &events {
                parameters::publish_changes(&self.node, event);
            }
            self.check_options = super::take_parameters(queue, changed);
        }
    }

    /// Answers `~/get_type_description` ([`crate::node::type_descriptions`]).
    fn read_type_description_calls(&mut self) {
        for _ in 0..TAKE_LIMIT {
            match self.type_description.receive_request() {
                Ok(Some((id, request))) => {
                    if let Err(e) = self.type_description.send_response(id, type_descriptions::describe(&request)) {
                        log::warn!("get_type_description response: {e:?}");
                    }
                }
                Ok(None) => break,
                Err(e) => log::warn!("an unreadable get_type_description request: {e:?}"),
            }
        }
    }

    fn read_topics(&mut self, queue: &Queue) {
        let dropped_before = queue.dropped();
        for (message, topic) in drain(&self.planned_trajectory, "planned_trajectory") {
            match message {
                Ok(m) => self.queue_trajectory(queue, TrajectoryJob::from_joint_trajectory(topic, m)),
                Err(e) => self.publish_invalid(topic, e),
            }
        }
        for (message, topic) in drain(&self.display_planned_path, "display_planned_path") {
            match message {
                Ok(m) => self.queue_trajectory(queue, TrajectoryJob::from_display_trajectory(topic, m)),
                Err(e) => self.publish_invalid(topic, e),
            }
        }
        let updates = drain(&self.joint_states, "joint_states")
            .into_iter()
            .map(|(m, t)| (m.map(Update::JointState), t))
            .chain(drain(&self.robot_description, "robot_description").into_iter().map(|(m, t)| (m.map(|s| Update::RobotDescription(s.data)), t)))
            .chain(drain(&self.collision_object, "collision_object").into_iter().map(|(m, t)| (m.map(|o| Update::CollisionObject(Box::new(o))), t)))
            .chain(drain(&self.planning_scene, "monitored_planning_scene").into_iter().map(|(m, t)| (m.map(|s| Update::PlanningScene(Box::new(s))), t)))
            .collect::<Vec<_>>();
        for (update, topic) in updates {
            match update {
                Ok(u @ Update::JointState(_)) => {
                    queue.push(Work::JointState(u));
                }
                Ok(u) => {
                    queue.push(Work::Update(u));
                }
                Err(e) => super::unreadable(queue, topic, e.to_string()),
            }
        }
        let dropped = queue.dropped() - dropped_before;
        if dropped > 0 {
            log::warn!("queue full: dropped {dropped} older trajectories ({} so far)", queue.dropped());
        }
    }

    fn queue_trajectory(&self, queue: &Queue, job: TrajectoryJob) {
        if let (Pushed::Refused, _) = queue.push(Work::Trajectory(job)) {
            log::warn!("queue full of service calls: trajectory dropped");
        }
    }

    fn read_calls(&mut self, queue: &Queue) {
        for _ in 0..TAKE_LIMIT {
            match self.check_trajectory.receive_request() {
                Ok(Some((id, request))) => {
                    let call = CallId(self.next_call);
                    self.next_call += 1;
                    self.calls.insert(call.0, id);
                    if let (Pushed::Refused, Some(Work::Call(Request::Service(call, _)))) =
                        queue.push(Work::Call(Request::Service(call, TrajectoryJob::from_request(request))))
                    {
                        let verdict = convert::invalid_verdict("check_trajectory", &self.check_options, "busy: the queue is full of service calls");
                        self.respond(call, verdict);
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    let verdict = convert::invalid_verdict("check_trajectory", &self.check_options, format!("unreadable request: {e:?}"));
                    let _ = self.verdict.publish(verdict);
                }
            }
        }
    }

    fn publish_invalid(&self, topic: &str, error: UnreadableMessage) {
        let verdict = convert::invalid_verdict(topic, &self.check_options, error);
        if let Err(e) = self.verdict.publish(verdict) {
            log::error!("publishing a verdict: {e:?}");
        }
    }

    fn respond(&mut self, call: CallId, verdict: msg::CollisionVerdict) {
        let Some(id) = self.calls.remove(&call.0) else {
            log::error!("check_trajectory response to an unknown call {}", call.0);
            return;
        };
        if let Err(e) = self.check_trajectory.send_response(id, msg::CheckTrajectoryResponse { verdict }) {
            log::error!("check_trajectory response: {e:?}");
        }
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
                if let Err(e) = self.verdict.publish(result.verdict) {
                    log::error!("publishing a verdict: {e:?}");
                }
                if let Some(markers) = result.markers
                    && let Err(e) = self.markers.publish(markers)
                {
                    log::error!("publishing markers: {e:?}");
                }
            }
            Output::Response(id, verdict) => self.respond(id, verdict),
        }
    }
}

impl Transport for DdsTransport {
    /// What the node serves: its topics, service and gate actions.
    fn describe(&self) -> String {
        let mut text = format!("topics: {}; service: {}", self.topic_names.join(", "), self.service_name);
        if let Some(gate) = &self.gate {
            text += &format!("; execution gate: {}", gate.action_names().collect::<Vec<_>>().join(", "));
        }
        text
    }

    fn waker(&self) -> Result<Wake, TransportError> {
        let waker = Waker::new(self.poll.registry(), WAKE).map_err(DdsError::EventLoop)?;
        Ok(Box::new(move || {
            let _ = waker.wake();
        }))
    }

    fn serve(&mut self, queue: &Queue, outputs: &mpsc::Receiver<Output>, stop: &AtomicBool) -> Result<(), TransportError> {
        Ok(self.event_loop(queue, outputs, stop).map_err(DdsError::EventLoop)?)
    }
}

/// ccd_guard's log records also go to `/rosout`, as the node's.
fn set_rosout_sink(node: &Node) {
    use ros2_client::log::LogLevel;
    use ros2_client::rosout::RosoutRaw;
    let handle = node.logging_handle();
    let name = node.base_name().to_string();
    crate::node::logging::set_sink(crate::node::logging::Sink {
        write: Box::new(move |record| {
            let level = match record.level {
                log::Level::Error => LogLevel::Error,
                log::Level::Warn => LogLevel::Warn,
                log::Level::Info => LogLevel::Info,
                log::Level::Debug | log::Level::Trace => LogLevel::Debug,
            };
            let now = crate::moveit::msg::Time::now();
            let stamp = ros2_client::builtin_interfaces::Time::new(now.sec, now.nanosec);
            handle.rosout_raw(stamp, level, &name, record.message, record.file, "", record.line);
        }),
        replaces_console: false,
    });
}

/// The samples waiting in a reader (at most [`TAKE_LIMIT`]): each message, or why it
/// could not be read (malformed CDR and the like).
fn drain<M: RosMessage + ros2_client::Message>(reader: &Subscription<M>, topic: &'static str) -> Vec<(Result<M, UnreadableMessage>, &'static str)> {
    let mut out = Vec::new();
    for _ in 0..TAKE_LIMIT {
        match reader.take() {
            Ok(Some((message, _info))) => out.push((Ok(message), topic)),
            Ok(None) => break,
            Err(problem) => out.push((Err(UnreadableMessage { topic, problem }), topic)),
        }
    }
    out
}
