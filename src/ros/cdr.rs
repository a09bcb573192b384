//! CDR (little endian, with the 4-byte encapsulation header) as the node's transport
//! writes and reads it: RustDDS's serde adapters, the code ros2-client runs.
use ros2_client::dds::rustdds::{
    CDRDeserializerAdapter, CDRSerializerAdapter, RepresentationIdentifier,
    no_key::{DeserializerAdapter, SerializerAdapter},
    serialization,
};
use serde::{Serialize, de::DeserializeOwned};

/// The encapsulation header of little-endian plain CDR (XCDR1).
const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// Why a message could not be written as, or read from, a DDS sample's payload.
#[derive(Debug, thiserror::Error)]
pub enum CdrError {
    /// The message does not serialize (RustDDS's CDR serializer refused it).
    #[error("CDR serialization: {0}")]
    Serialize(serialization::Error),
    /// Fewer bytes than the 4-byte encapsulation header.
    #[error("CDR payload of {len} bytes has no encapsulation header")]
    NoHeader { len: usize },
    /// The encapsulation header names no representation RustDDS knows.
    #[error("CDR encapsulation: {0}")]
    Encapsulation(std::io::Error),
    /// The body is not a CDR encoding of the message type.
    #[error("malformed CDR: {0}")]
    Malformed(serialization::Error),
}

/// A message as a DDS sample's payload: encapsulation header, then the CDR body.
pub fn to_cdr<T: Serialize>(message: &T) -> Result<Vec<u8>, CdrError> {
    let body = CDRSerializerAdapter::<T>::to_bytes(message).map_err(CdrError::Serialize)?;
    let mut bytes = CDR_LE.to_vec();
    bytes.extend_from_slice(&body);
    Ok(bytes)
}

/// A DDS sample's payload as a message; a clear error for anything malformed.
pub fn from_cdr<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CdrError> {
    if bytes.len() < 4 {
        return Err(CdrError::NoHeader { len: bytes.len() });
    }
    let encoding = RepresentationIdentifier::from_bytes(&bytes[0..2]).map_err(CdrError::Encapsulation)?;
    CDRDeserializerAdapter::<T>::from_bytes(&bytes[4..], encoding).map_err(CdrError::Malformed)
}
