//! Command-line parsing (clap) and the subcommands.
mod audit_command;
mod check_command;
mod moveit_input;

use clap::{Parser, Subcommand};
use std::ffi::OsString;

/// The exit statuses and where the formats are (the end of `--help`).
const EXIT_STATUSES: &str = "Exit status of `check`: 0 collision_free, 1 collision, 2 bad input or usage (one line on \
stderr names the file at fault), 3 uncertain, 4 collision-free but closer than --min-clearance.

The reference (command line, file formats, the report, the node's topics and the execution gate) is \
docs/cli.md and docs/node.md in ccd_guard's repository (installed with the package under share/ccd_guard/docs).";

/// The exit statuses of `audit`.
const AUDIT_EXIT_STATUSES: &str = "Exit status of `audit`, over all plans: 1 if any collision, else 2 if any plan could not be \
checked, else 3 if any uncertain, else 4 if any closer than --min-clearance, else 0; 2 for bad input, and for a bag \
that could not be read to its end, whatever its plans said (the plans before the damage are printed; one line on \
stderr names the file and the damage).

The reference is docs/cli.md in ccd_guard's repository (installed with the package under share/ccd_guard/docs).";

#[derive(Parser)]
#[command(name = "ccd_guard", version, about = "Continuous collision checking of planned robot trajectories", after_help = EXIT_STATUSES)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Check one trajectory and print the report.
    #[command(after_help = EXIT_STATUSES)]
    Check(check_command::CheckArgs),
    /// Check every plan recorded in rosbag2 bags against the world as it stood.
    #[command(after_help = AUDIT_EXIT_STATUSES)]
    Audit(audit_command::AuditArgs),
    /// The ROS 2 node (what a bare `ccd_guard` runs).
    Node {
        /// Everything after `node` (for example `--ros-args ...`).
        #[arg(trailing_var_arg = true, allow_hyphen_values = true)]
        ros_args: Vec<String>,
    },
    /// Check the embedded demo trajectories and print a table.
    Demo,
}

/// Runs the command line and returns the exit status.
pub fn run(args: Vec<OsString>) -> i32 {
    // A bare `ccd_guard`, or one started by `ros2 run` with only ROS arguments, is the node.
    let first = args.get(1).and_then(|a| a.to_str());
    if first.is_none() || first == Some("--ros-args") {
        let rest: Vec<String> = args.iter().skip(1).map(|a| a.to_string_lossy().into_owned()).collect();
        return node(&rest);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    // The node starts its own log, as rcl writes it, at its own `--log-level`: a logger
    // started here first would be the one kept.
    if !matches!(cli.command, Some(Command::Node { .. }) | None) {
        // The audit says each plan's problem in its line: warnings would repeat them (but
        // a bag out of time order is said).
        let level =
            if matches!(cli.command, Some(Command::Audit(_))) { "error,ccd_guard::bag::mcap_storage=warn" } else { "warn,rustdds=error,ros2_client=error" };
        env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(level)).init();
    }
    match cli.command {
        Some(Command::Check(args)) => check_command::run(args),
        Some(Command::Audit(args)) => audit_command::run(args),
        Some(Command::Demo) => match ccd_guard::demo::run() {
            Ok(table) => {
                emit(&table);
                0
            }
            Err(e) => {
                eprintln!("ccd_guard demo: {e}");
                2
            }
        },
        Some(Command::Node { ros_args }) => node(&ros_args),
        None => node(&[]),
    }
}

/// Writes to standard output; a reader that has gone (`| head`) is not an error.
fn emit(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

fn node(ros_args: &[String]) -> i32 {
    ccd_guard::node::run(ros_args)
}
