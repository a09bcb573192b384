//! Seeded random numbers for the tests, without a crate. Four generators, each kept
//! because tests were written, and their cases and tolerances chosen, with its numbers:
//! - [`Rng`]: xorshift64* (Vigna 2016, "An experimental exploration of Marsaglia's
//!   xorshift generators, scrambled"), its state seeded through [`splitmix`]
//!   ([`Rng::new`]) or given as it is ([`Rng::from_state`]);
//! - [`SplitMix64`]: the splitmix64 sequence itself (Steele, Lea & Flood 2014, "Fast
//!   splittable pseudorandom number generators");
//! - [`XorShift64`]: Marsaglia's xorshift64 with shifts (13, 7, 17) (Marsaglia 2003,
//!   "Xorshift RNGs"), its state given as it is;
//! - [`Lcg64`]: a linear congruential generator with the multiplier and increment of
//!   Knuth's MMIX, its state given as it is; only its high bits are drawn.
//!
//! Each turns 53 bits into a uniform number in [0, 1) the same way ([`unit_interval`]).
//! A test file adds the draws of its own kind (unit vectors, poses, members of an
//! interval) in an `impl` block of its own; the suites of one binary share these types,
//! so two files never add a draw of the same name to one generator (a draw two files
//! need is here). [`Words`] lets a draw be written once for several generators
//! ([`super::mutate`]).

use ccd_guard::math::Vector3;

/// The golden-ratio increment of splitmix64.
const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// splitmix64's output for the state `x` before its increment: a well-mixed seed.
pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(GOLDEN_GAMMA);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The top 53 bits of `x` as a uniform number in [0, 1).
pub fn unit_interval(x: u64) -> f64 {
    (x >> 11) as f64 / (1u64 << 53) as f64
}

/// A generator's stream of random words, for draws written once for several generators.
pub trait Words {
    /// The next word, as the generator's own `next_u64` draws it.
    fn next_word(&mut self) -> u64;
    /// Uniform in `0..n` (the word modulo `n`), 0 when `n` is 0.
    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next_word() % n as u64) as usize }
    }
}

/// xorshift64*.
pub struct Rng(u64);

impl Rng {
    /// The generator of `seed`, mixed through [`splitmix`] (never the zero state).
    pub fn new(seed: u64) -> Self {
        Rng(splitmix(seed) | 1)
    }
    /// The generator whose state is `state` (not zero), unmixed.
    pub fn from_state(state: u64) -> Self {
        Rng(state)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        unit_interval(self.next_u64())
    }
    pub fn range(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.f()
    }
    /// Uniform in `a..=b`.
    pub fn int(&mut self, a: usize, b: usize) -> usize {
        a + (self.next_u64() % (b - a + 1) as u64) as usize
    }
    pub fn chance(&mut self, p: f64) -> bool {
        self.f() < p
    }
    pub fn unit(&mut self) -> [f64; 3] {
        loop {
            let v = [self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0)];
            let n = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
            if n > 0.1 && n <= 1.0 {
                return [v[0] / n, v[1] / n, v[2] / n];
            }
        }
    }
    /// A uniformly random unit quaternion `[x, y, z, w]`.
    pub fn quat(&mut self) -> [f64; 4] {
        loop {
            let v = [self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0)];
            let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
            if n > 0.1 && n <= 1.0 {
                return v.map(|x| x / n);
            }
        }
    }
    pub fn rpy(&mut self) -> [f64; 3] {
        [self.range(-3.1, 3.1), self.range(-1.5, 1.5), self.range(-3.1, 3.1)]
    }
}

impl Words for Rng {
    fn next_word(&mut self) -> u64 {
        self.next_u64()
    }
}

/// splitmix64: each draw is [`splitmix`] of the state, which then advances by the
/// golden-ratio increment.
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The sequence from `state`, unmixed.
    pub fn new(state: u64) -> Self {
        SplitMix64(state)
    }
    pub fn next_u64(&mut self) -> u64 {
        let z = splitmix(self.0);
        self.0 = self.0.wrapping_add(GOLDEN_GAMMA);
        z
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        unit_interval(self.next_u64())
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    /// A uniformly random unit vector: a point of the cube [-1, 1]^3 drawn until it lies
    /// in the unit ball (and not within 0.1 of the centre), scaled onto the sphere.
    pub fn unit(&mut self) -> Vector3 {
        loop {
            let v = Vector3::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let n = v.norm();
            if n > 0.1 && n <= 1.0 {
                return v / n;
            }
        }
    }
}

/// xorshift64 (13, 7, 17): each draw is the new state.
pub struct XorShift64(u64);

impl XorShift64 {
    /// The generator whose state is `state` (not zero), unmixed.
    pub fn new(state: u64) -> Self {
        XorShift64(state)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        unit_interval(self.next_u64())
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
}

/// MMIX's linear congruential generator: state <- a state + c (mod 2^64). Its low bits
/// repeat with short periods (bit k with period 2^(k+1)), so a draw takes the high ones:
/// a word is the top 31 bits of the new state, a number in [0, 1) its top 53.
pub struct Lcg64(u64);

impl Lcg64 {
    /// The generator whose state is `state`, unmixed.
    pub fn new(state: u64) -> Self {
        Lcg64(state)
    }
    fn step(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        self.0
    }
    /// The top 31 bits of the next state.
    pub fn next_u64(&mut self) -> u64 {
        self.step() >> 33
    }
    /// Uniform in [0, 1): the top 53 bits of the next state.
    pub fn f(&mut self) -> f64 {
        unit_interval(self.step())
    }
}

impl Words for Lcg64 {
    fn next_word(&mut self) -> u64 {
        self.next_u64()
    }
}
