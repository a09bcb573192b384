//! The searches of the minimum on every thread rayon has: each thread runs a search,
//! and one that runs out of work is handed half of the cells a search still running
//! has ([`Search::split_off`]), over the same pairs and sharing their level. The
//! clearance to the world and the self-clearance keep every thread busy however
//! unequal they are (timed alone, the self-clearance costs as much as the clearance to
//! the world or more on some motions, and a tenth of it on others), and so does a
//! search alone. The findings merge per set of pairs ([`Outcome::merge`]). Only the
//! cells below the floor are handed over (the rest are settled already): handing the
//! whole queue, mostly cells set aside at the end, costs more than it gains.
use super::search::{Outcome, Search};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};

/// A search waiting for a thread: the set of pairs it is over (its index in the list
/// the pool was given), and whether its waypoints and first cells are done.
struct Task<'s, 'w> {
    set: usize,
    search: Search<'s, 'w>,
    started: bool,
}

struct State<'s, 'w> {
    ready: Vec<Task<'s, 'w>>,
    /// Searches a thread runs now.
    running: usize,
    /// Threads waiting for a search.
    waiting: usize,
    /// Per set of pairs, what its searches found so far.
    found: Vec<Option<Outcome>>,
}

struct Pool<'s, 'w> {
    state: Mutex<State<'s, 'w>>,
    wake: Condvar,
    /// Threads waiting with no search ready for them: a search running hands cells over
    /// while there are any (read at every step, so kept outside the lock).
    wanted: AtomicUsize,
}

impl<'s, 'w> Pool<'s, 'w> {
    fn lock(&self) -> MutexGuard<'_, State<'s, 'w>> {
        // A thread that panicked while holding the lock left the state whole (each
        // change is a single push, pop or count).
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn recount(&self, state: &State) {
        self.wanted.store(state.waiting.saturating_sub(state.ready.len()), Ordering::Relaxed);
    }

    /// The next search to run; `None` once every search has ended.
    fn take(&self) -> Option<Task<'s, 'w>> {
        let mut state = self.lock();
        loop {
            if let Some(task) = state.ready.pop() {
                state.running += 1;
                self.recount(&state);
                return Some(task);
            }
            if state.running == 0 {
                return None;
            }
            state.waiting += 1;
            self.recount(&state);
            state = self.wake.wait(state).unwrap_or_else(|poisoned| poisoned.into_inner());
            state.waiting -= 1;
            self.recount(&state);
        }
    }

    fn hand_over(&self, task: Task<'s, 'w>) {
        let mut state = self.lock();
        state.ready.push(task);
        self.recount(&state);
        self.wake.notify_one();
    }

    fn done(&self, set: usize, outcome: Outcome) {
        let mut state = self.lock();
        let merged = match state.found[set].take() {
            Some(before) => before.merge(outcome),
            None => outcome,
        };
        state.found[set] = Some(merged);
        state.running -= 1;
        if state.running == 0 && state.ready.is_empty() {
            self.wake.notify_all();
        }
    }

    /// One thread's share: searches until none is left.
    fn work(&self) {
        while let Some(mut task) = self.take() {
            let running = Running { pool: self };
            if !task.started {
                task.search.start();
            }
            while task.search.step() {
                if self.wanted.load(Ordering::Relaxed) > 0
                    && let Some(half) = task.search.split_off()
                {
                    self.hand_over(Task { set: task.set, search: half, started: true });
                }
            }
            let outcome = task.search.finish();
            std::mem::forget(running);
            self.done(task.set, outcome);
        }
    }
}

/// A search a thread runs: should it panic, the search no longer counts as running, so
/// that the threads waiting for work end (and rayon's scope hands the panic on).
struct Running<'p, 's, 'w> {
    pool: &'p Pool<'s, 'w>,
}

impl Drop for Running<'_, '_, '_> {
    fn drop(&mut self) {
        let mut state = self.pool.lock();
        state.running -= 1;
        self.pool.wake.notify_all();
    }
}

/// Runs `searches` (each over its own set of pairs, sharing its level with nothing
/// else: [`Search::sharing_level`]) on `threads` threads of rayon's pool; what each
/// found, merged over the searches its cells went through.
pub(super) fn run_searches(searches: Vec<Search<'_, '_>>, threads: usize) -> Vec<Outcome> {
    let sets = searches.len();
    let ready: Vec<Task> = searches.into_iter().enumerate().map(|(set, search)| Task { set, search, started: false }).rev().collect();
    let pool = Pool {
        state: Mutex::new(State { ready, running: 0, waiting: 0, found: (0..sets).map(|_| None).collect() }),
        wake: Condvar::new(),
        wanted: AtomicUsize::new(0),
    };
    rayon::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(|_| pool.work());
        }
        pool.work();
    });
    let state = pool.state.into_inner().unwrap_or_else(|poisoned| poisoned.into_inner());
    state.found.into_iter().map(|outcome| outcome.expect("every search ran to its end")).collect()
}
