//! The per-pair warm-start cache (Lin 1993 §3.6, dynamic use, and §3.3.3–3.4, with
//! coherence): the last closest pair, including which sub-cell of a high-degree
//! vertex's cone (§3.2.4–3.2.5) the other body was in, so the next query on the
//! same two polyhedra starts where the last one ended.
use super::feature::{Feat, FeaturePair};
use super::polyhedron::ConvexPolyhedron;
use super::walk::{ClosestFeatures, walk};
use crate::math::Isometry3;

/// The closest pair of the last query on one pair of polyhedra. Use one cache per
/// (A, B) pair; a cache whose features do not exist on the polyhedra given is ignored.
#[derive(Clone, Copy, Debug, Default)]
pub struct WarmStart {
    pair: Option<(Feat, Feat)>,
}

impl WarmStart {
    pub fn new() -> Self {
        Self::default()
    }

    /// The cached pair under its public names.
    pub fn features(&self, a: &ConvexPolyhedron, b: &ConvexPolyhedron) -> Option<FeaturePair> {
        let (fa, fb) = self.pair?;
        (a.has(fa) && b.has(fb)).then(|| FeaturePair { a: a.public(fa), b: b.public(fb) })
    }
}

/// [`closest_features`](super::closest_features) warm started from, and updating,
/// `cache`.
pub fn closest_features_cached(a: &ConvexPolyhedron, pose_a: &Isometry3, b: &ConvexPolyhedron, pose_b: &Isometry3, cache: &mut WarmStart) -> ClosestFeatures {
    let (answer, pair) = walk(a, pose_a, b, pose_b, cache.pair);
    cache.pair = Some(pair);
    answer
}
