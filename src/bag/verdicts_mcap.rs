//! `--mcap-out`: the audit's verdicts as an MCAP file, one `ccd_guard/msg/CollisionVerdict`
//! per plan on `/ccd_guard/verdict` and the markers the node would publish on
//! `/ccd_guard/markers`, each at its plan's receive time, so a viewer that opens bags
//! shows the verdicts beside the plans. Written with the `mcap` crate (profile `ros2`,
//! `ros2msg` schemas, CDR messages), as rosbag2 writes its own.
use super::BagError;
use super::audit::AuditedPlan;
use super::schemas::{self, Schema};
use crate::moveit::cdr::to_cdr;
use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

/// The topics the verdicts and markers go on (the node's `~/verdict` and `~/markers`
/// under its default name).
pub const VERDICT_TOPIC: &str = "/ccd_guard/verdict";
pub const MARKERS_TOPIC: &str = "/ccd_guard/markers";

/// An MCAP file being written.
pub struct VerdictsMcap {
    path: PathBuf,
    writer: mcap::Writer<BufWriter<File>>,
    verdicts: u16,
    markers: u16,
    sequence: u32,
}

impl VerdictsMcap {
    pub fn create(path: &Path) -> Result<Self, BagError> {
        let fail = |why: String| BagError::Write { path: path.to_path_buf(), why };
        let file = File::create(path).map_err(|e| fail(e.to_string()))?;
        let mut writer = mcap::WriteOptions::new().profile("ros2").library("ccd_guard").create(BufWriter::new(file)).map_err(|e| fail(e.to_string()))?;
        let mut channel = |schema: Schema, topic: &str| -> Result<u16, mcap::McapError> {
            let id = writer.add_schema(schema.name, "ros2msg", schema.text.as_bytes())?;
            writer.add_channel(id, topic, "cdr", &BTreeMap::new())
        };
        let verdicts = channel(schemas::collision_verdict(), VERDICT_TOPIC).map_err(|e| fail(e.to_string()))?;
        let markers = channel(schemas::marker_array(), MARKERS_TOPIC).map_err(|e| fail(e.to_string()))?;
        Ok(Self { path: path.to_path_buf(), writer, verdicts, markers, sequence: 0 })
    }

    /// Writes a plan's verdict, and its markers if it has any.
    pub fn write(&mut self, plan: &AuditedPlan) -> Result<(), BagError> {
        self.put(self.verdicts, plan.stamp, &plan.verdict)?;
        if let Some(markers) = plan.markers.as_ref().filter(|m| !m.markers.is_empty()) {
            self.put(self.markers, plan.stamp, markers)?;
        }
        Ok(())
    }

    fn put(&mut self, channel_id: u16, time: u64, message: &impl serde::Serialize) -> Result<(), BagError> {
        let fail = |why: String| BagError::Write { path: self.path.clone(), why };
        let data = to_cdr(message).map_err(|e| fail(e.to_string()))?;
        self.sequence += 1;
        let header = mcap::records::MessageHeader { channel_id, sequence: self.sequence, log_time: time, publish_time: time };
        self.writer.write_to_known_channel(&header, &data).map_err(|e| fail(e.to_string()))
    }

    /// Writes the summary and closes the file.
    pub fn finish(mut self) -> Result<(), BagError> {
        self.writer.finish().map_err(|e| BagError::Write { path: self.path.clone(), why: e.to_string() })?;
        Ok(())
    }
}
