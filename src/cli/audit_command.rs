//! `ccd_guard audit`: every plan recorded in rosbag2 bags, checked against the world as
//! it stood (`ccd_guard::bag`), printed as JSON lines or a table, with a summary.
use super::check_command::{Format, parse_package_dir};
use super::emit;
use super::moveit_input::scene_message;
use ccd_guard::bag::BagError;
use ccd_guard::bag::audit::{AuditSettings, AuditSummary, AuditedPlan, audit_bags};
use ccd_guard::bag::storage::storage_files;
use ccd_guard::bag::verdicts_mcap::VerdictsMcap;
use ccd_guard::check::report::Report;
use ccd_guard::check::{CheckOptions, Method};
use ccd_guard::moveit::guard::GuardSettings;
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct AuditArgs {
    /// rosbag2 bags: folders (metadata.yaml with .mcap or .db3 files), or single .mcap or
    /// .db3 files; read in the order given, as one recording.
    #[arg(required = true)]
    bags: Vec<PathBuf>,
    /// The robot (URDF).
    #[arg(long)]
    urdf: PathBuf,
    /// MoveIt's SRDF: its disable_collisions pairs are not checked.
    #[arg(long)]
    srdf: Option<PathBuf>,
    /// The scene before the bags' first message: the scene YAML, a PlanningScene echo or
    /// MoveIt's .scene text, as for check.
    #[arg(long)]
    scene: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Stop each check at its first answer: the first contact, or the certificate.
    #[arg(long)]
    first_only: bool,
    /// Required clearance in metres: a collision-free plan not proven at least this far
    /// from everything counts as too close (exit status 4).
    #[arg(long, allow_negative_numbers = true)]
    min_clearance: Option<f64>,
    /// Also write the verdicts and markers, at the plans' bag times, into this MCAP file.
    #[arg(long)]
    mcap_out: Option<PathBuf>,
    #[arg(long, value_enum, default_value_t = Method::Certified)]
    method: Method,
    /// The certifier's epsilon, in metres.
    #[arg(long, default_value_t = 0.001)]
    tolerance: f64,
    /// Threads that check plans (default: one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
    /// Root directory of a package for package:// URIs, as NAME=DIR (repeatable).
    #[arg(long = "package-dir", value_parser = parse_package_dir)]
    package_dirs: Vec<(String, PathBuf)>,
}

fn fail(message: impl std::fmt::Display) -> i32 {
    eprintln!("ccd_guard audit: {}", one_line(&message.to_string()));
    2
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

pub fn run(args: AuditArgs) -> i32 {
    if !(args.tolerance.is_finite() && args.tolerance > 0.0) {
        return fail(format!("--tolerance {} must be a positive number of metres", args.tolerance));
    }
    if let Some(min) = args.min_clearance
        && !(min.is_finite() && min >= 0.0)
    {
        return fail(format!("--min-clearance {min} must be a non-negative number of metres"));
    }
    // Every bag must be one before any is audited, and none of its files the output.
    let mut inputs = Vec::new();
    for bag in &args.bags {
        match storage_files(bag) {
            Ok(files) => inputs.extend(files.into_iter().map(|f| f.path)),
            Err(e) => return fail(e),
        }
    }
    if let Some(out) = &args.mcap_out
        && inputs.iter().any(|input| same_file(input, out))
    {
        return fail(format!("--mcap-out {} is a file of the bags audited", out.display()));
    }
    let mut out = match args.mcap_out.as_deref().map(VerdictsMcap::create).transpose() {
        Ok(out) => out,
        Err(e) => return fail(e),
    };
    // The scene in any format `check` reads: a MoveIt message goes through the node's code.
    let scene = match args.scene.as_deref().map(scene_message).transpose() {
        Ok(scene) => scene.flatten(),
        Err(e) => return fail(e),
    };
    let mut guard = guard_settings(&args);
    if scene.is_some() {
        guard.scene_file = None;
    }
    let settings = AuditSettings { guard, scene, jobs: args.jobs };
    let progress = progress_bar();
    let mut write_error: Option<BagError> = None;
    if args.format == Format::Text {
        emit(&text_header());
    }
    let audited = audit_bags(&args.bags, &settings, |plan| {
        progress.inc(1);
        if let (Some(writer), None) = (&mut out, &write_error) {
            write_error = writer.write(&plan).err();
        }
        match args.format {
            Format::Json => emit(&format!("{}\n", plan_line(&plan))),
            Format::Text => emit(&text_row(&plan)),
        }
    });
    progress.finish_and_clear();
    let summary = match audited {
        Ok(summary) => summary,
        Err(e) => return fail(e),
    };
    let write_error = write_error.or_else(|| out.map(VerdictsMcap::finish).and_then(Result::err));
    match args.format {
        Format::Json => emit(&format!("{}\n", summary_line(&summary))),
        Format::Text => emit(&text_summary(&summary)),
    }
    for damage in &summary.damaged {
        eprintln!("ccd_guard audit: {}", one_line(&damage.to_string()));
    }
    match write_error {
        Some(e) => fail(e),
        None => summary.exit_code(),
    }
}

/// Whether two paths name the same file (one of them may not exist yet).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn guard_settings(args: &AuditArgs) -> GuardSettings {
    let uri = |path: &PathBuf| path.to_string_lossy().into_owned();
    GuardSettings {
        urdf_file: Some(uri(&args.urdf)),
        srdf_file: args.srdf.as_ref().map(uri),
        scene_file: args.scene.as_ref().map(uri),
        package_dirs: args.package_dirs.clone(),
        check: CheckOptions {
            method: args.method,
            tolerance: args.tolerance,
            first_only: args.first_only,
            min_clearance: args.min_clearance,
            ..CheckOptions::default()
        },
        check_current_state: false,
        // Markers cost a little per colliding plan: made only for the MCAP file.
        publish_markers: args.mcap_out.is_some(),
        ..GuardSettings::default()
    }
}

/// A spinner on stderr when it is a terminal: plans audited, and their rate.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} {pos} plans audited ({per_sec}, {elapsed})") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    bar
}

/// One plan as a JSON line (the report as `check --format json` has it).
fn plan_line(plan: &AuditedPlan) -> String {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        topic: &'a str,
        stamp: u64,
        index: usize,
        report: &'a Report,
        bag: String,
    }
    let line = Line { topic: &plan.topic, stamp: plan.stamp, index: plan.index, report: &plan.report, bag: plan.bag.display().to_string() };
    serde_json::to_string(&line).expect("reports serialize")
}

fn summary_line(summary: &AuditSummary) -> String {
    let counts = serde_json::json!({
        "plans": summary.plans,
        "collision_free": summary.collision_free,
        "collision": summary.collision,
        "uncertain": summary.uncertain,
        "invalid": summary.invalid,
        "elapsed_ms": summary.elapsed_ms,
    });
    serde_json::json!({ "summary": counts }).to_string()
}

/// `--format text`: a header, one row per plan as it is audited, then the summary.
fn text_header() -> String {
    format!("{:>6}  {:>20}  {:<28}  {:<14}  {:<9}  {:>8}  {}\n", "plan", "bag time [s]", "topic", "verdict", "certified", "toc [s]", "first contact")
}

fn text_row(plan: &AuditedPlan) -> String {
    let report = &plan.report;
    let pair = report.contacts.first().map_or("-".to_string(), |c| format!("{} / {}", c.link, c.other));
    let at = report.time_of_contact.map_or("-".to_string(), |t| format!("{t:.3}"));
    let certified = if report.certified { "yes" } else { "no" };
    let stamp = format!("{}.{:09}", plan.stamp / 1_000_000_000, plan.stamp % 1_000_000_000);
    let mut row = format!("{:>6}  {stamp:>20}  {:<28}  {:<14}  {certified:<9}  {at:>8}  {pair}", plan.index, plan.topic, report.verdict.name());
    if let Some(error) = &report.error {
        row.push_str(&format!("  ({})", one_line(error)));
    }
    row + "\n"
}

fn text_summary(summary: &AuditSummary) -> String {
    format!(
        "\n{} plans: {} collision_free, {} collision, {} uncertain, {} invalid ({:.0} ms)\n",
        summary.plans, summary.collision_free, summary.collision, summary.uncertain, summary.invalid, summary.elapsed_ms
    )
}
