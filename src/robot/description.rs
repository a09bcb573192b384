//! A robot from its description, however it is handed over: the URDF and, perhaps, the
//! SRDF, each a file (the command line's `--urdf`, `--srdf`), a URI to resolve (the
//! node's `urdf_file`, `srdf_file`: `package://`, `file://` or a path) or a text already
//! in hand (the node's `robot_description` and `robot_description_semantic` parameters,
//! the `robot_description` topic).
//!
//! One path for the command line and the node, so that they read the same robot in the
//! same order (the URDF read, then parsed, then the SRDF read, then parsed against that
//! robot) and fail alike; [`DescriptionError`] says which part failed, for the node's
//! messages.
use super::Robot;
use super::resources::{ResolveError, ResourceResolver};
use super::srdf::{self, DisabledPair};
use super::urdf;
use crate::error::InputError;
use std::path::{Path, PathBuf};

/// Where one part of a robot's description comes from.
#[derive(Clone, Copy, Debug)]
pub enum DescriptionSource<'a> {
    /// A file, read as it is named.
    File(&'a Path),
    /// A URI, resolved by the resolver (relative to the working directory), then read.
    Uri(&'a str),
    /// The text itself; `name` stands for its file in messages (and anchors relative
    /// mesh paths).
    Text { text: &'a str, name: &'a Path },
}

/// Why a robot could not be loaded from its description.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DescriptionError {
    /// A URI that names no file.
    #[error("{uri}: {problem}")]
    Uri { uri: String, problem: ResolveError },
    /// A part's file could not be read.
    #[error(transparent)]
    Read(InputError),
    /// The URDF is not a robot.
    #[error(transparent)]
    Urdf(InputError),
    /// The SRDF is malformed or written for another robot.
    #[error(transparent)]
    Srdf(InputError),
}

impl From<DescriptionError> for InputError {
    /// The error as one input error, its message unchanged.
    fn from(error: DescriptionError) -> Self {
        match error {
            DescriptionError::Read(e) | DescriptionError::Urdf(e) | DescriptionError::Srdf(e) => e,
            uri @ DescriptionError::Uri { .. } => InputError::new(uri.to_string()),
        }
    }
}

impl DescriptionSource<'_> {
    /// The text and the path it stands for.
    fn read(self, resolver: &ResourceResolver) -> Result<(String, PathBuf), DescriptionError> {
        let path = match self {
            DescriptionSource::Text { text, name } => return Ok((text.to_string(), name.to_path_buf())),
            DescriptionSource::File(path) => path.to_path_buf(),
            DescriptionSource::Uri(uri) => resolver.resolve(uri, Path::new("")).map_err(|problem| DescriptionError::Uri { uri: uri.to_string(), problem })?,
        };
        let text = resolver.read_text(&path).map_err(DescriptionError::Read)?;
        Ok((text, path))
    }
}

/// The robot of a URDF and the disabled pairs of its SRDF (`None` without one).
pub fn load_robot(
    urdf: DescriptionSource,
    srdf: Option<DescriptionSource>,
    resolver: &ResourceResolver,
) -> Result<(Robot, Option<Vec<DisabledPair>>), DescriptionError> {
    let (text, path) = urdf.read(resolver)?;
    let robot = urdf::parse_urdf(&text, &path, resolver).map_err(DescriptionError::Urdf)?;
    let disabled = match srdf {
        Some(source) => {
            let (text, path) = source.read(resolver)?;
            Some(srdf::parse_for_robot(&text, &path, &robot).map_err(DescriptionError::Srdf)?)
        }
        None => None,
    };
    Ok((robot, disabled))
}
