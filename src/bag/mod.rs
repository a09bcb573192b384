//! Recorded bags: rosbag2 reading (MCAP and SQLite), replaying the recorded world in time
//! order, checking every recorded plan against it, and writing the verdicts to MCAP.
//!
//! The audit gives a plan the verdict the node would have published live: the world is
//! replayed through the node's own guard ([`crate::moveit::guard::Guard`], fed through
//! [`crate::moveit::scene_input::SceneInput`]), each plan is prepared against the scene as
//! it stood at the plan's receive time, and the checks run in parallel while reading goes
//! on, the output staying in bag order.
//!
//! - [`storage`]: what files a bag is (a rosbag2 folder, its `metadata.yaml`, or one file),
//!   read by [`mcap_storage`] (the `mcap` crate, streaming) and [`sqlite_storage`]
//!   (`rusqlite`, in pages), each handing over one [`message::BagMessage`] at a time;
//! - [`replay`]: the recorded world kept in step, plans prepared against it;
//! - [`audit`]: the plans checked on every core ([`check_workers`]), handed back in bag
//!   order;
//! - [`verdicts_mcap`]: the verdicts and markers as an MCAP file, [`schemas`] their
//!   `ros2msg` definitions.
//!
//! Soundness: a bag that cannot be read to its end is an error (after the plans before the
//! damage), never a shorter bag; a scene message that does not decode leaves the scene
//! incomplete, so no later plan is certified free over it.
pub mod audit;
pub mod check_workers;
pub mod mcap_storage;
pub mod message;
pub mod metadata;
pub mod replay;
pub mod schemas;
pub mod sqlite_storage;
pub mod storage;
pub mod verdicts_mcap;

use std::path::PathBuf;

/// Why a bag could not be read (to its end), naming the file and where.
#[derive(Debug, thiserror::Error)]
pub enum BagError {
    #[error("{path}: {why}")]
    Open { path: PathBuf, why: String },
    /// Neither a rosbag2 folder nor an `.mcap` or `.db3` file.
    #[error("{0}: not a rosbag2 bag (a folder with metadata.yaml, or an .mcap or .db3 file)")]
    NotABag(PathBuf),
    #[error("{path}: metadata.yaml: {why}")]
    Metadata { path: PathBuf, why: String },
    /// The file breaks off or is corrupt at `at` (the plans before were read).
    #[error("{path}: damaged at {at}: {why}")]
    Damaged { path: PathBuf, at: String, why: String },
    #[error("{path}: {why}")]
    Write { path: PathBuf, why: String },
}
