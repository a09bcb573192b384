//! Input errors: one clear line naming the file and, where possible, the field or line.
use std::fmt;
use std::path::{Path, PathBuf};

/// Everything that can be wrong with what a user hands us. Printed as one line;
/// the CLI exits with status 2 and the node answers with an `invalid` verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct InputError {
    /// The file at fault, if the input came from a file.
    pub file: Option<PathBuf>,
    /// Where in the file: a field path (`points[3].positions`) or `line 12`.
    pub location: Option<String>,
    pub message: String,
}

impl InputError {
    pub fn new(message: impl Into<String>) -> Self {
        Self { file: None, location: None, message: message.into() }
    }

    pub fn in_file(file: impl AsRef<Path>, message: impl Into<String>) -> Self {
        Self::new(message).with_file(file)
    }

    pub fn with_file(mut self, file: impl AsRef<Path>) -> Self {
        if self.file.is_none() {
            self.file = Some(file.as_ref().to_path_buf());
        }
        self
    }

    pub fn at(mut self, location: impl Into<String>) -> Self {
        if self.location.is_none() {
            self.location = Some(location.into());
        }
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, &self.location) {
            (Some(file), Some(loc)) => write!(f, "{}: {}: {}", file.display(), loc, self.message),
            (Some(file), None) => write!(f, "{}: {}", file.display(), self.message),
            (None, Some(loc)) => write!(f, "{}: {}", loc, self.message),
            (None, None) => write!(f, "{}", self.message),
        }
    }
}

impl std::error::Error for InputError {}

pub type InputResult<T> = Result<T, InputError>;

/// Reads a whole file, naming it in the error.
pub fn read_file(path: &Path) -> InputResult<Vec<u8>> {
    std::fs::read(path).map_err(|e| InputError::in_file(path, format!("cannot read file: {e}")))
}

/// Reads a whole text file, naming it in the error.
pub fn read_text(path: &Path) -> InputResult<String> {
    let bytes = read_file(path)?;
    String::from_utf8(bytes).map_err(|_| InputError::in_file(path, "file is not valid UTF-8 text"))
}
