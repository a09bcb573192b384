//! Panics of other people's code, turned into errors without a word on stderr.
//!
//! A few readers and geometry routines we call (mesh-loader's COLLADA reader, parry's
//! convex hull) panic on some malformed or degenerate input. Where we catch that panic
//! and report it as a typed error (a bad file, a fallback method), the default panic
//! hook would still print Rust's panic message on stderr first, so a user would see two
//! reports of one bad file. [`guarded`] runs a closure with the hook silenced for its
//! own thread only; a panic anywhere else is reported as usual.
use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

thread_local! {
    /// How many [`guarded`] calls this thread is inside.
    static GUARDED: Cell<u32> = const { Cell::new(0) };
}

static QUIET_HOOK: Once = Once::new();

/// Installs, once per process, a panic hook that says nothing for a panic inside
/// [`guarded`] and hands every other panic to the hook that was there before.
fn install_quiet_hook() {
    QUIET_HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if GUARDED.with(Cell::get) == 0 {
                previous(info);
            }
        }));
    });
}

/// Runs `f`; a panic inside it becomes `Err` with the panic's message, and is not
/// reported on stderr (the caller reports it).
///
/// For calls into other code that touches no state of ours (a reader over bytes, a hull
/// of points): `f` is taken as unwind safe. Every panic on this thread while `f` runs is
/// silent, so `f` must not run other work of ours (a rayon pool's stolen jobs), and a
/// panic that aborts the process inside it dies without its message.
pub fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_quiet_hook();
    GUARDED.with(|g| g.set(g.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    GUARDED.with(|g| g.set(g.get() - 1));
    result.map_err(|payload| panic_message(payload.as_ref()))
}

/// The message a caught panic carries (`panic!`'s text), or a stand-in for one without.
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

#[cfg(test)]
mod tests {
    use super::guarded;

    #[test]
    fn a_panic_inside_becomes_its_message_and_the_guard_unwinds() {
        assert_eq!(guarded(|| 7), Ok(7));
        assert_eq!(guarded(|| -> u8 { panic!("bad index {}", 3) }), Err("bad index 3".to_string()));
        assert_eq!(guarded(|| guarded(|| -> u8 { panic!("inner") })), Ok(Err("inner".to_string())));
        super::GUARDED.with(|g| assert_eq!(g.get(), 0, "every guard left"));
    }
}
