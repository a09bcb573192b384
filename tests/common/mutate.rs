//! Damaged inputs built from valid seeds: bits flipped, truncated, ranges duplicated,
//! spliced with another seed, bytes set to values parsers trip on, garbage appended.
use super::rng::Words;

/// Bytes parsers trip on, written over one byte of an input: NUL, 0xff, DEL, a UTF-8
/// lead byte, a newline, a comment, a space, a sign, a digit, a tag, a quote, a brace.
pub const TRIP_BYTES: [u8; 12] = [0x00, 0xff, 0x7f, 0xc0, 0x0a, b'#', b' ', b'-', b'9', b'<', b'"', b'{'];

/// Applies one to three mutations to `bytes`; `seeds` are the valid inputs to splice from.
pub fn mutate(rng: &mut impl Words, seeds: &[Vec<u8>], bytes: &mut Vec<u8>) {
    mutate_with(rng, seeds, bytes, &TRIP_BYTES);
}

/// As [`mutate`], with `trip_bytes` the bytes written over one byte of the input.
pub fn mutate_with(rng: &mut impl Words, seeds: &[Vec<u8>], bytes: &mut Vec<u8>, trip_bytes: &[u8]) {
    for _ in 0..1 + rng.below(3) {
        let len = bytes.len();
        match rng.below(6) {
            0 if len > 0 => {
                let at = rng.below(len);
                bytes[at] ^= 1 << rng.below(8);
            }
            1 => bytes.truncate(rng.below(len + 1)),
            2 if len > 0 => {
                // Duplicate a range in place.
                let from = rng.below(len);
                let to = (from + 1 + rng.below(24)).min(len);
                let copy = bytes[from..to].to_vec();
                let at = rng.below(len + 1);
                bytes.splice(at..at, copy);
            }
            3 => {
                // Splice: our prefix, another seed's suffix.
                let other = &seeds[rng.below(seeds.len())];
                bytes.truncate(rng.below(len + 1));
                let from = rng.below(other.len() + 1);
                bytes.extend_from_slice(&other[from..]);
            }
            4 if len > 0 => {
                let at = rng.below(len);
                bytes[at] = trip_bytes[rng.below(trip_bytes.len())];
            }
            _ => {
                let extra = rng.below(8);
                bytes.extend((0..extra).map(|_| rng.next_word() as u8));
            }
        }
    }
}
