//! Where a contact event ends: a march forward from its entry in joint steps of the
//! pipeline's exit resolution, the discrete test at each sample (the pair that touched
//! last first, and its last touching triangles), then bisection between the last
//! touching sample and the first free one.
use super::solver::{SEPARATION_BISECTION_WIDTH, bisection_done};
use crate::collision::{Body, CollisionWorld};
use crate::math::{Isometry3, Real};
use crate::motion::JointMotion;
use crate::query::intersection::{TouchWitness, intersection_point_witnessed};

/// Whether a link and another body touch, sample after sample of a march: the element
/// pair that touched last is tried first, and each pair's last touching triangles
/// ([`intersection_point_witnessed`], the same answers as the plain intersection test).
struct MarchingTouch<'w> {
    world: &'w CollisionWorld,
    /// The two bodies' element pairs, each with its witness.
    pairs: Vec<(usize, usize, TouchWitness)>,
    /// The pair that touched last.
    last: usize,
}

impl<'w> MarchingTouch<'w> {
    fn new(world: &'w CollisionWorld, link: usize, other: Body) -> Self {
        let on = |body: Body| world.elements.iter().enumerate().filter(move |(_, e)| e.body == body).map(|(k, _)| k);
        let pairs = on(Body::Link(link)).flat_map(|a| on(other).map(move |b| (a, b, TouchWitness::Unknown))).collect();
        Self { world, pairs, last: 0 }
    }

    fn touch(&mut self, poses: &[Isometry3]) -> bool {
        let world = self.world;
        let count = self.pairs.len();
        let order = (0..count).map(|k| (self.last + k) % count);
        for k in order {
            let (a, b, witness) = &mut self.pairs[k];
            let (ea, eb) = (&world.elements[*a], &world.elements[*b]);
            if intersection_point_witnessed(&ea.shape, &world.element_pose(ea, poses), &eb.shape, &world.element_pose(eb, poses), witness).is_some() {
                self.last = k;
                return true;
            }
        }
        false
    }
}

/// The end of a contact event that is under way at `t_contact`: marching forward in
/// joint steps of `resolution`, then bisecting. `None` if it lasts to the end.
pub(super) fn time_of_separation(world: &CollisionWorld, motion: &JointMotion, link: usize, other: Body, t_contact: Real, resolution: Real) -> Option<Real> {
    let mut marching = MarchingTouch::new(world, link, other);
    let mut touch_at = |t: Real| marching.touch(&world.robot.link_poses(&motion.positions_at(t)));
    let mut previous = t_contact;
    for (k, seg) in motion.segments.iter().enumerate() {
        // A segment's last sample is the next waypoint's own time (not its start plus
        // its duration, which may differ in the last bit): a march that crosses a
        // waypoint and one that starts there bracket the same exit alike.
        let end = motion.segments.get(k + 1).map_or(seg.start_time + seg.duration, |next| next.start_time);
        if end <= t_contact {
            continue;
        }
        let n = seg.step_count(resolution);
        for i in 1..=n {
            let t = if i == n { end } else { seg.start_time + seg.duration * i as Real / n as Real };
            if t <= t_contact {
                continue;
            }
            if !touch_at(t) {
                let (mut lo, mut hi) = (previous, t);
                for _ in 0..60 {
                    let mid = 0.5 * (lo + hi);
                    if bisection_done(lo, mid, hi, SEPARATION_BISECTION_WIDTH) {
                        break;
                    }
                    if touch_at(mid) { lo = mid } else { hi = mid }
                }
                return Some(hi);
            }
            previous = t;
        }
    }
    None
}
