//! The largest penetration depth within a contact event: the translational depth (MTD,
//! Keerthi & Sridharan's I(A,B) in space) of the pair's elements, maximised over the
//! event's time interval per element pair by dense sampling (a mesh's samples measured
//! only where its convex hull's depth bound can beat the deepest found, and exactly only
//! where they come near it) and a golden-section refinement around the deepest local
//! peaks of the samples.
//!
//! A mesh's depth is the largest over its triangles (as coal measures it), each sample
//! the depth of every triangle that meets the other shape and may be the deepest: of a
//! triangle against a box or another triangle in closed form (the separating-axis
//! test's least overlap, `deepest_depth_above`), against a curved shape by EPA. Around
//! a peak the deepest triangles stay the same, so a peak is refined on the depth of the
//! triangles deepest at its sample alone (one depth a step), then the whole depth is
//! measured where that peaks; where other triangles are deeper there, the peak is
//! refined again on those.
use crate::collision::{Body, CollisionWorld};
use crate::math::Real;
use crate::math::Vector3;
use crate::motion::JointMotion;
use crate::query::penetration::voxel_map_depth::{DepthCandidates, voxel_map_penetration, voxel_map_penetration_cached};
use crate::query::penetration::{DepthFeatures, Penetration, deepest_depth_above, features_depth, penetration_depth, shape_penetration};
use crate::shape::Shape;
use std::cell::RefCell;

/// Instants sampled evenly over an event before refining.
const SAMPLES: usize = 32;
/// Local peaks of the samples refined per element pair, deepest first.
const REFINED_PEAKS: usize = 3;
/// Golden-section steps around the deepest sample (shrinks the bracket by 0.618 each).
const REFINEMENTS: usize = 25;
/// Refinements of one peak on the deepest triangles found where the last one peaked.
const FEATURE_ROUNDS: usize = 3;
/// A sample of a mesh's depth shallower than this share of the deepest sample measured
/// before it (in the order of the hulls' bound) is told only as shallower (a depth of
/// some of its triangles at most that share, or 0 with none named): it cannot be the
/// deepest, and a peak there would have to rise by a quarter of the
/// deepest within a sample's spacing to refine past it. The trees' walk then opens only
/// the boxes that overlap by more than that share, and the events' depths cost less,
/// with the same depths and times bit for bit (a share of 1 changes some: lesser peaks
/// next to the deepest refine past it).
const SHALLOW_SHARE: Real = 0.75;
/// The features of two convex shapes: each whole, as cheap as the depth itself.
const CONVEX: DepthFeatures = DepthFeatures { a: None, b: None };

/// The penetration of one element pair at `time` (`None` when apart): A is the pair's
/// first element, B its second.
fn pair_penetration_at(world: &CollisionWorld, motion: &JointMotion, pair: (usize, usize), time: Real) -> Option<Penetration> {
    pair_penetration(world, pair, &world.robot.link_poses(&motion.positions_at(time)))
}

/// The largest depth of bodies `a` and `b` with the links at `poses` (0 when apart).
pub fn bodies_depth(world: &CollisionWorld, a: Body, b: Body, poses: &[crate::math::Isometry3]) -> Real {
    element_pairs(world, a, b).filter_map(|pair| pair_penetration(world, pair, poses)).map(|p| p.depth).fold(0.0, Real::max)
}

fn pair_penetration(world: &CollisionWorld, (a, b): (usize, usize), poses: &[crate::math::Isometry3]) -> Option<Penetration> {
    let (ea, eb) = (&world.elements[a], &world.elements[b]);
    let (pa, pb) = (world.element_pose(ea, poses), world.element_pose(eb, poses));
    match (&ea.shape, &eb.shape) {
        (Shape::VoxelMap(m), other) => voxel_map_penetration(m, &pa, other, &pb, true),
        (other, Shape::VoxelMap(m)) => voxel_map_penetration(m, &pb, other, &pa, false),
        _ => shape_penetration(&ea.shape, &pa, &eb.shape, &pb),
    }
}

/// Delays after a time of contact (seconds) at which [`contact_normal`] looks for a depth
/// to take a direction from.
const NORMAL_DELAYS: [Real; 7] = [0.0, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2];

/// A unit contact normal of bodies `link` and `other` in contact from `from` (until `to`),
/// from `other` towards `link`: the direction of the translational depth (the shortest
/// separating translation) of their deepest element pair at the first of a few instants
/// just after `from` where they overlap. `None` if they never overlap there (a touch
/// that parts at once).
pub fn contact_normal(world: &CollisionWorld, motion: &JointMotion, link: Body, other: Body, from: Real, to: Real) -> Option<Vector3> {
    for delay in NORMAL_DELAYS {
        let t = from + delay;
        if t > to {
            break;
        }
        let deepest = element_pairs(world, link, other)
            .filter_map(|pair| pair_penetration_at(world, motion, pair, t))
            .filter(|p| p.depth > 0.0)
            .max_by(|x, y| x.depth.total_cmp(&y.depth));
        // The depth's normal points from the link (A) towards the other body (B).
        if let Some(p) = deepest.filter(|p| p.normal.norm() > 0.5) {
            return Some(-p.normal.normalize());
        }
    }
    None
}

/// The depth of one element pair at `time` (0 when apart), and the triangles it comes
/// from (`None` against a voxel map, whose (cube, triangle) candidates of earlier
/// instants are reused while they hold). `seed`: features deep at a nearby instant (the
/// deepest there, or a shallow sample's), which spare the walk the boxes that cannot be
/// deeper. Where a mesh is involved, the depth is told exactly (whatever the seed) only
/// where it is above `above`; elsewhere a depth of some of its triangles at most `above`,
/// or 0 ([`deepest_depth_above`]).
fn pair_depth_at(
    world: &CollisionWorld,
    motion: &JointMotion,
    (a, b): (usize, usize),
    time: Real,
    cache: &RefCell<Option<DepthCandidates>>,
    (seed, above): (Option<DepthFeatures>, Real),
) -> (Real, Option<DepthFeatures>) {
    let poses = world.robot.link_poses(&motion.positions_at(time));
    let (ea, eb) = (&world.elements[a], &world.elements[b]);
    let (pa, pb) = (world.element_pose(ea, &poses), world.element_pose(eb, &poses));
    let cache = &mut cache.borrow_mut();
    let depth = |p: Option<Penetration>| p.map_or(0.0, |p| p.depth);
    match (&ea.shape, &eb.shape) {
        (Shape::VoxelMap(m), other) => (depth(voxel_map_penetration_cached(m, &pa, other, &pb, true, cache)), None),
        (other, Shape::VoxelMap(m)) => (depth(voxel_map_penetration_cached(m, &pb, other, &pa, false, cache)), None),
        _ => match deepest_depth_above(&ea.shape, &pa, &eb.shape, &pb, seed, above) {
            Some((depth, features)) => (depth, Some(features)),
            None => (0.0, None),
        },
    }
}

/// The element pairs of two bodies.
fn element_pairs(world: &CollisionWorld, a: Body, b: Body) -> impl Iterator<Item = (usize, usize)> + '_ {
    let of = move |body: Body| world.elements.iter().enumerate().filter(move |(_, e)| e.body == body).map(|(i, _)| i);
    of(a).flat_map(move |i| of(b).map(move |j| (i, j)))
}

/// The largest depth of bodies `a` and `b` over times `[from, to]`, and when. Each
/// element pair on its own (the bodies' depth is their maximum, which may peak more than
/// once): dense samples, then the deepest `REFINED_PEAKS` local peaks of the samples
/// refined (a plateau counts once, at its start: the depth in a voxel map, the largest
/// over the cubes a link touches, is flat or rippled over long stretches).
pub fn max_depth_over(world: &CollisionWorld, motion: &JointMotion, a: Body, b: Body, from: Real, to: Real) -> (Real, Real) {
    let mut best = (0.0, from);
    for pair in element_pairs(world, a, b) {
        let cache = RefCell::new(None);
        let depth = |t: Real, seed: Option<DepthFeatures>, above: Real| pair_depth_at(world, motion, pair, t, &cache, (seed, above));
        let times: Vec<Real> = (0..=SAMPLES).map(|i| from + (to - from) * i as Real / SAMPLES as Real).collect();
        let samples = dense_samples(world, motion, pair, &times, &depth);
        let depths: Vec<Real> = samples.iter().map(|s| s.0).collect();
        let mut peaks: Vec<usize> =
            (0..depths.len()).filter(|&k| depths[k] > 0.0 && (k == 0 || depths[k] > depths[k - 1]) && (k == SAMPLES || depths[k] >= depths[k + 1])).collect();
        peaks.sort_by(|&x, &y| depths[y].total_cmp(&depths[x]));
        for k in peaks.into_iter().take(REFINED_PEAKS) {
            let (lo, hi) = (times[k.saturating_sub(1)], times[(k + 1).min(SAMPLES)]);
            let found = match samples[k].1 {
                // The deepest triangles' depth, then the whole depth where it peaks.
                Some(features) if features != CONVEX => refine_on_features(world, motion, pair, &depth, lo, hi, (depths[k], times[k]), features),
                _ => refine_peak(&|t| depth(t, None, 0.0).0, lo, hi, (depths[k], times[k])),
            };
            if found.0 > best.0 {
                best = found;
            }
        }
    }
    best
}

/// The depth of `pair` at every sample time. Where a mesh is involved (and no voxel
/// map), the depth is at most the depth of the elements' convex hulls (a translation that
/// separates the hulls separates every triangle), which is at most the translation that
/// separates the hulls along any one direction (EPA's on the hulls, measured by their
/// support functions: a few microseconds where a mesh's depth takes tens). The samples
/// are measured in the order of that bound while it is above the deepest found; the
/// others, which cannot be the deepest, are left at 0 (so at most a lesser local peak
/// goes unrefined). A sample measured is told exactly only where it is deeper than
/// [`SHALLOW_SHARE`] of the deepest before it.
fn dense_samples(
    world: &CollisionWorld,
    motion: &JointMotion,
    pair: (usize, usize),
    times: &[Real],
    depth: &impl Fn(Real, Option<DepthFeatures>, Real) -> (Real, Option<DepthFeatures>),
) -> Vec<(Real, Option<DepthFeatures>)> {
    let (ea, eb) = (&world.elements[pair.0], &world.elements[pair.1]);
    let mesh = matches!(ea.shape, Shape::TriMesh(_)) || matches!(eb.shape, Shape::TriMesh(_));
    let map = matches!(ea.shape, Shape::VoxelMap(_)) || matches!(eb.shape, Shape::VoxelMap(_));
    if !mesh || map {
        return times.iter().map(|&t| depth(t, None, 0.0)).collect();
    }
    let (hull_a, hull_b) = (ea.shape.convex_bound(), eb.shape.convex_bound());
    let hulls_depth_bound = |t: Real| {
        let poses = world.robot.link_poses(&motion.positions_at(t));
        let (pa, pb) = (world.element_pose(ea, &poses), world.element_pose(eb, &poses));
        penetration_depth(hull_a.as_ref(), &pa, hull_b.as_ref(), &pb).map_or(0.0, |p| {
            // Translating B by s n separates the hulls for s = h_A(n) + h_B(-n).
            let n = p.normal;
            let (sa, sb) = (pa * hull_a.support(&pa.rotation.inverse_transform_vector(&n)), pb * hull_b.support(&pb.rotation.inverse_transform_vector(&-n)));
            (sa - sb).dot(&n) * (1.0 + 1e-12) + 1e-12 * (sa.coords.norm() + sb.coords.norm())
        })
    };
    let mut order: Vec<(Real, usize)> = times.iter().enumerate().map(|(k, &t)| (hulls_depth_bound(t), k)).collect();
    order.sort_by(|x, y| y.0.total_cmp(&x.0));
    let mut samples = vec![(0.0, None); times.len()];
    let mut deepest: Real = 0.0;
    for (bound, k) in order {
        if bound <= deepest {
            break;
        }
        // Seeded with the features of the nearest sample measured.
        let nearest = (1..times.len()).flat_map(|d| [k.checked_sub(d), Some(k + d)]).flatten().find_map(|i| samples.get(i).and_then(|s| s.1));
        samples[k] = depth(times[k], nearest, SHALLOW_SHARE * deepest);
        deepest = deepest.max(samples[k].0);
    }
    samples
}

/// A peak of the depth of `pair` on `[lo, hi]`, from a sample `start` whose depth comes
/// from `features`: refined on those features' depth, then measured whole where that
/// peaks (an attained depth, never below `start`'s); again on the features deepest
/// there while they differ.
#[allow(clippy::too_many_arguments)]
fn refine_on_features(
    world: &CollisionWorld,
    motion: &JointMotion,
    pair: (usize, usize),
    depth: &impl Fn(Real, Option<DepthFeatures>, Real) -> (Real, Option<DepthFeatures>),
    lo: Real,
    hi: Real,
    start: (Real, Real),
    mut features: DepthFeatures,
) -> (Real, Real) {
    let (ea, eb) = (&world.elements[pair.0], &world.elements[pair.1]);
    let mut best = start;
    for _ in 0..FEATURE_ROUNDS {
        let of_features = |t: Real| {
            let poses = world.robot.link_poses(&motion.positions_at(t));
            features_depth(&ea.shape, &world.element_pose(ea, &poses), &eb.shape, &world.element_pose(eb, &poses), features).unwrap_or(0.0)
        };
        let (_, t) = refine_peak(&of_features, lo, hi, best);
        if t == best.1 {
            break;
        }
        // Only a depth above the best found counts.
        let (whole, deepest) = depth(t, Some(features), best.0);
        if whole <= best.0 {
            break;
        }
        best = (whole, t);
        match deepest {
            Some(f) if f != features => features = f,
            _ => break,
        }
    }
    best
}

/// Golden-section search for the maximum of `depth` on `[lo, hi]`, starting from a
/// known value `best` inside.
fn refine_peak(depth: &impl Fn(Real) -> Real, mut lo: Real, mut hi: Real, mut best: (Real, Real)) -> (Real, Real) {
    let ratio = (5.0_f64.sqrt() - 1.0) / 2.0;
    let (mut x1, mut x2) = (hi - ratio * (hi - lo), lo + ratio * (hi - lo));
    let (mut f1, mut f2) = (depth(x1), depth(x2));
    for _ in 0..REFINEMENTS {
        for (f, x) in [(f1, x1), (f2, x2)] {
            if f > best.0 {
                best = (f, x);
            }
        }
        if f1 >= f2 {
            hi = x2;
            (x2, f2) = (x1, f1);
            x1 = hi - ratio * (hi - lo);
            f1 = depth(x1);
        } else {
            lo = x1;
            (x1, f1) = (x2, f2);
            x2 = lo + ratio * (hi - lo);
            f2 = depth(x2);
        }
    }
    for (f, x) in [(f1, x1), (f2, x2)] {
        if f > best.0 {
            best = (f, x);
        }
    }
    best
}

/// The body a report names: a link, else a scene object by id.
pub fn body_named(world: &CollisionWorld, name: &str) -> Option<Body> {
    world.robot.link_named(name).map(Body::Link).or_else(|| world.scene.objects.iter().position(|o| o.id == name).map(Body::Obstacle))
}
