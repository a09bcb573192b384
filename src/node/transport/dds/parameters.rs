//! The node's parameter services and `/parameter_events` on ros2-client, served by hand
//! (ros2-client's own describe no ranges and no read-only parameters): the
//! [`ParameterStore`] answers, this only carries its requests and answers.
use super::DdsError;
use crate::moveit::msg::RosMessage;
use crate::node::names::NodeNames;
use crate::node::parameters::NodeParameters;
use crate::node::parameters::msg::{self as pmsg, ParameterEvent};
use crate::node::parameters::store::{Changed, ParameterRequest, ParameterResponse, ParameterStore};
use ros2_client::dds::rustdds::mio1::{Interest, Registry, Token};
use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::service::RmwRequestId;
use ros2_client::{MessageTypeName, Name, Node, Publisher, QosProfile, Server, ServiceMapping, ServiceTypeName};

/// A parameter service's server.
type ParameterServer<Req, Resp> = Server<Req, Resp>;

/// The six services, the events' publisher and the store.
pub struct ParameterServices {
    get: ParameterServer<pmsg::GetParametersRequest, pmsg::GetParametersResponse>,
    get_types: ParameterServer<pmsg::GetParameterTypesRequest, pmsg::GetParameterTypesResponse>,
    set: ParameterServer<pmsg::SetParametersRequest, pmsg::SetParametersResponse>,
    set_atomically: ParameterServer<pmsg::SetParametersAtomicallyRequest, pmsg::SetParametersAtomicallyResponse>,
    list: ParameterServer<pmsg::ListParametersRequest, pmsg::ListParametersResponse>,
    describe: ParameterServer<pmsg::DescribeParametersRequest, pmsg::DescribeParametersResponse>,
    events: Publisher<ParameterEvent>,
    store: ParameterStore,
    node_name: String,
}

/// rclcpp's QoS for parameter services and events: reliable, volatile, keep last 1000.
fn parameters_qos() -> QosProfile {
    QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::Volatile).history(History::KeepLast { depth: 1000 })
}

impl ParameterServices {
    pub fn new(node: &mut Node, names: &NodeNames, mapping: ServiceMapping, params: &NodeParameters) -> Result<Self, DdsError> {
        let qos = parameters_qos();
        fn server<Req: RosMessage + ros2_client::Message, Resp: RosMessage + ros2_client::Message>(
            node: &mut Node,
            names: &NodeNames,
            mapping: ServiceMapping,
            service: &str,
            type_name: &str,
            qos: &QosProfile,
        ) -> Result<Server<Req, Resp>, DdsError> {
            let resolved = names.resolve(&format!("~/{service}"))?;
            let name = Name::parse(&resolved).map_err(|problem| DdsError::GraphName { name: resolved.clone(), problem })?;
            node.create_server(mapping, &name, &ServiceTypeName::new("rcl_interfaces", type_name), qos.clone(), qos.clone())
                .map_err(|problem| DdsError::Service { service: resolved, problem })
        }
        let events_name = Name::parse("/parameter_events").map_err(|problem| DdsError::GraphName { name: "/parameter_events".into(), problem })?;
        let topic = node
            .create_topic(&events_name, MessageTypeName::new("rcl_interfaces", "ParameterEvent"), &qos)
            .map_err(|problem| DdsError::Topic { topic: "/parameter_events".into(), problem })?;
        let services = Self {
            get: server(node, names, mapping, "get_parameters", "GetParameters", &qos)?,
            get_types: server(node, names, mapping, "get_parameter_types", "GetParameterTypes", &qos)?,
            set: server(node, names, mapping, "set_parameters", "SetParameters", &qos)?,
            set_atomically: server(node, names, mapping, "set_parameters_atomically", "SetParametersAtomically", &qos)?,
            list: server(node, names, mapping, "list_parameters", "ListParameters", &qos)?,
            describe: server(node, names, mapping, "describe_parameters", "DescribeParameters", &qos)?,
            events: node.create_publisher(&topic, None).map_err(DdsError::Publisher)?,
            store: ParameterStore::new(params),
            node_name: names.fully_qualified(),
        };
        // As rclcpp does once its parameters are declared.
        services.publish_event(services.store.all(), Vec::new());
        Ok(services)
    }

    /// Registers the six servers with tokens from `first_token` on.
    pub fn register(&mut self, registry: &Registry, first_token: usize) -> std::io::Result<()> {
        registry.register(&mut self.get, Token(first_token), Interest::READABLE)?;
        registry.register(&mut self.get_types, Token(first_token + 1), Interest::READABLE)?;
        registry.register(&mut self.set, Token(first_token + 2), Interest::READABLE)?;
        registry.register(&mut self.set_atomically, Token(first_token + 3), Interest::READABLE)?;
        registry.register(&mut self.list, Token(first_token + 4), Interest::READABLE)?;
        registry.register(&mut self.describe, Token(first_token + 5), Interest::READABLE)
    }

    /// Answers every waiting request; the node's parameters when a request changed them.
    pub fn serve(&mut self) -> Option<NodeParameters> {
        let mut changed = None;
        let store = &mut self.store;
        let mut events = Vec::new();
        let mut note = |change: Option<Changed>| {
            if let Some(change) = change {
                events.push(change.changed);
                changed = Some(change.parameters);
            }
        };
        serve_one(&self.get, store, &mut note);
        serve_one(&self.get_types, store, &mut note);
        serve_one(&self.set, store, &mut note);
        serve_one(&self.set_atomically, store, &mut note);
        serve_one(&self.list, store, &mut note);
        serve_one(&self.describe, store, &mut note);
        for changed in events {
            self.publish_event(Vec::new(), changed);
        }
        changed
    }

    fn publish_event(&self, new_parameters: Vec<pmsg::Parameter>, changed_parameters: Vec<pmsg::Parameter>) {
        let event = ParameterEvent {
            stamp: crate::moveit::msg::Time::now(),
            node: self.node_name.clone(),
            new_parameters,
            changed_parameters,
            deleted_parameters: Vec::new(),
        };
        if let Err(e) = self.events.publish(event) {
            log::warn!("/parameter_events: {e:?}");
        }
    }
}

/// Answers the requests waiting at one server (at most a few dozen per wake-up).
fn serve_one<Req, Resp>(server: &Server<Req, Resp>, store: &mut ParameterStore, note: &mut impl FnMut(Option<Changed>))
where
    Req: RosMessage + ros2_client::Message + Into<ParameterRequest>,
    Resp: RosMessage + ros2_client::Message + TryFrom<ParameterResponse>,
{
    for _ in 0..64 {
        let (id, request): (RmwRequestId, Req) = match server.receive_request() {
            Ok(Some(taken)) => taken,
            Ok(None) => return,
            Err(e) => {
                log::warn!("a parameter service request that cannot be read: {e:?}");
                continue;
            }
        };
        let (response, change) = store.answer_as::<Req, Resp>(request);
        note(change);
        match response {
            Some(response) => {
                if let Err(e) = server.send_response(id, response) {
                    log::warn!("a parameter service response: {e:?}");
                }
            }
            None => log::error!("a parameter service answered with another service's response"),
        }
    }
}
