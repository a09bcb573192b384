//! CDR (little endian, with the 4-byte encapsulation header) as the node's transport
//! writes and reads it: RustDDS's serde adapters, the code ros2-client runs.
use ros2_client::dds::rustdds::{
    CDRDeserializerAdapter, CDRSerializerAdapter, RepresentationIdentifier,
    no_key::{DeserializerAdapter, SerializerAdapter},
};
use serde::{Serialize, de::DeserializeOwned};

/// The encapsulation header of little-endian plain CDR (XCDR1).
const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// A message as a DDS sample's payload: encapsulation header, then the CDR body.
pub fn to_cdr<T: Serialize>(message: &T) -> Result<Vec<u8>, String> {
    let body = CDRSerializerAdapter::<T>::to_bytes(message).map_err(|e| format!("CDR serialization: {e}"))?;
    let mut bytes = CDR_LE.to_vec();
    bytes.extend_from_slice(&body);
    Ok(bytes)
}

/// A DDS sample's payload as a message; a clear error for anything malformed.
pub fn from_cdr<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    if bytes.len() < 4 {
        return Err(format!("CDR payload of {} bytes has no encapsulation header", bytes.len()));
    }
    let encoding = RepresentationIdentifier::from_bytes(&bytes[0..2]).map_err(|e| format!("CDR encapsulation: {e}"))?;
    CDRDeserializerAdapter::<T>::from_bytes(&bytes[4..], encoding).map_err(|e| format!("malformed CDR: {e}"))
}
