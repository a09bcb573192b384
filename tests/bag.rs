//! Floor 12 (recorded bags): the audit reads rosbag2 bags (MCAP, SQLite, folders), replays
//! the recorded world through the node's guard, gives each plan the verdict the node would
//! have given live and `ccd_guard check` gives, and meets damaged bags with an error after
//! the plans before the damage, never a panic or a hang.
//!
//! One test binary for the floor; one suite per file under `tests/bag/`, sharing
//! `tests/common`. The Python suite `interop/python/test_audit_bags.py` holds the audit to
//! bags that rosbags and mcap's own writers wrote.
mod common;

mod bag {
    /// Writing bags as rosbag2 does, for the suites.
    mod recording;

    /// Verdicts: as the live guard, as `check`, in bag order, the world in time order.
    mod audit_verdicts;
    /// Truncated, corrupt and mutated bags; undecodable and foreign plans.
    mod damaged_bags;
    /// `--mcap-out` read back with the mcap crate.
    mod verdicts_out;
}
