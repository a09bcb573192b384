//! The level that the searches over one set of pairs share: the smallest distance (or
//! upper bound of one) any of them has found, and whether one found a pair closer than
//! a threshold. A search reads it as the cutoff of its exact distances and the bound of
//! a cell whose exact distance lies beyond it (`search`); the searches run side by side
//! (`together`, `pool`) each hold it. It sits below all three so that they import it
//! and not one another.
//!
//! Soundness: the level only ever falls to a distance a search has attained or will make
//! attained before it ends, so a cell pruned against it is pruned against a real
//! distance of the same pairs.
use crate::math::Real;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What the shares of one search have found so far.
pub(super) struct SharedLevel {
    /// The smallest level (an attained distance, or an upper bound one share will make
    /// attained before it ends), as the bits of a non-negative float: their order is
    /// the numbers'.
    level: AtomicU64,
    /// Looking for pairs apart: a pair was found closer than the threshold.
    closer: AtomicBool,
}

impl SharedLevel {
    pub(super) fn new() -> Self {
        Self { level: AtomicU64::new(Real::INFINITY.to_bits()), closer: AtomicBool::new(false) }
    }

    pub(super) fn level(&self) -> Real {
        Real::from_bits(self.level.load(Ordering::Relaxed))
    }

    pub(super) fn offer(&self, level: Real) {
        self.level.fetch_min(level.max(0.0).to_bits(), Ordering::Relaxed);
    }

    pub(super) fn closer_found(&self) -> bool {
        self.closer.load(Ordering::Relaxed)
    }

    pub(super) fn note_closer(&self) {
        self.closer.store(true, Ordering::Relaxed);
    }
}
