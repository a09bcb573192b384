//! The message types of [`crate::moveit::msg`] as ros2-client's messages, and the CDR
//! codecs of the action protocol's wrappers as ros2-client puts them on the wire (for
//! the CDR probes that hold our bytes to other implementations').
use crate::moveit::msg::{FollowJointTrajectoryFeedback, FollowJointTrajectoryGoal, FollowJointTrajectoryResult, JsonCodec, json_codec, json_codec_of};
use ros2_client::action::{FeedbackMessage, GetResultRequest, GetResultResponse, SendGoalRequest, SendGoalResponse};

macro_rules! ros2_client_messages {
    ($($ty:ty => $package:literal, $name:literal;)*) => {
        $(impl ros2_client::Message for $ty {})*
    };
}
mod marked {
    use crate::moveit::msg::*;
    crate::moveit::msg::message_types!(ros2_client_messages);
}

/// The codec of a message type named `package/msg/Name` (as [`json_codec_of`]), or of
/// one of the `FollowJointTrajectory` action's wire wrappers
/// (`control_msgs/action/FollowJointTrajectory_SendGoal_Request` and the like).
pub fn wire_codec_of(type_name: &str) -> Option<JsonCodec> {
    json_codec_of(type_name).or_else(|| action_wire_codec_of(type_name))
}

fn action_wire_codec_of(type_name: &str) -> Option<JsonCodec> {
    Some(match type_name {
        "control_msgs/action/FollowJointTrajectory_SendGoal_Request" => json_codec::<SendGoalRequest<FollowJointTrajectoryGoal>>(),
        "control_msgs/action/FollowJointTrajectory_SendGoal_Response" => json_codec::<SendGoalResponse>(),
        "control_msgs/action/FollowJointTrajectory_GetResult_Request" => json_codec::<GetResultRequest>(),
        "control_msgs/action/FollowJointTrajectory_GetResult_Response" => json_codec::<GetResultResponse<FollowJointTrajectoryResult>>(),
        "control_msgs/action/FollowJointTrajectory_FeedbackMessage" => json_codec::<FeedbackMessage<FollowJointTrajectoryFeedback>>(),
        _ => return None,
    })
}

mod parameter_messages {
    use crate::node::parameters::msg::*;
    macro_rules! marked {
        ($($ty:ty),*) => { $(impl ros2_client::Message for $ty {})* };
    }
    marked!(
        ParameterEvent,
        GetParametersRequest,
        GetParametersResponse,
        GetParameterTypesRequest,
        GetParameterTypesResponse,
        SetParametersRequest,
        SetParametersResponse,
        SetParametersAtomicallyRequest,
        SetParametersAtomicallyResponse,
        ListParametersRequest,
        ListParametersResponse,
        DescribeParametersRequest,
        DescribeParametersResponse
    );
    impl ros2_client::Message for crate::node::type_descriptions::GetTypeDescriptionRequest {}
    impl ros2_client::Message for crate::node::type_descriptions::GetTypeDescriptionResponse {}
}
