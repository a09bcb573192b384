//! What files a bag is, and reading them in order: a rosbag2 folder (the files its
//! `metadata.yaml` lists, or, for a recording cut off before it wrote one, its `.mcap` and
//! `.db3` files in split order), or a single `.mcap` or `.db3` file.
use super::message::BagMessage;
use super::metadata::BagMetadata;
use super::{BagError, mcap_storage, sqlite_storage};
use std::path::{Path, PathBuf};

/// A storage file's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StorageFormat {
    Mcap,
    Sqlite,
}

impl StorageFormat {
    fn of_file(path: &Path) -> Option<Self> {
        match path.extension()?.to_str()? {
            "mcap" => Some(Self::Mcap),
            "db3" => Some(Self::Sqlite),
            _ => None,
        }
    }
}

/// One storage file of a bag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StorageFile {
    pub path: PathBuf,
    pub format: StorageFormat,
}

/// The storage files of `bag`, in recording order.
pub fn storage_files(bag: &Path) -> Result<Vec<StorageFile>, BagError> {
    if bag.is_file() {
        let format = StorageFormat::of_file(bag).ok_or_else(|| BagError::NotABag(bag.to_path_buf()))?;
        return Ok(vec![StorageFile { path: bag.to_path_buf(), format }]);
    }
    if !bag.is_dir() {
        return Err(BagError::Open { path: bag.to_path_buf(), why: "no such file or folder".into() });
    }
    let metadata = bag.join("metadata.yaml");
    let files = if metadata.is_file() { listed_files(bag, &metadata)? } else { found_files(bag)? };
    if files.is_empty() {
        return Err(BagError::NotABag(bag.to_path_buf()));
    }
    Ok(files)
}

fn listed_files(bag: &Path, metadata: &Path) -> Result<Vec<StorageFile>, BagError> {
    let fail = |why: String| BagError::Metadata { path: bag.to_path_buf(), why };
    let text = std::fs::read_to_string(metadata).map_err(|e| fail(e.to_string()))?;
    let info = BagMetadata::parse(&text).map_err(|e| fail(e.to_string()))?.rosbag2_bagfile_information;
    info.relative_file_paths
        .iter()
        .map(|relative| {
            let path = bag.join(relative);
            let format = StorageFormat::of_file(&path)
                .or(match info.storage_identifier.as_str() {
                    "mcap" => Some(StorageFormat::Mcap),
                    "sqlite3" => Some(StorageFormat::Sqlite),
                    _ => None,
                })
                .ok_or_else(|| fail(format!("'{relative}' is neither MCAP nor SQLite (storage '{}')", info.storage_identifier)))?;
            Ok(StorageFile { path, format })
        })
        .collect()
}

/// A folder without `metadata.yaml` (rosbag2 writes it last): its storage files in split
/// order (`name_0`, `name_1`, ..., `name_10`).
fn found_files(bag: &Path) -> Result<Vec<StorageFile>, BagError> {
    let entries = std::fs::read_dir(bag).map_err(|e| BagError::Open { path: bag.to_path_buf(), why: e.to_string() })?;
    let mut files = Vec::new();
    for entry in entries {
        // A file the folder cannot list is not skipped: the recording would have a hole.
        let path = entry.map_err(|e| BagError::Open { path: bag.to_path_buf(), why: e.to_string() })?.path();
        if let Some(format) = StorageFormat::of_file(&path) {
            files.push(StorageFile { path, format });
        }
    }
    files.sort_by_key(|file| split_order(&file.path));
    Ok(files)
}

/// A split file's place: its stem without the trailing number, then the number.
fn split_order(path: &Path) -> (String, u64, String) {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    let digits = stem.len() - stem.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (base, number) = stem.split_at(stem.len() - digits);
    (base.to_string(), number.parse().unwrap_or(0), stem.to_string())
}

/// Reads every message of the bag's files whose type the audit reads, in recording
/// order, handing each to `on_message`. A damaged file is an error after the messages
/// before the damage.
pub fn read_bag(bag: &Path, on_message: &mut dyn FnMut(BagMessage)) -> Result<(), BagError> {
    for file in storage_files(bag)? {
        match file.format {
            StorageFormat::Mcap => mcap_storage::read(&file.path, on_message)?,
            StorageFormat::Sqlite => sqlite_storage::read(&file.path, on_message)?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::split_order;
    use std::path::Path;

    #[test]
    fn split_files_go_in_number_order() {
        let mut names = ["bag_10.mcap", "bag_2.mcap", "bag_0.mcap"].map(Path::new);
        names.sort_by_key(|p| split_order(p));
        assert_eq!(names.map(|p| p.to_str().unwrap()), ["bag_0.mcap", "bag_2.mcap", "bag_10.mcap"]);
    }
}
