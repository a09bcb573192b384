//! Running the `ccd_guard` binary cargo built beside these tests.
use std::process::Command;

/// The path of the `ccd_guard` binary of this build.
pub const CCD_GUARD: &str = env!("CARGO_BIN_EXE_ccd_guard");

/// A command that runs the `ccd_guard` binary.
pub fn ccd_guard() -> Command {
    Command::new(CCD_GUARD)
}

/// Runs `command` to its end: its exit status (-1 when a signal ended it), its stdout
/// and its stderr as text.
pub fn run(command: &mut Command) -> (i32, String, String) {
    let out = command.output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}
