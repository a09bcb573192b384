//! Our own bugs, contained: a panic while the node handles an item becomes an
//! [`InternalError`], logged at ERROR, and the node goes on serving (the worker answers
//! it as an `invalid` verdict, a refused goal or a stopped motion).
use crate::panic_guard::panic_message;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// A panic caught while handling an item: a bug of ours, met by some input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("internal error: {message}")]
pub struct InternalError {
    /// The panic's message.
    pub message: String,
}

/// Runs `f`; a panic in it becomes an [`InternalError`] (`internal error: <message>`),
/// logged at ERROR with `what` it was working on.
pub fn contained<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, InternalError> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        let message = panic_message(payload.as_ref());
        log::error!("{what}: internal error: {message}; the node goes on serving");
        InternalError { message }
    })
}
