//! The node's log as rcl writes it, `[LEVEL] [seconds.nanoseconds] [node]: message`,
//! at rcl's default level INFO; `--ros-args --log-level LEVEL` (or `NODE:=LEVEL`) sets
//! ccd_guard's level, `RUST_LOG` (env_logger's syntax) everything when given.
//!
//! A transport adds where else the records go ([`set_sink`]): the pure-Rust one
//! publishes ccd_guard's records on `/rosout` besides the console; the rcl one hands
//! them to rcutils, which prints them and publishes them as any rcl node's.
use crate::moveit::msg::{RosMessage, Time};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::sync::OnceLock;

/// `rcl_interfaces/msg/Log`: a log line on `/rosout`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Log {
    pub stamp: Time,
    /// 10 DEBUG, 20 INFO, 30 WARN, 40 ERROR, 50 FATAL.
    pub level: u8,
    pub name: String,
    pub msg: String,
    pub file: String,
    pub function: String,
    pub line: u32,
}

impl RosMessage for Log {
    const PACKAGE: &'static str = "rcl_interfaces";
    const NAME: &'static str = "Log";
}

impl Log {
    /// The `/rosout` message of `record`, logged by the node `name`.
    pub fn of(record: &LogRecord, name: &str) -> Self {
        let level = match record.level {
            log::Level::Error => 40,
            log::Level::Warn => 30,
            log::Level::Info => 20,
            log::Level::Debug | log::Level::Trace => 10,
        };
        Self {
            stamp: Time::now(),
            level,
            name: name.to_string(),
            msg: record.message.to_string(),
            file: record.file.to_string(),
            function: String::new(),
            line: record.line,
        }
    }
}

/// One of ccd_guard's log records, for a [`Sink`].
pub struct LogRecord<'a> {
    pub level: log::Level,
    pub message: &'a str,
    pub file: &'a str,
    pub line: u32,
}

/// Where a transport sends ccd_guard's log records.
pub struct Sink {
    pub write: Box<dyn Fn(&LogRecord) + Send + Sync>,
    /// The sink prints the records itself (rcutils does): the console writes none.
    pub replaces_console: bool,
}

static SINK: OnceLock<Sink> = OnceLock::new();

/// Sends ccd_guard's records (those its level lets through) to `sink` from now on; the
/// first sink set is kept.
pub fn set_sink(sink: Sink) {
    let _ = SINK.set(sink);
}

/// The console, and the transport's sink.
struct NodeLogger {
    console: env_logger::Logger,
}

impl log::Log for NodeLogger {
    fn enabled(&self, metadata: &log::Metadata) -> bool {
        self.console.enabled(metadata)
    }

    fn log(&self, record: &log::Record) {
        if !self.console.matches(record) {
            return;
        }
        let sink = SINK.get().filter(|_| record.target().starts_with("ccd_guard"));
        if let Some(sink) = sink {
            let message = record.args().to_string();
            (sink.write)(&LogRecord { level: record.level(), message: &message, file: record.file().unwrap_or(""), line: record.line().unwrap_or(0) });
        }
        if !sink.is_some_and(|s| s.replaces_console) {
            self.console.log(record);
        }
    }

    fn flush(&self) {
        self.console.flush();
    }
}

/// Starts the log for the node `node_name`; `level` from `--log-level`.
pub fn init(node_name: &str, level: Option<log::LevelFilter>) {
    let env = env_logger::Env::default().default_filter_or("info,rustdds=error,ros2_client=error,r2r=warn");
    let mut builder = env_logger::Builder::from_env(env);
    if let Some(level) = level {
        builder.filter_module("ccd_guard", level);
    }
    let name = node_name.to_string();
    builder.format(move |out, record| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        writeln!(out, "[{}] [{}.{:09}] [{name}]: {}", level_name(record.level()), now.as_secs(), now.subsec_nanos(), record.args())
    });
    let console = builder.build();
    let max = console.filter();
    // A second start (tests running the node in-process) keeps the first.
    if log::set_boxed_logger(Box::new(NodeLogger { console })).is_ok() {
        log::set_max_level(max);
    }
}

/// A level as rcl names it.
pub fn level_name(level: log::Level) -> &'static str {
    match level {
        log::Level::Warn => "WARN",
        log::Level::Error => "ERROR",
        log::Level::Info => "INFO",
        log::Level::Debug | log::Level::Trace => "DEBUG",
    }
}
