//! What several integration tests share: seeded random numbers ([`rng`]: the same seed
//! draws the same numbers on every machine, so that test cases are reproducible); the demo
//! work cell as the node's tests load it ([`demo`]); damaged inputs ([`mutate`]).
#![allow(dead_code)]

pub mod demo;
pub mod mutate;
pub mod rng;
