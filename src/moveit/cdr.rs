//! CDR (OMG DDS-XTypes plain CDR, XCDR1) as ROS 2 writes a message: the 4-byte
//! encapsulation header, then the body. Writing is little endian, as every ROS 2 RMW
//! writes; reading takes either byte order, as the header says.
//!
//! The body's serde mapping is the `cdr-encoding` crate's, the one RustDDS (and so the
//! pure-Rust transport) uses on the wire, so that what the CLI, a bag and any transport
//! read is byte for byte the same. `interop/python/test_cdr_rosbags.py` holds every
//! message type to rosbags' CDR.
use byteorder::{BigEndian, LittleEndian};
use serde::{Serialize, de::DeserializeOwned};

/// The encapsulation header of little-endian plain CDR (XCDR1).
const CDR_LE: [u8; 4] = [0x00, 0x01, 0x00, 0x00];

/// Why a message could not be written as, or read from, a CDR payload.
#[derive(Debug, thiserror::Error)]
pub enum CdrError {
    /// The message does not serialize (the CDR serializer refused it).
    #[error("CDR serialization: {0}")]
    Serialize(cdr_encoding::Error),
    /// Fewer bytes than the 4-byte encapsulation header.
    #[error("CDR payload of {len} bytes has no encapsulation header")]
    NoHeader { len: usize },
    /// The encapsulation header names no plain CDR representation.
    #[error("CDR encapsulation: unknown representation {0:02x?}")]
    Encapsulation([u8; 2]),
    /// The body is not a CDR encoding of the message type.
    #[error("malformed CDR: {0}")]
    Malformed(cdr_encoding::Error),
}

/// A message as a CDR payload: encapsulation header, then the little-endian body.
pub fn to_cdr<T: Serialize>(message: &T) -> Result<Vec<u8>, CdrError> {
    let mut bytes = CDR_LE.to_vec();
    cdr_encoding::to_writer::<T, LittleEndian, _>(&mut bytes, message).map_err(CdrError::Serialize)?;
    Ok(bytes)
}

/// A CDR payload as a message; a clear error for anything malformed.
pub fn from_cdr<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, CdrError> {
    if bytes.len() < 4 {
        return Err(CdrError::NoHeader { len: bytes.len() });
    }
    let body = &bytes[4..];
    // Plain CDR, and parameter-list CDR whose body reads the same way (as RustDDS does).
    let decoded = match [bytes[0], bytes[1]] {
        [0x00, 0x01] | [0x00, 0x03] => cdr_encoding::from_bytes::<T, LittleEndian>(body),
        [0x00, 0x00] | [0x00, 0x02] => cdr_encoding::from_bytes::<T, BigEndian>(body),
        other => return Err(CdrError::Encapsulation(other)),
    };
    decoded.map(|(message, _consumed)| message).map_err(CdrError::Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_payload_reads_back_in_either_byte_order() {
        let le = to_cdr(&(7u32, String::from("ab"))).unwrap();
        assert_eq!(le, [0, 1, 0, 0, 7, 0, 0, 0, 3, 0, 0, 0, b'a', b'b', 0]);
        let be = [0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 3, b'a', b'b', 0];
        assert_eq!(from_cdr::<(u32, String)>(&le).unwrap(), (7, "ab".into()));
        assert_eq!(from_cdr::<(u32, String)>(&be).unwrap(), (7, "ab".into()));
    }

    #[test]
    fn malformed_payloads_are_errors() {
        assert!(matches!(from_cdr::<u32>(&[0, 1]), Err(CdrError::NoHeader { len: 2 })));
        assert!(matches!(from_cdr::<u32>(&[0, 9, 0, 0, 1, 0, 0, 0]), Err(CdrError::Encapsulation([0, 9]))));
        assert!(matches!(from_cdr::<u32>(&[0, 1, 0, 0, 1]), Err(CdrError::Malformed(_))));
    }
}
