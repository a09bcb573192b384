//! The node's console log as rcl writes it, `[LEVEL] [seconds.nanoseconds] [node]: message`,
//! at rcl's default level INFO; `--ros-args --log-level LEVEL` (or `NODE:=LEVEL`) sets
//! ccd_guard's level, `RUST_LOG` (env_logger's syntax) everything when given.
use std::io::Write;

/// Starts the log for the node `node_name`; `level` from `--log-level`.
pub fn init(node_name: &str, level: Option<log::LevelFilter>) {
    let env = env_logger::Env::default().default_filter_or("info,rustdds=error,ros2_client=error");
    let mut builder = env_logger::Builder::from_env(env);
    if let Some(level) = level {
        builder.filter_module("ccd_guard", level);
    }
    let name = node_name.to_string();
    builder.format(move |out, record| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let level = match record.level() {
            log::Level::Warn => "WARN",
            log::Level::Error => "ERROR",
            log::Level::Info => "INFO",
            log::Level::Debug | log::Level::Trace => "DEBUG",
        };
        writeln!(out, "[{level}] [{}.{:09}] [{name}]: {}", now.as_secs(), now.subsec_nanos(), record.args())
    });
    // A second start (tests running the node in-process) keeps the first.
    let _ = builder.try_init();
}
