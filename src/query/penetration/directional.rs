//! The directional depth `D(d;A,B)` of Keerthi & Sridharan (§4) in space: how far B must be
//! translated along `d` to separate from A.
//!
//! By Keerthi & Sridharan's Lemma 1(i), `D(d;A,B) = D(d;A−B,{0})`: the largest `t` with `t d` in
//! the Minkowski difference `M = A − B`, i.e. where the ray from the origin along `d`
//! leaves `M`. Keerthi & Sridharan (§5) maximises a difference of piecewise affine
//! functions over the polygons' chains; in space `M` is known only through its
//! support function, so the exit point is found by van den Bergen's GJK ray cast
//! ("Ray casting against general convex objects", 2004) from a point beyond `M` on the
//! line, back along `-d`: the first hit of that ray is the exit of the first. A few
//! Newton steps on GJK's distance finish it (see `exit`); the point on the ray never
//! passes the exit, so the answer errs on the side of separating.
use super::difference::{Difference, DifferenceShape};
use super::start_simplex::closest;
use crate::math::{Isometry3, Real, Vector3};
use crate::query::gjk;
use crate::shape::{Ball, SupportMap};

const MAX_ITERATIONS: usize = 256;
/// The ray cast stops when the simplex comes this close (relative to the scale) to
/// the point on the ray.
const RELATIVE_TOLERANCE: Real = 1e-11;
/// Newton steps at most after the ray cast.
const POLISH_STEPS: usize = 4;
/// Steps in a row, near the end, that neither advance nor shrink the distance.
const STALLS: usize = 4;
/// "Near the end": within this many times the tolerance.
const NEAR: Real = 1e3;

/// The least `t >= 0` such that translating B by `t * d` (world frame) separates the
/// shapes (they touch after it): Keerthi & Sridharan's `D(d;A,B)` for intersecting shapes. `d`
/// need not be unit (`D(αd) = D(d)/α`, Lemma 1(iii)). `None` when the shapes do not
/// intersect ([`gjk::intersects`]), `d` is zero, or the input is not finite.
pub fn directional_depth(a: &dyn SupportMap, pose_a: &Isometry3, b: &dyn SupportMap, pose_b: &Isometry3, d: &Vector3) -> Option<Real> {
    let len = d.norm();
    if !(len > 0.0 && len.is_finite()) {
        return None;
    }
    let diff = Difference::new(a, pose_a, b, pose_b)?;
    if !gjk::intersects(a, pose_a, b, pose_b) {
        return None;
    }
    let u = pose_a.rotation.inverse_transform_vector(d) / len;
    let t = exit(&diff, &u)?.t / len;
    t.is_finite().then_some(t)
}

/// Where the ray from the origin along the unit `u` (A's frame) leaves the full
/// difference.
pub(super) struct Exit {
    /// The distance along `u`, at least 0.
    pub t: Real,
    /// An outward unit normal of a plane supporting the difference at the exit point
    /// (the last separating plane of the ray cast), when one was found.
    pub normal: Option<Vector3>,
}

/// The ray cast ends within its tolerance of the exit, or (along a long flat stretch
/// of the boundary, where GJK's direction `v` is only good to eps·scale/|v|) at about
/// sqrt(eps)·scale; Newton steps then finish: the distance from the point on the ray
/// to the difference (GJK, accurate to rounding whatever its direction) and the plane
/// through the closest point, which supports the difference, give the next point on
/// the ray, never past the exit.
pub(super) fn exit(diff: &Difference, u: &Vector3) -> Option<Exit> {
    let scale = diff.scale();
    // A start beyond M: every t u in M has t <= h(u).
    let far = u.dot(&diff.support(u).w).max(0.0) + scale;
    let (mut hit, mut normal) = ray_cast(diff, &(u * far), &-u, RELATIVE_TOLERANCE * scale)?;
    let (shape, point) = (DifferenceShape(diff), Ball { radius: 0.0 });
    for _ in 0..POLISH_STEPS {
        let x = u * (far - hit);
        let cp = gjk::closest_points(&shape, &Isometry3::identity(), &point, &Isometry3::translation(x.x, x.y, x.z));
        // Not above (a NaN distance stops too).
        if cp.distance.partial_cmp(&(1e-15 * scale)) != Some(std::cmp::Ordering::Greater) {
            break;
        }
        let nu = (cp.point_b - cp.point_a) / cp.distance;
        let step = cp.distance / nu.dot(u);
        if !(step > 0.0 && step.is_finite()) {
            break;
        }
        hit += step;
        normal = nu;
    }
    let t = (far - hit).max(0.0);
    let normal = normal.try_normalize(0.0).filter(|n| n.iter().all(|x| x.is_finite()));
    t.is_finite().then_some(Exit { t, normal })
}

/// The least `λ >= 0` with `s + λ r` in the full difference (GJK ray cast) and the
/// normal of the last plane the cast advanced to; `None` when the ray misses.
fn ray_cast(diff: &Difference, s: &Vector3, r: &Vector3, epsilon: Real) -> Option<(Real, Vector3)> {
    let mut lambda: Real = 0.0;
    let mut normal = Vector3::zeros();
    let mut x = *s;
    let mut points = [Vector3::zeros(); 4];
    let mut len = 0;
    let mut v = x - diff.support(&-r).w;
    let mut stalls = 0;
    let near = epsilon * NEAR;
    for _ in 0..MAX_ITERATIONS {
        if v.norm_squared() <= epsilon * epsilon {
            break;
        }
        let p = diff.support(&v).w;
        let w = x - p;
        let vw = v.dot(&w);
        let before = lambda;
        if vw > 0.0 {
            let vr = v.dot(r);
            if vr >= 0.0 {
                return None;
            }
            lambda -= vw / vr;
            x = s + r * lambda;
            normal = v;
        }
        if !points[..len].contains(&p) && len < 4 {
            points[len] = p;
            len += 1;
        }
        let c = closest_from(&x, &points[..len]);
        if c.inside {
            break;
        }
        if lambda == before && c.v.norm_squared() <= near * near && c.v.norm_squared() >= v.norm_squared() * (1.0 - 1e-12) {
            // Neither an advance nor a closer simplex: converged as far as rounding
            // allows.
            stalls += 1;
            if stalls >= STALLS {
                break;
            }
        } else {
            stalls = 0;
        }
        let kept = c.keep;
        let old = points;
        for k in 0..c.len {
            points[k] = old[kept[k]];
        }
        len = c.len;
        v = c.v;
    }
    lambda.is_finite().then_some((lambda, normal))
}

/// The closest point to `x` of the hull of `points`, as `x` minus it (the simplex
/// `x − points`, [`closest`]).
fn closest_from(x: &Vector3, points: &[Vector3]) -> super::start_simplex::Closest {
    let mut y = [Vector3::zeros(); 4];
    for (yk, p) in y.iter_mut().zip(points) {
        *yk = x - p;
    }
    closest(&y[..points.len()])
}
