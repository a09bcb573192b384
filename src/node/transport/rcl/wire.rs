//! Our message types and r2r's, through the CDR bytes both agree on: a message goes
//! out as [`crate::moveit::cdr`] writes it and is read by rmw (`rmw_deserialize`) into
//! r2r's generated type, and back the other way. One layout, so the two transports put
//! the same bytes on the wire.
use crate::moveit::cdr::{self, CdrError};
use r2r::WrappedTypesupport;
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Why a message could not cross between our type and r2r's.
#[derive(Debug, thiserror::Error)]
pub enum WireError {
    #[error(transparent)]
    Cdr(#[from] CdrError),
    /// rmw refused to (de)serialize the bytes as r2r's type.
    #[error("rmw (de)serialization: {0}")]
    Rmw(r2r::Error),
}

/// Our message as r2r's type of the same ROS message.
pub fn to_r2r<T: WrappedTypesupport>(message: &impl Serialize) -> Result<T, WireError> {
    T::from_serialized_bytes(&cdr::to_cdr(message)?).map_err(WireError::Rmw)
}

/// r2r's message as our type of the same ROS message.
pub fn from_r2r<O: DeserializeOwned>(message: &impl WrappedTypesupport) -> Result<O, WireError> {
    Ok(cdr::from_cdr(&message.to_serialized_bytes().map_err(WireError::Rmw)?)?)
}
