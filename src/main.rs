//! The `ccd_guard` executable: `check`, `demo`, and `node` (also what a bare
//! `ccd_guard` runs). The reference is `docs/cli.md` and `docs/node.md`.
mod cli;

fn main() {
    // The log is started by the subcommand: the node logs as rcl does (see `node::logging`).
    std::process::exit(cli::run(std::env::args_os().collect()));
}
