//! The process's ROS clock, as rclcpp's: the system clock, or with `use_sim_time` the
//! time of the latest `/clock` message (zero until the first arrives). Every stamp the
//! node writes ([`msg::Time::now`]) and the start of a gated goal come from it; a
//! transport feeds it.
use super::msg;
use std::sync::Mutex;

/// `None`: the system clock; `Some`: simulated, at that time.
static SIMULATED: Mutex<Option<msg::Time>> = Mutex::new(None);

fn simulated() -> std::sync::MutexGuard<'static, Option<msg::Time>> {
    SIMULATED.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Now on the ROS clock.
pub fn now() -> msg::Time {
    (*simulated()).unwrap_or_else(system_now)
}

impl msg::Time {
    /// Now, on the ROS clock (the system clock, or `/clock`'s time with `use_sim_time`).
    pub fn now() -> Self {
        now()
    }
}

/// Now on the system clock.
pub fn system_now() -> msg::Time {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    msg::Time { sec: since.as_secs() as i32, nanosec: since.subsec_nanos() }
}

/// Switches to simulated time (at zero until [`set_sim_time`]) or back to the system clock.
pub fn use_sim_time(on: bool) {
    let mut clock = simulated();
    match (on, clock.is_some()) {
        (true, false) => *clock = Some(msg::Time::default()),
        (false, _) => *clock = None,
        (true, true) => {}
    }
}

/// The time a `/clock` message gives; ignored while the clock is the system's.
pub fn set_sim_time(time: msg::Time) {
    if let Some(now) = simulated().as_mut() {
        *now = time;
    }
}

pub fn is_simulated() -> bool {
    simulated().is_some()
}

/// `seconds` after `time` (not before it: a negative or not finite `seconds` is none).
pub fn later(time: msg::Time, seconds: f64) -> msg::Time {
    let seconds = if seconds.is_finite() { seconds.clamp(0.0, 1e9) } else { 0.0 };
    let nanos = time.nanosec as f64 + seconds.fract() * 1e9;
    let carry = (nanos / 1e9).floor();
    msg::Time { sec: time.sec.saturating_add(seconds.trunc() as i32).saturating_add(carry as i32), nanosec: ((nanos - carry * 1e9) as u32).min(999_999_999) }
}

/// `to - from` in seconds on the ROS clock's scale (negative when `to` is earlier).
pub fn seconds_between(from: msg::Time, to: msg::Time) -> f64 {
    (to.sec as i64 - from.sec as i64) as f64 + (to.nanosec as f64 - from.nanosec as f64) * 1e-9
}
