//! The node's parameter services on ros2-client, served by hand (ros2-client's own
//! describe no ranges and no read-only parameters): the [`ParameterStore`] answers, this
//! only carries its requests and answers. `/parameter_events` goes out through
//! ros2-client's own writer (a node has one), which publishes each change set through
//! [`Node::set_parameter`]: so the parameters are declared to ros2-client too
//! ([`declare_to`]).
use super::DdsError;
use crate::moveit::msg::RosMessage;
use crate::node::names::NodeNames;
use crate::node::parameters::NodeParameters;
use crate::node::parameters::msg::{self as pmsg, parameter_type as t};
use crate::node::parameters::store::{ParameterRequest, ParameterResponse, ParameterStore};
use ros2_client::dds::rustdds::mio1::{Interest, Registry, Token};
use ros2_client::parameters::ParameterValue;
use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::service::RmwRequestId;
use ros2_client::{Name, Node, NodeOptions, QosProfile, Server, ServiceMapping, ServiceTypeName};

/// A parameter service's server.
type ParameterServer<Req, Resp> = Server<Req, Resp>;

/// The six services and the store.
pub struct ParameterServices {
    get: ParameterServer<pmsg::GetParametersRequest, pmsg::GetParametersResponse>,
    get_types: ParameterServer<pmsg::GetParameterTypesRequest, pmsg::GetParameterTypesResponse>,
    set: ParameterServer<pmsg::SetParametersRequest, pmsg::SetParametersResponse>,
    set_atomically: ParameterServer<pmsg::SetParametersAtomicallyRequest, pmsg::SetParametersAtomicallyResponse>,
    list: ParameterServer<pmsg::ListParametersRequest, pmsg::ListParametersResponse>,
    describe: ParameterServer<pmsg::DescribeParametersRequest, pmsg::DescribeParametersResponse>,
    store: ParameterStore,
}

/// rclcpp's QoS for parameter services: reliable, volatile, keep last 1000.
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
        let services = Self {
            get: server(node, names, mapping, "get_parameters", "GetParameters", &qos)?,
            get_types: server(node, names, mapping, "get_parameter_types", "GetParameterTypes", &qos)?,
            set: server(node, names, mapping, "set_parameters", "SetParameters", &qos)?,
            set_atomically: server(node, names, mapping, "set_parameters_atomically", "SetParametersAtomically", &qos)?,
            list: server(node, names, mapping, "list_parameters", "ListParameters", &qos)?,
            describe: server(node, names, mapping, "describe_parameters", "DescribeParameters", &qos)?,
            store: ParameterStore::new(params),
        };
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

    /// Answers every waiting request; the node's parameters when a request changed them,
    /// and each change (for `/parameter_events`).
    pub fn serve(&mut self) -> Option<(NodeParameters, Vec<Vec<pmsg::Parameter>>)> {
        let store = &mut self.store;
        serve_one(&self.get, store);
        serve_one(&self.get_types, store);
        serve_one(&self.set, store);
        serve_one(&self.set_atomically, store);
        serve_one(&self.list, store);
        serve_one(&self.describe, store);
        store.take_changes()
    }
}

/// `options` with the node's parameters declared at their values `params`.
pub fn declare_to(options: NodeOptions, params: &NodeParameters) -> NodeOptions {
    ParameterStore::new(params).all().into_iter().fold(options, |options, p| options.declare_parameter(&p.name, value_of(&p.value)))
}

/// Publishes a change set on `/parameter_events`, through ros2-client's writer.
pub fn publish_changes(node: &Node, changed: &[pmsg::Parameter]) {
    for p in changed {
        if let Err(e) = node.set_parameter(&p.name, value_of(&p.value)) {
            log::warn!("/parameter_events: {}: {e}", p.name);
        }
    }
}

/// A parameter value as ros2-client's.
fn value_of(v: &pmsg::ParameterValue) -> ParameterValue {
    match v.kind {
        t::BOOL => ParameterValue::Boolean(v.bool_value),
        t::INTEGER => ParameterValue::Integer(v.integer_value),
        t::DOUBLE => ParameterValue::Double(v.double_value),
        t::STRING => ParameterValue::String(v.string_value.clone()),
        t::BYTE_ARRAY => ParameterValue::ByteArray(v.byte_array_value.clone()),
        t::BOOL_ARRAY => ParameterValue::BooleanArray(v.bool_array_value.clone()),
        t::INTEGER_ARRAY => ParameterValue::IntegerArray(v.integer_array_value.clone()),
        t::DOUBLE_ARRAY => ParameterValue::DoubleArray(v.double_array_value.clone()),
        t::STRING_ARRAY => ParameterValue::StringArray(v.string_array_value.clone()),
        _ => ParameterValue::NotSet,
    }
}

/// Answers the requests waiting at one server (at most a few dozen per wake-up).
fn serve_one<Req, Resp>(server: &Server<Req, Resp>, store: &mut ParameterStore)
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
        match store.answer_as::<Req, Resp>(request) {
            Some(response) => {
                if let Err(e) = server.send_response(id, response) {
                    log::warn!("a parameter service response: {e:?}");
                }
            }
            None => log::error!("a parameter service answered with another service's response"),
        }
    }
}
