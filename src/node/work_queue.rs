//! The node's inbox: what the transport hands the worker, in arrival order, without ever
//! blocking them. Scene updates are always kept (joint states coalesce: only the newest
//! waits); trajectories from topics wait in a bounded queue where, when it is full, the
//! oldest gives way to the newest and is counted as dropped. Service calls are never
//! dropped for topic work; past the bound they are refused (the caller gets an answer).
//! A waiting call can be withdrawn (a gated goal that a newer goal superseded).
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// One item of work.
#[derive(Debug)]
pub enum Work<U, T, S> {
    /// A scene update (robot description, collision object, planning scene).
    Update(U),
    /// The newest joint state.
    JointState(U),
    /// A trajectory from a topic.
    Trajectory(T),
    /// A service call.
    Call(S),
}

struct Inbox<U, T, S> {
    items: VecDeque<Work<U, T, S>>,
    dropped: u64,
    closed: bool,
}

/// A bounded, never-blocking queue of [`Work`].
pub struct WorkQueue<U, T, S> {
    inbox: Mutex<Inbox<U, T, S>>,
    ready: Condvar,
    /// Trajectories and calls waiting, at most (`queue_size`, which may change).
    capacity: AtomicUsize,
}

/// What a push did.
#[derive(Debug, PartialEq, Eq)]
pub enum Pushed {
    Queued,
    /// Queued, and the oldest waiting trajectory was dropped for it.
    DroppedOldest,
    /// Not queued: the queue is full of service calls.
    Refused,
}

impl<U, T, S> WorkQueue<U, T, S> {
    pub fn new(capacity: usize) -> Self {
        Self {
            inbox: Mutex::new(Inbox { items: VecDeque::new(), dropped: 0, closed: false }),
            ready: Condvar::new(),
            capacity: AtomicUsize::new(capacity.max(1)),
        }
    }

    /// A new bound, for the pushes from now on (what waits beyond it stays).
    pub fn set_capacity(&self, capacity: usize) {
        self.capacity.store(capacity.max(1), Ordering::Relaxed);
    }

    fn is_work(w: &Work<U, T, S>) -> bool {
        matches!(w, Work::Trajectory(_) | Work::Call(_))
    }

    /// Adds `work`; returns it back when refused.
    pub fn push(&self, work: Work<U, T, S>) -> (Pushed, Option<Work<U, T, S>>) {
        let mut inbox = self.inbox.lock().expect("queue lock");
        let mut pushed = Pushed::Queued;
        match &work {
            Work::JointState(_) => inbox.items.retain(|w| !matches!(w, Work::JointState(_))),
            Work::Trajectory(_) | Work::Call(_) => {
                if inbox.items.iter().filter(|w| Self::is_work(w)).count() >= self.capacity.load(Ordering::Relaxed) {
                    match inbox.items.iter().position(|w| matches!(w, Work::Trajectory(_))) {
                        Some(oldest) => {
                            inbox.items.remove(oldest);
                            inbox.dropped += 1;
                            pushed = Pushed::DroppedOldest;
                        }
                        None if matches!(work, Work::Call(_)) => return (Pushed::Refused, Some(work)),
                        None => {
                            // Full of calls: the new trajectory is the one dropped.
                            inbox.dropped += 1;
                            return (Pushed::Refused, None);
                        }
                    }
                }
            }
            Work::Update(_) => {}
        }
        inbox.items.push_back(work);
        drop(inbox);
        self.ready.notify_one();
        (pushed, None)
    }

    /// Takes back every waiting call that `unwanted` picks (a gated goal a newer one
    /// superseded); returns how many.
    pub fn withdraw_calls(&self, unwanted: impl Fn(&S) -> bool) -> usize {
        let mut inbox = self.inbox.lock().expect("queue lock");
        let before = inbox.items.len();
        inbox.items.retain(|w| !matches!(w, Work::Call(call) if unwanted(call)));
        before - inbox.items.len()
    }

    /// The next item, waiting up to `timeout`; `None` on time-out or once closed and empty.
    pub fn pop(&self, timeout: Duration) -> Option<Work<U, T, S>> {
        let inbox = self.inbox.lock().expect("queue lock");
        let (mut inbox, _) = self.ready.wait_timeout_while(inbox, timeout, |i| i.items.is_empty() && !i.closed).expect("queue lock");
        inbox.items.pop_front()
    }

    /// Trajectories dropped so far.
    pub fn dropped(&self) -> u64 {
        self.inbox.lock().expect("queue lock").dropped
    }

    /// Wakes the worker for good: `pop` returns what is left, then `None`.
    pub fn close(&self) {
        self.inbox.lock().expect("queue lock").closed = true;
        self.ready.notify_all();
    }

    pub fn is_closed(&self) -> bool {
        self.inbox.lock().expect("queue lock").closed
    }
}
