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

DEMO = REPO_ROOT / "assets" / "demo"
PEER = Path(__file__).resolve().parent / "dds_peer.py"
VERDICT = ("/ccd_guard/verdict", "ccd_guard/msg/CollisionVerdict")
# Cyclone on the namespace's loopback interface only, multicast allowed there.
CYCLONE_CONFIG = (
    "<CycloneDDS><Domain><General><Interfaces><NetworkInterface name=\"lo\" multicast=\"true\"/>"
    "</Interfaces></General><Discovery><ParticipantIndex>auto</ParticipantIndex>"
    "<Peers><Peer address=\"127.0.0.1\"/></Peers></Discovery></Domain></CycloneDDS>"
)
NAMESPACE_SETUP = "ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo"


@pytest.fixture(scope="module")
def node_binary() -> Path:
    return release_binary("ccd_guard", "cargo build --release")


def cli_report(node_binary: Path, trajectory: Path) -> dict:
    out = subprocess.run(
        [str(node_binary), "check", "--urdf", str(DEMO / "robot.urdf"), "--srdf", str(DEMO / "robot.srdf"),
         "--scene", str(DEMO / "scene.yaml"), "--trajectory", str(trajectory)],
        capture_output=True, text=True, timeout=300,
    )
    return json.loads(out.stdout)


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


def run_scenario(tmp_path: Path, command: list[str], steps: list[dict], env: dict | None = None) -> dict:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.fail("the DDS tests need unshare (util-linux) and ip (iproute2) for a private network namespace")
    scenario = {"node_command": command, "node_log": str(tmp_path / "node.log"), "steps": steps}
    (tmp_path / "scenario.json").write_text(json.dumps(scenario))
    environment = dict(os.environ, CYCLONEDDS_URI=CYCLONE_CONFIG, PYTHONDONTWRITEBYTECODE="1", **(env or {}))
    script = f"{NAMESPACE_SETUP} && exec {sys.executable} {PEER} {tmp_path / 'scenario.json'}"
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
        {"kind": "publish", "topic": "/planned_trajectory", "type": "trajectory_msgs/msg/JointTrajectory", "message": free},
        {"kind": "take", "name": "free", **_verdict()},
        {"kind": "publish", "topic": "/planned_trajectory", "type": "trajectory_msgs/msg/JointTrajectory", "message": collide},
        {"kind": "take", "name": "collide", **_verdict()},
        {"kind": "publish", "topic": "/display_planned_path", "type": "moveit_msgs/msg/DisplayTrajectory", "message": display},
        {"kind": "take", "name": "display", **_verdict()},
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
    names = [(n["node_namespace"], n["node_name"]) for info in results["discovery"] for n in info["node_entities_info_seq"]]
    assert ("/", "ccd_guard") in names, names
    assert results["node_alive"]


def _verdict(count=1, timeout=60.0):
    return {"topic": VERDICT[0], "type": VERDICT[1], "count": count, "timeout": timeout}
