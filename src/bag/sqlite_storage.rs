//! SQLite storage files (`.db3`, rosbag2's format before Iron), read with `rusqlite`
//! (SQLite bundled): one row at a time in receive-time order, so memory follows the
//! largest message, not the file.
//!
//! Soundness: what SQLite finds damaged (a file cut short, a page that does not parse) is
//! an error after the messages before it. SQLite keeps no checksum of a message's bytes:
//! a flipped bit inside one is seen only if the message no longer decodes. A message of a
//! type the audit reads in an encoding it cannot read is handed on as such.
use super::BagError;
use super::message::{BagMessage, Payload, RecordedKind};
use rusqlite::{Connection, OpenFlags};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

/// Reads `path`'s messages of the types the audit reads, in receive-time order (ties in
/// the order written).
pub fn read(path: &Path, on_message: &mut dyn FnMut(BagMessage)) -> Result<(), BagError> {
    let connection = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
        .map_err(|e| BagError::Open { path: path.to_path_buf(), why: e.to_string() })?;
    let at_start = |e: rusqlite::Error| BagError::Damaged { path: path.to_path_buf(), at: "its tables".into(), why: e.to_string() };
    let topics = read_topics(&connection).map_err(at_start)?;
    let mut statement = connection.prepare("SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id").map_err(at_start)?;
    let mut rows = statement.query([]).map_err(at_start)?;
    let (mut count, mut last_time) = (0u64, None);
    loop {
        let row = match rows.next() {
            Ok(Some(row)) => row,
            Ok(None) => return Ok(()),
            Err(e) => {
                let at = match last_time {
                    Some(t) => format!("message {} (after receive time {t} ns)", count + 1),
                    None => "its first message".into(),
                };
                return Err(BagError::Damaged { path: path.to_path_buf(), at, why: e.to_string() });
            }
        };
        count += 1;
        let message =
            decode_row(row, &topics).map_err(|e| BagError::Damaged { path: path.to_path_buf(), at: format!("message {count}"), why: e.to_string() })?;
        last_time = Some(message.log_time);
        if let Some(message) = message.message {
            on_message(message);
        }
    }
}

/// The topics whose type the audit reads, by id.
fn read_topics(connection: &Connection) -> rusqlite::Result<HashMap<i64, Topic>> {
    let mut statement = connection.prepare("SELECT id, name, type, serialization_format FROM topics")?;
    let rows = statement.query_map([], |row| Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?, row.get::<_, String>(2)?, row.get::<_, String>(3)?)))?;
    let mut topics = HashMap::new();
    for row in rows {
        let (id, name, type_name, format) = row?;
        if let Some(kind) = RecordedKind::of_type(&type_name) {
            topics.insert(id, Topic { name: Arc::from(name.as_str()), kind, format });
        }
    }
    Ok(topics)
}

/// A topic whose type the audit reads.
struct Topic {
    name: Arc<str>,
    kind: RecordedKind,
    /// Its serialization format (`cdr`, as rosbag2 writes).
    format: String,
}

/// A row's receive time, and its message when its topic is one the audit reads.
struct Row {
    log_time: u64,
    message: Option<BagMessage>,
}

fn decode_row(row: &rusqlite::Row, topics: &HashMap<i64, Topic>) -> rusqlite::Result<Row> {
    let topic_id: i64 = row.get(0)?;
    let timestamp: i64 = row.get(1)?;
    let log_time = u64::try_from(timestamp).unwrap_or(0);
    let message = match topics.get(&topic_id) {
        Some(topic) => {
            let data = match topic.format.as_str() {
                "cdr" => Payload::Cdr(row.get(2)?),
                other => Payload::Unreadable(format!("serialization format '{other}', not CDR")),
            };
            Some(BagMessage { topic: topic.name.clone(), kind: topic.kind, log_time, data })
        }
        None => None,
    };
    Ok(Row { log_time, message })
}
