//! What the integration tests share: the demo work cell ([`demo`]: its files, and the
//! guard and trajectories the node's tests load from it); seeded random numbers ([`rng`]:
//! the same seed draws the same numbers on every machine, so that test cases are
//! reproducible); damaged inputs ([`mutate`]); running the `ccd_guard` binary ([`cli`]).
//! Each test binary declares `mod common;` once and uses what it needs.
#![allow(dead_code)]

pub mod cli;
pub mod demo;
pub mod mutate;
pub mod rng;
