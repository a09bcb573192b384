"""The node's CDR against rosbags' (issue 6, item 2): for every message the node sends or
receives, the bytes our transport writes for a message equal rosbags' ``serialize_cdr``
of the same message, and what our transport reads from rosbags' bytes is the message.

rosbags builds its serializer from the ``.msg`` files alone (the core packages from its
Jazzy store, MoveIt's from ``interop/python/interfaces``, ours from ``msg/`` and ``srv/``),
so a wrong field order, type or alignment in our Rust types shows as a byte difference.

Random messages carry at most 3 bytes of octomap data, so PlanningSceneWorld and
PlanningScene are also sampled with real octomaps in ``world.octomap``: the binary
(writeBinaryData) and full (writeData) streams octomap's own library writes, thousands of
bytes, negative ``int8`` values among them. (``octomap_msgs/msg/Octomap`` and
``OctomapWithPose`` are covered inside them: the probe's codec table has no entry of
their own.)
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from conftest import octomap_file_bytes, octomap_keys, octomap_stream
from ros_interfaces import normalized, random_message, to_json, typestore

# Every type the node publishes, subscribes to, or serves, and the types inside them
# (so that a failure names the smallest wrong type).
TYPES = [
    "builtin_interfaces/msg/Time",
    "builtin_interfaces/msg/Duration",
    "std_msgs/msg/Header",
    "std_msgs/msg/ColorRGBA",
    "std_msgs/msg/String",
    "geometry_msgs/msg/Point",
    "geometry_msgs/msg/Vector3",
    "geometry_msgs/msg/Quaternion",
    "geometry_msgs/msg/Pose",
    "geometry_msgs/msg/TransformStamped",
    "geometry_msgs/msg/Polygon",
    "sensor_msgs/msg/JointState",
    "sensor_msgs/msg/MultiDOFJointState",
    "trajectory_msgs/msg/JointTrajectoryPoint",
    "trajectory_msgs/msg/JointTrajectory",
    "trajectory_msgs/msg/MultiDOFJointTrajectory",
    "shape_msgs/msg/SolidPrimitive",
    "shape_msgs/msg/Mesh",
    "shape_msgs/msg/Plane",
    "moveit_msgs/msg/CollisionObject",
    "moveit_msgs/msg/AttachedCollisionObject",
    "moveit_msgs/msg/RobotState",
    "moveit_msgs/msg/RobotTrajectory",
    "moveit_msgs/msg/DisplayTrajectory",
    "moveit_msgs/msg/AllowedCollisionMatrix",
    "moveit_msgs/msg/PlanningSceneWorld",
    "moveit_msgs/msg/PlanningScene",
    "visualization_msgs/msg/Marker",
    "visualization_msgs/msg/MarkerArray",
    "ccd_guard/msg/Contact",
    "ccd_guard/msg/CollisionVerdict",
    "ccd_guard/srv/CheckTrajectory_Request",
    "ccd_guard/srv/CheckTrajectory_Response",
    # The execution gate's action (issue 14): control_msgs' FollowJointTrajectory, the
    # action protocol's wrappers around it as ros2-client sends them, and action_msgs.
    "unique_identifier_msgs/msg/UUID",
    "action_msgs/msg/GoalInfo",
    "action_msgs/msg/GoalStatus",
    "action_msgs/msg/GoalStatusArray",
    "action_msgs/srv/CancelGoal_Request",
    "action_msgs/srv/CancelGoal_Response",
    "control_msgs/msg/JointTolerance",
    "control_msgs/msg/JointComponentTolerance",
    "control_msgs/action/FollowJointTrajectory_Goal",
    "control_msgs/action/FollowJointTrajectory_Result",
    "control_msgs/action/FollowJointTrajectory_Feedback",
    "control_msgs/action/FollowJointTrajectory_SendGoal_Request",
    "control_msgs/action/FollowJointTrajectory_SendGoal_Response",
    "control_msgs/action/FollowJointTrajectory_GetResult_Request",
    "control_msgs/action/FollowJointTrajectory_GetResult_Response",
    "control_msgs/action/FollowJointTrajectory_FeedbackMessage",
]
MESSAGES_PER_TYPE = 40


@pytest.fixture(scope="module")
def store():
    return typestore()


@pytest.fixture(scope="module")
def samples(store):
    """(type, rosbags message, JSON, rosbags' CDR bytes) for every type."""
    rng = random.Random(20261122)
    out = []
    for type_name in TYPES:
        for _ in range(MESSAGES_PER_TYPE):
            message = random_message(store, type_name, rng)
            if type_name.endswith("_GetResult_Response"):
                # A goal's status is one of action_msgs' seven (ros2-client reads it as such).
                message.status = rng.randrange(0, 7)
            if type_name.endswith("_SendGoal_Response"):
                # ros2-client keeps a time as nanoseconds: a valid stamp's nanosec is < 1e9.
                message.stamp.nanosec %= 1_000_000_000
            out.append((type_name, message, to_json(store, message, type_name), bytes(store.serialize_cdr(message, type_name))))
    for type_name, message in octomap_messages(store, rng):
        out.append((type_name, message, to_json(store, message, type_name), bytes(store.serialize_cdr(message, type_name))))
    return out


OCTOMAP_HOLDERS = ["moveit_msgs/msg/PlanningSceneWorld", "moveit_msgs/msg/PlanningScene"]


def octomap_messages(store, rng: random.Random):
    """Random PlanningSceneWorld and PlanningScene messages whose ``octomap`` carries a
    real map: the binary and the full stream of a tree of 300 random cells at 2 cm, as
    octomap writes them, and a one-node binary stream."""
    keys = octomap_keys(np.random.default_rng(20261123).uniform(-0.6, 0.6, (300, 3)), 0.02)
    bt, ot = octomap_file_bytes(keys, 0.02)
    streams = [(True, octomap_stream(bt)), (False, octomap_stream(ot)), (True, bytes([0b0000_1000, 0]))]
    for type_name in OCTOMAP_HOLDERS:
        for binary, data in streams:
            for _ in range(2):
                message = random_message(store, type_name, rng)
                world = message if type_name.endswith("World") else message.world
                octomap = world.octomap.octomap
                octomap.binary, octomap.id, octomap.resolution = binary, "OcTree", 0.02
                octomap.data = np.frombuffer(data, dtype=np.int8).copy()
                yield type_name, message


def test_every_type_is_covered(store, samples):
    assert {t for t, *_ in samples} == set(TYPES)
    assert all(t in store.fielddefs for t in TYPES)


def test_octomaps_are_sampled_with_real_streams(samples):
    """The octomap cases are there: binary and full streams of over a kilobyte, with
    negative int8 values, in both message types."""
    seen = set()
    for type_name, message, _, _ in samples:
        if type_name in OCTOMAP_HOLDERS:
            world = message if type_name.endswith("World") else message.world
            octomap = world.octomap.octomap
            if len(octomap.data) > 1000 and (octomap.data < 0).any():
                seen.add((type_name, bool(octomap.binary)))
    assert seen == {(t, b) for t in OCTOMAP_HOLDERS for b in (True, False)}, seen


def test_we_write_rosbags_bytes(run_probe, samples):
    answer = run_probe("cdr", {"messages": [{"type": t, "json": j} for t, _, j, _ in samples]})
    wrong = []
    for (type_name, _, _, expected), result in zip(samples, answer["results"], strict=True):
        assert "error" not in result, f"{type_name}: {result['error']}"
        ours = bytes.fromhex(result["cdr"])
        if ours != expected:
            first = next((i for i, (a, b) in enumerate(zip(ours, expected)) if a != b), min(len(ours), len(expected)))
            wrong.append(f"{type_name}: {len(ours)} vs {len(expected)} bytes, first difference at byte {first}")
    assert not wrong, "\n".join(wrong[:20])


def test_we_read_rosbags_bytes(run_probe, store, samples):
    answer = run_probe("cdr", {"messages": [{"type": t, "cdr": b.hex()} for t, _, _, b in samples]})
    for (type_name, _, expected, cdr), result in zip(samples, answer["results"], strict=True):
        assert "error" not in result, f"{type_name}: {result['error']}"
        assert normalized(store, result["json"], type_name) == normalized(store, expected, type_name), type_name
        # And back: rosbags reads the message we read.
        assert bytes(store.serialize_cdr(store.deserialize_cdr(cdr, type_name), type_name)) == cdr


def test_malformed_cdr_is_an_error_not_a_crash(run_probe, samples):
    """Truncated payloads, a bad encapsulation header and garbage: a clear error each."""
    cases = []
    for type_name, _, _, cdr in samples[::7]:
        if len(cdr) > 8:
            cases.append((type_name, cdr[: len(cdr) // 2]))
        cases.append((type_name, b"\x00\x01"))
        cases.append((type_name, b"\x77\x77\x00\x00" + cdr[4:]))
    cases.append(("trajectory_msgs/msg/JointTrajectory", b"\x00\x01\x00\x00" + b"\xff" * 64))
    answer = run_probe("cdr", {"messages": [{"type": t, "cdr": b.hex()} for t, b in cases]})
    for (type_name, _), result in zip(cases, answer["results"], strict=True):
        assert "error" in result and result["error"], f"{type_name}: malformed CDR accepted as {result}"
