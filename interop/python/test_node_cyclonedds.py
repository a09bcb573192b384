"""The node on the ROS graph against a Cyclone DDS peer (issue 6, items 3, 6, 7, 8).

Each test writes a scenario, runs ``dds_peer.py`` in a private network namespace (only
the loopback interface exists there, so nothing leaves the machine), and checks what the
peer received against ``ccd_guard check`` on the same files (the CLI the node shares its
checking code with; the checks themselves are cross-checked elsewhere).
"""
from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from conftest import REPO_ROOT, release_binary
from demo_cli import DEMO, cli_report

PEER = Path(__file__).resolve().parent / "dds_peer.py"
VERDICT = ("/ccd_guard/verdict", "ccd_guard/msg/CollisionVerdict")
# Cyclone on the namespace's loopback interface only, multicast allowed there.
CYCLONE_CONFIG = (
    "<CycloneDDS><Domain><General><Interfaces><NetworkInterface name=\"lo\" multicast=\"true\"/>"
    "</Interfaces></General><Discovery><ParticipantIndex>auto</ParticipantIndex>"
    "<Peers><Peer address=\"127.0.0.1\"/></Peers></Discovery></Domain></CycloneDDS>"
)
NAMESPACE_SETUP = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"


def trajectory_message(path: Path, stamp_sec: int = 0) -> dict:
    data = yaml.safe_load(path.read_text())
    points = [
        {"positions": p["positions"], "time_from_start": _duration(p["time_from_start"])}
        for p in data["points"]
    ]
    return {"header": {"stamp": {"sec": stamp_sec, "nanosec": 0}, "frame_id": "world"}, "joint_names": data["joint_names"], "points": points}


def _duration(seconds: float) -> dict:
    sec = int(seconds)
    return {"sec": sec, "nanosec": int(round((seconds - sec) * 1e9))}


def node_command(node_binary: Path, *params: str, ros_args=()) -> list[str]:
    command = [str(node_binary), "--ros-args",
               "-p", f"urdf_file:={DEMO / 'robot.urdf'}", "-p", f"srdf_file:={DEMO / 'robot.srdf'}",
               "-p", f"scene_file:={DEMO / 'scene.yaml'}", *ros_args]
    for p in params:
        command += ["-p", p]
    return command


def run_scenario(tmp_path: Path, command: list[str], steps: list[dict], env: dict | None = None, node_fqn: str = "/ccd_guard",
                 peer: Path = PEER, extra: dict | None = None) -> dict:
    """Runs ``peer`` (``dds_peer.py``, or another peer script) on the scenario in a private
    network namespace; returns what it printed, with the node's log."""
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.fail("the DDS tests need unshare (util-linux) and ip (iproute2) for a private network namespace")
    tmp_path.mkdir(parents=True, exist_ok=True)
    scenario = {"node_command": command, "node_log": str(tmp_path / "node.log"), "steps": steps, "node_fqn": node_fqn, **(extra or {})}
    (tmp_path / "scenario.json").write_text(json.dumps(scenario))
    environment = dict(os.environ, CYCLONEDDS_URI=CYCLONE_CONFIG, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    script = f"{NAMESPACE_SETUP} && exec {sys.executable} {peer} {tmp_path / 'scenario.json'}"
    proc = subprocess.run(["unshare", "--net", "sh", "-c", script], capture_output=True, text=True, env=environment, timeout=600)
    log = (tmp_path / "node.log").read_text() if (tmp_path / "node.log").exists() else ""
    assert proc.returncode == 0, f"peer failed ({proc.returncode}): {proc.stderr[-3000:]}\nnode log:\n{log[-3000:]}"
    results = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "error" not in results, f"{results['error']}\nnode log:\n{log[-3000:]}"
    results["log"] = log
    return results


def assert_same_verdict(verdict: dict, report: dict):
    assert verdict["verdict"] == report["verdict"]
    assert verdict["certified"] == report["certified"]
    if report["time_of_contact"] is None:
        assert math.isnan(verdict["time_of_contact"]) and verdict["segment_index"] == -1
    else:
        assert verdict["time_of_contact"] == pytest.approx(report["time_of_contact"], abs=1e-9)
        assert verdict["segment_index"] == report["segment_index"]
    assert [(c["link"], c["other"]) for c in verdict["contacts"]] == [(c["link"], c["other"]) for c in report["contacts"]]
    assert verdict["min_clearance"] == pytest.approx(report["min_clearance"], abs=1e-9)


def test_topics_and_service_against_the_cli(tmp_path, node_binary):
    """planned_trajectory, display_planned_path (a plan in two parts) and the service, free
    and colliding: the verdicts are the CLI's; ros_discovery_info lists the node."""
    free = trajectory_message(DEMO / "traj_free.yaml", 1)
    collide = trajectory_message(DEMO / "traj_collide.yaml", 2)
    split = len(collide["points"]) // 2
    first = dict(collide, points=collide["points"][: split + 1])
    offset = collide["points"][split]["time_from_start"]
    t0 = offset["sec"] + offset["nanosec"] * 1e-9
    second_points = [dict(p, time_from_start=_duration(p["time_from_start"]["sec"] + p["time_from_start"]["nanosec"] * 1e-9 - t0)) for p in collide["points"][split:]]
    display = {"model_id": "demo", "trajectory": [{"joint_trajectory": first}, {"joint_trajectory": dict(collide, points=second_points)}]}
    steps = [
        {"kind": "subscribe", "topic": VERDICT[0], "type": VERDICT[1]},
        {"kind": "subscribe", "topic": "/ros_discovery_info", "type": "rmw_dds_common/msg/ParticipantEntitiesInfo", "transient_local": True},
        {"kind": "subscribe", "topic": "/ccd_guard/markers", "type": "visualization_msgs/msg/MarkerArray"},
        {"kind": "publish", "topic": "/planned_trajectory", "type": "trajectory_msgs/msg/JointTrajectory", "message": free},
        {"kind": "take", "name": "free", **_verdict()},
        {"kind": "publish", "topic": "/planned_trajectory", "type": "trajectory_msgs/msg/JointTrajectory", "message": collide},
        {"kind": "take", "name": "collide", **_verdict()},
        {"kind": "publish", "topic": "/display_planned_path", "type": "moveit_msgs/msg/DisplayTrajectory", "message": display},
        {"kind": "take", "name": "display", **_verdict()},
        {"kind": "take", "name": "markers", "topic": "/ccd_guard/markers", "type": "visualization_msgs/msg/MarkerArray", "count": 3, "timeout": 10},
        {"kind": "call", "name": "call_free", "request": {"trajectory": free}},
        {"kind": "call", "name": "call_collide", "request": {"trajectory": collide, "method": "pipeline"}},
        {"kind": "take", "name": "discovery", "topic": "/ros_discovery_info", "type": "rmw_dds_common/msg/ParticipantEntitiesInfo", "count": 1, "timeout": 5, "transient_local": True},
    ]
    results = run_scenario(tmp_path, node_command(node_binary), steps, env={"RMW_IMPLEMENTATION": "rmw_cyclonedds_cpp"})
    free_report = cli_report(node_binary, DEMO / "traj_free.yaml")
    collide_report = cli_report(node_binary, DEMO / "traj_collide.yaml")
    assert free_report["verdict"] == "collision_free" and collide_report["verdict"] == "collision"
    (v,) = results["free"]
    assert_same_verdict(v, free_report)
    assert v["source"] == "planned_trajectory" and v["trajectory_stamp"]["sec"] == 1
    (v,) = results["collide"]
    assert_same_verdict(v, collide_report)
    assert v["contacts"][0]["max_penetration_depth"] == pytest.approx(collide_report["contacts"][0]["max_penetration_depth"], rel=1e-9)
    (v,) = results["display"]
    assert_same_verdict(v, collide_report)
    assert v["source"] == "display_planned_path"
    assert_same_verdict(results["call_free"], free_report)
    assert results["call_collide"]["method"] == "pipeline" and results["call_collide"]["verdict"] == "collision"
    assert results["call_collide"]["time_of_contact"] == pytest.approx(collide_report["time_of_contact"], abs=1e-9)
    # rviz markers: each array first clears the last; a collision shows its contact point
    # where the verdict says, and the colliding link.
    free_markers, collide_markers, _ = results["markers"]
    assert [m["action"] for m in free_markers["markers"]] == [3]
    assert collide_markers["markers"][0]["action"] == 3
    points = [m for m in collide_markers["markers"] if m["ns"] == "contact_points"]
    assert len(points) == len(collide_report["contacts"])
    p = points[0]["pose"]["position"]
    assert [p["x"], p["y"], p["z"]] == pytest.approx(collide_report["contacts"][0]["point"], abs=1e-12)
    assert any(m["ns"] == "links_at_contact" for m in collide_markers["markers"])
    assert any(m["ns"] == "swept_bounds" for m in collide_markers["markers"])
    names = [(n["node_namespace"], n["node_name"]) for info in results["discovery"] for n in info["node_entities_info_seq"]]
    assert ("/", "ccd_guard") in names, names
    assert results["node_alive"]


def _verdict(count=1, timeout=60.0):
    return {"topic": VERDICT[0], "type": VERDICT[1], "count": count, "timeout": timeout}


def test_names_robot_description_scene_updates_bad_input_and_bursts(tmp_path, node_binary):
    """Started by `ros2 launch`-style arguments (renamed, in a namespace, a topic remapped,
    localhost-only discovery) and without a robot: every bad input gets an `invalid`
    verdict that says why, the node keeps serving, robot_description brings the robot,
    collision_object adds and removes an obstacle, joint_states are checked, and a
    burst is bounded with the newest plan kept."""
    verdict = ("/cell/guard/verdict", VERDICT[1])
    free = trajectory_message(DEMO / "traj_free.yaml", 1)
    colliding_state = yaml.safe_load((DEMO / "traj_collide.yaml").read_text())["points"][2]["positions"]
    urdf = (DEMO / "robot.urdf").read_text().replace('filename="meshes/', f'filename="file://{DEMO}/meshes/')
    urdf_missing_mesh = urdf.replace(f"file://{DEMO}/meshes/forearm.stl", "file:///nonexistent/forearm.stl")
    assert urdf_missing_mesh != urdf
    unknown_joint = dict(free, joint_names=["joint1", "elbow_x", "joint3", "joint4", "joint5", "joint6"])
    nan_point = dict(free["points"][1], positions=[0.1, float("nan"), 0.2, 0.0, 0.0, 0.0])
    not_finite = dict(free, points=[free["points"][0], nan_point])
    panda = dict(free, joint_names=[f"panda_joint{i}" for i in range(1, 7)])
    enclosing_box = {
        "header": {"frame_id": "world"}, "id": "enclosure", "operation": 0,
        "primitives": [{"type": 1, "dimensions": [3.0, 3.0, 3.0]}], "primitive_poses": [{}],
    }
    remove_box = {"id": "enclosure", "operation": 1}
    plane = {"id": "floor", "operation": 0, "planes": [{"coef": [0, 0, 1, 0]}], "plane_poses": [{}]}
    burst = [{"trajectory": [{"joint_trajectory": dict(free, header={"stamp": {"sec": 100 + i, "nanosec": 0}})}]} for i in range(12)]
    take = lambda name, count=1, timeout=60.0: {"kind": "take", "name": name, "topic": verdict[0], "type": verdict[1], "count": count, "timeout": timeout}  # noqa: E731
    plan = lambda message: {"kind": "publish", "topic": "/arm/plan", "type": "trajectory_msgs/msg/JointTrajectory", "message": message}  # noqa: E731
    steps = [
        {"kind": "subscribe", "topic": verdict[0], "type": verdict[1]},
        plan(free), take("no_robot"),
        {"kind": "publish_raw", "topic": "/arm/plan", "type": "trajectory_msgs/msg/JointTrajectory", "data": "\u00ff" * 40}, take("malformed"),
        {"kind": "publish", "topic": "/cell/robot_description", "type": "std_msgs/msg/String", "message": {"data": urdf_missing_mesh}, "transient_local": True},
        take("bad_description"),
        plan(free), take("after_bad_description"),
        {"kind": "publish", "topic": "/cell/robot_description", "type": "std_msgs/msg/String", "message": {"data": urdf}, "transient_local": True},
        {"kind": "sleep", "seconds": 1.0},
        plan(free), take("free"),
        plan(unknown_joint), take("unknown_joint"),
        plan(not_finite), take("not_finite"),
        plan(panda), take("other_robot"),
        {"kind": "publish", "topic": "/cell/collision_object", "type": "moveit_msgs/msg/CollisionObject", "message": enclosing_box},
        {"kind": "publish", "topic": "/cell/collision_object", "type": "moveit_msgs/msg/CollisionObject", "message": plane},
        take("plane_rejected"),
        plan(free), take("enclosed"),
        {"kind": "publish", "topic": "/cell/collision_object", "type": "moveit_msgs/msg/CollisionObject", "message": remove_box},
        {"kind": "publish", "topic": "/cell/joint_states", "type": "sensor_msgs/msg/JointState",
         "message": {"name": [f"joint{i}" for i in range(1, 7)], "position": colliding_state}},
        take("current_state"),
        {"kind": "publish_many", "topic": "/cell/display_planned_path", "type": "moveit_msgs/msg/DisplayTrajectory", "messages": burst},
        take("burst", count=12, timeout=8.0),
        {"kind": "publish", "topic": "/cell/collision_object", "type": "moveit_msgs/msg/CollisionObject", "message": {"id": "floor", "operation": 1}},
        {"kind": "call", "name": "after_burst", "request": {"trajectory": free, "start_state": {"name": ["joint1"], "position": [0.0]}}},
    ]
    results = run_scenario(tmp_path, _without_param(node_command(node_binary, "queue_size:=2", ros_args=["-r", "__node:=guard", "-r", "__ns:=/cell", "-r", "planned_trajectory:=/arm/plan"]), "urdf_file"),
                           steps, env={"ROS_LOCALHOST_ONLY": "1", "RMW_IMPLEMENTATION": "rmw_cyclonedds_cpp"}, node_fqn="/cell/guard")
    invalid = lambda name: results[name][0]["verdict"] == "invalid"  # noqa: E731
    assert invalid("no_robot") and "robot description" in results["no_robot"][0]["error"]
    assert invalid("malformed") and "unreadable" in results["malformed"][0]["error"]
    (v,) = results["bad_description"]
    assert v["source"] == "robot_description" and v["verdict"] == "invalid" and "/nonexistent/forearm.stl" in v["error"], v
    assert invalid("after_bad_description") and "rejected" in results["after_bad_description"][0]["error"]
    (v,) = results["free"]
    assert v["verdict"] == "collision_free" and v["certified"], v
    assert invalid("unknown_joint") and "elbow_x" in results["unknown_joint"][0]["error"]
    assert invalid("not_finite") and "not finite" in results["not_finite"][0]["error"]
    assert invalid("other_robot") and "panda_joint1" in results["other_robot"][0]["error"]
    (v,) = results["enclosed"]
    assert v["verdict"] == "collision" and {c["other"] for c in v["contacts"]} == {"enclosure"}, v
    (v,) = results["plane_rejected"]
    assert v["source"] == "collision_object" and "planes are not supported" in v["error"], v
    (v,) = results["current_state"]
    assert v["source"] == "joint_states" and v["verdict"] == "collision" and v["contacts"], v
    # While the plane is missing from the node's scene, nothing is proven free.
    assert all(v["verdict"] == "uncertain" and "'floor'" in v["error"] for v in results["burst"]), results["burst"]
    stamps = [v["trajectory_stamp"]["sec"] for v in results["burst"]]
    assert 0 < len(stamps) < 12 and stamps[-1] == 111, stamps
    assert "dropped" in results["log"]
    assert results["after_burst"]["verdict"] == "collision_free"
    assert results["node_alive"]


def _without_param(command: list[str], name: str) -> list[str]:
    out = []
    for i, c in enumerate(command):
        if c.startswith(f"{name}:="):
            out.pop()  # its -p
            continue
        out.append(c)
    return out


def test_discovery_off_keeps_the_node_to_itself(tmp_path, node_binary):
    """ROS_AUTOMATIC_DISCOVERY_RANGE=OFF: a peer on the same host never sees the node; the
    same peer sees it with LOCALHOST."""
    step = {"kind": "expect_no_match", "name": "matched", "topic": "/planned_trajectory", "type": "trajectory_msgs/msg/JointTrajectory", "seconds": 4.0}
    off = run_scenario(tmp_path / "off", node_command(node_binary), [step], env={"ROS_AUTOMATIC_DISCOVERY_RANGE": "OFF"})
    assert off["matched"] is False
    assert "Off discovery" in off["log"]
    local = run_scenario(tmp_path / "localhost", node_command(node_binary), [step], env={"ROS_AUTOMATIC_DISCOVERY_RANGE": "LOCALHOST"})
    assert local["matched"] is True
