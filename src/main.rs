//! The `ccd_guard` executable: `check`, `demo`, and `node` (also what a bare
//! `ccd_guard` runs). See `../shared/interfaces.md` for the contract.
mod cli;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn,rustdds=error,ros2_client=error")).init();
    std::process::exit(cli::run(std::env::args_os().collect()));
}
