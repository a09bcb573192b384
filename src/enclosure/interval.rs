//! Closed real intervals with outward rounding: interval arithmetic (Moore), as used by
//! Redon et al. 2004 §4.1.
//!
//! An [`Interval`] stands for a set of real numbers. Every operation returns an interval
//! that contains every exact result of the operation applied to members of its operands:
//! each computed bound is moved outwards by `|x| 2^-51` plus the smallest positive
//! normal number, `f64::MIN_POSITIVE` = 2^-1022 (at least two ulps, branch-free), unless
//! the operation is exact (negation, a factor that is exactly 0 or ±1). Results may be
//! too large, never too small.
//!
//! Infinite bounds mean "unbounded". A NaN never appears as a bound: operations that
//! would produce one (a NaN operand, `inf - inf`, `0 * inf`, `inf / inf`) return
//! [`Interval::ENTIRE`] instead, so that garbage input shows up as a non-finite
//! enclosure rather than as a tight wrong one.
use std::f64::consts::{FRAC_2_PI, TAU};
use std::ops::{Add, AddAssign, Div, Mul, MulAssign, Neg, Sub, SubAssign};

/// How far (relative, absolute) libm's `sin` and `cos` of an `f64` may be from the true
/// value, as the trig enclosures allow for it. No standard promises an accuracy: glibc,
/// musl and the BSD and Apple libms document at most 1 ulp. This allows `8ε|v|` (at least
/// 8 ulps of the value `v`) plus `2ε` absolute (2 ulps of 1, for values near 0), so a
/// libm several times worse than documented still gives a sound enclosure, for a
/// widening of about 2e-15 at most, far below anything a motion bound resolves.
/// `tests/robot_motion/interval_enclosure.rs` (`libm_sin_cos_within_one_ulp`) checks the libm it runs
/// on against a double-double reference: within 1 ulp.
pub const LIBM_TRIG_ERROR: (f64, f64) = (8.0 * f64::EPSILON, 2.0 * f64::EPSILON);

/// A closed interval `[lo, hi]` of reals (interval arithmetic (Moore), as used by
/// Redon et al. 2004 §4.1). Invariant: `lo <= hi`, neither bound is NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    pub lo: f64,
    pub hi: f64,
}

/// Moving a rounded-to-nearest result by `|x| 2^-51` (at least two ulps) plus
/// [`TINY`] is guaranteed to cross the exact value it approximates: branch-free
/// outward rounding, at most a few ulps wider than `next_down`/`next_up`.
const WIDEN: f64 = 2.0 * f64::EPSILON;

/// The absolute part of the outward move: the smallest positive *normal* number
/// (2^-1022, not the smallest subnormal 2^-1074). It exceeds the rounding error of any
/// result in the subnormal range (at most 2^-1075), where `|x| 2^-51` is below one ulp.
const TINY: f64 = f64::MIN_POSITIVE;

#[inline(always)]
fn down(x: f64) -> f64 {
    let r = x - (x.abs() * WIDEN + TINY);
    // +inf - inf: the exact value was at least MAX.
    if r.is_nan() && x == f64::INFINITY { f64::MAX } else { r }
}

#[inline(always)]
fn up(x: f64) -> f64 {
    let r = x + (x.abs() * WIDEN + TINY);
    if r.is_nan() && x == f64::NEG_INFINITY { -f64::MAX } else { r }
}

#[inline(always)]
pub(crate) fn add_down(a: f64, b: f64) -> f64 {
    down(a + b)
}

#[inline(always)]
pub(crate) fn add_up(a: f64, b: f64) -> f64 {
    up(a + b)
}

/// Products by 0 or ±1 are exact and stay so.
#[inline(always)]
fn mul_down(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        0.0
    } else if a.abs() == 1.0 || b.abs() == 1.0 {
        a * b
    } else {
        down(a * b)
    }
}

#[inline(always)]
fn mul_up(a: f64, b: f64) -> f64 {
    if a == 0.0 || b == 0.0 {
        0.0
    } else if a.abs() == 1.0 || b.abs() == 1.0 {
        a * b
    } else {
        up(a * b)
    }
}

#[inline]
fn div_down(a: f64, b: f64) -> f64 {
    if a == 0.0 { 0.0 } else { (a / b).next_down() }
}

/// Upper bound of the exact quotient `a / b`, `b != 0` (a zero dividend is exact).
#[inline]
fn div_up(a: f64, b: f64) -> f64 {
    if a == 0.0 { 0.0 } else { (a / b).next_up() }
}

impl Interval {
    /// The whole real line (also the answer to anything undefined).
    pub const ENTIRE: Interval = Interval { lo: f64::NEG_INFINITY, hi: f64::INFINITY };

    /// The interval `[lo, hi]`; a NaN bound is replaced by the matching infinity.
    #[inline]
    pub fn new(lo: f64, hi: f64) -> Self {
        debug_assert!(lo <= hi, "Interval::new({lo}, {hi}): lo > hi");
        Self::sanitized(lo, hi)
    }

    /// `[lo, hi]` with NaN bounds widened to the infinities (internal results).
    #[inline]
    fn sanitized(lo: f64, hi: f64) -> Self {
        Self { lo: if lo.is_nan() { f64::NEG_INFINITY } else { lo }, hi: if hi.is_nan() { f64::INFINITY } else { hi } }
    }

    /// The degenerate interval `[x, x]` (exact); a non-finite `x` gives [`Interval::ENTIRE`].
    #[inline]
    pub fn point(x: f64) -> Self {
        if x.is_finite() { Self { lo: x, hi: x } } else { Self::ENTIRE }
    }

    /// The smallest interval holding both numbers (exact; NaN gives [`Interval::ENTIRE`]).
    #[inline]
    pub fn hull(a: f64, b: f64) -> Self {
        if a.is_nan() || b.is_nan() { Self::ENTIRE } else { Self { lo: a.min(b), hi: a.max(b) } }
    }

    /// The smallest interval holding both intervals (exact).
    #[inline]
    pub fn union(self, o: Interval) -> Self {
        Self { lo: self.lo.min(o.lo), hi: self.hi.max(o.hi) }
    }

    /// The common part of both intervals, `None` when they are disjoint (exact).
    #[inline]
    pub fn intersect(self, o: Interval) -> Option<Interval> {
        let lo = self.lo.max(o.lo);
        let hi = self.hi.min(o.hi);
        (lo <= hi).then_some(Self { lo, hi })
    }

    /// Whether the real `x` lies in the interval (false for NaN).
    #[inline]
    pub fn contains(self, x: f64) -> bool {
        self.lo <= x && x <= self.hi
    }

    /// Whether `o` is a subset of this interval.
    #[inline]
    pub fn contains_interval(self, o: Interval) -> bool {
        self.lo <= o.lo && o.hi <= self.hi
    }

    /// Whether both bounds are finite (the interval is bounded).
    #[inline]
    pub fn is_finite(self) -> bool {
        self.lo.is_finite() && self.hi.is_finite()
    }

    /// Whether the interval is a single number.
    #[inline]
    pub fn is_point(self) -> bool {
        self.lo == self.hi
    }

    /// `hi - lo`, rounded up (an upper bound of the true width).
    #[inline]
    pub fn width(self) -> f64 {
        add_up(self.hi, -self.lo)
    }

    /// A number inside the interval close to its centre (0 for the whole line).
    #[inline]
    pub fn mid(self) -> f64 {
        let m = match (self.lo.is_finite(), self.hi.is_finite()) {
            (true, true) => 0.5 * self.lo + 0.5 * self.hi,
            (false, false) => 0.0,
            (false, true) => f64::MIN,
            (true, false) => f64::MAX,
        };
        // Not f64::clamp, which panics on a malformed interval.
        m.max(self.lo).min(self.hi)
    }

    /// The largest absolute value of a member, `max(|lo|, |hi|)` (exact).
    #[inline]
    pub fn mag(self) -> f64 {
        self.lo.abs().max(self.hi.abs())
    }

    /// The smallest absolute value of a member (0 when the interval holds 0; exact).
    #[inline]
    pub fn mig(self) -> f64 {
        if self.lo <= 0.0 && 0.0 <= self.hi { 0.0 } else { self.lo.abs().min(self.hi.abs()) }
    }

    /// The two halves `[lo, mid]` and `[mid, hi]`, whose union is the interval.
    #[inline]
    pub fn split(self) -> (Interval, Interval) {
        let m = self.mid();
        (Self { lo: self.lo, hi: m }, Self { lo: m, hi: self.hi })
    }

    /// `{x² : x in self}`: tighter than `self * self` and never negative.
    #[inline]
    pub fn sqr(self) -> Self {
        let (a, b) = (self.lo.abs(), self.hi.abs());
        if self.lo >= 0.0 || self.hi <= 0.0 {
            let (small, large) = if a <= b { (a, b) } else { (b, a) };
            Self { lo: mul_down(small, small).max(0.0), hi: mul_up(large, large) }
        } else {
            let large = a.max(b);
            Self { lo: 0.0, hi: mul_up(large, large) }
        }
    }

    /// `{√x : x in self, x >= 0}`; an interval with no non-negative member gives `[0, 0]`.
    #[inline]
    pub fn sqrt(self) -> Self {
        if self.hi <= 0.0 {
            return Self { lo: 0.0, hi: 0.0 };
        }
        // IEEE sqrt is correctly rounded, so one step outwards is enough.
        let lo = if self.lo <= 0.0 { 0.0 } else { self.lo.sqrt().next_down().max(0.0) };
        Self { lo, hi: self.hi.sqrt().next_up() }
    }

    /// `{|x| : x in self}` (exact).
    #[inline]
    pub fn abs(self) -> Self {
        if self.lo >= 0.0 {
            self
        } else if self.hi <= 0.0 {
            -self
        } else {
            Self { lo: 0.0, hi: (-self.lo).max(self.hi) }
        }
    }

    /// `{sin x : x in self}`, enclosed (see [`Interval::cos`] for the method).
    pub fn sin(self) -> Self {
        // Maxima of sin at x = π/2 (1 + 4k), minima at x = π/2 (3 + 4k).
        self.trig(f64::sin, 1.0, 3.0)
    }

    /// `{cos x : x in self}`, enclosed: libm values at both ends, widened by
    /// `LIBM_TRIG_ERROR` and one step, hull with ±1 when an extremum may lie in the
    /// interval (decided with a margin of several ulps), clamped to `[-1, 1]`. Width >= 2π
    /// or non-finite bounds give `[-1, 1]`.
    pub fn cos(self) -> Self {
        // Maxima of cos at x = π/2 (4k), minima at x = π/2 (2 + 4k).
        self.trig(f64::cos, 0.0, 2.0)
    }

    /// Shared enclosure of sin and cos: `max_class` / `min_class` are the residues mod 4
    /// of `x · 2/π` at which the function reaches +1 / -1.
    fn trig(self, f: fn(f64) -> f64, max_class: f64, min_class: f64) -> Self {
        const FULL: Interval = Interval { lo: -1.0, hi: 1.0 };
        // Beyond 2^40 the integer scan below is still exact, but such angles mean nothing.
        const LIMIT: f64 = 1_099_511_627_776.0;
        if !self.is_finite() || self.mag() > LIMIT || self.hi - self.lo >= TAU {
            return FULL;
        }
        // t = x · 2/π, computed with relative error below 2u (u = 2^-53) from the rounding
        // of 2/π and of the product; the margin 4ε|t| (= 8u|t|) plus an absolute term
        // makes [t_lo, t_hi] cover the true scaled interval, so no extremum is missed.
        let tl = self.lo * FRAC_2_PI;
        let th = self.hi * FRAC_2_PI;
        let t_lo = tl - (4.0 * f64::EPSILON * tl.abs() + 1e-300);
        let t_hi = th + (4.0 * f64::EPSILON * th.abs() + 1e-300);
        let (mut has_max, mut has_min) = (false, false);
        let mut n = t_lo.ceil();
        let mut steps = 0;
        while n <= t_hi {
            steps += 1;
            if steps > 8 {
                return FULL;
            }
            let class = n.rem_euclid(4.0);
            has_max |= class == max_class;
            has_min |= class == min_class;
            n += 1.0;
        }
        let enclose = |x: f64| {
            let v = f(x);
            let slack = LIBM_TRIG_ERROR.0 * v.abs() + LIBM_TRIG_ERROR.1;
            ((v - slack).next_down(), (v + slack).next_up())
        };
        let (a_lo, a_hi) = enclose(self.lo);
        let (b_lo, b_hi) = enclose(self.hi);
        let lo = if has_min { -1.0 } else { a_lo.min(b_lo).max(-1.0) };
        let hi = if has_max { 1.0 } else { a_hi.max(b_hi).min(1.0) };
        if lo.is_nan() || hi.is_nan() || lo > hi { FULL } else { Self { lo, hi } }
    }

    /// The range of `Σ c_i s^i` over `s` (coefficients in increasing degree): the
    /// intersection of the Horner form, the mean-value form `p(m) + p'(S)(S - m)` and the
    /// second-order Taylor form; when `p'(S)` excludes 0 the endpoint values (p is
    /// monotone), otherwise also the union over two levels of bisection. All conservative.
    pub fn polynomial(coefficients: &[f64], s: Interval) -> Interval {
        poly_range(coefficients, s, 2)
    }
}

/// `a ∩ b` for two enclosures of the same set (never disjoint unless one is unsound;
/// then the hull, to stay conservative).
#[inline]
fn meet(a: Interval, b: Interval) -> Interval {
    a.intersect(b).unwrap_or_else(|| a.union(b))
}

/// Horner-form enclosure of the `order`-th derivative of `Σ c_i x^i` over `x`.
fn horner(c: &[f64], x: Interval, order: usize) -> Interval {
    if c.len() <= order {
        return Interval::point(0.0);
    }
    let coefficient = |i: usize| {
        let factor: f64 = ((i - order + 1)..=i).map(|k| k as f64).product();
        Interval::point(c[i]) * factor
    };
    let mut acc = coefficient(c.len() - 1);
    for i in (order..c.len() - 1).rev() {
        acc = acc * x + coefficient(i);
    }
    acc
}

/// Range enclosure of the polynomial over `s`, bisecting up to `depth` times where the
/// derivative may vanish.
fn poly_range(c: &[f64], s: Interval, depth: u32) -> Interval {
    // Leading zero coefficients (a joint that holds still, a cubic segment stored as a
    // quintic) change nothing.
    let c = &c[..c.iter().rposition(|&x| x != 0.0).map_or(1.min(c.len()), |k| k + 1)];
    let horner_form = horner(c, s, 0);
    // Of degree 1 or less, `s` occurs once in the Horner form: it is the range.
    if c.len() <= 2 || !s.is_finite() || s.is_point() || !horner_form.is_finite() {
        return horner_form;
    }
    let m = s.mid();
    let pm = Interval::point(m);
    let ds = s - m;
    let d2 = horner(c, s, 2);
    let d1m = horner(c, pm, 1);
    let d1 = meet(horner(c, s, 1), d1m + d2 * ds);
    if d1.lo > 0.0 || d1.hi < 0.0 {
        // p' has no zero on s: p is monotone and the range lies between the end values.
        let ends = horner(c, Interval::point(s.lo), 0).union(horner(c, Interval::point(s.hi), 0));
        return meet(horner_form, ends);
    }
    let p_m = horner(c, pm, 0);
    let mean_value = p_m + d1 * ds;
    let taylor2 = p_m + d1m * ds + d2 * ds.sqr() * 0.5;
    let mut range = meet(meet(horner_form, mean_value), taylor2);
    if depth > 0 {
        let (left, right) = s.split();
        let halves = poly_range(c, left, depth - 1).union(poly_range(c, right, depth - 1));
        range = meet(range, halves);
    }
    range
}

impl From<f64> for Interval {
    /// [`Interval::point`].
    fn from(x: f64) -> Self {
        Interval::point(x)
    }
}

impl Neg for Interval {
    type Output = Interval;
    /// `{-x}` (exact).
    #[inline]
    fn neg(self) -> Interval {
        Interval { lo: -self.hi, hi: -self.lo }
    }
}

impl Add for Interval {
    type Output = Interval;
    /// `{x + y}`, bounds rounded outwards (exactly when 2Sum proves no error).
    #[inline]
    fn add(self, o: Interval) -> Interval {
        Interval::sanitized(add_down(self.lo, o.lo), add_up(self.hi, o.hi))
    }
}

impl Sub for Interval {
    type Output = Interval;
    /// `{x - y}`, bounds rounded outwards.
    #[inline]
    fn sub(self, o: Interval) -> Interval {
        Interval::sanitized(add_down(self.lo, -o.hi), add_up(self.hi, -o.lo))
    }
}

impl Mul for Interval {
    type Output = Interval;
    /// `{x · y}`, bounds rounded outwards; an unbounded factor times an interval holding
    /// 0 gives [`Interval::ENTIRE`].
    #[inline]
    fn mul(self, o: Interval) -> Interval {
        if o.is_point() {
            return self * o.lo;
        }
        if self.is_point() {
            return o * self.lo;
        }
        let (p1, p2, p3, p4) = (self.lo * o.lo, self.lo * o.hi, self.hi * o.lo, self.hi * o.hi);
        let lo = p1.min(p2).min(p3.min(p4));
        let hi = p1.max(p2).max(p3.max(p4));
        // min/max skip a NaN (0 · ∞), so test the products themselves.
        if p1.is_nan() || p2.is_nan() || p3.is_nan() || p4.is_nan() {
            return Interval::ENTIRE;
        }
        Interval::sanitized(down(lo), up(hi))
    }
}

impl Mul<f64> for Interval {
    type Output = Interval;
    /// `{x · k}`, bounds rounded outwards (exact for `k = 0` on a bounded interval); a
    /// non-finite `k`, or `k = 0` with an unbounded interval, gives [`Interval::ENTIRE`].
    #[inline]
    fn mul(self, k: f64) -> Interval {
        if !k.is_finite() || (!self.is_finite() && k == 0.0) {
            return Interval::ENTIRE;
        }
        if k >= 0.0 { Interval::sanitized(mul_down(self.lo, k), mul_up(self.hi, k)) } else { Interval::sanitized(mul_down(self.hi, k), mul_up(self.lo, k)) }
    }
}

impl Div for Interval {
    type Output = Interval;
    /// `{x / y}`, bounds rounded outwards; a divisor holding 0 gives [`Interval::ENTIRE`].
    #[inline]
    fn div(self, o: Interval) -> Interval {
        if o.contains(0.0) || o.lo.is_nan() || o.hi.is_nan() {
            return Interval::ENTIRE;
        }
        let (a, b, c, d) = (self.lo, self.hi, o.lo, o.hi);
        let q = [a / c, a / d, b / c, b / d];
        if q.iter().any(|v| v.is_nan()) {
            return Interval::ENTIRE;
        }
        let lo = div_down(a, c).min(div_down(a, d)).min(div_down(b, c)).min(div_down(b, d));
        let hi = div_up(a, c).max(div_up(a, d)).max(div_up(b, c)).max(div_up(b, d));
        Interval::sanitized(lo, hi)
    }
}

impl Div<f64> for Interval {
    type Output = Interval;
    /// `{x / k}`, bounds rounded outwards; `k = 0` gives [`Interval::ENTIRE`].
    #[inline]
    fn div(self, k: f64) -> Interval {
        self / Interval::point(k)
    }
}

impl Add<f64> for Interval {
    type Output = Interval;
    /// `{x + k}`, bounds rounded outwards.
    #[inline]
    fn add(self, k: f64) -> Interval {
        self + Interval::point(k)
    }
}

impl Sub<f64> for Interval {
    type Output = Interval;
    /// `{x - k}`, bounds rounded outwards.
    #[inline]
    fn sub(self, k: f64) -> Interval {
        self - Interval::point(k)
    }
}

impl Add<Interval> for f64 {
    type Output = Interval;
    /// `{k + x}`, bounds rounded outwards.
    #[inline]
    fn add(self, x: Interval) -> Interval {
        Interval::point(self) + x
    }
}

impl Sub<Interval> for f64 {
    type Output = Interval;
    /// `{k - x}`, bounds rounded outwards.
    #[inline]
    fn sub(self, x: Interval) -> Interval {
        Interval::point(self) - x
    }
}

impl Mul<Interval> for f64 {
    type Output = Interval;
    /// `{k · x}`, bounds rounded outwards.
    #[inline]
    fn mul(self, x: Interval) -> Interval {
        x * self
    }
}

impl Div<Interval> for f64 {
    type Output = Interval;
    /// `{k / x}`, bounds rounded outwards; a divisor holding 0 gives [`Interval::ENTIRE`].
    #[inline]
    fn div(self, x: Interval) -> Interval {
        Interval::point(self) / x
    }
}

impl AddAssign for Interval {
    /// `self = self + o`.
    #[inline]
    fn add_assign(&mut self, o: Interval) {
        *self = *self + o;
    }
}

impl SubAssign for Interval {
    /// `self = self - o`.
    #[inline]
    fn sub_assign(&mut self, o: Interval) {
        *self = *self - o;
    }
}

impl MulAssign for Interval {
    /// `self = self * o`.
    #[inline]
    fn mul_assign(&mut self, o: Interval) {
        *self = *self * o;
    }
}

#[cfg(test)]
mod tests {
    use super::{TINY, down, up};

    /// The docs say the outward move's absolute part is the smallest positive normal
    /// number: so it is, and `up`/`down` add exactly it to an exact zero.
    #[test]
    fn outward_move_is_the_smallest_normal() {
        assert_eq!(TINY, f64::MIN_POSITIVE);
        assert!(TINY.is_normal());
        let below = TINY / 2.0;
        assert!(below > 0.0 && !below.is_normal(), "half of it is subnormal");
        assert_eq!(up(0.0), TINY);
        assert_eq!(down(0.0), -TINY);
        assert!(up(0.0) > f64::from_bits(1), "more than the smallest subnormal");
    }
}
