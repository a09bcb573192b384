//! The largest penetration depth within a contact event: the translational depth (MTD,
//! seed 004's I(A,B) in space) of the pair's elements, maximised over the event's time
//! interval by dense sampling and a golden-section refinement around the deepest
//! sample.
use crate::collision::{Body, CollisionWorld};
use crate::math::Real;
use crate::motion::JointMotion;
use crate::query::penetration::shape_penetration;

/// Instants sampled evenly over an event before refining.
const SAMPLES: usize = 64;
/// Golden-section steps around the deepest sample (shrinks the bracket by 0.618 each).
const REFINEMENTS: usize = 60;

/// The deepest penetration of the two bodies at `time`: the largest depth over their
/// checked element pairs, 0 where none intersect.
pub fn depth_at(world: &CollisionWorld, motion: &JointMotion, a: Body, b: Body, time: Real) -> Real {
    let poses = world.robot.link_poses(&motion.positions_at(time));
    let mut deepest: Real = 0.0;
    for ea in world.elements.iter().filter(|e| e.body == a) {
        for eb in world.elements.iter().filter(|e| e.body == b) {
            let (pa, pb) = (world.element_pose(ea, &poses), world.element_pose(eb, &poses));
            if let Some(p) = shape_penetration(&ea.shape, &pa, &eb.shape, &pb) {
                deepest = deepest.max(p.depth);
            }
        }
    }
    deepest
}

/// The largest depth of bodies `a` and `b` over times `[from, to]`, and when.
pub fn max_depth_over(world: &CollisionWorld, motion: &JointMotion, a: Body, b: Body, from: Real, to: Real) -> (Real, Real) {
    let depth = |t: Real| depth_at(world, motion, a, b, t);
    let times: Vec<Real> = (0..=SAMPLES).map(|i| from + (to - from) * i as Real / SAMPLES as Real).collect();
    let depths: Vec<Real> = times.iter().map(|&t| depth(t)).collect();
    let k = (0..depths.len()).max_by(|&i, &j| depths[i].total_cmp(&depths[j])).unwrap_or(0);
    let mut best = (depths[k], times[k]);
    // Golden section on the bracket around the deepest sample (the depth is unimodal
    // there for a pair passing through each other).
    let (mut lo, mut hi) = (times[k.saturating_sub(1)], times[(k + 1).min(SAMPLES)]);
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
