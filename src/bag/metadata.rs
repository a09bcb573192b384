//! rosbag2's `metadata.yaml`: which storage files a bag folder holds, in order.
use serde::Deserialize;

/// The parts of `metadata.yaml` the audit reads (Humble's version 5 to Jazzy's 9 alike).
#[derive(Debug, Deserialize)]
pub struct BagMetadata {
    pub rosbag2_bagfile_information: BagfileInformation,
}

#[derive(Debug, Deserialize)]
pub struct BagfileInformation {
    #[serde(default)]
    pub storage_identifier: String,
    /// The storage files, relative to the folder, in recording order.
    #[serde(default)]
    pub relative_file_paths: Vec<String>,
}

impl BagMetadata {
    pub fn parse(text: &str) -> Result<Self, serde_norway::Error> {
        serde_norway::from_str(text)
    }
}
