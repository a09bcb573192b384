//! Throughput and latency of the ROS node through DDS (issue 6, item 9): a peer on the
//! same machine publishes `JointTrajectory` messages on `planned_trajectory` and times
//! each `~/verdict` from publishing to receipt. Two robots: the demo arm in its work cell
//! (its free and colliding demo trajectories) and the Panda of example-robot-data in a
//! seeded 20-object scene (free and colliding planned moves).
//!
//! - latency: one trajectory at a time, publish -> verdict, p50 and p99, and the part
//!   of it that is not the check itself (latency - the verdict's `elapsed_ms`);
//! - throughput: all trajectories published at once (queue large enough to keep them
//!   all), trajectories per second until the last verdict.
//!
//! Everything runs in a private network namespace: the bench re-runs itself under
//! `unshare --net` with only the loopback interface up. `cargo bench --bench node_latency`
//! (the node binary must be built: `cargo build --release`).
mod panda_scene;

use ccd_guard::motion::JointMotion;
use ccd_guard::ros::msg;
use ros2_client::dds::rustdds::DomainParticipantBuilder;
use ros2_client::qos::{Durability, History, WhenFull};
use ros2_client::{Context, MessageTypeName, Name, NodeName, NodeOptions, QosProfile};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

const IN_NAMESPACE: &str = "CCD_GUARD_BENCH_NETNS";
const ROUNDS: usize = 3;

fn main() {
    if std::env::var_os(IN_NAMESPACE).is_none() {
        let me = std::env::current_exe().expect("own path");
        let script = format!("ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo && exec {}", me.display());
        let status = Command::new("unshare").args(["--net", "sh", "-c", &script]).env(IN_NAMESPACE, "1").status().expect("unshare (util-linux) runs");
        std::process::exit(status.code().unwrap_or(1));
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let node_binary = root.join("target/release/ccd_guard");
    assert!(node_binary.is_file(), "build the node first: cargo build --release");
    let demo = root.join("assets/demo");
    let demo_trajectories: Vec<(String, msg::JointTrajectory)> = ["traj_free.yaml", "traj_collide.yaml", "traj_thin.yaml"]
        .iter()
        .map(|f| (f.to_string(), file_trajectory(&demo.join(f))))
        .collect();
    let demo_params = vec![
        format!("urdf_file:={}", demo.join("robot.urdf").display()),
        format!("srdf_file:={}", demo.join("robot.srdf").display()),
        format!("scene_file:={}", demo.join("scene.yaml").display()),
    ];
    run("demo arm", &node_binary, &demo_params, &demo_trajectories);

    let bench = panda_scene::load(200);
    let scene_file = std::env::temp_dir().join("ccd_guard_bench_scene.yaml");
    std::fs::write(&scene_file, &bench.scene_json).expect("scene written");
    let (free, colliding) = panda_scene::moves(&bench, 0.6, 0.05, 5, 10);
    let names: Vec<String> = bench.world.robot.variable_names().map(str::to_string).collect();
    let panda_trajectories: Vec<(String, msg::JointTrajectory)> = free
        .iter()
        .map(|m| ("free".to_string(), motion_trajectory(&names, m)))
        .chain(colliding.iter().map(|m| ("colliding".to_string(), motion_trajectory(&names, m))))
        .collect();
    let panda_params = vec![
        format!("urdf_file:={}", bench.urdf.display()),
        format!("srdf_file:={}", bench.srdf.display()),
        format!("scene_file:={}", scene_file.display()),
    ];
    run("Panda (STL meshes, 20 objects)", &node_binary, &panda_params, &panda_trajectories);
}

fn file_trajectory(path: &Path) -> msg::JointTrajectory {
    ccd_guard::ros::convert::trajectory_message(&ccd_guard::motion::load_trajectory(path).expect("trajectory"))
}

fn motion_trajectory(names: &[String], motion: &JointMotion) -> msg::JointTrajectory {
    msg::JointTrajectory {
        joint_names: names.to_vec(),
        points: motion
            .waypoints
            .iter()
            .zip(&motion.waypoint_times)
            .map(|(q, t)| msg::JointTrajectoryPoint { positions: q.clone(), time_from_start: msg::Duration::from_seconds(*t), ..Default::default() })
            .collect(),
        ..Default::default()
    }
}

struct NodeProcess(Child);
impl Drop for NodeProcess {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn run(label: &str, node_binary: &PathBuf, params: &[String], trajectories: &[(String, msg::JointTrajectory)]) {
    let mut args = vec!["--ros-args".to_string(), "-p".into(), format!("queue_size:={}", trajectories.len() * ROUNDS + 1), "-p".into(), "publish_markers:=false".into()];
    for p in params {
        args.push("-p".into());
        args.push(p.clone());
    }
    // package:// URIs of example-robot-data resolve through the venv's cmeel.prefix.
    let prefix = panda_scene::cmeel_prefix();
    let _node = NodeProcess(Command::new(node_binary).args(&args).env("RUST_LOG", "error").env("AMENT_PREFIX_PATH", prefix).spawn().expect("node starts"));
    let participant = DomainParticipantBuilder::new(0).build().expect("participant");
    let context = Context::from_domain_participant(participant).expect("context");
    let mut node = context.new_node(NodeName::new("/", "bench_peer").unwrap(), NodeOptions::new()).expect("peer node");
    let qos = QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::Volatile).history(History::KeepLast { depth: 1000 });
    let plan_topic = node.create_topic(&Name::new("/", "planned_trajectory").unwrap(), MessageTypeName::new("trajectory_msgs", "JointTrajectory"), &qos).unwrap();
    let verdict_topic = node.create_topic(&Name::parse("/ccd_guard/verdict").unwrap(), MessageTypeName::new("ccd_guard", "CollisionVerdict"), &qos).unwrap();
    let publisher = node.create_publisher::<msg::JointTrajectory>(&plan_topic, None).unwrap();
    let verdicts = node.create_subscription::<msg::CollisionVerdict>(&verdict_topic, None).unwrap();
    let mut stamp = 0;
    let mut send = |trajectory: &msg::JointTrajectory| -> i32 {
        stamp += 1;
        let mut t = trajectory.clone();
        t.header.stamp = msg::Time { sec: stamp, nanosec: 0 };
        publisher.publish(t).expect("published");
        stamp
    };
    let wait_for = |wanted: &mut Vec<i32>, timeout: Duration| -> Vec<(i32, Instant, f64, String)> {
        let deadline = Instant::now() + timeout;
        let mut got = Vec::new();
        while !wanted.is_empty() && Instant::now() < deadline {
            match verdicts.take() {
                Ok(Some((v, _))) => {
                    if let Some(k) = wanted.iter().position(|s| *s == v.trajectory_stamp.sec) {
                        wanted.remove(k);
                        got.push((v.trajectory_stamp.sec, Instant::now(), v.elapsed_ms, v.verdict));
                    }
                }
                _ => std::thread::sleep(Duration::from_micros(100)),
            }
        }
        got
    };
    // Discovery and warm-up: until a verdict comes back.
    let started = Instant::now();
    loop {
        let s = send(&trajectories[0].1);
        if !wait_for(&mut vec![s], Duration::from_millis(500)).is_empty() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "the node did not answer");
    }
    // Latency: one at a time.
    let (mut latency, mut overhead) = (Vec::new(), Vec::new());
    let mut verdict_counts = std::collections::BTreeMap::new();
    for _ in 0..ROUNDS {
        for (_, t) in trajectories {
            let sent = Instant::now();
            let s = send(t);
            let got = wait_for(&mut vec![s], Duration::from_secs(60));
            let (_, at, elapsed_ms, verdict) = got.into_iter().next().expect("a verdict");
            let ms = (at - sent).as_secs_f64() * 1e3;
            latency.push(ms);
            overhead.push(ms - elapsed_ms);
            *verdict_counts.entry(verdict).or_insert(0) += 1;
        }
    }
    // Throughput: everything at once.
    let burst_start = Instant::now();
    let mut wanted: Vec<i32> = (0..ROUNDS).flat_map(|_| trajectories.iter()).map(|(_, t)| send(t)).collect();
    let count = wanted.len();
    let got = wait_for(&mut wanted, Duration::from_secs(600));
    let burst = burst_start.elapsed().as_secs_f64();
    latency.sort_by(f64::total_cmp);
    overhead.sort_by(f64::total_cmp);
    println!("{label}: {} trajectories x {ROUNDS} rounds, verdicts {:?}", trajectories.len(), verdict_counts);
    println!(
        "  latency publish -> verdict: p50 {:.2} ms, p99 {:.2} ms (min {:.2}, max {:.2}); of which not checking: p50 {:.2} ms, p99 {:.2} ms",
        percentile(&latency, 0.5),
        percentile(&latency, 0.99),
        latency[0],
        latency[latency.len() - 1],
        percentile(&overhead, 0.5),
        percentile(&overhead, 0.99)
    );
    println!("  throughput: {} of {count} verdicts in {burst:.3} s = {:.1} trajectories/s", got.len(), got.len() as f64 / burst);
}
