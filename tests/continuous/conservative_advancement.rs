//! Conservative advancement (`motion_bounds::conservative_advancement`, the directional test of
//! the solver): whenever it says two shapes stay apart over a time interval, they do at
//! every one of 400 sampled instants of the motion (converged GJK distance). Random
//! primitive pairs; the moving one turns about a random axis through a random point
//! while it slides, over an interval enclosed by interval poses. The test also counts
//! how often "apart" is proven, so a test that proves nothing fails too.
//!
//! `stretched_to_the_limit_stays_apart` makes the bound work at its edge: the moving
//! shape heads into the fixed one, and the interval is stretched (by bisection) as far
//! as the test still proves "apart"; the shapes must then still be apart at every
//! sampled instant. A bound that undercounts the translation by a fifth, or the
//! rotation by half, fails it.
use ccd_guard::enclosure::{Interval, IntervalPose, IntervalVector3};
use ccd_guard::math::{Isometry3, Point3, Translation3, UnitQuaternion, Vector3};
use ccd_guard::motion_bounds::conservative_advancement::{BoundingBall, advance, motion_bound};
use ccd_guard::query::gjk;
use ccd_guard::shape::{Ball, Capsule, Cone, Cuboid, Cylinder, SupportMap};

use crate::common::rng::Rng;

/// This file's draws, on the shared xorshift64* ([`Rng`], from a raw state).
impl Rng {
    fn unit_vector(&mut self) -> Vector3 {
        loop {
            let v = Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            if v.norm() > 0.1 && v.norm() < 1.0 {
                return v.normalize();
            }
        }
    }
}

/// A primitive and the radius of a ball around the origin holding it.
fn shape(rng: &mut Rng) -> (Box<dyn SupportMap>, f64) {
    let (x, y, z) = (rng.range(0.02, 0.3), rng.range(0.02, 0.3), rng.range(0.02, 0.3));
    match (rng.f() * 5.0) as usize {
        0 => (Box::new(Cuboid { half_extents: Vector3::new(x, y, z) }), (x * x + y * y + z * z).sqrt()),
        1 => (Box::new(Ball { radius: x }), x),
        2 => (Box::new(Cylinder { half_height: y, radius: x }), (x * x + y * y).sqrt()),
        3 => (Box::new(Cone { half_height: y, radius: x }), (x * x + y * y).sqrt()),
        _ => (Box::new(Capsule { half_height: y, radius: x }), x + y),
    }
}

/// Motion of the moving shape: `Trans(p + v t) · Rot(u, θ0 + ω t) · offset`, t in [t0, t1].
struct Motion {
    p: Vector3,
    v: Vector3,
    u: Vector3,
    theta0: f64,
    omega: f64,
    offset: Isometry3,
}

impl Motion {
    fn at(&self, t: f64) -> Isometry3 {
        Isometry3::from_parts(Translation3::from(self.p + self.v * t), UnitQuaternion::from_scaled_axis(self.u * (self.theta0 + self.omega * t))) * self.offset
    }

    fn over(&self, t0: f64, t1: f64) -> IntervalPose {
        let time = Interval::new(t0, t1);
        let slide = IntervalPose { translation: IntervalVector3(std::array::from_fn(|i| time * self.v[i] + self.p[i])), ..IntervalPose::identity() };
        slide.mul(&IntervalPose::rotation_about(&self.u, time * self.omega + self.theta0)).mul_isometry(&self.offset)
    }
}

fn random_motion(rng: &mut Rng) -> Motion {
    let rotation = UnitQuaternion::from_scaled_axis(rng.unit_vector() * rng.range(0.0, 3.0));
    Motion {
        p: rng.unit_vector() * rng.range(0.0, 0.8),
        v: rng.unit_vector() * rng.range(0.0, 0.6),
        u: rng.unit_vector(),
        theta0: rng.range(-3.0, 3.0),
        omega: rng.range(-2.0, 2.0),
        offset: Isometry3::from_parts(Translation3::from(rng.unit_vector() * rng.range(0.0, 0.3)), rotation),
    }
}

#[test]
fn apart_means_apart_at_every_sampled_instant() {
    let mut rng = Rng::from_state(0x9e3779b97f4a7c15);
    let (mut proven, mut cases) = (0, 0);
    for case in 0..3000 {
        let (fixed, _) = shape(&mut rng);
        let (moving, radius) = shape(&mut rng);
        let motion = random_motion(&mut rng);
        let (t0, t1) = (rng.range(0.0, 0.5), rng.range(0.5, 1.0));
        let start = motion.at(t0);
        if !gjk::closest_points(fixed.as_ref(), &Isometry3::identity(), moving.as_ref(), &start).distance.is_normal() {
            continue;
        }
        cases += 1;
        let ball = BoundingBall { center: Point3::origin(), radius: radius * (1.0 + 1e-12) };
        let outcome = advance(fixed.as_ref(), moving.as_ref(), &start, &motion.over(t0, t1), &ball);
        assert!(outcome.distance_at_start >= 0.0);
        if !outcome.separated {
            continue;
        }
        proven += 1;
        // The whole-motion bound holds as well: no point moves farther than it says.
        let bound = motion_bound(&start, &motion.over(t0, t1), &ball);
        for k in 0..=400 {
            let t = t0 + (t1 - t0) * k as f64 / 400.0;
            let pose = motion.at(t);
            let d = gjk::closest_points(fixed.as_ref(), &Isometry3::identity(), moving.as_ref(), &pose).distance;
            assert!(d > 0.0, "case {case}: proven apart over [{t0}, {t1}] but touching at {t} (distance {d})");
            let moved = (pose.translation.vector - start.translation.vector).norm();
            assert!(moved <= bound + radius * 2.0, "case {case}: the motion bound {bound} is below the origin's travel {moved}");
        }
    }
    println!("{proven} of {cases} cases proven apart");
    assert!(cases > 1500, "{cases} usable cases");
    assert!(proven * 5 > cases, "advancement proved only {proven} of {cases} cases apart: the test would prove nothing");
}

/// The samples of `[t0, t1]` at which the shapes touch, if any.
fn first_touch(fixed: &dyn SupportMap, moving: &dyn SupportMap, motion: &Motion, t0: f64, t1: f64) -> Option<f64> {
    (0..=2000).map(|k| t0 + (t1 - t0) * k as f64 / 2000.0).find(|&t| gjk::closest_points(fixed, &Isometry3::identity(), moving, &motion.at(t)).distance <= 0.0)
}

#[test]
fn stretched_to_the_limit_stays_apart() {
    let mut rng = Rng::from_state(0x2545f4914f6cdd1d);
    let (mut cases, mut near) = (0, 0);
    for case in 0..1500 {
        let (fixed, _) = shape(&mut rng);
        let (mut moving, mut radius) = shape(&mut rng);
        let mut motion = random_motion(&mut rng);
        // Head for the fixed shape's origin, to pass it at t_c: a third of the cases
        // slide only, a third slide and turn, a third are a rod spinning in place.
        let t_c = rng.range(0.4, 1.0);
        motion.v = rng.unit_vector() * rng.range(0.3, 1.0);
        motion.p = -motion.v * t_c + rng.unit_vector() * rng.range(0.0, 0.05);
        match case % 3 {
            0 => motion.omega = 0.0,
            1 => {}
            _ => {
                let half_length = rng.range(0.2, 0.4);
                (moving, radius) = (Box::new(Cuboid { half_extents: Vector3::new(half_length, 0.01, 0.01) }), (half_length.powi(2) + 2e-4).sqrt());
                motion.v = Vector3::zeros();
                motion.p = rng.unit_vector() * rng.range(0.1, 0.5);
                motion.offset = Isometry3::identity();
                motion.omega = rng.range(2.0, 6.0) * if rng.f() < 0.5 { -1.0 } else { 1.0 };
            }
        }
        let start = motion.at(0.0);
        if gjk::closest_points(fixed.as_ref(), &Isometry3::identity(), moving.as_ref(), &start).distance <= 0.0 {
            continue;
        }
        let Some(touch) = first_touch(fixed.as_ref(), moving.as_ref(), &motion, 0.0, 1.0) else { continue };
        cases += 1;
        let ball = BoundingBall { center: Point3::origin(), radius: radius * (1.0 + 1e-12) };
        let apart = |t1: f64| advance(fixed.as_ref(), moving.as_ref(), &start, &motion.over(0.0, t1), &ball).separated;
        // The longest interval [0, t1] proven apart.
        let (mut lo, mut hi) = (0.0, 1.0);
        if apart(hi) {
            lo = hi;
        }
        for _ in 0..40 {
            let mid = 0.5 * (lo + hi);
            if apart(mid) { lo = mid } else { hi = mid }
        }
        if lo == 0.0 {
            continue;
        }
        if lo > 0.5 * touch {
            near += 1;
        }
        if let Some(t) = first_touch(fixed.as_ref(), moving.as_ref(), &motion, 0.0, lo) {
            panic!("case {case}: proven apart over [0, {lo}] but touching at {t} (first touch on [0, 1] near {touch})");
        }
    }
    println!("{near} of {cases} approaches proven apart beyond half the way to contact");
    assert!(cases > 500, "{cases} usable cases");
    assert!(near * 3 > cases, "only {near} of {cases} proofs reach half way to contact: the test is not at the edge");
}
