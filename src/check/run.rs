//! One check of a trajectory, whatever asks for it (the CLI's `check`, the ROS node):
//! the chosen method, then the measures every report carries.
use super::certified_method::check_certified;
use super::measures::{add_clearance, add_missing_normals, add_penetration_depths};
use super::pipeline_method::check_pipeline;
use super::report::{Report, Verdict};
use super::sampled::{SampledOptions, check_sampled};
use super::{CheckInput, Method};
use crate::ccd::{PipelineOptions, Statistics};
use crate::certifier::certify::{CertifierStats, CertifyOptions};
use crate::motion::{check_position_limits, velocity_warnings};

/// How to check: the contract's options.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CheckOptions {
    pub method: Method,
    /// The certifier's epsilon, metres.
    pub tolerance: f64,
    /// The sampled method's largest joint change between checked states.
    pub resolution: f64,
    /// Stop at the first answer: the first contact, or the certificate. The report then
    /// measures no clearance unless `min_clearance` asks for one.
    pub first_only: bool,
    /// A clearance (metres) the motion must keep: the report is held to it
    /// ([`Report::require_clearance`]: `clearance_ok`, exit status 4).
    pub min_clearance: Option<f64>,
}

impl CheckOptions {
    /// Whether the report carries the motion's clearance: a whole report always does;
    /// `--first-only` answers the verdict alone (the sampling check it replaces measures
    /// no clearance either), unless a required clearance above zero needs it.
    pub fn measures_clearance(&self) -> bool {
        !self.first_only || self.min_clearance.is_some_and(|m| m > 0.0)
    }
}

impl Default for CheckOptions {
    fn default() -> Self {
        Self { method: Method::Certified, tolerance: 0.001, resolution: 0.01, first_only: false, min_clearance: None }
    }
}

/// The report, with what the pipeline and the certifier counted (for `--stats`).
pub struct CheckOutcome {
    pub report: Report,
    pub pipeline_stats: Option<Statistics>,
    pub certifier_stats: Option<CertifierStats>,
}

/// Runs the method, then adds the minimum clearance (unless the method measured it on
/// the way, or the options do not ask for it) and the penetration depths, and holds the
/// report to the required clearance.
pub fn check_trajectory(input: &CheckInput, options: &CheckOptions) -> CheckOutcome {
    // A motion the robot cannot make is not checked: `invalid`, naming where it leaves
    // its limits.
    if let Err(e) = check_position_limits(&input.world.robot, &input.motion) {
        let report = Report::invalid(options.method.into(), options.tolerance, e.to_string());
        return CheckOutcome { report, pipeline_stats: None, certifier_stats: None };
    }
    let pipeline_options = PipelineOptions { first_only: options.first_only, ..PipelineOptions::default() };
    let (mut report, pipeline_stats, certifier_stats, measured) = match options.method {
        Method::Sampled => {
            let sampled = SampledOptions { resolution: options.resolution, first_only: options.first_only, tolerance: options.tolerance };
            (check_sampled(input, &sampled), None, None, None)
        }
        Method::Pipeline => {
            let (report, stats) = check_pipeline(input, &pipeline_options, options.tolerance);
            (report, Some(stats), None, None)
        }
        Method::Certified => {
            let certify = CertifyOptions { tolerance: options.tolerance, ..CertifyOptions::default() };
            let outcome = check_certified(input, &pipeline_options, &certify, options.measures_clearance());
            (outcome.report, Some(outcome.pipeline), Some(outcome.certifier), outcome.clearance)
        }
    };
    if options.measures_clearance() {
        add_clearance(&mut report, input, measured);
    } else if report.verdict == Verdict::Collision {
        report.min_clearance = Some(0.0);
    }
    add_penetration_depths(&mut report, input, options.first_only);
    add_missing_normals(&mut report, input);
    report.first_only = options.first_only;
    report.warnings = velocity_warnings(&input.world.robot, &input.motion);
    if let Some(min) = options.min_clearance {
        report.require_clearance(min);
    }
    CheckOutcome { report, pipeline_stats, certifier_stats }
}
