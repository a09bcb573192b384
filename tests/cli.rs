//! Floor 13 (the command line) and the readers under it: bad and mutated input fails
//! cleanly, and MoveIt's formats give the reports of the plain ones. Runs the
//! `ccd_guard` binary cargo builds beside the tests.
//!
//! One test binary for the floor; one suite per file under `tests/cli/`, sharing
//! `tests/common`.
mod common;

mod cli {
    /// Bad input: one line naming the file, exit status 2, an `invalid` report.
    mod cli_bad_input;
    /// MoveIt's messages and `.scene` text at the command line.
    mod cli_moveit_formats;
    /// Mutated input for every reader: no panic, no hang, bounded memory.
    mod mutated_input;
    /// The report's form: `--stats` keeps the contract's key order; a reader's panic is
    /// said in one line.
    mod report_form;
}
