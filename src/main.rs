//! The `ccd_guard` executable: `check`, `demo`, and `node` (also what a bare
//! `ccd_guard` runs). See `../shared/interfaces.md` for the contract.
mod cli;

fn main() {
    // The log is started by the subcommand: the node logs as rcl does (see `ros::logging`).
    std::process::exit(cli::run(std::env::args_os().collect()));
}
