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
//! - the execution gate (issue 14): a MoveIt-like client sends `FollowJointTrajectory`
//!   goals (Panda plans of 20-40 points with velocities and accelerations, free, in the
//!   20-object scene) to `~/panda_arm_controller/follow_joint_trajectory`; a fake
//!   controller times each goal's arrival. The delay the gate adds: p50 and p99, and
//!   the part of it that is the check.
//!
//! Both builds of the node in one run (issue 40), each measurement taken for each build in
//! turn against the same peer: the pure-Rust one (`target/release/ccd_guard`) and, when
//! `CCD_GUARD_RCL_NODE` names it, the rcl one (run the bench with `target/ros/env.sh`
//! sourced, so that the rcl node finds its libraries).
//!
//! Everything runs in a private network namespace: the bench re-runs itself under
//! `unshare --net` with only the loopback interface up. `cargo bench --bench node_latency`
//! (`NODE_BENCH_ONLY=gate`: the gate alone; the node binary must be built: `cargo build --release`).
mod panda_scene;

use ccd_guard::motion::JointMotion;
use ccd_guard::moveit::msg;
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
    let mut builds = vec![("pure Rust", node_binary)];
    if let Some(rcl) = std::env::var_os("CCD_GUARD_RCL_NODE") {
        builds.push(("rcl", PathBuf::from(rcl)));
    }
    let demo = root.join("assets/demo");
    let demo_trajectories: Vec<(String, msg::JointTrajectory)> =
        ["traj_free.yaml", "traj_collide.yaml", "traj_thin.yaml"].iter().map(|f| (f.to_string(), file_trajectory(&demo.join(f)))).collect();
    let demo_params = vec![
        format!("urdf_file:={}", demo.join("robot.urdf").display()),
        format!("srdf_file:={}", demo.join("robot.srdf").display()),
        format!("scene_file:={}", demo.join("scene.yaml").display()),
    ];
    // NODE_BENCH_ONLY=gate: the gate's part alone.
    let only_gate = std::env::var("NODE_BENCH_ONLY").is_ok_and(|v| v == "gate");
    if !only_gate {
        for (build, binary) in &builds {
            run(&format!("demo arm, {build} node"), binary, &demo_params, &demo_trajectories);
        }
    }

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
    let panda_params =
        vec![format!("urdf_file:={}", bench.urdf.display()), format!("srdf_file:={}", bench.srdf.display()), format!("scene_file:={}", scene_file.display())];
    if !only_gate {
        for (build, binary) in &builds {
            run(&format!("Panda (STL meshes, 20 objects), {build} node"), binary, &panda_params, &panda_trajectories);
        }
    }

    // MoveIt-like plans for the gate: 20-40 points, free under dense sampling.
    let (plans, _) = panda_scene::moves(&bench, 1.0, 0.035, 11, 20);
    let plans: Vec<msg::JointTrajectory> = plans.iter().map(|m| moveit_plan(&names, m)).filter(|p| (20..=41).contains(&p.points.len())).collect();
    for (build, binary) in &builds {
        gate_latency(build, binary, &panda_params, &names, &plans);
    }
}

/// The node's environment: `package://` URIs of example-robot-data resolve through the
/// venv's cmeel.prefix, before whatever ROS prefixes the bench was given.
fn ament_prefix_path() -> String {
    let prefix = panda_scene::cmeel_prefix();
    match std::env::var("AMENT_PREFIX_PATH") {
        Ok(ros) if !ros.is_empty() => format!("{}:{ros}", prefix.display()),
        _ => prefix.display().to_string(),
    }
}

/// A plan as MoveIt's time parameterization hands it to a controller: positions,
/// velocities (zero at both ends, the straight line's elsewhere) and accelerations.
fn moveit_plan(names: &[String], motion: &JointMotion) -> msg::JointTrajectory {
    let mut plan = motion_trajectory(names, motion);
    let n = plan.points.len();
    let (first, last) = (motion.waypoints[0].clone(), motion.waypoints[n - 1].clone());
    let duration = motion.waypoint_times[n - 1];
    for (k, point) in plan.points.iter_mut().enumerate() {
        let moving = k > 0 && k + 1 < n;
        point.velocities = first.iter().zip(&last).map(|(a, b)| if moving { (b - a) / duration } else { 0.0 }).collect();
        point.accelerations = vec![0.0; first.len()];
    }
    plan
}

/// The gate's latency: goal sent by the client -> goal received by the controller.
fn gate_latency(build: &str, node_binary: &Path, params: &[String], names: &[String], plans: &[msg::JointTrajectory]) {
    use ros2_client::action::{ActionClientQosPolicies, ActionServerQosPolicies, GetResultResponse, GoalStatusEnum, SendGoalResponse};
    use ros2_client::{ActionTypeName, ServiceMapping};
    type Goal = msg::FollowJointTrajectoryGoal;
    type Outcome = msg::FollowJointTrajectoryResult;
    type Feedback = msg::FollowJointTrajectoryFeedback;
    let mut args = vec!["--ros-args".to_string(), "-p".into(), "publish_markers:=false".into(), "-p".into(), "check_current_state:=false".into()];
    args.extend(["-p".into(), "gate_controllers:=[panda_arm_controller]".into()]);
    for p in params {
        args.push("-p".into());
        args.push(p.clone());
    }
    let _node =
        NodeProcess(Command::new(node_binary).args(&args).env("RUST_LOG", "error").env("AMENT_PREFIX_PATH", ament_prefix_path()).spawn().expect("node starts"));
    let participant = DomainParticipantBuilder::new(0).build().expect("participant");
    let context = Context::from_domain_participant(participant).expect("context");
    let mut node = context.new_node(NodeName::new("/", "gate_bench_peer").unwrap(), NodeOptions::new()).expect("peer node");
    let qos = QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::Volatile).history(History::KeepLast { depth: 10 });
    let status =
        QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::TransientLocal).history(History::KeepLast { depth: 1 });
    let action_type = ActionTypeName::new("control_msgs", "FollowJointTrajectory");
    let server_qos = ActionServerQosPolicies {
        goal_service: qos.clone(),
        result_service: qos.clone(),
        cancel_service: qos.clone(),
        feedback_publisher: qos.clone(),
        status_publisher: status.clone(),
    };
    let client_qos = ActionClientQosPolicies {
        goal_service: qos.clone(),
        result_service: qos.clone(),
        cancel_service: qos.clone(),
        feedback_subscription: qos.clone(),
        status_subscription: status,
    };
    let controller = node
        .create_action_server::<Goal, Outcome, Feedback>(
            ServiceMapping::Enhanced,
            &Name::parse("/panda_arm_controller/follow_joint_trajectory").unwrap(),
            &action_type,
            server_qos,
        )
        .expect("fake controller");
    let client = node
        .create_action_client::<Goal, Outcome, Feedback>(
            ServiceMapping::Enhanced,
            &Name::parse("/ccd_guard/panda_arm_controller/follow_joint_trajectory").unwrap(),
            &action_type,
            client_qos,
        )
        .expect("gate client");
    let states_topic = node.create_topic(&Name::parse("/joint_states").unwrap(), MessageTypeName::new("sensor_msgs", "JointState"), &qos).unwrap();
    let joint_states = node.create_publisher::<msg::JointState>(&states_topic, None).unwrap();
    let verdict_topic = node.create_topic(&Name::parse("/ccd_guard/verdict").unwrap(), MessageTypeName::new("ccd_guard", "CollisionVerdict"), &qos).unwrap();
    let verdicts = node.create_subscription::<msg::CollisionVerdict>(&verdict_topic, None).unwrap();
    // The fake controller: accept at once, end at once; returns when it got the goal.
    let serve = |deadline: Instant| -> Option<Instant> {
        let mut received = None;
        while Instant::now() < deadline {
            if let Ok(Some((id, _))) = controller.receive_goal() {
                received = Some(Instant::now());
                controller.send_goal_response(id, SendGoalResponse { accepted: true, stamp: ros2_client::builtin_interfaces::Time::now() }).unwrap();
            }
            if let Ok(Some((id, _))) = controller.receive_result_request() {
                controller.send_result(id, GetResultResponse { status: GoalStatusEnum::Succeeded, result: Outcome::default() }).unwrap();
                return received;
            }
            std::thread::sleep(Duration::from_micros(50));
        }
        received
    };
    let send = |plan: &msg::JointTrajectory| -> (Instant, Option<Instant>, Option<bool>) {
        joint_states.publish(msg::JointState { name: names.to_vec(), position: plan.points[0].positions.clone(), ..Default::default() }).unwrap();
        std::thread::sleep(Duration::from_millis(20));
        let sent = Instant::now();
        let (request, goal_id) = client.send_goal(Goal { trajectory: plan.clone(), ..Default::default() }).expect("goal sent");
        let received = serve(sent + Duration::from_secs(5));
        let mut accepted = None;
        let deadline = Instant::now() + Duration::from_secs(5);
        while accepted.is_none() && Instant::now() < deadline {
            if let Ok(Some(r)) = client.receive_goal_response(request) {
                accepted = Some(r.accepted);
            }
            std::thread::sleep(Duration::from_micros(50));
        }
        // Let the gate's goal end before the next one.
        let result = client.request_result(goal_id).expect("result requested");
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline && !matches!(client.receive_result(result), Ok(Some(_))) {
            std::thread::sleep(Duration::from_micros(50));
        }
        (sent, received, accepted)
    };
    // Discovery and warm-up: until a goal gets through.
    let started = Instant::now();
    while send(&plans[0]).1.is_none() {
        assert!(started.elapsed() < Duration::from_secs(60), "the gate did not forward");
    }
    while let Ok(Some(_)) = verdicts.take() {}
    let (mut latency, mut checking) = (Vec::new(), Vec::new());
    let mut forwarded = 0;
    for _ in 0..ROUNDS {
        for plan in plans {
            let (sent, received, _) = send(plan);
            if let Some(at) = received {
                forwarded += 1;
                latency.push((at - sent).as_secs_f64() * 1e3);
            }
            // The gate's verdict on it, with the time its check took.
            while let Ok(Some((v, _))) = verdicts.take() {
                if v.source.ends_with("/follow_joint_trajectory") {
                    checking.push(v.elapsed_ms);
                }
            }
        }
    }
    latency.sort_by(f64::total_cmp);
    checking.sort_by(f64::total_cmp);
    let points: Vec<usize> = plans.iter().map(|p| p.points.len()).collect();
    println!(
        "execution gate (Panda, 20 objects), {build} node: {} plans of {}-{} points x {ROUNDS} rounds, {forwarded} forwarded",
        plans.len(),
        points.iter().min().unwrap_or(&0),
        points.iter().max().unwrap_or(&0)
    );
    if !latency.is_empty() {
        println!(
            "  goal sent -> controller has it: p50 {:.2} ms, p99 {:.2} ms (min {:.2}, max {:.2}); the check alone: p50 {:.2} ms, p99 {:.2} ms",
            percentile(&latency, 0.5),
            percentile(&latency, 0.99),
            latency[0],
            latency[latency.len() - 1],
            checking.get(checking.len() / 2).copied().unwrap_or(f64::NAN),
            if checking.is_empty() { f64::NAN } else { percentile(&checking, 0.99) }
        );
    }
}

fn file_trajectory(path: &Path) -> msg::JointTrajectory {
    ccd_guard::moveit::convert::trajectory_message(&ccd_guard::motion::load_trajectory(path).expect("trajectory"))
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

fn run(label: &str, node_binary: &Path, params: &[String], trajectories: &[(String, msg::JointTrajectory)]) {
    let mut args =
        vec!["--ros-args".to_string(), "-p".into(), format!("queue_size:={}", trajectories.len() * ROUNDS + 1), "-p".into(), "publish_markers:=false".into()];
    for p in params {
        args.push("-p".into());
        args.push(p.clone());
    }
    let _node =
        NodeProcess(Command::new(node_binary).args(&args).env("RUST_LOG", "error").env("AMENT_PREFIX_PATH", ament_prefix_path()).spawn().expect("node starts"));
    let participant = DomainParticipantBuilder::new(0).build().expect("participant");
    let context = Context::from_domain_participant(participant).expect("context");
    let mut node = context.new_node(NodeName::new("/", "bench_peer").unwrap(), NodeOptions::new()).expect("peer node");
    let qos =
        QosProfile::publisher_default().reliability_reliable(WhenFull::DEFAULT).durability(Durability::Volatile).history(History::KeepLast { depth: 1000 });
    let plan_topic =
        node.create_topic(&Name::new("/", "planned_trajectory").unwrap(), MessageTypeName::new("trajectory_msgs", "JointTrajectory"), &qos).unwrap();
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
