//! MCAP storage files (rosbag2's default since Iron), streamed by the `mcap` crate: one
//! record in memory at a time, so memory follows the largest message, not the file.
//!
//! Soundness: damage the file shows is an error after the messages before it: a file cut
//! short, a record that does not parse, a chunk whose CRC does not match (checked before
//! any of its messages is used; rosbag2 and the `mcap` writers write chunk CRCs). A
//! message of a type the audit reads in an encoding it cannot read is handed on as such
//! (never skipped), so a world message is a gap in the world, not an absence.
use super::BagError;
use super::message::{BagMessage, Payload, RecordedKind};
use std::cell::Cell;
use std::collections::HashMap;
use std::io::{BufReader, Read};
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

/// The largest record the reader takes whatever the file's size (a length field the
/// damage made huge must not make it allocate the machine).
const MIN_RECORD_LIMIT: u64 = 64 << 20;
/// How much larger than the file a decompressed chunk may be.
const MAX_COMPRESSION_RATIO: u64 = 64;
/// The largest record in any file.
const MAX_RECORD_LIMIT: u64 = 4 << 30;

/// Reads `path`'s messages of the types the audit reads, in file order (what `ros2 bag
/// record` writes in receive order).
pub fn read(path: &Path, on_message: &mut dyn FnMut(BagMessage)) -> Result<(), BagError> {
    let open_error = |e: std::io::Error| BagError::Open { path: path.to_path_buf(), why: e.to_string() };
    let file = std::fs::File::open(path).map_err(open_error)?;
    let length = file.metadata().map_err(open_error)?.len();
    let limit = length.saturating_mul(MAX_COMPRESSION_RATIO).clamp(MIN_RECORD_LIMIT, MAX_RECORD_LIMIT);
    // A chunk's CRC is checked before any of its messages is used: a flipped bit must not
    // move an obstacle unseen.
    let options = mcap::sans_io::LinearReaderOptions::default().with_record_length_limit(limit as usize).with_prevalidate_chunk_crcs(true);
    let bytes_read = Rc::new(Cell::new(0));
    let counted = CountingReader { inner: BufReader::with_capacity(1 << 16, file), read: bytes_read.clone() };
    let mut reader = mcap::io::MessageReader::new_with_options(counted, options);
    let mut kinds: HashMap<u16, Option<(Arc<str>, RecordedKind, bool)>> = HashMap::new();
    let (mut last_time, mut out_of_order) = (0, false);
    for next in reader.by_ref() {
        let message = next.map_err(|e| damaged(path, &bytes_read, e.to_string()))?;
        let channel = &message.channel;
        let kind = kinds.entry(channel.id).or_insert_with(|| {
            let schema = channel.schema.as_ref()?;
            let kind = RecordedKind::of_type(&schema.name)?;
            Some((Arc::from(channel.topic.as_str()), kind, channel.message_encoding == "cdr"))
        });
        if message.log_time < last_time && !out_of_order {
            log::warn!("{}: messages out of time order (at {} ns): replayed in the order written", path.display(), message.log_time);
            out_of_order = true;
        }
        last_time = last_time.max(message.log_time);
        if let Some((topic, kind, cdr)) = kind {
            let data = if *cdr {
                Payload::Cdr(message.data.into_owned())
            } else {
                Payload::Unreadable(format!("encoding '{}', not CDR", message.channel.message_encoding))
            };
            on_message(BagMessage { topic: topic.clone(), kind: *kind, log_time: message.log_time, data });
        }
    }
    Ok(())
}

fn damaged(path: &Path, bytes_read: &Cell<u64>, why: String) -> BagError {
    BagError::Damaged { path: path.to_path_buf(), at: format!("byte {}", bytes_read.get()), why }
}

/// A reader that counts the bytes it has given (where a damage was met).
struct CountingReader {
    inner: BufReader<std::fs::File>,
    read: Rc<Cell<u64>>,
}

impl Read for CountingReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.set(self.read.get() + n as u64);
        Ok(n)
    }
}
