"""The planning scene's octomap on the ROS graph (a Cyclone DDS peer), against the CLI on a
scene file holding the same map.

In a private network namespace (only loopback exists there), the node runs with the demo
robot and scene. A block of occupied cells (2 cm, 10 cm wide) is placed where the demo's
free trajectory takes the gripper at t = 4 s, at a map origin that is turned and shifted
(the cells are given in the map's frame). octomap's own library (octomap-python) writes
the map: a .bt file for the CLI, and its binary (writeBinaryData) and full (writeData)
streams, which travel as ``PlanningScene.world.octomap`` on ``monitored_planning_scene``:

1. before any map, the trajectory is ``collision_free`` (and certified);
2. a diff with the binary stream: the verdict is the CLI's on the demo scene plus the
   .bt at the same origin (verdict, time of contact, segment, contacts' links, clearance),
   its contacts naming ``<octomap>`` where the CLI names the scene file's object;
3. a diff with the full stream of the same map (not pruned): the same verdict;
4. a diff that carries no map (empty data): the map stays, as in MoveIt;
5. a full scene (``is_diff: false``) without a map: ``collision_free`` again.
"""
from __future__ import annotations

import json
import math
import subprocess
from pathlib import Path

import numpy as np
import pytest
import yaml

from conftest import int8_values, octomap_file_bytes, octomap_keys, octomap_stream, release_binary
from demo_cli import DEMO, cli_report
from test_collision_coal import quat_to_matrix
from test_node_cyclonedds import VERDICT, node_command, run_scenario, trajectory_message

RESOLUTION = 0.02
BLOCK = 0.10  # m, edge of the block of cells
MAP_ORIGIN = {"position": [0.05, -0.03, 0.02], "orientation": [0.0, 0.0, math.sin(0.15), math.cos(0.15)]}  # 0.3 rad about z
T_BLOCK = 4.0  # s: where the free trajectory takes the gripper into the block
OCTOMAP_ID = "<octomap>"


def gripper_at(run_probe, t: float) -> np.ndarray:
    """The gripper's world position on the demo's free trajectory (linear between points)."""
    data = yaml.safe_load((DEMO / "traj_free.yaml").read_text())
    times = [p["time_from_start"] for p in data["points"]]
    k = max(i for i, s in enumerate(times) if s <= t)
    u = (t - times[k]) / (times[k + 1] - times[k])
    q = (1 - u) * np.array(data["points"][k]["positions"]) + u * np.array(data["points"][k + 1]["positions"])
    poses = run_probe("fk", {"urdf": str(DEMO / "robot.urdf"), "configurations": [dict(zip(data["joint_names"], q.tolist()))]})
    return np.array(poses["poses"][0]["gripper"]["translation"])


def block_keys(centre_world: np.ndarray) -> np.ndarray:
    """The cells of a block of BLOCK around a world point, in the map's frame (its origin
    MAP_ORIGIN): points every res / 2, mapped by R^T (p - t)."""
    axis = np.arange(-BLOCK / 2, BLOCK / 2 + 1e-9, RESOLUTION / 2)
    world = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), -1).reshape(-1, 3) + centre_world
    R = quat_to_matrix(MAP_ORIGIN["orientation"])
    return octomap_keys((world - np.asarray(MAP_ORIGIN["position"])) @ R, RESOLUTION)


def octomap_message(stream: bytes, binary: bool) -> dict:
    xyz = lambda v: dict(zip("xyz", v))  # noqa: E731
    return {
        "header": {"frame_id": "world"},
        "origin": {"position": xyz(MAP_ORIGIN["position"]), "orientation": dict(zip("xyzw", MAP_ORIGIN["orientation"]))},
        "octomap": {"header": {"frame_id": "world"}, "binary": binary, "id": "OcTree", "resolution": RESOLUTION, "data": int8_values(stream)},
    }


def plan(sec: int) -> dict:
    """Publish the demo's free trajectory, stamped ``sec``."""
    return {"kind": "publish", "topic": "/planned_trajectory", "type": "trajectory_msgs/msg/JointTrajectory", "message": trajectory_message(DEMO / "traj_free.yaml", sec)}


def take(name: str) -> dict:
    """Take the next verdict as ``name``."""
    return {"kind": "take", "name": name, "topic": VERDICT[0], "type": VERDICT[1], "count": 1, "timeout": 60.0}


def scene_msg(message: dict) -> dict:
    """Publish a planning scene on ``monitored_planning_scene``."""
    return {"kind": "publish", "topic": "/monitored_planning_scene", "type": "moveit_msgs/msg/PlanningScene", "message": message}


def assert_as_cli(verdict: dict, report: dict, map_id: str, tol: float):
    assert verdict["verdict"] == report["verdict"] and verdict["certified"] == report["certified"], (verdict, report)
    assert verdict["time_of_contact"] == pytest.approx(report["time_of_contact"], abs=tol)
    assert verdict["segment_index"] == report["segment_index"]
    as_cli = [(c["link"], map_id if c["other"] == OCTOMAP_ID else c["other"]) for c in verdict["contacts"]]
    assert as_cli == [(c["link"], c["other"]) for c in report["contacts"]]
    assert verdict["min_clearance"] == pytest.approx(report["min_clearance"], abs=tol)


def test_planning_scene_octomap_against_the_cli(tmp_path, node_binary, run_probe):
    keys = block_keys(gripper_at(run_probe, T_BLOCK))
    bt, ot = octomap_file_bytes(keys, RESOLUTION)
    (tmp_path / "scan.bt").write_bytes(bt)
    position, orientation = MAP_ORIGIN["position"], MAP_ORIGIN["orientation"]
    scene = tmp_path / "scene_with_map.yaml"
    scene.write_text(
        (DEMO / "scene.yaml").read_text().rstrip("\n")
        + f"\n  - id: scan\n    type: octomap\n    file: scan.bt\n    pose: {{position: {json.dumps(position)}, orientation: {json.dumps(orientation)}}}\n"
    )
    cli = subprocess.run(
        [str(node_binary), "check", "--urdf", str(DEMO / "robot.urdf"), "--srdf", str(DEMO / "robot.srdf"),
         "--scene", str(scene), "--trajectory", str(DEMO / "traj_free.yaml"), "--format", "json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    report = json.loads(cli.stdout)
    free_report = cli_report(node_binary, DEMO / "traj_free.yaml")
    # the map is where we meant it: across the free motion, after its start
    assert free_report["verdict"] == "collision_free", free_report
    assert cli.returncode == 1 and report["verdict"] == "collision", (cli.returncode, cli.stderr, report)
    assert {c["other"] for c in report["contacts"]} == {"scan"} and 0 < report["time_of_contact"] < T_BLOCK, report

    settle = {"kind": "sleep", "seconds": 0.5}
    steps = [
        {"kind": "subscribe", "topic": VERDICT[0], "type": VERDICT[1]},
        plan(1), take("before"),
        scene_msg({"is_diff": True, "world": {"octomap": octomap_message(octomap_stream(bt), True)}}), settle,
        plan(2), take("binary"),
        scene_msg({"is_diff": True, "world": {"octomap": octomap_message(octomap_stream(ot), False)}}), settle,
        plan(3), take("full"),
        scene_msg({"is_diff": True, "name": "no map in this diff"}), settle,
        plan(4), take("diff_without_map"),
        scene_msg({"is_diff": False, "name": "full scene without a map"}), settle,
        plan(5), take("after"),
    ]  # fmt: skip
    results = run_scenario(tmp_path / "dds", node_command(node_binary), steps, env={"RMW_IMPLEMENTATION": "rmw_cyclonedds_cpp"})
    (before,), (binary,), (full,), (kept,), (after,) = (results[k] for k in ("before", "binary", "full", "diff_without_map", "after"))
    assert [v["trajectory_stamp"]["sec"] for v in (before, binary, full, kept, after)] == [1, 2, 3, 4, 5]
    assert before["verdict"] == "collision_free" and before["certified"], before
    assert_as_cli(binary, report, "scan", 1e-9)
    assert_as_cli(full, report, "scan", 1e-7)  # the same cells, unpruned
    assert_as_cli(kept, report, "scan", 1e-9)
    assert after["verdict"] == "collision_free" and after["certified"] and not after["contacts"], after
    assert results["node_alive"]


def test_a_camera_sized_map_arrives_whole(tmp_path, node_binary, run_probe):
    """A map of a depth camera's size (the block across the free motion plus a 7 m square
    floor of cells 2 m below: over 10^5 leaves, a binary stream of ~100 kB and a full
    stream of ~800 kB) travels in DDS fragments and is taken in whole: the verdict is the
    block's collision, as with the block alone. A transport that dropped or cut the
    message would leave the motion certified free."""
    block = block_keys(gripper_at(run_probe, T_BLOCK))
    axis = np.arange(700) * (RESOLUTION / 2) - 3.5  # 7 m square, sampled at half a cell
    floor_world = np.stack(np.meshgrid(axis, axis, indexing="ij"), -1).reshape(-1, 2)
    floor_world = np.concatenate([floor_world, np.full((len(floor_world), 1), -2.0)], axis=1)
    R = quat_to_matrix(MAP_ORIGIN["orientation"])
    floor = octomap_keys((floor_world - np.asarray(MAP_ORIGIN["position"])) @ R, RESOLUTION)
    keys = np.unique(np.concatenate([block, floor]), axis=0)
    assert len(keys) > 100_000
    bt, ot = octomap_file_bytes(keys, RESOLUTION)
    binary, full = octomap_stream(bt), octomap_stream(ot)
    assert len(binary) > 50_000 and len(full) > 500_000, (len(binary), len(full))
    settle = {"kind": "sleep", "seconds": 1.5}
    steps = [
        {"kind": "subscribe", "topic": VERDICT[0], "type": VERDICT[1]},
        plan(1), take("before"),
        scene_msg({"is_diff": True, "world": {"octomap": octomap_message(binary, True)}}), settle,
        plan(2), take("binary"),
        scene_msg({"is_diff": False, "name": "no map"}), settle,
        plan(3), take("cleared"),
        scene_msg({"is_diff": True, "world": {"octomap": octomap_message(full, False)}}), settle,
        plan(4), take("full"),
    ]  # fmt: skip
    results = run_scenario(tmp_path / "dds", node_command(node_binary), steps, env={"RMW_IMPLEMENTATION": "rmw_cyclonedds_cpp"})
    (before,), (from_binary,), (cleared,), (from_full,) = (results[k] for k in ("before", "binary", "cleared", "full"))
    assert [v["trajectory_stamp"]["sec"] for v in (before, from_binary, cleared, from_full)] == [1, 2, 3, 4]
    assert before["verdict"] == "collision_free" and before["certified"], before
    assert cleared["verdict"] == "collision_free" and cleared["certified"], cleared
    for verdict in (from_binary, from_full):
        assert verdict["verdict"] == "collision", verdict
        assert {c["other"] for c in verdict["contacts"]} == {OCTOMAP_ID}, verdict
        assert 0 < verdict["time_of_contact"] < T_BLOCK, verdict
    assert results["node_alive"]
