//! Bags written as rosbag2 writes them, for the suites: MCAP through the `mcap` crate
//! (profile `ros2`, CDR messages), SQLite through `rusqlite` with rosbag2's tables, and
//! folders with a `metadata.yaml`. The demo work cell's recording: joint states, plans
//! on several topics, an object added in the way and removed again.
use crate::common::demo::{demo, demo_trajectory};
use ccd_guard::moveit::cdr::to_cdr;
use ccd_guard::moveit::msg::{self, RosMessage};
use std::collections::BTreeMap;
use std::path::Path;

/// One recorded message.
#[derive(Clone)]
pub struct Recorded {
    pub topic: String,
    pub type_name: String,
    /// `cdr`, as rosbag2 writes.
    pub encoding: String,
    pub time: u64,
    pub data: Vec<u8>,
}

/// Messages in the order recorded.
#[derive(Clone, Default)]
pub struct Recording {
    pub messages: Vec<Recorded>,
}

/// One second in ns, from an arbitrary epoch.
pub const T0: u64 = 1_732_700_000_000_000_000;
pub const SECOND: u64 = 1_000_000_000;

impl Recording {
    pub fn add<M: RosMessage>(&mut self, topic: &str, time: u64, message: &M) {
        self.add_raw(topic, &format!("{}/msg/{}", M::PACKAGE, M::NAME), time, to_cdr(message).unwrap());
    }

    pub fn add_raw(&mut self, topic: &str, type_name: &str, time: u64, data: Vec<u8>) {
        self.messages.push(Recorded { topic: topic.into(), type_name: type_name.into(), encoding: "cdr".into(), time, data });
    }

    /// An MCAP file as rosbag2 writes it by default: uncompressed chunks (with CRCs).
    pub fn write_mcap(&self, path: &Path) {
        self.write_mcap_with(path, None);
    }

    /// An MCAP file with zstd-compressed chunks (rosbag2's `--storage-preset-profile zstd_fast`).
    pub fn write_mcap_zstd(&self, path: &Path) {
        self.write_mcap_with(path, Some(mcap::Compression::Zstd));
    }

    fn write_mcap_with(&self, path: &Path, compression: Option<mcap::Compression>) {
        let file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
        let mut writer = mcap::WriteOptions::new().profile("ros2").compression(compression).chunk_size(Some(4096)).create(file).unwrap();
        let mut channels = BTreeMap::new();
        for (sequence, m) in self.messages.iter().enumerate() {
            let channel = *channels.entry((m.topic.clone(), m.type_name.clone(), m.encoding.clone())).or_insert_with(|| {
                let schema = writer.add_schema(&m.type_name, "ros2msg", b"").unwrap();
                writer.add_channel(schema, &m.topic, &m.encoding, &BTreeMap::new()).unwrap()
            });
            let header = mcap::records::MessageHeader { channel_id: channel, sequence: sequence as u32, log_time: m.time, publish_time: m.time };
            writer.write_to_known_channel(&header, &m.data).unwrap();
        }
        writer.finish().unwrap();
    }

    pub fn write_sqlite(&self, path: &Path) {
        let db = rusqlite::Connection::open(path).unwrap();
        db.execute_batch(
            "CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL);
             INSERT INTO schema VALUES (4, 'jazzy');
             CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL,
                 serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL, type_description_hash TEXT NOT NULL);
             CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL);
             CREATE INDEX timestamp_idx ON messages (timestamp ASC);",
        )
        .unwrap();
        let mut topics = BTreeMap::new();
        for m in &self.messages {
            let next = topics.len() as i64 + 1;
            let id = *topics.entry((m.topic.clone(), m.type_name.clone())).or_insert_with(|| {
                db.execute("INSERT INTO topics VALUES (?1, ?2, ?3, 'cdr', '', '')", rusqlite::params![next, m.topic, m.type_name]).unwrap();
                next
            });
            db.execute("INSERT INTO messages (topic_id, timestamp, data) VALUES (?1, ?2, ?3)", rusqlite::params![id, m.time as i64, m.data]).unwrap();
        }
    }

    /// A rosbag2 folder: `metadata.yaml` listing the storage files, the messages split
    /// over `parts` files.
    pub fn write_folder(&self, dir: &Path, storage: &str, parts: usize) {
        std::fs::create_dir_all(dir).unwrap();
        let ext = if storage == "mcap" { "mcap" } else { "db3" };
        let chunk = self.messages.len().div_ceil(parts);
        let mut names = Vec::new();
        for (k, part) in self.messages.chunks(chunk).enumerate() {
            let name = format!("recording_{k}.{ext}");
            let part = Recording { messages: part.to_vec() };
            match ext {
                "mcap" => part.write_mcap(&dir.join(&name)),
                _ => part.write_sqlite(&dir.join(&name)),
            }
            names.push(name);
        }
        let files: String = names.iter().map(|n| format!("\n    - {n}")).collect();
        let metadata = format!(
            "rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: {}\n  relative_file_paths:{files}\n  message_count: {}\n",
            if ext == "mcap" { "mcap" } else { "sqlite3" },
            self.messages.len()
        );
        std::fs::write(dir.join("metadata.yaml"), metadata).unwrap();
    }
}

/// A box in the way of every demo motion (around the arm's base), as a collision object.
pub fn intruder(operation: u8) -> msg::CollisionObject {
    box_at("intruder", 0.0, operation)
}

/// A 0.5 m box `x` metres from the arm's base.
fn box_at(id: &str, x: f64, operation: u8) -> msg::CollisionObject {
    msg::CollisionObject {
        header: msg::Header { frame_id: "world".into(), ..Default::default() },
        id: id.into(),
        pose: msg::Pose { orientation: msg::Quaternion { w: 1.0, ..Default::default() }, ..Default::default() },
        primitives: vec![msg::SolidPrimitive { kind: msg::SolidPrimitive::BOX, dimensions: vec![0.5, 0.5, 0.5], ..Default::default() }],
        primitive_poses: vec![msg::Pose { position: msg::Point { x, y: 0.0, z: 0.35 }, orientation: msg::Quaternion { w: 1.0, ..Default::default() } }],
        operation,
        ..Default::default()
    }
}

/// The demo robot's joints at home.
pub fn home_state() -> msg::JointState {
    let first = demo_trajectory("traj_free.yaml");
    msg::JointState { name: first.joint_names.clone(), position: first.points[0].positions.clone(), ..Default::default() }
}

/// A DisplayTrajectory of a demo trajectory, from its first point.
pub fn display(file: &str) -> msg::DisplayTrajectory {
    let trajectory = demo_trajectory(file);
    let start = msg::JointState { name: trajectory.joint_names.clone(), position: trajectory.points[0].positions.clone(), ..Default::default() };
    msg::DisplayTrajectory {
        model_id: "demo".into(),
        trajectory: vec![msg::RobotTrajectory { joint_trajectory: trajectory, ..Default::default() }],
        trajectory_start: msg::RobotState { joint_state: start, ..Default::default() },
    }
}

/// The plans of [`demo_recording`] and the verdict each must get.
pub const DEMO_VERDICTS: [&str; 7] = ["collision_free", "collision", "collision", "collision", "collision_free", "invalid", "invalid"];

/// The demo cell's recording: a free plan, a colliding one, one through the thin shelf;
/// an object added in the way (the free plan now collides), removed again (free again);
/// a plan of another robot and one that does not decode. Messages of other types are
/// skipped.
pub fn demo_recording() -> Recording {
    let mut r = Recording::default();
    let t = |s: u64| T0 + s * SECOND;
    r.add("/joint_states", t(1), &home_state());
    r.add("/rosout_like", t(1), &msg::StringMessage { data: "a type the audit skips".into() });
    r.add("/planned_trajectory", t(2), &demo_trajectory("traj_free.yaml"));
    r.add("/display_planned_path", t(3), &display("traj_collide.yaml"));
    r.add("/arm/plan", t(4), &demo_trajectory("traj_thin.yaml"));
    r.add("/collision_object", t(5), &intruder(msg::CollisionObject::ADD));
    r.add("/planned_trajectory", t(6), &demo_trajectory("traj_free.yaml"));
    r.add("/collision_object", t(7), &intruder(msg::CollisionObject::REMOVE));
    r.add("/planned_trajectory", t(8), &demo_trajectory("traj_free.yaml"));
    let mut foreign = demo_trajectory("traj_free.yaml");
    foreign.joint_names = (1..=foreign.joint_names.len()).map(|k| format!("other_robot_joint_{k}")).collect();
    r.add("/planned_trajectory", t(9), &foreign);
    r.add_raw("/planned_trajectory", "trajectory_msgs/msg/JointTrajectory", t(10), vec![0, 1, 0, 0, 0xff, 0xff, 0xff, 0x7f]);
    r
}

/// A short recording of every kind of message, for mutating 10^4 times: its plans are
/// short free motions, which check fast.
pub fn short_recording() -> Recording {
    let mut r = Recording::default();
    let t = |s: u64| T0 + s * SECOND;
    let mut short = demo_trajectory("traj_free.yaml");
    short.points.truncate(2);
    short.points[1].positions = short.points[0].positions.iter().map(|q| q + 0.05).collect();
    r.add("/joint_states", t(1), &home_state());
    r.add("/collision_object", t(2), &box_at("aside", -2.0, msg::CollisionObject::ADD));
    r.add("/planned_trajectory", t(3), &short);
    r.add("/collision_object", t(4), &box_at("aside", -2.0, msg::CollisionObject::REMOVE));
    let scene = msg::PlanningScene {
        is_diff: true,
        world: msg::PlanningSceneWorld { collision_objects: vec![box_at("behind", -3.0, msg::CollisionObject::ADD)], ..Default::default() },
        ..Default::default()
    };
    r.add("/monitored_planning_scene", t(5), &scene);
    let mut display = display("traj_free.yaml");
    display.trajectory[0].joint_trajectory = short;
    r.add("/display_planned_path", t(6), &display);
    r
}

/// The demo robot, SRDF and scene as the audit's arguments.
pub fn demo_args() -> Vec<String> {
    ["--urdf", "robot.urdf", "--srdf", "robot.srdf", "--scene", "scene.yaml"]
        .iter()
        .map(|a| if a.starts_with("--") { a.to_string() } else { demo(a).display().to_string() })
        .collect()
}
