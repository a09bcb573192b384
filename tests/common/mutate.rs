//! Damaged inputs built from valid seeds: bits flipped, truncated, ranges duplicated,
//! spliced with another seed, bytes set to values parsers trip on, garbage appended.
use super::rng::Rng;

/// Applies one to three mutations to `bytes`; `seeds` are the valid inputs to splice from.
pub fn mutate(rng: &mut Rng, seeds: &[Vec<u8>], bytes: &mut Vec<u8>) {
    let below = |rng: &mut Rng, n: usize| if n == 0 { 0 } else { (rng.next_u64() % n as u64) as usize };
    for _ in 0..1 + below(rng, 3) {
        let len = bytes.len();
        match below(rng, 6) {
            0 if len > 0 => {
                let at = below(rng, len);
                bytes[at] ^= 1 << below(rng, 8);
            }
            1 => bytes.truncate(below(rng, len + 1)),
            2 if len > 0 => {
                // Duplicate a range in place.
                let from = below(rng, len);
                let to = (from + 1 + below(rng, 24)).min(len);
                let copy = bytes[from..to].to_vec();
                let at = below(rng, len + 1);
                bytes.splice(at..at, copy);
            }
            3 => {
                // Splice: our prefix, another seed's suffix.
                let other = &seeds[below(rng, seeds.len())];
                bytes.truncate(below(rng, len + 1));
                let from = below(rng, other.len() + 1);
                bytes.extend_from_slice(&other[from..]);
            }
            4 if len > 0 => {
                let at = below(rng, len);
                bytes[at] = [0x00, 0xff, 0x7f, 0xc0, 0x0a, b'#', b' ', b'-', b'9', b'<', b'"', b'{'][below(rng, 12)];
            }
            _ => {
                let extra = below(rng, 8);
                bytes.extend((0..extra).map(|_| rng.next_u64() as u8));
            }
        }
    }
}
