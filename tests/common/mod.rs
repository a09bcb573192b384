//! What several integration tests share: seeded random numbers (xorshift64*, seeded
//! through splitmix64), so that test cases are reproducible from a seed; the demo work
//! cell as the node's tests load it ([`demo`]); damaged inputs ([`mutate`]).
#![allow(dead_code)]

pub mod demo;
pub mod mutate;

pub fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(splitmix(seed) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
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
