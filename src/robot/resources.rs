//! Where `package://`, `file://` and relative paths in robot and scene files point,
//! and reading those files (from disk, or from the demo's embedded table).
//!
//! Order of `package://NAME/...` resolution (the contract): `--package-dir NAME=DIR`,
//! then `PREFIX/share/NAME` for each PREFIX in `AMENT_PREFIX_PATH`, then `DIR/NAME`
//! for each DIR in `ROS_PACKAGE_PATH`.
use crate::error::{InputError, InputResult};
use std::path::{Path, PathBuf};

/// Why a URI names no file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// `package://PACKAGE/...` with no root for PACKAGE.
    #[error("package '{package}' of '{uri}' not found (give --package-dir {package}=DIR, or set AMENT_PREFIX_PATH or ROS_PACKAGE_PATH)")]
    PackageNotFound { package: String, uri: String },
    /// A scheme other than `package://` and `file://`.
    #[error("unsupported URI scheme in '{uri}'")]
    UnsupportedScheme { uri: String },
}

/// Files compiled into the binary, by path.
pub type EmbeddedFiles = &'static [(&'static str, &'static [u8])];

#[derive(Clone, Debug, Default)]
pub struct ResourceResolver {
    /// `--package-dir NAME=DIR`, in the order given.
    pub package_dirs: Vec<(String, PathBuf)>,
    pub ament_prefix_path: Vec<PathBuf>,
    pub ros_package_path: Vec<PathBuf>,
    /// When set, files are read from this table instead of the disk.
    pub embedded: Option<EmbeddedFiles>,
}

fn split_path_list(value: Option<std::ffi::OsString>) -> Vec<PathBuf> {
    value.map(|v| std::env::split_paths(&v).filter(|p| !p.as_os_str().is_empty()).collect()).unwrap_or_default()
}

impl ResourceResolver {
    /// A resolver with the given `--package-dir` entries and the ROS environment variables.
    pub fn from_env(package_dirs: Vec<(String, PathBuf)>) -> Self {
        Self {
            package_dirs,
            ament_prefix_path: split_path_list(std::env::var_os("AMENT_PREFIX_PATH")),
            ros_package_path: split_path_list(std::env::var_os("ROS_PACKAGE_PATH")),
            embedded: None,
        }
    }

    /// A resolver that reads only from the embedded table.
    pub fn embedded(files: EmbeddedFiles) -> Self {
        Self { embedded: Some(files), ..Self::default() }
    }

    /// The path `uri` names, `referrer` being the file that names it.
    pub fn resolve(&self, uri: &str, referrer: &Path) -> Result<PathBuf, ResolveError> {
        if let Some(rest) = uri.strip_prefix("package://") {
            let (package, relative) = rest.split_once('/').unwrap_or((rest, ""));
            return self
                .package_root(package)
                .map(|root| root.join(relative))
                .ok_or_else(|| ResolveError::PackageNotFound { package: package.to_string(), uri: uri.to_string() });
        }
        let path = uri.strip_prefix("file://").unwrap_or(uri);
        if path.contains("://") {
            return Err(ResolveError::UnsupportedScheme { uri: uri.to_string() });
        }
        let path = Path::new(path);
        Ok(if path.is_absolute() { path.to_path_buf() } else { referrer.parent().unwrap_or(Path::new("")).join(path) })
    }

    fn package_root(&self, package: &str) -> Option<PathBuf> {
        if let Some((_, dir)) = self.package_dirs.iter().find(|(name, _)| name == package) {
            return Some(dir.clone());
        }
        if self.embedded.is_some() {
            return None;
        }
        let ament = self.ament_prefix_path.iter().map(|p| p.join("share").join(package));
        let ros = self.ros_package_path.iter().map(|p| p.join(package));
        ament.chain(ros).find(|dir| dir.is_dir())
    }

    /// Reads a file, naming it in the error.
    pub fn read(&self, path: &Path) -> InputResult<Vec<u8>> {
        match self.embedded {
            Some(files) => {
                let key = normalize(path);
                files
                    .iter()
                    .find(|(name, _)| normalize(Path::new(name)) == key)
                    .map(|(_, bytes)| bytes.to_vec())
                    .ok_or_else(|| InputError::in_file(path, "no such embedded file"))
            }
            None => crate::error::read_file(path),
        }
    }

    pub fn read_text(&self, path: &Path) -> InputResult<String> {
        String::from_utf8(self.read(path)?).map_err(|_| InputError::in_file(path, "file is not valid UTF-8 text"))
    }
}

/// `a/./b/../c` -> `a/c`, for matching embedded names.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}
