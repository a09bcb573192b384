//! The audit: every plan in the bags checked against the world replayed up to it, the
//! checks run on every core while reading goes on, the plans handed back in bag order.
//!
//! Reading and the replay stay on the caller's thread (the world changes in time order);
//! each plan leaves it as a [`PreparedCheck`](crate::moveit::prepared_check::PreparedCheck)
//! holding the world as it stood, and `jobs` threads run them
//! ([`check_workers`](super::check_workers)). At most a few checks per thread wait at once, so memory
//! follows the largest message and the worlds in flight, not the bag.
//!
//! Soundness: every plan read is answered, in order (a check that fails inside is an
//! `invalid` verdict); a bag read short is reported, and the world after it is marked
//! incomplete, so the bags that follow certify nothing over what the damage hid.
use super::BagError;
use super::check_workers::{CheckWorkers, Done, Job};
use super::replay::{RecordedPlan, Replay, ReplayError};
use super::storage::read_bag;
use crate::check::{Report, Verdict};
use crate::moveit::guard::GuardSettings;
use crate::moveit::msg;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Checks in flight (queued or running) per check thread.
const IN_FLIGHT_PER_JOB: usize = 4;

/// What the audit is run with.
#[derive(Clone, Debug)]
pub struct AuditSettings {
    /// The robot, the SRDF, the scene file and the check's options.
    pub guard: GuardSettings,
    /// The world before the bags, given as a MoveIt message (a PlanningScene echo or
    /// `.scene` text read by the command line), on top of the scene file.
    pub scene: Option<msg::PlanningScene>,
    /// Threads that check plans; 0: one per core.
    pub jobs: usize,
}

/// One plan's verdict.
#[derive(Debug)]
pub struct AuditedPlan {
    /// The bag, as given.
    pub bag: Arc<Path>,
    pub topic: Arc<str>,
    /// The bag's receive time, ns.
    pub stamp: u64,
    /// The plan's place among all the plans audited (from 0).
    pub index: usize,
    pub report: Report,
    /// The verdict as the node publishes it, stamped at the plan's receive time.
    pub verdict: msg::CollisionVerdict,
    pub markers: Option<msg::MarkerArray>,
}

/// The counts over all plans, and the bags that could not be read to their end.
#[derive(Debug, Default)]
pub struct AuditSummary {
    pub plans: usize,
    pub collision_free: usize,
    pub collision: usize,
    pub uncertain: usize,
    pub invalid: usize,
    /// Collision-free plans closer than the required clearance.
    pub too_close: usize,
    pub elapsed_ms: f64,
    pub damaged: Vec<BagError>,
}

impl AuditSummary {
    fn count(&mut self, report: &Report) {
        self.plans += 1;
        match report.verdict {
            Verdict::CollisionFree if report.clearance_ok == Some(false) => {
                self.collision_free += 1;
                self.too_close += 1;
            }
            Verdict::CollisionFree => self.collision_free += 1,
            Verdict::Collision => self.collision += 1,
            Verdict::Uncertain => self.uncertain += 1,
            Verdict::Invalid => self.invalid += 1,
        }
    }

    /// The exit status over all plans: 2 for a bag read short (whatever its plans
    /// said: the bag was not audited whole); else 1 for any collision; 2 for any plan that could not be checked; 3 for any uncertain; 4 for
    /// any closer than the required clearance; else 0.
    pub fn exit_code(&self) -> i32 {
        if !self.damaged.is_empty() {
            2
        } else if self.collision > 0 {
            1
        } else if self.invalid > 0 {
            2
        } else if self.uncertain > 0 {
            3
        } else if self.too_close > 0 {
            4
        } else {
            0
        }
    }
}

/// Why the audit could not start.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error(transparent)]
    World(#[from] ReplayError),
    #[error("check threads: {0}")]
    Threads(#[source] std::io::Error),
}

/// Audits `bags`, read in the order given as one recording (the world carries from one to
/// the next), handing each plan's verdict to `on_plan` in bag order.
pub fn audit_bags(bags: &[PathBuf], settings: &AuditSettings, on_plan: impl FnMut(AuditedPlan)) -> Result<AuditSummary, AuditError> {
    Ok(Auditor::new(settings)?.audit(bags, on_plan))
}

/// The robot loaded and the threads started, for one or more audits.
pub struct Auditor {
    replay: Replay,
    workers: CheckWorkers,
}

impl Auditor {
    pub fn new(settings: &AuditSettings) -> Result<Self, AuditError> {
        let replay = Replay::new(settings.guard.clone(), settings.scene.as_ref())?;
        let workers = CheckWorkers::start(settings.jobs).map_err(AuditError::Threads)?;
        Ok(Self { replay, workers })
    }

    /// Audits `bags` (see [`audit_bags`]); the world goes on from where the last audit
    /// left it.
    pub fn audit(&mut self, bags: &[PathBuf], on_plan: impl FnMut(AuditedPlan)) -> AuditSummary {
        let started = Instant::now();
        let replay = &mut self.replay;
        let mut ordered = InOrder::new(&self.workers, on_plan);
        let mut summary = AuditSummary::default();
        for bag in bags {
            let bag_name: Arc<Path> = Arc::from(bag.as_path());
            let read = read_bag(bag, &mut |message| {
                if let Some(plan) = replay.take(message) {
                    ordered.submit(bag_name.clone(), plan, &mut summary);
                }
            });
            if let Err(damage) = read {
                replay.mark_lost(&bag.display().to_string(), &format!("the rest of the bag could not be read ({damage})"));
                summary.damaged.push(damage);
            }
        }
        ordered.finish(&mut summary);
        summary.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
        summary
    }
}

/// Checks sent to the workers, and their results handed on in the order sent.
struct InOrder<'w, F> {
    workers: &'w CheckWorkers,
    limit: usize,
    sent: usize,
    handed: usize,
    waiting: BTreeMap<usize, Done>,
    on_plan: F,
}

impl<'w, F: FnMut(AuditedPlan)> InOrder<'w, F> {
    fn new(workers: &'w CheckWorkers, on_plan: F) -> Self {
        let limit = workers.count() * IN_FLIGHT_PER_JOB;
        Self { workers, limit, sent: 0, handed: 0, waiting: BTreeMap::new(), on_plan }
    }

    fn submit(&mut self, bag: Arc<Path>, plan: RecordedPlan, summary: &mut AuditSummary) {
        while self.sent - self.handed >= self.limit {
            self.receive_one(summary);
        }
        self.workers.send(Job { index: self.sent, bag, plan });
        self.sent += 1;
    }

    fn finish(&mut self, summary: &mut AuditSummary) {
        while self.handed < self.sent {
            self.receive_one(summary);
        }
    }

    /// Waits for one result, then hands on every result now next in order.
    fn receive_one(&mut self, summary: &mut AuditSummary) {
        let done = self.workers.receive();
        self.waiting.insert(done.index, done);
        while let Some(done) = self.waiting.remove(&self.handed) {
            self.handed += 1;
            summary.count(&done.checked.report);
            let mut verdict = done.checked.result.verdict;
            verdict.header.stamp = time_of(done.stamp);
            (self.on_plan)(AuditedPlan {
                bag: done.bag,
                topic: done.topic,
                stamp: done.stamp,
                index: done.index,
                report: done.checked.report,
                verdict,
                markers: done.checked.result.markers,
            });
        }
    }
}

/// A receive time in ns as a ROS time.
pub fn time_of(ns: u64) -> msg::Time {
    msg::Time { sec: (ns / 1_000_000_000) as i32, nanosec: (ns % 1_000_000_000) as u32 }
}
