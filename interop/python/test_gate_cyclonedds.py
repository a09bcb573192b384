"""The execution gate through DDS (issue 14, item 7), against peers that are not
ros2-client: a fake joint_trajectory_controller and a MoveIt-like client on Cyclone DDS
(``gate_peer.py``), in a private network namespace.

One node, one scenario, the steps in order (each starts where the last left the robot):
a free goal reaches the controller and succeeds; a colliding one never reaches it and is
aborted with -1 and the pair; an obstacle added mid-motion cancels the controller's goal
and aborts the client's with -4; a client's cancel is relayed; bad goals are refused with
a reason while the gate keeps serving; in a flood of goals each preempts the ones before it
and the last runs; a controller
whose action server is missing makes its goals fail with a reason.
"""
from __future__ import annotations

import copy
import math

import numpy as np

import pinocchio as pin
import pytest

from demo_cli import DEMO
from test_node_cyclonedds import node_command, run_scenario, trajectory_message
from pathlib import Path

GATE_PEER = Path(__file__).resolve().parent / "gate_peer.py"
JOINTS = ["joint1", "joint2", "joint3", "joint4", "joint5", "joint6"]
HOME = [0.0, -0.5, 1.9, 0.17, -1.5708, 0.0]
# Success, and the gate's codes (control_msgs' INVALID_GOAL, PATH_TOLERANCE_VIOLATED).
SUCCEEDED, CANCELED, ABORTED = 4, 5, 6


def goal_of(path: Path, speed: float = 2.5) -> dict:
    """A FollowJointTrajectory goal for a demo trajectory, run `speed` times faster."""
    trajectory = trajectory_message(path)
    for p in trajectory["points"]:
        t = (p["time_from_start"]["sec"] + p["time_from_start"]["nanosec"] * 1e-9) / speed
        p["time_from_start"] = {"sec": int(t), "nanosec": int(round((t - int(t)) * 1e9))}
    trajectory["header"]["stamp"] = {"sec": 0, "nanosec": 0}
    return {"trajectory": trajectory}


def home_goal(seconds: float = 0.6) -> dict:
    """Back home from wherever the robot is (the peer sets the first point)."""
    points = [{"positions": HOME, "time_from_start": {"sec": 0, "nanosec": 0}},
              {"positions": HOME, "time_from_start": {"sec": int(seconds), "nanosec": int((seconds % 1) * 1e9)}}]
    return {"trajectory": {"joint_names": JOINTS, "points": points}}


def tool_position(q: list[float]) -> list[float]:
    """Where the demo arm's tool0 is at `q` (pinocchio, independent of ccd_guard)."""
    model = pin.buildModelFromUrdf(str(DEMO / "robot.urdf"))
    data = model.createData()
    config = []
    for joint, value in zip(list(model.joints)[1:], q):
        # A continuous joint is (cos, sin) in pinocchio.
        config += [math.cos(value), math.sin(value)] if joint.nq == 2 else [value]
    pin.framesForwardKinematics(model, data, np.array(config))
    return list(data.oMf[model.getFrameId("tool0")].translation)


def test_the_gate_forwards_only_certified_goals(tmp_path, node_binary):  # noqa: F811
    free = goal_of(DEMO / "traj_free.yaml")
    colliding = goal_of(DEMO / "traj_collide.yaml")
    # Where the free motion's tool is at its second waypoint (1 s in): a box there, sent
    # half a second in, lies on the rest of the motion.
    at = tool_position(free["trajectory"]["points"][1]["positions"])
    intruder = {"id": "intruder", "header": {"frame_id": ""}, "operation": 0,
                "pose": {"position": {"x": at[0], "y": at[1], "z": at[2]}},
                "primitives": [{"type": 1, "dimensions": [0.12, 0.12, 0.12]}], "primitive_poses": [{}]}
    removal = {"id": "intruder", "operation": 1}
    unknown = copy.deepcopy(free)
    unknown["trajectory"]["joint_names"] = JOINTS[:5] + ["elbow"]
    empty = {"trajectory": {"joint_names": JOINTS, "points": []}}
    short = home_goal(0.3)
    steps = [
        {"kind": "goal", "name": "free", "goal": free},
        {"kind": "goal", "name": "colliding", "goal": colliding},
        {"kind": "goal", "name": "obstacle", "goal": free, "obstacle_after": 0.5, "obstacle": intruder},
        {"kind": "scene", "object": removal},
        {"kind": "sleep", "seconds": 0.3},
        {"kind": "goal", "name": "home", "goal": home_goal()},
        {"kind": "goal", "name": "cancelled", "goal": free, "cancel_after": 0.5},
        {"kind": "goal", "name": "home again", "goal": home_goal()},
        {"kind": "goal", "name": "cancelled at once", "goal": free, "cancel_after": 0.0},
        {"kind": "goal", "name": "home once more", "goal": home_goal()},
        {"kind": "goal", "name": "far start", "goal": free, "start_offset": 0.1},
        {"kind": "goal", "name": "unknown joint", "goal": unknown, "from_current": False},
        {"kind": "goal", "name": "no points", "goal": empty},
        {"kind": "raw_goal", "name": "garbage"},
        {"kind": "flood", "name": "flood", "goals": [short] * 8},
        {"kind": "goal", "name": "ghost", "goal": free, "controller": "ghost_controller", "timeout": 30.0},
        {"kind": "goal", "name": "still serving", "goal": home_goal()},
    ]
    command = node_command(node_binary, "gate_controllers:=[arm_controller, ghost_controller]", "gate_recheck_period:=0.2")
    results = run_scenario(tmp_path, command, steps, env={"RMW_IMPLEMENTATION": "rmw_cyclonedds_cpp"}, peer=GATE_PEER,
                           extra={"controller": "arm_controller", "gated": ["arm_controller", "ghost_controller"], "joints": JOINTS, "start": HOME})
    assert results["node_alive"], results["log"][-3000:]
    step = {s["name"]: s for s in results["steps"]}
    log = results["log"]

    def controller_got(name):
        return step[name]["goal_id"] in [g for g, _, _ in step[name]["controller_goals"]]

    # A free goal: forwarded, run, succeeded; feedback relayed.
    s = step["free"]
    assert s["accepted"] and s["result"]["status"] == SUCCEEDED and s["result"]["error_code"] == 0, (s, log[-3000:])
    assert controller_got("free") and s["result"]["feedback"] > 0
    # A colliding goal: accepted, then aborted with INVALID_GOAL and the pair; the
    # controller never sees it.
    s = step["colliding"]
    assert s["accepted"] and s["result"]["status"] == ABORTED and s["result"]["error_code"] == -1, s
    assert s["result"]["error_string"].startswith("ccd_guard: collision: ") and " touches box" in s["result"]["error_string"], s
    assert not controller_got("colliding")
    # An obstacle on the rest of a running motion: the controller's goal is cancelled and
    # the client's aborted with PATH_TOLERANCE_VIOLATED.
    s = step["obstacle"]
    assert controller_got("obstacle") and s["result"]["status"] == ABORTED and s["result"]["error_code"] == -4, s
    assert "intruder" in s["result"]["error_string"] and s["result"]["error_string"].startswith("ccd_guard: "), s
    cancels = [at for g, at in s["controller_cancels"] if g == s["goal_id"]]
    assert cancels, s
    reaction = cancels[0] - s["obstacle_sent"]
    print(f"scene change to the controller's cancel: {reaction * 1e3:.1f} ms")
    assert 0 < reaction < 2.0
    for name in ("home", "home again", "home once more", "still serving"):
        assert step[name]["result"]["status"] == SUCCEEDED, (name, step[name], log[-3000:])
    # The client's cancel reaches the controller; the goal ends cancelled.
    s = step["cancelled"]
    assert s["cancel"]["return_code"] == 0 and s["result"]["status"] == CANCELED, s
    assert s["goal_id"] in [g for g, _ in s["controller_cancels"]]
    # Cancelled at once (while the gate checks it, or just after): it ends cancelled,
    # and the robot does not run it.
    s = step["cancelled at once"]
    assert s["result"]["status"] == CANCELED, s
    # Bad goals: refused with a reason; none reaches the controller.
    for name, words in (("far start", "gate_start_tolerance"), ("unknown joint", "unknown joint 'elbow'"), ("no points", "no points")):
        s = step[name]
        assert s["result"]["status"] == ABORTED and s["result"]["error_code"] == -1, (name, s)
        assert s["result"]["error_string"].startswith("ccd_guard: invalid: ") and words in s["result"]["error_string"], (name, s)
        assert not controller_got(name)
    assert "unreadable goal" in log
    # A flood: every goal gets its result; each newer goal preempts the ones before it
    # (those still waiting for their check at the gate, the one running at the controller),
    # so none is refused as busy whatever the machine's load, and the last runs to the end.
    flood = step["flood"]["results"]
    assert len(flood) == 8 and flood[-1]["status"] == SUCCEEDED, flood
    assert all(r["status"] == CANCELED and "preempted" in r["error_string"] for r in flood[:-1]), flood
    # A controller with no action server: the goal fails with a reason.
    s = step["ghost"]
    assert s["result"]["status"] == ABORTED and "did not answer" in s["result"]["error_string"], s
