//! A check taken out of the guard: the world and motion of one trajectory job as the scene
//! stood when it was prepared ([`Guard::prepare_check`](super::guard::Guard::prepare_check)),
//! run later and anywhere. The node runs it at once; the audit of recorded bags runs many
//! in parallel while the replayed scene moves on.
//!
//! Soundness: what the scene lacked when the check was prepared travels with it, so a
//! verdict of collision-free over an incomplete scene still becomes `uncertain`.
use super::convert;
use super::guard::CheckResult;
use super::internal_error::contained;
use super::markers::contact_markers;
use super::msg;
use crate::check::{CheckInput, CheckOptions, Report, Verdict, check_trajectory};

/// Who a verdict is about: the job's source and stamp, and the planning frame its
/// contacts are in.
#[derive(Clone, Debug)]
pub struct VerdictLabel {
    pub source: String,
    pub stamp: msg::Time,
    pub frame: String,
}

impl VerdictLabel {
    /// The verdict message of `report`, stamped now on the ROS clock.
    pub fn verdict(&self, report: &Report) -> msg::CollisionVerdict {
        let header = msg::Header { stamp: msg::Time::now(), frame_id: self.frame.clone() };
        convert::verdict(report, header, &self.source, self.stamp)
    }
}

/// A check ready to run, or the answer already known (the job could not be checked).
pub struct PreparedCheck {
    label: VerdictLabel,
    work: Work,
}

enum Work {
    Ready {
        input: CheckInput,
        options: CheckOptions,
        /// What the scene lacked, said as the verdict says it.
        scene_lacks: Option<String>,
        markers: bool,
    },
    Invalid(Box<Report>),
}

/// A job's report and what the node sends of it.
#[derive(Debug)]
pub struct CheckedJob {
    pub report: Report,
    pub result: CheckResult,
}

impl PreparedCheck {
    pub(super) fn ready(input: CheckInput, options: CheckOptions, scene_lacks: Option<String>, markers: bool, label: VerdictLabel) -> Self {
        Self { label, work: Work::Ready { input, options, scene_lacks, markers } }
    }

    pub fn invalid(report: Report, label: VerdictLabel) -> Self {
        Self { label, work: Work::Invalid(Box::new(report)) }
    }

    /// [`run`](Self::run), with a failure inside (a panic: a bug of ours, met by some
    /// input) answered as an `invalid` verdict that says so.
    pub fn run_contained(self) -> CheckedJob {
        let label = self.label.clone();
        let (method, tolerance) = match &self.work {
            Work::Ready { options, .. } => (options.method.into(), options.tolerance),
            Work::Invalid(report) => (report.method, report.tolerance),
        };
        contained(&label.source, || self.run()).unwrap_or_else(|internal| {
            let report = Report::invalid(method, tolerance, internal.to_string());
            CheckedJob { result: CheckResult { verdict: label.verdict(&report), markers: None }, report }
        })
    }

    /// Runs the check: the report, the verdict message and (markers on) the markers.
    pub fn run(self) -> CheckedJob {
        match self.work {
            Work::Ready { input, options, scene_lacks, markers } => {
                let mut report = check_trajectory(&input, &options).report;
                if let Some(lacks) = scene_lacks {
                    distrust(&mut report, lacks);
                }
                let markers = markers.then(|| contact_markers(&input, &report, &self.label.frame));
                let verdict = self.label.verdict(&report);
                CheckedJob { report, result: CheckResult { verdict, markers } }
            }
            Work::Invalid(report) => {
                let verdict = self.label.verdict(&report);
                CheckedJob { report: *report, result: CheckResult { verdict, markers: None } }
            }
        }
    }
}

/// A scene that lacks what move_group has cannot prove a trajectory free: such a verdict
/// becomes `uncertain`, and says what is missing.
pub(super) fn distrust(report: &mut Report, lacks: String) {
    if report.verdict != Verdict::CollisionFree {
        return;
    }
    report.verdict = Verdict::Uncertain;
    report.certified = false;
    report.error = Some(lacks);
}
