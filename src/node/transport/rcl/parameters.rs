//! The node's parameter services and `/parameter_events` on rcl. r2r's own parameter
//! handler describes no ranges or read-only parameters and accepts any type; the
//! [`ParameterStore`] answers here, as it does for the pure-Rust transport.
use super::RclError;
use super::wire::{from_r2r, to_r2r};
use crate::moveit::cdr;
use crate::node::names::NodeNames;
use crate::node::parameters::NodeParameters;
use crate::node::parameters::msg::{self as pmsg, ParameterEvent};
use crate::node::parameters::store::{ParameterRequest, ParameterResponse, ParameterStore};
use futures::{FutureExt, Stream, StreamExt};
use r2r::rcl_interfaces::srv;
use r2r::{QosProfile, ServiceRequest, WrappedServiceTypeSupport};
use serde::Serialize;
use serde::de::DeserializeOwned;

type Requests<S> = Box<dyn Stream<Item = ServiceRequest<S>> + Unpin + Send>;

/// The six services, the events' publisher and the store.
pub struct ParameterServices {
    get: Requests<srv::GetParameters::Service>,
    get_types: Requests<srv::GetParameterTypes::Service>,
    set: Requests<srv::SetParameters::Service>,
    set_atomically: Requests<srv::SetParametersAtomically::Service>,
    list: Requests<srv::ListParameters::Service>,
    describe: Requests<srv::DescribeParameters::Service>,
    events: r2r::PublisherUntyped,
    store: ParameterStore,
    node_name: String,
}

fn service<S: WrappedServiceTypeSupport + 'static>(node: &mut r2r::Node, names: &NodeNames, service: &str) -> Result<Requests<S>, RclError> {
    let resolved = names.resolve(&format!("~/{service}"))?;
    let requests = node.create_service::<S>(&resolved, QosProfile::parameters()).map_err(|problem| RclError::Endpoint { name: resolved, problem })?;
    Ok(Box::new(requests))
}

impl ParameterServices {
    pub fn new(node: &mut r2r::Node, names: &NodeNames, params: &NodeParameters) -> Result<Self, RclError> {
        let events = node
            .create_publisher_untyped("/parameter_events", "rcl_interfaces/msg/ParameterEvent", QosProfile::parameter_events())
            .map_err(|problem| RclError::Endpoint { name: "/parameter_events".into(), problem })?;
        let services = Self {
            get: service(node, names, "get_parameters")?,
            get_types: service(node, names, "get_parameter_types")?,
            set: service(node, names, "set_parameters")?,
            set_atomically: service(node, names, "set_parameters_atomically")?,
            list: service(node, names, "list_parameters")?,
            describe: service(node, names, "describe_parameters")?,
            events,
            store: ParameterStore::new(params),
            node_name: names.fully_qualified(),
        };
        // As rclcpp does once its parameters are declared.
        services.publish_event(services.store.all(), Vec::new());
        Ok(services)
    }

    /// Answers every waiting request; the node's parameters when a request changed them.
    pub fn serve(&mut self) -> Option<NodeParameters> {
        let store = &mut self.store;
        serve_one::<_, pmsg::GetParametersRequest, pmsg::GetParametersResponse>(&mut self.get, store);
        serve_one::<_, pmsg::GetParameterTypesRequest, pmsg::GetParameterTypesResponse>(&mut self.get_types, store);
        serve_one::<_, pmsg::SetParametersRequest, pmsg::SetParametersResponse>(&mut self.set, store);
        serve_one::<_, pmsg::SetParametersAtomicallyRequest, pmsg::SetParametersAtomicallyResponse>(&mut self.set_atomically, store);
        serve_one::<_, pmsg::ListParametersRequest, pmsg::ListParametersResponse>(&mut self.list, store);
        serve_one::<_, pmsg::DescribeParametersRequest, pmsg::DescribeParametersResponse>(&mut self.describe, store);
        let (changed, events) = store.take_changes()?;
        for event in events {
            self.publish_event(Vec::new(), event);
        }
        Some(changed)
    }

    fn publish_event(&self, new_parameters: Vec<pmsg::Parameter>, changed_parameters: Vec<pmsg::Parameter>) {
        let event = ParameterEvent {
            stamp: crate::moveit::msg::Time::now(),
            node: self.node_name.clone(),
            new_parameters,
            changed_parameters,
            deleted_parameters: Vec::new(),
        };
        let sent = cdr::to_cdr(&event).map_err(|e| e.to_string()).and_then(|bytes| self.events.publish_raw(&bytes).map_err(|e| e.to_string()));
        if let Err(e) = sent {
            log::warn!("/parameter_events: {e}");
        }
    }
}

/// Answers the requests waiting at one service.
fn serve_one<S, Req, Resp>(requests: &mut Requests<S>, store: &mut ParameterStore)
where
    S: WrappedServiceTypeSupport + 'static,
    Req: DeserializeOwned + Into<ParameterRequest>,
    Resp: Serialize + TryFrom<ParameterResponse>,
{
    while let Some(Some(request)) = requests.next().now_or_never() {
        let ours: Req = match from_r2r(&request.message) {
            Ok(ours) => ours,
            Err(e) => {
                // Answered all the same (empty), so that the client does not wait in vain.
                log::warn!("a parameter service request that cannot be read: {e}");
                let _ = request.respond(S::Response::default());
                continue;
            }
        };
        let Some(response) = store.answer_as::<Req, Resp>(ours) else {
            log::error!("a parameter service answered with another service's response");
            continue;
        };
        match to_r2r::<S::Response>(&response) {
            Ok(response) => {
                if let Err(e) = request.respond(response) {
                    log::warn!("a parameter service response: {e}");
                }
            }
            Err(e) => log::error!("a parameter service response: {e}"),
        }
    }
}
