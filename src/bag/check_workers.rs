//! The threads that run the audit's checks: one plan per thread at a time, each check on
//! a rayon pool of one thread of its own.
//!
//! Why not one rayon pool for all: a check parallelises inside itself (the pipeline's
//! segments, the clearance searches, which wait on each other), which pays for one plan
//! at a time, as the node checks them. Many plans at once are already parallel work; run
//! together on one pool, their inner searches block each other's threads and the checks
//! go one at a time. Each check here sees one thread (`rayon::current_num_threads() ==
//! 1`) and runs straight through, and the plans fill the cores.
use super::replay::RecordedPlan;
use crate::moveit::prepared_check::CheckedJob;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A plan to check, numbered in bag order.
pub struct Job {
    pub index: usize,
    pub bag: Arc<Path>,
    pub plan: RecordedPlan,
}

/// A plan checked.
pub struct Done {
    pub index: usize,
    pub bag: Arc<Path>,
    pub topic: Arc<str>,
    /// The bag's receive time, ns.
    pub stamp: u64,
    pub checked: CheckedJob,
}

/// Threads that check plans.
pub struct CheckWorkers {
    jobs: Option<mpsc::Sender<Job>>,
    results: mpsc::Receiver<Done>,
    threads: Vec<JoinHandle<()>>,
}

impl CheckWorkers {
    /// `count` threads; 0: one per core.
    pub fn start(count: usize) -> std::io::Result<Self> {
        let count = match count {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        };
        let (jobs, queue) = mpsc::channel::<Job>();
        let (done, results) = mpsc::channel();
        let queue = Arc::new(Mutex::new(queue));
        let mut threads = Vec::with_capacity(count);
        for k in 0..count {
            let (queue, done) = (queue.clone(), done.clone());
            let pool =
                rayon::ThreadPoolBuilder::new().num_threads(1).thread_name(move |_| format!("audit-check-{k}")).build().map_err(std::io::Error::other)?;
            threads.push(std::thread::Builder::new().name(format!("audit-{k}")).spawn(move || serve(&queue, &done, &pool))?);
        }
        Ok(Self { jobs: Some(jobs), results, threads })
    }

    pub fn count(&self) -> usize {
        self.threads.len()
    }

    pub fn send(&self, job: Job) {
        if let Some(jobs) = &self.jobs {
            let _ = jobs.send(job);
        }
    }

    /// The next plan checked, in the order they finish.
    pub fn receive(&self) -> Done {
        self.results.recv().expect("the check threads run while the workers stand")
    }
}

impl Drop for CheckWorkers {
    fn drop(&mut self) {
        self.jobs = None;
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// One thread's life: take a plan, check it (a failure inside is an `invalid` verdict,
/// never a lost plan), send it back; end when the queue closes.
fn serve(queue: &Mutex<mpsc::Receiver<Job>>, done: &mpsc::Sender<Done>, pool: &rayon::ThreadPool) {
    loop {
        let job = match queue.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).recv() {
            Ok(job) => job,
            Err(_) => return,
        };
        let Job { index, bag, plan: RecordedPlan { topic, log_time, check } } = job;
        let checked = pool.install(|| check.run_contained());
        if done.send(Done { index, bag, topic, stamp: log_time, checked }).is_err() {
            return;
        }
    }
}
