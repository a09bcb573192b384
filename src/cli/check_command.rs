//! `ccd_guard check`.
use super::emit;
use super::moveit_input::load_input;
use ccd_guard::check::clearance_plot::plot_clearance;
use ccd_guard::check::report::Report;
use ccd_guard::check::{CheckOptions, CheckOutcome, InputFiles, Method, check_trajectory};
use ccd_guard::clearance::pair_profiles;
use ccd_guard::robot::resources::ResourceResolver;
use clap::{Args, ValueEnum};
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Json,
    Text,
}

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The robot (URDF).
    #[arg(long)]
    urdf: PathBuf,
    /// MoveIt's SRDF: its disable_collisions pairs are not checked.
    #[arg(long)]
    srdf: Option<PathBuf>,
    /// The scene (YAML): collision objects.
    #[arg(long)]
    scene: Option<PathBuf>,
    /// The trajectory (YAML or JSON), as trajectory_msgs/JointTrajectory.
    #[arg(long)]
    trajectory: PathBuf,
    /// Joint values for the joints the trajectory leaves out (sensor_msgs/JointState YAML).
    #[arg(long)]
    start_state: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Method::Certified)]
    method: Method,
    /// The certifier's epsilon, in metres.
    #[arg(long, default_value_t = 0.001)]
    tolerance: f64,
    /// Sampled method: largest joint change between two checked states (rad, or m).
    #[arg(long, default_value_t = 0.01)]
    resolution: f64,
    /// Stop at the first answer: the first contact, or the certificate (no clearance is
    /// measured unless --min-clearance asks for one).
    #[arg(long)]
    first_only: bool,
    /// Required clearance in metres: a collision-free motion that is not proven at least
    /// this far from everything exits with status 4 (`clearance_ok: false`).
    #[arg(long, allow_negative_numbers = true)]
    min_clearance: Option<f64>,
    /// Add how many pairs each pipeline stage kept and dropped, and its time.
    #[arg(long)]
    stats: bool,
    #[arg(long, value_enum, default_value_t = Format::Json)]
    format: Format,
    /// Also draw the clearance over time (contact events shaded, waypoints marked) into
    /// this SVG file.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Root directory of a package for package:// URIs, as NAME=DIR (repeatable).
    #[arg(long = "package-dir", value_parser = parse_package_dir)]
    package_dirs: Vec<(String, PathBuf)>,
}

/// Instants of the clearance plot (plus the waypoints of a short trajectory).
const PLOT_SAMPLES: usize = 600;
/// Body pairs the plot draws: the ones that come closest.
const PLOT_PAIRS: usize = 5;

/// A `--package-dir` value that is not `NAME=DIR`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not NAME=DIR")]
pub struct PackageDirError(String);

pub fn parse_package_dir(s: &str) -> Result<(String, PathBuf), PackageDirError> {
    match s.split_once('=') {
        Some((name, dir)) if !name.is_empty() && !dir.is_empty() => Ok((name.to_string(), PathBuf::from(dir))),
        _ => Err(PackageDirError(s.to_string())),
    }
}

fn fail(args: &CheckArgs, message: String) -> i32 {
    eprintln!("ccd_guard check: {message}");
    if args.format == Format::Json {
        emit(&format!("{}\n", Report::invalid(args.method.into(), args.tolerance, message).to_json()));
    }
    2
}

pub fn run(args: CheckArgs) -> i32 {
    if !(args.tolerance.is_finite() && args.tolerance > 0.0) {
        return fail(&args, format!("--tolerance {} must be a positive number of metres", args.tolerance));
    }
    if !(args.resolution.is_finite() && args.resolution > 0.0) {
        return fail(&args, format!("--resolution {} must be a positive number", args.resolution));
    }
    if let Some(min) = args.min_clearance
        && !(min.is_finite() && min >= 0.0)
    {
        return fail(&args, format!("--min-clearance {min} must be a non-negative number of metres"));
    }
    let files = InputFiles {
        urdf: args.urdf.clone(),
        srdf: args.srdf.clone(),
        scene: args.scene.clone(),
        trajectory: args.trajectory.clone(),
        start_state: args.start_state.clone(),
    };
    let resolver = ResourceResolver::from_env(args.package_dirs.clone());
    let input = match load_input(&files, &resolver) {
        Ok(input) => input,
        Err(e) => return fail(&args, e.to_string()),
    };
    let options = CheckOptions {
        method: args.method,
        tolerance: args.tolerance,
        resolution: args.resolution,
        first_only: args.first_only,
        min_clearance: args.min_clearance,
    };
    let CheckOutcome { mut report, pipeline_stats, certifier_stats } = check_trajectory(&input, &options);
    if let Some(path) = &args.plot {
        let profiles = pair_profiles(&input.world, &input.motion, PLOT_SAMPLES, PLOT_PAIRS);
        if let Err(e) = plot_clearance(path, &input.world, &profiles, &input.motion.waypoint_times, &report) {
            return fail(&args, e.to_string());
        }
    }
    if args.stats {
        report.stats = pipeline_stats;
        report.certifier_stats = certifier_stats;
    }
    if let Some(error) = &report.error {
        eprintln!("ccd_guard check: {}: {error}", args.trajectory.display());
    }
    match args.format {
        Format::Json => emit(&format!("{}\n", report.to_json())),
        Format::Text => {
            emit(&report.to_text());
            if let Some(stats) = &report.stats {
                emit(&stats.to_text());
            }
            if let Some(c) = &report.certifier_stats {
                emit(&format!(
                    "certifier: {} time cells, {} node tests, {} orbit tests, deepest level {}\n",
                    c.time_cells, c.node_tests, c.orbit_tests, c.deepest_level
                ));
            }
        }
    }
    report.exit_code()
}
