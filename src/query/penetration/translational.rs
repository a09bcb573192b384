//! The minimum translational distance (Keerthi & Sridharan's `I(A,B)`, section 3) of two convex
//! shapes in space, through their support maps.
//!
//! Shapes are a core plus a margin (balls: a point; capsules: a segment). With `r` the
//! sum of the margins and `h` the support function of the cores' difference, the full
//! difference has support `h + r`, and the depth is `min over unit n of h(n) + r`:
//! - cores apart by `δ > 0` (but within `r`): the minimum is `r − δ`, along the
//!   direction from A's core to B's core given by their closest points (GJK);
//! - cores intersecting (or within a hair of touching): `r` plus the depth of the
//!   cores, from EPA (van den Bergen) seeded by a GJK simplex; when both apply, the
//!   direction that needs the shorter translation wins.
//!
//! The depth reported along the chosen `n` is `h(n) + r` from the support maps when
//! EPA converged, otherwise the exit distance of the ray along `n` from the full
//! difference (Keerthi & Sridharan's `D(n)`, [`super::directional`]) improved by a few steps
//! along the exit's normal. Either is the length of a translation along `n` that
//! separates, so translating B by `depth * normal` always separates the shapes (to
//! rounding); the tolerances only bound how far that is above the minimum.
//!
//! The witness points belong to the reported normal and depth: EPA's (from the face
//! of its final polytope the normal leaves through) or GJK's closest points of the
//! cores when that depth stands, and otherwise, the normal and depth having changed,
//! the closest points of A and of B translated by `depth * normal`.
use super::Penetration;
use super::difference::{Core, Difference};
use super::directional::exit;
use super::epa;
use super::start_simplex::{Start, start};
use crate::math::{Isometry3, Point3, Real, Vector3};
use crate::query::gjk;
use crate::shape::SupportMap;

/// Cores closer than this (relative to the scale) also go through EPA: there GJK's
/// direction between nearly touching cores is poorly determined.
const NEAR_CONTACT: Real = 1e-9;
/// Cores apart by more than this (relative to the scale) give a direction good enough
/// to take `h` along it as the depth.
const SETTLED_APART: Real = 1e-6;

/// A direction `n` for the cores with `h(n)` and points of the cores with
/// `point_a - point_b ≈ h(n) n` (A's frame).
struct Candidate {
    /// Whether `height` is known to be within tolerance of the minimum (EPA
    /// converged, cores touching, or well apart), so that [`refine`] has nothing to
    /// gain.
    settled: bool,
    normal: Vector3,
    height: Real,
    point_a: Point3,
    point_b: Point3,
}

/// The minimum translational distance of two convex shapes and its direction:
/// translating B by `depth * normal` (world frame, `normal` from A towards B) separates
/// them. `None` when they do not intersect (the verdict of the discrete test
/// [`gjk::intersects`], from GJK on the cores: their distance within the margins plus
/// 1e-12 of the coordinates) or the input is not finite.
///
/// Converges to a relative 1e-10 of the depth (or 1e-12 of the shapes' coordinates)
/// on polytopes and on curved cores (cylinders, cones); balls and capsules are exact
/// through their margins.
pub fn penetration_depth(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3) -> Option<Penetration> {
    let diff = Difference::new(a, pose_a, b, pose_b)?;
    let scale = diff.scale();
    let (ra, rb) = (diff.margin_a(), diff.margin_b());
    let cores = gjk::closest_points(&Core(a), &Isometry3::identity(), &Core(b), diff.b_to_a());
    // The discrete test's verdict (`gjk::intersects`: touching within 1e-12 of the
    // coordinates counts), from the same GJK run.
    let slack = 1e-12 * (1.0 + cores.point_a.coords.norm() + cores.point_b.coords.norm());
    // Not within (NaN is no contact).
    if !matches!(cores.distance.partial_cmp(&(ra + rb + slack)), Some(std::cmp::Ordering::Less | std::cmp::Ordering::Equal)) {
        return None;
    }
    let mut candidates: Vec<Candidate> = Vec::with_capacity(2);
    if cores.distance > 0.0 {
        let n = (cores.point_b - cores.point_a).normalize();
        if n.iter().all(|x| x.is_finite()) {
            // GJK's direction is good to eps·scale/δ: settled unless the cores nearly touch.
            let settled = cores.distance > SETTLED_APART * scale;
            candidates.push(Candidate { settled, normal: n, height: diff.core_height(&n), point_a: cores.point_a, point_b: cores.point_b });
        }
    }
    // Not above (NaN counts as near).
    if cores.distance.partial_cmp(&(NEAR_CONTACT * scale)) != Some(std::cmp::Ordering::Greater) {
        candidates.extend(core_depth(&diff, &cores.point_a, &cores.point_b));
    }
    if candidates.is_empty() {
        // EPA found no solid seed (rounding on a degenerate difference): the best of
        // a few fixed directions still separates.
        candidates.extend(fallback_directions().into_iter().map(|n| Candidate {
            settled: false,
            normal: n,
            height: diff.core_height(&n),
            point_a: cores.point_a,
            point_b: cores.point_b,
        }));
    }
    let best = candidates.into_iter().filter(|c| c.height.is_finite()).min_by(|x, y| x.height.total_cmp(&y.height))?;
    let (normal, depth, mut point_a, mut point_b) = if best.settled {
        (best.normal, (best.height + ra + rb).max(0.0), best.point_a + best.normal * ra, best.point_b - best.normal * rb)
    } else {
        // The direction and the depth change here, and the candidate's points (EPA's
        // unconverged polytope, or GJK's along the old direction) are not those of the
        // new ones: the contact after the translation gives them.
        let (normal, depth) = refine(&diff, &best.normal, best.height + ra + rb);
        let depth = depth.max(0.0);
        let (point_a, point_b) = contact(a, b, diff.b_to_a(), &normal, depth);
        (normal, depth, point_a, point_b)
    };
    let error = (point_a - point_b - normal * depth) * 0.5;
    point_a -= error;
    point_b += error;
    let result = Penetration { depth, normal: pose_a.rotation * normal, point_a: pose_a * point_a, point_b: pose_a * point_b };
    let finite = result.depth.is_finite() && result.normal.iter().chain(result.point_a.iter()).chain(result.point_b.iter()).all(|x| x.is_finite());
    finite.then_some(result)
}

/// Steps of [`refine`] at most.
const REFINE_STEPS: usize = 8;

/// The depth along a direction is where the ray from the origin along it leaves the
/// full difference (Keerthi & Sridharan's `D(n)`, at least the MTD and equal to it along the
/// MTD's normal); that beats `h(n)` (`height`) where the difference has edges, such as
/// the rims of a cylinder, along which `h` grows at first order off the best normal but
/// `D` at second order. The exit's supporting plane proposes the next direction, which
/// converges to the MTD's normal on smooth boundaries (a contraction) and stops on a
/// face. Returns the best (unit normal, depth) seen.
fn refine(diff: &Difference, n: &Vector3, height: Real) -> (Vector3, Real) {
    let (mut best_n, mut best) = (*n, height);
    let Some(first) = exit(diff, n) else { return (best_n, best) };
    if first.t < best {
        best = first.t;
    }
    let (mut at, mut next) = (*n, first.normal);
    for _ in 0..REFINE_STEPS {
        let Some(m) = next else { break };
        if m.dot(&at) >= 1.0 - 1e-15 {
            break;
        }
        let Some(e) = exit(diff, &m) else { break };
        // Not below (NaN stops too).
        if e.t.partial_cmp(&best) != Some(std::cmp::Ordering::Less) {
            break;
        }
        (best_n, best) = (m, e.t);
        (at, next) = (m, e.normal);
    }
    (best_n, best)
}

/// Witnesses for a translation of B by `depth * normal` (A's frame) that leaves the
/// shapes touching: GJK's closest points of A and of B so moved (on both surfaces,
/// apart by what `depth` overshoots), B's taken back.
fn contact(a: &dyn SupportMap, b: &dyn SupportMap, b_to_a: &Isometry3, normal: &Vector3, depth: Real) -> (Point3, Point3) {
    let shift = normal * depth;
    let moved = Isometry3::translation(shift.x, shift.y, shift.z) * b_to_a;
    let cp = gjk::closest_points(a, &Isometry3::identity(), b, &moved);
    (cp.point_a, cp.point_b - shift)
}

/// The depth of intersecting (or touching) cores by EPA; `contact_a`, `contact_b` are
/// GJK's closest points, the witnesses when the cores only touch.
fn core_depth(diff: &Difference, contact_a: &Point3, contact_b: &Point3) -> Option<Candidate> {
    let tolerance = epa::SCALE_TOLERANCE * diff.scale();
    match start(diff, tolerance) {
        // h(n) <= tolerance: the cores touch, their depth is within it of 0.
        Start::Boundary(n, s) => Some(Candidate { settled: true, normal: n, height: n.dot(&s.w), point_a: *contact_a, point_b: *contact_b }),
        Start::Polytope(seed) => {
            let e = epa::expand(diff, &seed)?;
            if !e.converged {
                log::debug!("EPA stopped after {} steps with depth in [{}, {}]", e.iterations, e.lower, e.height);
            }
            Some(Candidate { settled: e.converged, normal: e.normal, height: e.height, point_a: e.point_a, point_b: e.point_b })
        }
    }
}

/// The axes and the diagonals, both ways.
fn fallback_directions() -> Vec<Vector3> {
    let mut dirs = Vec::with_capacity(26);
    for x in -1..=1 {
        for y in -1..=1 {
            for z in -1..=1 {
                if (x, y, z) != (0, 0, 0) {
                    dirs.push(Vector3::new(x as Real, y as Real, z as Real).normalize());
                }
            }
        }
    }
    dirs
}
