//! Soundness of the interval enclosures (interval arithmetic (Moore), as used by Redon et
//! al. 2004 §4.1): every operation must hold the exact result for members of its
//! operands. Exact results are checked without trusting f64 rounding: sums and products
//! through error-free transformations (2Sum, 2Prod by FMA), sin/cos and polynomials
//! against a double-double reference, poses against nalgebra's f64 chain.
use ccd_guard::bounding_volume::Obb;
use ccd_guard::enclosure::{Interval, IntervalPose};
use ccd_guard::math::{Isometry3, Matrix3, Point3, Translation3, UnitQuaternion, Vector3};
use proptest::prelude::*;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

use crate::common::rng::XorShift64;

// ---------------------------------------------------------------------------------------
// Exact reference arithmetic.

fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

fn fast_two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    (s, b - (s - a))
}

fn two_prod(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// A double-double number `hi + lo` (about 106 bits), normalised: |lo| <= ulp(hi) / 2.
#[derive(Clone, Copy, Debug)]
struct Dd {
    hi: f64,
    lo: f64,
}

impl Dd {
    fn from(x: f64) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }
    fn pair((hi, lo): (f64, f64)) -> Dd {
        let (hi, lo) = fast_two_sum(hi, lo);
        Dd { hi, lo }
    }
    fn prod(a: f64, b: f64) -> Dd {
        Dd::pair(two_prod(a, b))
    }
    fn add(self, o: Dd) -> Dd {
        let (s, e) = two_sum(self.hi, o.hi);
        let (t, f) = two_sum(self.lo, o.lo);
        let (s, e) = fast_two_sum(s, e + t);
        Dd::pair((s, e + f))
    }
    fn neg(self) -> Dd {
        Dd { hi: -self.hi, lo: -self.lo }
    }
    fn sub(self, o: Dd) -> Dd {
        self.add(o.neg())
    }
    fn mul(self, o: Dd) -> Dd {
        let (p, e) = two_prod(self.hi, o.hi);
        Dd::pair((p, e + (self.hi * o.lo + self.lo * o.hi)))
    }
    fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let r = self.sub(o.mul(Dd::from(q1)));
        let q2 = r.hi / o.hi;
        let r = r.sub(o.mul(Dd::from(q2)));
        Dd::pair((q1, q2)).add(Dd::from(r.hi / o.hi))
    }
    fn sqrt(self) -> Dd {
        if self.hi <= 0.0 {
            return Dd::from(0.0);
        }
        let s = self.hi.sqrt();
        let r = self.sub(Dd::prod(s, s));
        Dd::pair((s, r.hi / (2.0 * s)))
    }
}

/// Whether the real `hi + lo` lies in `x`, for a pair whose `lo` is below half an ulp of
/// `hi` (2Sum, 2Prod, double-double): then only the sign of `lo` matters at a tie.
fn holds(x: Interval, (hi, lo): (f64, f64)) -> bool {
    let above_lo = x.lo < hi || (x.lo == hi && lo >= 0.0);
    let below_hi = hi < x.hi || (hi == x.hi && lo <= 0.0);
    above_lo && below_hi
}

fn holds_dd(x: Interval, d: Dd) -> bool {
    holds(x, (d.hi, d.lo))
}

/// The exact quotient `a / b` (b != 0) lies in `x`: `a / b = q + r / b` with the remainder
/// `r = a - q b` exact (FMA), so only the sign of `r / b` matters when a bound equals `q`.
fn holds_quotient(x: Interval, a: f64, b: f64) -> bool {
    let q = a / b;
    let r = (-q).mul_add(b, a);
    let sign = if r == 0.0 { 0.0 } else { r.signum() * b.signum() };
    holds(x, (q, sign))
}

/// The exact √a (a >= 0) lies in `x`: lo <= √a iff lo <= 0 or lo² <= a, likewise for hi.
fn holds_sqrt(x: Interval, a: f64) -> bool {
    let le = |b: f64, c: f64| {
        // b² <= c exactly, for b >= 0
        let (p, e) = two_prod(b, b);
        p < c || (p == c && e <= 0.0)
    };
    let ge = |b: f64, c: f64| {
        let (p, e) = two_prod(b, b);
        p > c || (p == c && e >= 0.0)
    };
    (x.lo <= 0.0 || le(x.lo, a)) && x.hi >= 0.0 && ge(x.hi, a)
}

/// π/2 = P1 + P2 + P3 + O(1e-49); P1 is the f64 nearest π/2.
const P1: f64 = FRAC_PI_2;
const P2: f64 = 6.123233995736766e-17;
const P3: f64 = -1.4973849048591698e-33;

/// (sin x, cos x) in double-double: reduction by π/2 held as three doubles, Taylor series
/// of the remainder. Relative error far below 1e-25 for |x| <= 1e9.
fn ref_sin_cos(x: f64) -> (Dd, Dd) {
    let k = (x * std::f64::consts::FRAC_2_PI).round();
    let r = Dd::from(x).sub(Dd::prod(k, P1)).sub(Dd::prod(k, P2)).sub(Dd::prod(k, P3));
    let r2 = r.mul(r);
    let (mut s, mut ts) = (r, r);
    let (mut c, mut tc) = (Dd::from(1.0), Dd::from(1.0));
    for n in 1..=24 {
        let n = n as f64;
        ts = ts.mul(r2).div(Dd::from(-(2.0 * n) * (2.0 * n + 1.0)));
        tc = tc.mul(r2).div(Dd::from(-(2.0 * n - 1.0) * (2.0 * n)));
        s = s.add(ts);
        c = c.add(tc);
    }
    match (k as i64).rem_euclid(4) {
        0 => (s, c),
        1 => (c, s.neg()),
        2 => (s.neg(), c.neg()),
        _ => (c.neg(), s),
    }
}

/// `Σ c_i x^i` in double-double (Horner).
fn ref_poly(c: &[f64], x: f64) -> Dd {
    let mut acc = Dd::from(0.0);
    for &ci in c.iter().rev() {
        acc = acc.mul(Dd::from(x)).add(Dd::from(ci));
    }
    acc
}

/// The exact rotation about `axis / |axis|` by `theta`, entry (i, j), in double-double.
fn ref_rotation(axis: &Vector3, theta: f64) -> [[Dd; 3]; 3] {
    let n = Dd::prod(axis.x, axis.x).add(Dd::prod(axis.y, axis.y)).add(Dd::prod(axis.z, axis.z)).sqrt();
    let u = [Dd::from(axis.x).div(n), Dd::from(axis.y).div(n), Dd::from(axis.z).div(n)];
    let (s, c) = ref_sin_cos(theta);
    let omc = Dd::from(1.0).sub(c);
    std::array::from_fn(|i| {
        std::array::from_fn(|j| {
            let mut e = omc.mul(u[i]).mul(u[j]);
            if i == j {
                e = e.add(c);
            } else {
                let k = 3 - i - j;
                let sk = s.mul(u[k]);
                e = e.add(if (i + 1) % 3 == j { sk.neg() } else { sk });
            }
            e
        })
    })
}

/// The draws of this file's samples inside one proptest case, on the small deterministic
/// generator ([`XorShift64`]).
impl XorShift64 {
    /// A member of `x`: an end point sometimes, else a uniform one.
    fn member(&mut self, x: Interval) -> f64 {
        match (self.f() * 8.0) as u32 {
            0 => x.lo,
            1 => x.hi,
            _ => (x.lo + (x.hi - x.lo) * self.f()).clamp(x.lo, x.hi),
        }
    }
    fn unit_vector(&mut self) -> Vector3 {
        if self.f() < 0.25 {
            let mut v = Vector3::zeros();
            v[(self.f() * 3.0) as usize] = if self.f() < 0.5 { 1.0 } else { -1.0 };
            return v;
        }
        loop {
            let v = Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            if v.norm() > 0.1 {
                return v.normalize();
            }
        }
    }
    fn isometry(&mut self) -> Isometry3 {
        let t = Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
        let axis = self.unit_vector();
        let angle = self.range(-PI, PI);
        Isometry3::from_parts(Translation3::from(t), UnitQuaternion::from_scaled_axis(axis * angle))
    }
}

/// Numbers of varied magnitudes, signs, zeros and ulp-level neighbours.
fn number() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => -1e3..1e3f64,
        2 => -1.0..1.0f64,
        1 => -1e-3..1e-3f64,
        1 => -1e12..1e12f64,
        1 => Just(0.0),
        1 => prop::sample::select(vec![1.0, -1.0, 0.5, 3.0, 0.1, -0.1, 1e-7, 1e20, -1e20]),
    ]
}

fn interval() -> impl Strategy<Value = Interval> {
    prop_oneof![
        2 => (number(), number()).prop_map(|(a, b)| Interval::hull(a, b)),
        1 => number().prop_map(Interval::point),
        1 => (number(), 0u32..4).prop_map(|(a, k)| {
            let mut b = a;
            for _ in 0..k {
                b = b.next_up();
            }
            Interval::new(a, b)
        }),
    ]
}

// ---------------------------------------------------------------------------------------
// Arithmetic.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1536))]

    #[test]
    fn arithmetic_holds_exact_results(a in interval(), b in interval(), seed in any::<u64>()) {
        let mut rng = XorShift64::new(seed | 1);
        let (sum, diff, prod, quot) = (a + b, a - b, a * b, a / b);
        for _ in 0..24 {
            let x = rng.member(a);
            let y = rng.member(b);
            prop_assert!(holds(sum, two_sum(x, y)), "{a:?} + {b:?} = {sum:?} misses {x} + {y}");
            prop_assert!(holds(a + y, two_sum(x, y)));
            prop_assert!(holds(x + b, two_sum(x, y)));
            prop_assert!(holds(diff, two_sum(x, -y)), "{a:?} - {b:?} = {diff:?} misses {x} - {y}");
            prop_assert!(holds(a - y, two_sum(x, -y)));
            prop_assert!(holds(x - b, two_sum(x, -y)));
            prop_assert!(holds(prod, two_prod(x, y)), "{a:?} * {b:?} = {prod:?} misses {x} * {y}");
            prop_assert!(holds(a * y, two_prod(x, y)));
            prop_assert!(holds(x * b, two_prod(x, y)));
            if y != 0.0 {
                prop_assert!(holds_quotient(quot, x, y), "{a:?} / {b:?} = {quot:?} misses {x} / {y}");
                prop_assert!(holds_quotient(a / y, x, y));
                prop_assert!(holds_quotient(x / b, x, y));
            }
            prop_assert!((-a).contains(-x));
            prop_assert!(a.abs().contains(x.abs()));
            prop_assert!(holds(a.sqr(), two_prod(x, x)), "sqr {a:?} = {:?} misses {x}²", a.sqr());
            prop_assert!(a.sqr().lo >= 0.0);
            if x >= 0.0 {
                prop_assert!(holds_sqrt(a.sqrt(), x), "sqrt {a:?} = {:?} misses √{x}", a.sqrt());
            }
            prop_assert!(a.mag() >= x.abs() && a.mig() <= x.abs());
            let (left, right) = a.split();
            prop_assert!(left.contains(x) || right.contains(x));
        }
        // Width rounded up, mid inside, set operations.
        prop_assert!(two_sum(a.hi, -a.lo).0 <= a.width());
        prop_assert!(a.contains(a.mid()));
        let (left, right) = a.split();
        prop_assert!(left.lo == a.lo && left.hi == right.lo && right.hi == a.hi);
        prop_assert!(a.union(b).contains_interval(a) && a.union(b).contains_interval(b));
        match a.intersect(b) {
            Some(i) => prop_assert!(a.contains_interval(i) && b.contains_interval(i)),
            None => prop_assert!(a.hi < b.lo || b.hi < a.lo),
        }
        prop_assert_eq!(a.is_point(), a.lo == a.hi);
    }
}

#[test]
fn exact_operations_stay_tight() {
    let p = Interval::point;
    // Outward rounding is branch-free (a few ulps), so even exact sums widen a little.
    let sum = p(1.0) + p(2.0);
    assert!(sum.contains(3.0) && sum.width() <= 8.0 * f64::EPSILON * 3.0, "exact sums stay within a few ulps: {sum:?}");
    assert_eq!(p(0.0) * Interval::new(-3.0, 5.0), p(0.0), "a zero factor is exact");
    assert_eq!(p(-1.0) * Interval::new(-3.0, 0.1), Interval::new(-0.1, 3.0), "so is ±1");
    assert_eq!(-Interval::new(-1.0, 2.0), Interval::new(-2.0, 1.0));
    assert_eq!(Interval::new(-3.0, 2.0).abs(), Interval::new(0.0, 3.0));
    assert_eq!(Interval::new(-3.0, 2.0).sqr().lo, 0.0);
    let third = p(1.0) / p(3.0);
    assert!(third.lo < third.hi && third.contains(1.0 / 3.0), "inexact results are widened");
    let tenth_sum = p(0.1) + p(0.2);
    assert!(tenth_sum.lo < tenth_sum.hi);
}

#[test]
fn undefined_and_unbounded_cases_are_conservative() {
    let e = Interval::ENTIRE;
    assert_eq!(Interval::new(1.0, 2.0) / Interval::new(-1.0, 1.0), e);
    assert_eq!(Interval::new(1.0, 2.0) / 0.0, e);
    assert_eq!(Interval::point(f64::NAN), e);
    assert_eq!(Interval::point(f64::INFINITY), e);
    assert_eq!(e * 0.0, e, "0 · unbounded may hide a NaN input: keep it unbounded");
    assert_eq!(e * Interval::new(-1.0, 1.0), e);
    assert_eq!(Interval::new(1.0, 2.0) * f64::NAN, e);
    assert!(!(e + 1.0).is_finite());
    assert!(!(Interval::new(1.0, f64::INFINITY) - Interval::new(1.0, f64::INFINITY)).is_finite());
    // Overflow: the true sum MAX + MAX is finite, so the lower bound must be too.
    let big = Interval::point(f64::MAX) + Interval::point(f64::MAX);
    assert!(big.lo <= f64::MAX && big.lo > 1e308 && big.hi == f64::INFINITY);
    let big = Interval::point(f64::MAX) * 2.0;
    assert!(big.lo <= f64::MAX && big.hi == f64::INFINITY);
    // Underflow: the true products are ±1e-400, not 0.
    let tiny = Interval::point(1e-200) * Interval::point(1e-200);
    assert!(tiny.lo <= 0.0 && tiny.hi > 0.0);
    let tiny = Interval::point(-1e-200) * 1e-200;
    assert!(tiny.lo < 0.0 && tiny.hi >= 0.0);
    assert!(Interval::point(1e-300).sqr().hi > 0.0);
    assert_eq!(Interval::new(-2.0, -1.0).sqrt(), Interval::point(0.0));
    assert_eq!(Interval::new(-2.0, 4.0).sqrt().lo, 0.0);
    assert!(Interval::new(-2.0, 4.0).sqrt().contains(2.0));
    assert_eq!(e.mid(), 0.0);
    assert!(Interval::new(1.0, f64::INFINITY).contains(Interval::new(1.0, f64::INFINITY).mid()));
    assert_eq!(e.sin(), Interval::new(-1.0, 1.0));
    assert_eq!(Interval::new(0.0, f64::INFINITY).cos(), Interval::new(-1.0, 1.0));
}

// ---------------------------------------------------------------------------------------
// sin / cos.

/// An angle interval: near an extremum or a zero of sin/cos (k π/2 give or take a few
/// ulps), arbitrary up to |x| <= 1e4, of width from 0 to beyond 2π.
fn angle_interval() -> impl Strategy<Value = Interval> {
    let centre = prop_oneof![
        2 => -1e4..1e4f64,
        2 => -10.0..10.0f64,
        2 => (-6400i32..6400, -4i32..=4).prop_map(|(k, ulps)| {
            let mut x = k as f64 * FRAC_PI_2;
            for _ in 0..ulps.abs() {
                x = if ulps > 0 { x.next_up() } else { x.next_down() };
            }
            x
        }),
        1 => (-20i32..20).prop_map(|k| k as f64 * FRAC_PI_2),
    ];
    let width = prop_oneof![
        2 => Just(0.0),
        1 => (0u32..8).prop_map(|k| k as f64 * 1e-15),
        2 => 0.0..1e-6f64,
        3 => 0.0..3.0f64,
        1 => 3.0..TAU,
        1 => TAU..20.0,
    ];
    (centre, width, 0.0..1.0f64).prop_map(|(c, w, f)| Interval::new(c - w * f, c - w * f + w))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn sin_cos_hold_true_values(x in angle_interval(), seed in any::<u64>()) {
        let mut rng = XorShift64::new(seed | 1);
        let (s, c) = (x.sin(), x.cos());
        prop_assert!(-1.0 <= s.lo && s.hi <= 1.0 && -1.0 <= c.lo && c.hi <= 1.0);
        for _ in 0..24 {
            let t = rng.member(x);
            let (rs, rc) = ref_sin_cos(t);
            prop_assert!(holds_dd(s, rs), "sin {x:?} = {s:?} misses sin {t} = {rs:?}");
            prop_assert!(holds_dd(c, rc), "cos {x:?} = {c:?} misses cos {t} = {rc:?}");
        }
        // Not absurdly loose: |sin'|, |cos'| <= 1, so the range is at most as wide as x.
        let w = x.width();
        if w < 1.0 {
            prop_assert!(s.width() <= w + 1e-14 && c.width() <= w + 1e-14, "{x:?}: sin {s:?} cos {c:?}");
        }
    }
}

#[test]
fn sin_cos_extrema_and_full_periods() {
    for k in -50i32..50 {
        let x = k as f64 * FRAC_PI_2;
        let near = Interval::new(x.next_down(), x.next_up());
        let (s, c) = (near.sin(), near.cos());
        // sin reaches ±1 at odd k, cos at even k; the enclosures must reach that value.
        match k.rem_euclid(4) {
            0 => assert_eq!(c.hi, 1.0),
            1 => assert_eq!(s.hi, 1.0),
            2 => assert_eq!(c.lo, -1.0),
            _ => assert_eq!(s.lo, -1.0),
        }
    }
    for lo in [-1e4, -3.0, 0.0, 1.234, 1e4] {
        assert_eq!(Interval::new(lo, lo + TAU).sin(), Interval::new(-1.0, 1.0));
        assert_eq!(Interval::new(lo, lo + 7.0).cos(), Interval::new(-1.0, 1.0));
    }
    // A half period without the maximum of sin: [π, 2π] gives [-1, ~0].
    let s = Interval::new(PI, TAU).sin();
    assert!(s.lo == -1.0 && s.hi < 1e-15 && s.hi >= 0.0);
}

/// The enclosures rely on libm's sin/cos being within 1 ulp; check that on this platform
/// against the double-double reference (glibc is within about 0.52 ulp).
#[test]
fn libm_sin_cos_within_one_ulp() {
    let mut rng = XorShift64::new(0x9e37_79b9_7f4a_7c15);
    let mut worst: f64 = 0.0;
    for i in 0..20_000 {
        let scale = [1e-8, 1.0, 10.0, 1e4][i % 4];
        let x = rng.range(-scale, scale);
        let (rs, rc) = ref_sin_cos(x);
        for (v, r) in [(x.sin(), rs), (x.cos(), rc)] {
            let ulp = r.hi.abs().next_up() - r.hi.abs();
            worst = worst.max(((v - r.hi) - r.lo).abs() / ulp);
        }
    }
    assert!(worst <= 1.0, "libm sin/cos error {worst} ulp");
}

// ---------------------------------------------------------------------------------------
// Polynomials.

fn coefficients() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-10.0..10.0f64, 0..=6)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn polynomial_range_holds_dense_samples(
        c in coefficients(),
        centre in -3.0..3.0f64,
        width in prop_oneof![Just(0.0), 0.0..1e-6f64, 0.0..0.1f64, 0.0..4.0f64],
    ) {
        let s = Interval::new(centre - width / 2.0, centre + width / 2.0);
        let range = Interval::polynomial(&c, s);
        for k in 0..=200 {
            let x = if k == 200 { s.hi } else { (s.lo + (s.hi - s.lo) * k as f64 / 200.0).min(s.hi) };
            let p = ref_poly(&c, x);
            prop_assert!(holds_dd(range, p), "p = {c:?} over {s:?}: {range:?} misses p({x}) = {p:?}");
        }
    }

    #[test]
    fn cubic_range_is_not_absurdly_loose(
        c in prop::collection::vec(-10.0..10.0f64, 4),
        centre in -3.0..3.0f64,
        width in 1e-6..0.05f64,
    ) {
        let s = Interval::new(centre - width / 2.0, centre + width / 2.0);
        let range = Interval::polynomial(&c, s);
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for k in 0..=1000 {
            let v = ref_poly(&c, s.lo + (s.hi - s.lo) * k as f64 / 1000.0).hi;
            lo = lo.min(v);
            hi = hi.max(v);
        }
        prop_assert!(range.width() <= 1.5 * (hi - lo) + 1e-12, "p = {c:?} over {s:?}: {range:?} vs [{lo}, {hi}]");
    }
}

#[test]
fn polynomial_special_cases() {
    let s = Interval::new(-1.0, 2.0);
    assert_eq!(Interval::polynomial(&[], s), Interval::point(0.0));
    let constant = Interval::polynomial(&[3.0], s);
    assert!(constant.contains(3.0) && constant.width() <= 8.0 * f64::EPSILON * 3.0, "{constant:?}");
    // s² over [-1, 2] is [0, 4]; a naive Horner form would give [-2, 4].
    let sq = Interval::polynomial(&[0.0, 0.0, 1.0], s);
    assert!(sq.contains_interval(Interval::new(0.0, 4.0)) && sq.lo > -0.5 && sq.hi < 4.0 + 1e-12, "{sq:?}");
    assert!(!Interval::polynomial(&[1.0, 1.0], Interval::ENTIRE).is_finite());
    // Zero coefficients of the highest degrees (a held joint, a cubic stored as a
    // quintic) give the lower degree's range; a line's is its end values.
    let held = Interval::polynomial(&[0.25, 0.0, 0.0, 0.0, 0.0, 0.0], s);
    assert!(held.contains(0.25) && held.width() <= 8.0 * f64::EPSILON, "{held:?}");
    let padded = Interval::polynomial(&[0.0, 0.0, 1.0, 0.0, 0.0, 0.0], s);
    assert_eq!(padded, sq);
    let line = Interval::polynomial(&[1.0, -2.0, 0.0, 0.0], s);
    assert!(line.contains_interval(Interval::new(-3.0, 3.0)) && line.width() <= 6.0 + 1e-14, "{line:?}");
}

// ---------------------------------------------------------------------------------------
// Poses.

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn rotation_about_holds_nalgebra_and_exact_rotations(
        seed in any::<u64>(),
        lo in prop_oneof![4 => -7.0..7.0f64, 1 => -1e4..1e4f64, 1 => -1e-14..1e-14f64],
        width in prop_oneof![2 => Just(0.0), 1 => 0.0..1e-9f64, 2 => 0.0..1.0f64, 1 => 0.0..8.0f64],
    ) {
        let mut rng = XorShift64::new(seed | 1);
        let axis = rng.unit_vector();
        let angle = Interval::new(lo, lo + width);
        let set = IntervalPose::rotation_about(&axis, angle);
        prop_assert!(set.is_finite());
        for _ in 0..8 {
            let theta = rng.member(angle);
            let m = *UnitQuaternion::from_scaled_axis(axis * theta).to_rotation_matrix().matrix();
            let exact = ref_rotation(&axis, theta);
            for i in 0..3 {
                for j in 0..3 {
                    let e = set.rotation.0[i][j];
                    prop_assert!(e.contains(m[(i, j)]), "({i},{j}) {e:?} misses nalgebra {} at θ = {theta}, axis {axis:?}", m[(i, j)]);
                    prop_assert!(holds_dd(e, exact[i][j]), "({i},{j}) {e:?} misses exact {:?} at θ = {theta}", exact[i][j]);
                }
            }
        }
        let zero = set.translation;
        prop_assert!((0..3).all(|i| zero.0[i] == Interval::point(0.0)));
    }

    #[test]
    fn chains_hold_sampled_poses_and_obb_corners(seed in any::<u64>()) {
        let mut rng = XorShift64::new(seed | 1);
        let origins: Vec<Isometry3> = (0..3).map(|_| rng.isometry()).collect();
        let axes: Vec<Vector3> = (0..3).map(|_| rng.unit_vector()).collect();
        let angles: Vec<Interval> = (0..3)
            .map(|_| {
                let lo = rng.range(-4.0, 4.0);
                let w = match (rng.f() * 4.0) as u32 {
                    0 => 0.0,
                    1 => rng.range(0.0, 1e-6),
                    2 => rng.range(0.0, 0.5),
                    _ => rng.range(0.0, 3.0),
                };
                Interval::new(lo, lo + w)
            })
            .collect();
        let mut set = IntervalPose::identity();
        for k in 0..3 {
            set = set.mul_isometry(&origins[k]).mul(&IntervalPose::rotation_about(&axes[k], angles[k]));
        }
        prop_assert!(set.is_finite());
        let obb = Obb {
            center: Point3::new(rng.range(-0.5, 0.5), rng.range(-0.5, 0.5), rng.range(-0.5, 0.5)),
            axes: *rng.isometry().rotation.to_rotation_matrix().matrix(),
            half_extents: Vector3::new(rng.range(0.0, 0.3), rng.range(0.0, 0.3), rng.range(0.0, 0.3)),
        };
        let aabb = set.obb_aabb(&obb);
        // The set placed after an exact pose (an element's origin seen from its link).
        let before = origins[2] * origins[0];
        let placed = IntervalPose::isometry_mul(&before, &set);
        let probe = Point3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let cloud = set.transform_point(&probe);
        let direction = set.transform_vector(&probe.coords);
        for n in 0..24 {
            // The first 8 samples are the corners of the angle box, the rest uniform.
            let thetas: Vec<f64> = (0..3)
                .map(|k| if n < 8 { if n >> k & 1 == 0 { angles[k].lo } else { angles[k].hi } } else { rng.member(angles[k]) })
                .collect();
            let mut pose = Isometry3::identity();
            for k in 0..3 {
                pose = pose * origins[k] * Isometry3::from_parts(Translation3::identity(), UnitQuaternion::from_scaled_axis(axes[k] * thetas[k]));
            }
            let m = *pose.rotation.to_rotation_matrix().matrix();
            for i in 0..3 {
                for j in 0..3 {
                    prop_assert!(set.rotation.0[i][j].contains(m[(i, j)]), "R({i},{j}) {:?} misses {} at θ = {thetas:?}", set.rotation.0[i][j], m[(i, j)]);
                }
                prop_assert!(set.translation.0[i].contains(pose.translation.vector[i]), "t({i}) {:?} misses {}", set.translation.0[i], pose.translation.vector[i]);
            }
            prop_assert!(set.contains(&pose));
            // Within a rounding of the f64 product (the algebra, not the last bits).
            let (mb, tb) = (*before.rotation.to_rotation_matrix().matrix(), before.translation.vector);
            let (m_placed, t_placed) = (mb * m, mb * pose.translation.vector + tb);
            let near = |x: Interval, v: f64| x.lo - 1e-14 <= v && v <= x.hi + 1e-14;
            for i in 0..3 {
                for j in 0..3 {
                    prop_assert!(near(placed.rotation.0[i][j], m_placed[(i, j)]), "placed R({i},{j}) {:?} misses {}", placed.rotation.0[i][j], m_placed[(i, j)]);
                }
                prop_assert!(near(placed.translation.0[i], t_placed[i]), "placed t({i}) {:?} misses {}", placed.translation.0[i], t_placed[i]);
            }
            prop_assert!(cloud.contains(&(pose * probe).coords));
            prop_assert!(direction.contains(&(pose * probe.coords)));
            for corner in 0..8 {
                let w = Vector3::new(
                    if corner & 1 == 0 { -1.0 } else { 1.0 },
                    if corner & 2 == 0 { -1.0 } else { 1.0 },
                    if corner & 4 == 0 { -1.0 } else { 1.0 },
                );
                let local = obb.center + obb.axes * w.component_mul(&obb.half_extents);
                let world = pose * local;
                prop_assert!(aabb.contains_point(&world), "{aabb:?} misses corner {world:?} at θ = {thetas:?}");
            }
        }
    }

    #[test]
    fn prismatic_joints_hold_sampled_translations(seed in any::<u64>(), lo in -2.0..2.0f64, width in 0.0..1.0f64) {
        let mut rng = XorShift64::new(seed | 1);
        let origin = rng.isometry();
        let axis = rng.unit_vector();
        let distance = Interval::new(lo, lo + width);
        let set = IntervalPose::from_isometry(&origin).mul(&IntervalPose::translation_along(&axis, distance));
        let origin_matrix = *origin.rotation.to_rotation_matrix().matrix();
        for _ in 0..16 {
            let d = rng.member(distance);
            // The f64 pose computed with the origin's matrix (the pose taken as exact).
            let t = origin_matrix * (axis * d) + origin.translation.vector;
            prop_assert!(set.translation.contains(&t), "{:?} misses {t:?} at d = {d}", set.translation);
            prop_assert!(set.rotation.contains(&origin_matrix));
        }
    }
}

#[test]
fn pose_helpers() {
    let iso = Isometry3::from_parts(Translation3::new(1.0, -2.0, 0.5), UnitQuaternion::from_scaled_axis(Vector3::new(0.3, -0.2, 0.9)));
    let exact = IntervalPose::from_isometry(&iso);
    assert!(exact.contains(&iso) && exact.is_finite());
    assert_eq!(exact.translation.mid(), iso.translation.vector);
    assert_eq!(exact.rotation.mid(), *iso.rotation.to_rotation_matrix().matrix());
    assert!(IntervalPose::identity().contains(&Isometry3::identity()));
    // Right-multiplying by an exact pose matches composing with its point set.
    let other = Isometry3::from_parts(Translation3::new(0.1, 0.2, 0.3), UnitQuaternion::from_scaled_axis(Vector3::new(-1.0, 0.5, 0.2)));
    let a = exact.mul_isometry(&other);
    let b = exact.mul(&IntervalPose::from_isometry(&other));
    for i in 0..3 {
        assert!(b.translation.0[i].contains_interval(a.translation.0[i]) || a.translation.0[i].contains_interval(b.translation.0[i]));
    }
    let aabb = exact.translation.to_aabb();
    assert_eq!(aabb.mins, Point3::from(iso.translation.vector));
    assert_eq!(aabb.maxs, Point3::from(iso.translation.vector));
    // Degenerate input shows up as a non-finite set.
    assert!(!IntervalPose::rotation_about(&Vector3::zeros(), Interval::point(1.0)).is_finite());
    assert!(!IntervalPose::rotation_about(&Vector3::x(), Interval::point(f64::NAN)).is_finite());
    let widened = exact.widened(1e-9, 1e-6);
    assert!(widened.translation.0[0].width() >= 2e-6 && widened.rotation.0[0][0].width() >= 2e-9);
    // A full turn about z: the x/y block is [-1, 1], the z row and column are exact.
    let turn = IntervalPose::rotation_about(&Vector3::z(), Interval::new(0.0, 7.0));
    assert!(turn.rotation.0[0][0].contains_interval(Interval::new(-1.0, 1.0)));
    assert!(turn.rotation.0[2][2].contains(1.0) && turn.rotation.0[2][2].width() < 1e-13);
    assert!(turn.rotation.0[0][2].contains(0.0) && turn.rotation.0[0][2].width() < 1e-13);
    let _ = Matrix3::identity();
}
