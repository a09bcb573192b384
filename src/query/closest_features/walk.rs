//! The closest-feature walk (Lin 1993 ch. 3 and §3.3.3–3.4 and §3.6): from a
//! start pair, apply the pair cases of `cases.rs` until one stops.
//!
//! Every step is O(1) except the O(n) escapes. In exact arithmetic the walk cannot
//! cycle while the bodies are apart (ch. 3); in floating point, and when they overlap,
//! it is guarded: a repeated pair (Brent's cycle detection) or more than
//! `64 + 2 (n_A + n_B)` steps (n: number of features) ends the walk, and the answer
//! then comes from GJK on the two hulls with the features located around its points.
//! Such fallbacks are flagged in the answer and counted in [`fallback_count`].
use super::cases::{Bodies, Step, Tol};
use super::escape::locate_surface_point;
use super::feature::{Feat, FeaturePair};
use super::frame::Frame;
use super::polyhedron::ConvexPolyhedron;
use crate::math::{Isometry3, Point3, Real};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Contact tolerance relative to the two bodies' scale.
const CONTACT_REL: Real = 1e-13;
/// Flare offset of the constraint planes relative to the two bodies' scale (ch. 3): a
/// few rounding units (see `voronoi.rs` on why no more).
const FLARE_REL: Real = 2e-15;

static FALLBACKS: AtomicUsize = AtomicUsize::new(0);

/// How many queries (in this process) ended in the exhaustive fallback because the
/// walk cycled or hit its step cap.
pub fn fallback_count() -> usize {
    FALLBACKS.load(Ordering::Relaxed)
}

/// The answer of [`closest_features`].
#[derive(Clone, Copy, Debug)]
pub struct ClosestFeatures {
    /// Distance between the two polyhedra; 0 when they touch or overlap.
    pub distance: Real,
    /// Nearest point on A (world frame); a point of contact when penetrating.
    pub point_a: Point3,
    /// Nearest point on B (world frame).
    pub point_b: Point3,
    /// The closest feature pair (the warm start of the next query).
    pub features: FeaturePair,
    /// Feature-pair switches the walk took (moves between the sub-cells of one
    /// vertex's cone, §3.2.4–3.2.5, are part of that vertex's point-cell test, not steps).
    pub steps: usize,
    /// The polyhedra touch or interpenetrate (within the contact tolerance).
    pub penetrating: bool,
    /// The walk cycled or hit its cap and the answer came from the exhaustive
    /// fallback (never expected; see [`fallback_count`]).
    pub fallback: bool,
}

/// Closest features of two convex polyhedra placed by `pose_a` and `pose_b`, warm
/// started from `start` (`None`: from the first vertices of both).
pub fn closest_features(a: &ConvexPolyhedron, pose_a: &Isometry3, b: &ConvexPolyhedron, pose_b: &Isometry3, start: Option<FeaturePair>) -> ClosestFeatures {
    let start = start.and_then(|s| Some((a.internal(s.a)?, b.internal(s.b)?)));
    // A public vertex does not say which sub-cell of its cone (§3.2.4–3.2.5) the other body
    // was in: locate it from the other feature's position.
    let start = start.map(|(fa, fb)| {
        let b2a = pose_a.inv_mul(pose_b);
        let fa = locate_vertex_subcell(a, fa, &(b2a * representative_point(b, fb)));
        let fb = locate_vertex_subcell(b, fb, &(b2a.inverse() * representative_point(a, fa)));
        (fa, fb)
    });
    walk(a, pose_a, b, pose_b, start).0
}

/// The walk from an internal pair (`None` or an invalid pair: the default start).
/// Returns the answer and the final internal pair (with the vertex sub-cells).
pub(super) fn walk(
    a: &ConvexPolyhedron,
    pose_a: &Isometry3,
    b: &ConvexPolyhedron,
    pose_b: &Isometry3,
    start: Option<(Feat, Feat)>,
) -> (ClosestFeatures, (Feat, Feat)) {
    let default = (Feat::V(0), Feat::V(0));
    let mut pair = start.filter(|&(fa, fb)| a.has(fa) && b.has(fb)).unwrap_or(default);
    let b2a = Frame::from_isometry(&pose_a.inv_mul(pose_b));
    let a2b = b2a.inverse();
    let scale = a.scale + b.scale + b2a.offset();
    let tol = Tol { flare: FLARE_REL * scale, contact: CONTACT_REL * scale };
    let fwd = Bodies { p: a, q: b, p2q: &a2b, q2p: &b2a, tol };
    let rev = Bodies { p: b, q: a, p2q: &b2a, q2p: &a2b, tol };
    let cap = 64 + 2 * (feature_count(a) + feature_count(b));
    // Brent's cycle detection: compare with a pair saved at powers of two.
    let (mut saved, mut power, mut lambda) = (pair, 1usize, 0usize);
    let mut steps = 0;
    while steps <= cap {
        let step = dispatch(&fwd, &rev, pair);
        let (pa, pb, penetrating) = match step {
            Step::Move(fa, fb) => {
                pair = (fa, fb);
                steps += 1;
                if pair == saved {
                    break;
                }
                lambda += 1;
                if lambda == power {
                    saved = pair;
                    power *= 2;
                    lambda = 0;
                }
                continue;
            }
            Step::Done(pa, pb) => (pa, pb, false),
            Step::Contact(pa, pb) => (pa, pb, true),
        };
        // Keep the sub-cell of a vertex's cone that the other point lies in, for the
        // next warm start.
        pair = (locate_vertex_subcell(a, pair.0, &(b2a.point(&pb))), locate_vertex_subcell(b, pair.1, &a2b.point(&pa)));
        let (point_a, point_b) = (pose_a * pa, pose_b * pb);
        let distance = if penetrating { 0.0 } else { (point_a - point_b).norm() };
        let features = FeaturePair { a: a.public(pair.0), b: b.public(pair.1) };
        return (ClosestFeatures { distance, point_a, point_b, features, steps, penetrating, fallback: false }, pair);
    }
    FALLBACKS.fetch_add(1, Ordering::Relaxed);
    fallback(a, pose_a, b, pose_b, tol, steps)
}

/// A point of a feature (vertex, edge midpoint, face centroid), in its body's frame.
fn representative_point(p: &ConvexPolyhedron, f: Feat) -> Point3 {
    match f {
        Feat::V(s) => p.winged.vertices[p.cells.subcones[s as usize].vertex as usize],
        Feat::E(e) => {
            let (t, h) = p.edge_points(e);
            nalgebra::center(&t, &h)
        }
        Feat::F(f) => p.winged.faces[f as usize].centroid,
    }
}

/// For a vertex, the sub-cell of its cone that `x` (in `p`'s frame) lies in.
fn locate_vertex_subcell(p: &ConvexPolyhedron, f: Feat, x: &Point3) -> Feat {
    match f {
        Feat::V(s) => Feat::V(p.cells.locate_subcell(p.cells.subcones[s as usize].vertex, x)),
        other => other,
    }
}

fn feature_count(p: &ConvexPolyhedron) -> usize {
    p.winged.vertices.len() + p.winged.edges.len() + p.winged.faces.len()
}

/// One step: the case for the pair's feature types, mirrored so the first feature
/// has the lower dimension.
fn dispatch(fwd: &Bodies, rev: &Bodies, pair: (Feat, Feat)) -> Step {
    use Feat::*;
    match pair {
        (V(x), V(y)) => fwd.vertex_vertex(x, y),
        (V(x), E(y)) => fwd.vertex_edge(x, y),
        (E(x), V(y)) => rev.vertex_edge(y, x).swap(),
        (V(x), F(y)) => fwd.vertex_face(x, y),
        (F(x), V(y)) => rev.vertex_face(y, x).swap(),
        (E(x), E(y)) => fwd.edge_edge(x, y),
        (E(x), F(y)) => fwd.edge_face(x, y),
        (F(x), E(y)) => rev.edge_face(y, x).swap(),
        (F(x), F(y)) => fwd.face_face(x, y),
    }
}

/// The exhaustive answer: GJK on the two hulls (robust, linear per iteration), and the
/// lowest-dimensional features around its nearest points.
fn fallback(a: &ConvexPolyhedron, pose_a: &Isometry3, b: &ConvexPolyhedron, pose_b: &Isometry3, tol: Tol, steps: usize) -> (ClosestFeatures, (Feat, Feat)) {
    let cp = crate::query::gjk::closest_points(a, pose_a, b, pose_b);
    let penetrating = cp.distance <= tol.contact;
    let locate_tol = tol.flare.max(1e-9 * cp.distance);
    let fa = locate_surface_point(a, &pose_a.inverse_transform_point(&cp.point_a), locate_tol);
    let fb = locate_surface_point(b, &pose_b.inverse_transform_point(&cp.point_b), locate_tol);
    let features = FeaturePair { a: a.public(fa), b: b.public(fb) };
    let distance = if penetrating { 0.0 } else { cp.distance };
    let answer = ClosestFeatures { distance, point_a: cp.point_a, point_b: cp.point_b, features, steps, penetrating, fallback: true };
    (answer, (fa, fb))
}
