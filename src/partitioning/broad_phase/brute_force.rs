//! The reference broad phase: every pair of boxes is tested ("raw method", Šinjur
//! §4.1). Quadratic; used for small scenes and as the oracle in tests.
use super::is_proper;
use crate::bounding_volume::Aabb;

/// All pairs `(i, j)`, `i < j`, whose closed boxes overlap ([`Aabb::intersects`]), sorted.
///
/// Empty boxes (`mins > maxs` on some axis) and boxes with a `NaN` coordinate overlap
/// nothing. This is the definition the other broad phases reproduce exactly.
pub fn brute_force_pairs(aabbs: &[Aabb]) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for (i, a) in aabbs.iter().enumerate() {
        if !is_proper(a) {
            continue;
        }
        for (j, b) in aabbs.iter().enumerate().skip(i + 1) {
            if is_proper(b) && a.intersects(b) {
                pairs.push((i, j));
            }
        }
    }
    pairs
}
