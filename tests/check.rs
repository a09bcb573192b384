//! Floor 11 (check): a method over a whole trajectory and its report, on the demo work
//! cell, random clutter, voxel maps and octomaps (against octomap's own C++ library,
//! when `scripts/test.sh` has written its reference data).
//!
//! One test binary for the floor; one suite per file under `tests/check/`, sharing
//! `tests/common`.
mod common;

mod check {
    /// The demo's verdicts and who decided them.
    mod demo;
    /// The octomap reader against octomap itself, and on damaged streams.
    mod octomap_stream;
    /// What every report says, whatever the method.
    mod report_consistency;
    /// A voxel map against the same cubes written as boxes.
    mod voxel_map_world;
}
