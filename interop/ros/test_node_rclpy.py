"""The ccd_guard node as real ROS 2 Jazzy peers see it: rclpy nodes on rmw_fastrtps_cpp with
the rosidl types of std/sensor/trajectory/visualization_msgs, moveit_msgs, octomap_msgs,
control_msgs and ccd_guard's own interfaces.

Every test runs against both builds of the node (``node`` fixture, conftest.py): the
pure-Rust one and the rcl one. Verdicts are compared with ``ccd_guard check`` (the CLI) on
the same trajectory and scene: verdict, certified, time of contact, segment, the colliding
pairs, clearance.

Run (only inside a private network namespace):
    unshare -n sh -c 'ip link set lo up; . target/ros/env.sh; "$CCD_GUARD_ROS_PYTHON" -m pytest interop/ros'
"""
from __future__ import annotations

import copy
import math
import re
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

from conftest import DEMO, cli_report
from rclpy_peer import (HOME, JOINTS, LATCHED, RELIABLE, ROSOUT, int8_array, joint_trajectory, link_position, load_yaml,
                        octomap_bt_file, octomap_binary_stream, octomap_keys, stamp, verdict_text, wait_until)

from builtin_interfaces.msg import Duration
from ccd_guard.msg import CollisionVerdict
from ccd_guard.srv import CheckTrajectory
from geometry_msgs.msg import Point, Pose, Quaternion
from moveit_msgs.msg import CollisionObject, DisplayTrajectory, PlanningScene, RobotTrajectory
from octomap_msgs.msg import Octomap, OctomapWithPose
from sensor_msgs.msg import JointState
from shape_msgs.msg import SolidPrimitive
from std_msgs.msg import String
from trajectory_msgs.msg import JointTrajectory
from visualization_msgs.msg import Marker, MarkerArray

FREE = DEMO / "traj_free.yaml"
COLLIDE = DEMO / "traj_collide.yaml"
VERDICT_TOPIC = "/ccd_guard/verdict"
VERDICT_WAIT_S = 30.0


# ----------------------------------------------------------------------------- helpers

WARM_UP_STAMP = 1_000_000


def start(node, *params, **kwargs):
    """Starts the node; returns (process, peer, inbox of its verdicts, planned_trajectory
    publisher) once both ends know each other: a short free plan (stamped from
    WARM_UP_STAMP on) is published every second until its verdict comes back. (That rclpy
    sees a match does not mean the node has seen it yet; a verdict published before the
    node matched our reader would be lost.)"""
    guard = node.start(*params, **kwargs)
    peer = node.peer
    verdicts = peer.subscribe(CollisionVerdict, VERDICT_TOPIC, describe=verdict_text, matched_timeout=15)
    plans = peer.publisher(JointTrajectory, "/planned_trajectory")
    still = {"joint_names": JOINTS, "points": [{"positions": HOME, "time_from_start": 0.0}, {"positions": HOME, "time_from_start": 0.5}]}
    deadline = time.monotonic() + 20.0
    for k in range(20):
        plans.publish(joint_trajectory(still, WARM_UP_STAMP + k))
        try:
            verdicts.take(lambda v: v.trajectory_stamp.sec >= WARM_UP_STAMP, 1.0, "a verdict of a warm-up plan")
            break
        except AssertionError:
            if time.monotonic() > deadline or not guard.alive():
                raise
    else:
        raise AssertionError(f"no verdict of 20 warm-up plans on /planned_trajectory: {verdicts.snapshot()[-3:]}")
    return guard, peer, verdicts, plans


def check(peer, trajectory, method: str = "", start_state=None, timeout: float = 20.0):
    """The node's verdict through ~/check_trajectory."""
    request = CheckTrajectory.Request(trajectory=trajectory, method=method)
    if start_state is not None:
        request.start_state = start_state
    return peer.call(CheckTrajectory, "/ccd_guard/check_trajectory", request, timeout).verdict


def until_verdict(peer, path: Path, predicate, what: str, timeout: float = 15.0):
    """Asks ~/check_trajectory about ``path`` until the verdict satisfies ``predicate``: a
    scene update on another topic has landed (topics are not ordered with each other, and a
    publisher the node has not matched yet delivers late)."""
    seen = []

    def ok():
        v = check(peer, joint_trajectory(load_yaml(path), 0))
        seen[:] = [verdict_text(v)]
        return predicate(v)

    wait_until(ok, timeout, what, lambda: f"the last check_trajectory verdict: {seen}", period=0.25)


def others(v) -> set[str]:
    return {c.other for c in v.contacts}


def verdict_of(verdicts, stamp_sec: int, source: str | None = None, timeout: float = VERDICT_WAIT_S):
    what = f"verdict of the trajectory stamped {stamp_sec} s" + (f" from {source}" if source else "")
    return verdicts.take(lambda v: v.trajectory_stamp.sec == stamp_sec and (source is None or v.source == source), timeout, what)


def assert_as_cli(v, report: dict, rename: dict | None = None, tol: float = 1e-9):
    """The verdict message says what the CLI's report says (``rename``: the node's obstacle
    ids to the CLI's, e.g. ``<octomap>`` to the scene file's map id)."""
    rename = rename or {}
    said = f"node: {verdict_text(v)}\nCLI: { {k: report[k] for k in ('verdict', 'certified', 'method', 'time_of_contact', 'segment_index', 'min_clearance')} } contacts {[(c['link'], c['other'], c['time_of_contact']) for c in report['contacts']]}"
    assert (v.verdict, v.certified) == (report["verdict"], report["certified"]), said
    if report["time_of_contact"] is None:
        assert math.isnan(v.time_of_contact) and v.segment_index == -1, said
    else:
        assert v.time_of_contact == pytest.approx(report["time_of_contact"], abs=tol), said
        assert v.segment_index == report["segment_index"], said
    assert [(c.link, rename.get(c.other, c.other)) for c in v.contacts] == [(c["link"], c["other"]) for c in report["contacts"]], said
    for got, want in zip(v.contacts, report["contacts"]):
        assert got.time_of_contact == pytest.approx(want["time_of_contact"], abs=tol), said
        if want["max_penetration_depth"] is not None:
            assert got.max_penetration_depth == pytest.approx(want["max_penetration_depth"], rel=1e-6, abs=1e-9), said
    if report["min_clearance"] is not None:
        # To 0.5 mm only: the CLI's own min_clearance scatters by ~0.05 mm from run to run
        # on the demo's free motion without scene objects (a self pair; reported).
        assert v.min_clearance == pytest.approx(report["min_clearance"], abs=5e-4), said
    if report["verdict"] != "invalid":
        assert v.error == "", said


def wait_graph(problems, timeout: float, what: str):
    """Waits until ``problems()`` (a list of what is still wrong) is empty."""
    last = []

    def ok():
        last[:] = problems()
        return not last

    wait_until(ok, timeout, what, lambda: f"still wrong: {last}", period=0.2)


def write_scene(path: Path, objects_yaml: str, with_demo: bool = True) -> Path:
    base = (DEMO / "scene.yaml").read_text().rstrip("\n") + "\n" if with_demo else "frame_id: world\nobjects:\n"
    path.write_text(base + objects_yaml)
    return path


def write_trajectory(path: Path, joint_names, points) -> Path:
    path.write_text(yaml.safe_dump({"joint_names": list(joint_names), "points": points}))
    return path


def tool_at(positions) -> np.ndarray:
    return link_position(DEMO / "robot.urdf", dict(zip(JOINTS, positions)), "tool0")


INTRUDER_EDGE = 0.12


def intruder_at_first_stop() -> list[float]:
    """Where the tool is at the free trajectory's first waypoint (above the box, 2.5 s in):
    an obstacle there is in the way of the free motion."""
    return [float(x) for x in tool_at(load_yaml(FREE)["points"][1]["positions"])]


def intruder_object(op=CollisionObject.ADD, object_id="intruder") -> CollisionObject:
    at = intruder_at_first_stop()
    obj = CollisionObject(id=object_id, operation=op)
    obj.header.frame_id = "world"
    if op != CollisionObject.REMOVE:
        obj.pose = Pose(position=Point(x=at[0], y=at[1], z=at[2]))
        obj.primitives = [SolidPrimitive(type=SolidPrimitive.BOX, dimensions=[INTRUDER_EDGE] * 3)]
        obj.primitive_poses = [Pose()]
    return obj


def intruder_yaml() -> str:
    at = intruder_at_first_stop()
    return f"  - id: intruder\n    type: box\n    dimensions: [{INTRUDER_EDGE}, {INTRUDER_EDGE}, {INTRUDER_EDGE}]\n    pose: {{position: {at}, orientation: [0, 0, 0, 1]}}\n"


# ----------------------------------------------------------------------------- 1. discovery

NODE_SUBSCRIPTIONS = {
    "/planned_trajectory": "trajectory_msgs/msg/JointTrajectory",
    "/display_planned_path": "moveit_msgs/msg/DisplayTrajectory",
    "/joint_states": "sensor_msgs/msg/JointState",
    "/robot_description": "std_msgs/msg/String",
    "/collision_object": "moveit_msgs/msg/CollisionObject",
    "/monitored_planning_scene": "moveit_msgs/msg/PlanningScene",
}
NODE_PUBLICATIONS = {
    "/ccd_guard/verdict": "ccd_guard/msg/CollisionVerdict",
    "/ccd_guard/markers": "visualization_msgs/msg/MarkerArray",
    "/rosout": "rcl_interfaces/msg/Log",
    "/parameter_events": "rcl_interfaces/msg/ParameterEvent",
}
NODE_SERVICES = {
    "/ccd_guard/check_trajectory": "ccd_guard/srv/CheckTrajectory",
    "/ccd_guard/list_parameters": "rcl_interfaces/srv/ListParameters",
    "/ccd_guard/get_parameters": "rcl_interfaces/srv/GetParameters",
    "/ccd_guard/set_parameters": "rcl_interfaces/srv/SetParameters",
    "/ccd_guard/set_parameters_atomically": "rcl_interfaces/srv/SetParametersAtomically",
    "/ccd_guard/describe_parameters": "rcl_interfaces/srv/DescribeParameters",
    "/ccd_guard/get_parameter_types": "rcl_interfaces/srv/GetParameterTypes",
    "/ccd_guard/get_type_description": "type_description_interfaces/srv/GetTypeDescription",
}


def test_discovery_node_topics_services_and_endpoints(node):
    from rclpy.qos import DurabilityPolicy, ReliabilityPolicy

    node.start()
    n = node.peer.node

    def problems():
        out = []
        if ("ccd_guard", "/") not in n.get_node_names_and_namespaces():
            out.append(f"node /ccd_guard not among {n.get_node_names_and_namespaces()}")
        topics = dict(n.get_topic_names_and_types())
        for name, type_name in {**NODE_SUBSCRIPTIONS, **NODE_PUBLICATIONS}.items():
            if type_name not in topics.get(name, []):
                out.append(f"topic {name} [{type_name}]: graph says {topics.get(name)}")
        services = dict(n.get_service_names_and_types())
        for name, type_name in NODE_SERVICES.items():
            if services.get(name) != [type_name]:
                out.append(f"service {name} [{type_name}]: graph says {services.get(name)}")
        for name, type_name in NODE_SUBSCRIPTIONS.items():
            if not any(i.topic_type == type_name for i in endpoints(n.get_subscriptions_info_by_topic, name)):
                out.append(f"no subscription of /ccd_guard on {name} [{type_name}]")
        for name, type_name in NODE_PUBLICATIONS.items():
            if not any(i.topic_type == type_name for i in endpoints(n.get_publishers_info_by_topic, name)):
                out.append(f"no publisher of /ccd_guard on {name} [{type_name}]")
        return out

    wait_graph(problems, 20.0, "the node, its topics, services and endpoints on the graph")
    by_node = dict(n.get_service_names_and_types_by_node("ccd_guard", "/"))
    assert set(NODE_SERVICES) <= set(by_node), by_node
    (description,) = endpoints(n.get_subscriptions_info_by_topic, "/robot_description")
    assert description.qos_profile.durability == DurabilityPolicy.TRANSIENT_LOCAL, f"robot_description is subscribed {description.qos_profile}"
    (verdict,) = endpoints(n.get_publishers_info_by_topic, VERDICT_TOPIC)
    assert verdict.qos_profile.reliability == ReliabilityPolicy.RELIABLE, f"verdict is published {verdict.qos_profile}"
    # One endpoint per topic, as an rclcpp node has.
    counts = {f"sub {t}": len(endpoints(n.get_subscriptions_info_by_topic, t)) for t in NODE_SUBSCRIPTIONS}
    counts.update({f"pub {t}": len(endpoints(n.get_publishers_info_by_topic, t)) for t in NODE_PUBLICATIONS})
    detail = {f"pub {t}": [str(i.qos_profile) for i in endpoints(n.get_publishers_info_by_topic, t)] for t in NODE_PUBLICATIONS}
    assert all(c == 1 for c in counts.values()), f"endpoints of /ccd_guard per topic: {counts}; publishers' QoS: {detail}"


def endpoints(info_by_topic, topic: str) -> list:
    """The node's endpoints on ``topic`` (of get_publishers/subscriptions_info_by_topic)."""
    return [i for i in info_by_topic(topic) if (i.node_name, i.node_namespace) == ("ccd_guard", "/")]


# ----------------------------------------------------------------------------- 2. topics and the service

def test_planned_trajectory_free_and_colliding_with_markers(node):
    guard, peer, verdicts, plans = start(node)
    markers = peer.subscribe(MarkerArray, "/ccd_guard/markers", matched_timeout=15,
                             describe=lambda m: [(k.ns, k.action) for k in m.markers][:6])
    free_report, collide_report = cli_report(FREE), cli_report(COLLIDE)
    assert free_report["verdict"] == "collision_free" and collide_report["verdict"] == "collision", (free_report, collide_report)

    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=1))
    v = verdict_of(verdicts, 1)
    assert_as_cli(v, free_report)
    assert v.source == "planned_trajectory" and v.method == "certified" and v.header.frame_id == "world", verdict_text(v)
    assert (v.trajectory_stamp.sec, v.trajectory_stamp.nanosec) == (1, 0)
    assert v.tolerance == pytest.approx(0.001)
    free_markers = markers.take(timeout=10, what="markers of the free verdict")

    plans.publish(joint_trajectory(load_yaml(COLLIDE), stamp_sec=2))
    v = verdict_of(verdicts, 2)
    assert_as_cli(v, collide_report)
    assert v.contacts[0].link == "gripper" and v.contacts[0].other == "box", verdict_text(v)
    assert [v.contacts[0].point.x, v.contacts[0].point.y, v.contacts[0].point.z] == pytest.approx(collide_report["contacts"][0]["point"], abs=1e-9)
    collide_markers = markers.take(timeout=10, what="markers of the colliding verdict")

    # Each array first clears the last one's markers; a collision shows its contact point
    # where the CLI puts it, and the links at contact.
    assert [m.action for m in free_markers.markers] == [Marker.DELETEALL], [(m.ns, m.action) for m in free_markers.markers]
    assert collide_markers.markers[0].action == Marker.DELETEALL
    points = [m for m in collide_markers.markers if m.ns == "contact_points"]
    assert len(points) == len(collide_report["contacts"]), [(m.ns, m.action) for m in collide_markers.markers]
    p = points[0].pose.position
    assert [p.x, p.y, p.z] == pytest.approx(collide_report["contacts"][0]["point"], abs=1e-9)
    namespaces = {m.ns for m in collide_markers.markers}
    assert {"links_at_contact", "swept_bounds"} <= namespaces, namespaces
    assert guard.alive()


def _split_display(data: dict, stamp_sec: int) -> DisplayTrajectory:
    """The trajectory as move_group publishes a plan in two parts: each part's times from its start."""
    whole = joint_trajectory(data, stamp_sec)
    k = len(whole.points) // 2
    t0 = whole.points[k].time_from_start.sec + whole.points[k].time_from_start.nanosec * 1e-9
    first, second = copy.deepcopy(whole), copy.deepcopy(whole)
    first.points = first.points[: k + 1]
    second.points = second.points[k:]
    for p in second.points:
        t = p.time_from_start.sec + p.time_from_start.nanosec * 1e-9 - t0
        p.time_from_start = Duration(sec=int(math.floor(t)), nanosec=int(round((t - math.floor(t)) * 1e9)))
    display = DisplayTrajectory(model_id="demo_arm")
    display.trajectory = [RobotTrajectory(joint_trajectory=first), RobotTrajectory(joint_trajectory=second)]
    display.trajectory_start.joint_state.name = list(JOINTS)
    display.trajectory_start.joint_state.position = [float(q) for q in data["points"][0]["positions"]]
    return display


def test_display_planned_path_in_two_parts(node):
    _, peer, verdicts, _ = start(node)
    displays = peer.publisher(DisplayTrajectory, "/display_planned_path")
    displays.publish(_split_display(load_yaml(COLLIDE), 3))
    v = verdict_of(verdicts, 3)
    assert_as_cli(v, cli_report(COLLIDE))
    assert v.source == "display_planned_path", verdict_text(v)
    displays.publish(_split_display(load_yaml(FREE), 4))
    v = verdict_of(verdicts, 4)
    assert_as_cli(v, cli_report(FREE))
    assert v.source == "display_planned_path" and v.certified, verdict_text(v)


def test_collision_object_in_the_way_then_removed(node, tmp_path):
    _, peer, verdicts, plans = start(node)
    objects = peer.publisher(CollisionObject, "/collision_object")
    with_intruder = cli_report(FREE, write_scene(tmp_path / "scene_intruder.yaml", intruder_yaml()))
    assert with_intruder["verdict"] == "collision" and {c["other"] for c in with_intruder["contacts"]} == {"intruder"}, with_intruder

    objects.publish(intruder_object())
    until_verdict(peer, FREE, lambda v: "intruder" in others(v), "the node to take in the intruder")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=5))
    assert_as_cli(verdict_of(verdicts, 5), with_intruder)

    objects.publish(intruder_object(CollisionObject.REMOVE))
    until_verdict(peer, FREE, lambda v: "intruder" not in others(v), "the node to remove the intruder")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=6))
    assert_as_cli(verdict_of(verdicts, 6), cli_report(FREE))


def test_planning_scene_diff_and_full(node, tmp_path):
    _, peer, verdicts, plans = start(node)
    scenes = peer.publisher(PlanningScene, "/monitored_planning_scene")
    only_intruder = write_scene(tmp_path / "only_intruder.yaml", intruder_yaml(), with_demo=False)
    demo_and_intruder = cli_report(FREE, write_scene(tmp_path / "scene_intruder.yaml", intruder_yaml()))
    # Without the demo scene's box, the colliding trajectory is free: a full scene without
    # the box must give the CLI's verdict on a scene without it.
    collide_in_empty_world = cli_report(COLLIDE, None)
    assert collide_in_empty_world["verdict"] != "collision", collide_in_empty_world

    diff = PlanningScene(is_diff=True)
    diff.world.collision_objects = [intruder_object()]
    scenes.publish(diff)
    until_verdict(peer, FREE, lambda v: "intruder" in others(v), "the node to take in the diff's intruder")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=7))
    assert_as_cli(verdict_of(verdicts, 7), demo_and_intruder)

    removal = PlanningScene(is_diff=True)
    removal.world.collision_objects = [intruder_object(CollisionObject.REMOVE)]
    scenes.publish(removal)
    until_verdict(peer, FREE, lambda v: "intruder" not in others(v), "the node to remove the intruder")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=8))
    assert_as_cli(verdict_of(verdicts, 8), cli_report(FREE))

    # A full scene replaces the world (MoveIt's planning scene monitor clears it first).
    full = PlanningScene(is_diff=False, name="intruder only")
    full.world.collision_objects = [intruder_object()]
    scenes.publish(full)
    until_verdict(peer, FREE, lambda v: "intruder" in others(v), "the node to take in the full scene")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=9))
    assert_as_cli(verdict_of(verdicts, 9), cli_report(FREE, only_intruder))
    plans.publish(joint_trajectory(load_yaml(COLLIDE), stamp_sec=10))
    assert_as_cli(verdict_of(verdicts, 10), cli_report(COLLIDE, only_intruder))

    scenes.publish(PlanningScene(is_diff=False, name="empty"))
    until_verdict(peer, FREE, lambda v: "intruder" not in others(v), "the node to take in the empty full scene")
    plans.publish(joint_trajectory(load_yaml(COLLIDE), stamp_sec=11))
    assert_as_cli(verdict_of(verdicts, 11), collide_in_empty_world)


def test_joint_states_current_state(node, tmp_path):
    _, peer, verdicts, _ = start(node, "check_current_state:=true")
    states = peer.publisher(JointState, "/joint_states")
    inside_box = [float(q) for q in load_yaml(COLLIDE)["points"][2]["positions"]]
    still = cli_report(write_trajectory(tmp_path / "inside_box.yaml", JOINTS, [
        {"positions": inside_box, "time_from_start": 0.0}, {"positions": inside_box, "time_from_start": 1.0}]))
    assert still["verdict"] == "collision", still

    states.publish(JointState(name=list(JOINTS), position=inside_box))
    v = verdicts.take(lambda v: v.source == "joint_states", VERDICT_WAIT_S, "a verdict of the joint_states configuration")
    assert (v.verdict, v.certified, v.method) == ("collision", False, "current_state"), verdict_text(v)
    assert {(c.link, c.other) for c in v.contacts} == {(c["link"], c["other"]) for c in still["contacts"]}, (verdict_text(v), still["contacts"])

    states.publish(JointState(name=list(JOINTS), position=list(HOME)))
    v = verdicts.take(lambda v: v.source == "joint_states", VERDICT_WAIT_S, "a verdict when the configuration stops colliding")
    assert (v.verdict, v.certified, v.method) == ("collision_free", False, "current_state"), verdict_text(v)
    assert not v.contacts


def test_check_trajectory_service(node):
    start(node)
    peer = node.peer
    free = peer.call(CheckTrajectory, "/ccd_guard/check_trajectory", CheckTrajectory.Request(trajectory=joint_trajectory(load_yaml(FREE), 12)))
    assert_as_cli(free.verdict, cli_report(FREE))
    assert free.verdict.method == "certified" and free.verdict.trajectory_stamp.sec == 12, verdict_text(free.verdict)

    request = CheckTrajectory.Request(trajectory=joint_trajectory(load_yaml(COLLIDE), 13), method="pipeline")
    collide = peer.call(CheckTrajectory, "/ccd_guard/check_trajectory", request)
    assert_as_cli(collide.verdict, cli_report(COLLIDE, DEMO / "scene.yaml", "--method", "pipeline"))
    assert collide.verdict.method == "pipeline", verdict_text(collide.verdict)

    # The start state fills in a joint the trajectory leaves out: joint6 is the continuous
    # wrist, held where the start state puts it.
    data = load_yaml(FREE)
    five = {"joint_names": data["joint_names"][:5], "points": [{"positions": p["positions"][:5], "time_from_start": p["time_from_start"]} for p in data["points"]]}
    request = CheckTrajectory.Request(trajectory=joint_trajectory(five, 14), start_state=JointState(name=["joint6"], position=[0.0]))
    partial = peer.call(CheckTrajectory, "/ccd_guard/check_trajectory", request)
    assert partial.verdict.verdict in ("collision_free", "collision", "uncertain") and partial.verdict.error == "", verdict_text(partial.verdict)


# ----------------------------------------------------------------------------- 3. parameters

DECLARED = {
    "robot_description", "robot_description_semantic", "urdf_file", "srdf_file", "scene_file", "package_dirs", "method",
    "tolerance", "resolution", "first_only", "queue_size", "check_current_state", "planning_frame", "publish_markers",
    "service_mapping", "gate_controllers", "gate_controllers_namespace", "gate_start_tolerance", "gate_min_clearance",
    "gate_recheck_period", "use_sim_time",
}


def _parameter_client(peer):
    from rclpy.parameter_client import AsyncParameterClient

    client = AsyncParameterClient(peer.node, "/ccd_guard")
    assert client.wait_for_services(15.0), f"the parameter services of /ccd_guard did not appear: {peer.node.get_service_names_and_types()}"
    return client


def _set(peer, client, *parameters):
    response = peer.wait_future(client.set_parameters(list(parameters)), 15.0, f"set_parameters {[p.name for p in parameters]}")
    return response.results


def _get(peer, client, *names):
    from rclpy.parameter import parameter_value_to_python

    response = peer.wait_future(client.get_parameters(list(names)), 15.0, f"get_parameters {names}")
    assert len(response.values) == len(names), response
    return [parameter_value_to_python(v) for v in response.values]


def test_parameters(node, tmp_path):
    from rcl_interfaces.msg import ParameterEvent, ParameterType
    from rclpy.parameter import Parameter

    events = node.peer.subscribe(ParameterEvent, "/parameter_events", describe=lambda e: (e.node, [p.name for p in e.new_parameters], [p.name for p in e.changed_parameters]))
    _, peer, verdicts, plans = start(node)
    client = _parameter_client(peer)

    listed = peer.wait_future(client.list_parameters(), 15.0, "list_parameters").result
    assert set(listed.names) == DECLARED, f"missing {DECLARED - set(listed.names)}, unexpected {set(listed.names) - DECLARED}"

    assert _get(peer, client, "method", "tolerance", "queue_size", "first_only", "urdf_file", "gate_controllers") == [
        "certified", 0.001, 4, False, str(DEMO / "robot.urdf"), []]
    types = peer.wait_future(client.get_parameter_types(["method", "tolerance", "queue_size", "first_only", "gate_controllers"]), 15.0, "get_parameter_types").types
    assert list(types) == [ParameterType.PARAMETER_STRING, ParameterType.PARAMETER_DOUBLE, ParameterType.PARAMETER_INTEGER,
                           ParameterType.PARAMETER_BOOL, ParameterType.PARAMETER_STRING_ARRAY], types

    described = peer.wait_future(client.describe_parameters(["queue_size", "gate_controllers", "method", "tolerance"]), 15.0, "describe_parameters").descriptors
    d = {x.name: x for x in described}
    assert set(d) == {"queue_size", "gate_controllers", "method", "tolerance"}, described
    q = d["queue_size"]
    assert q.type == ParameterType.PARAMETER_INTEGER and not q.read_only and q.description, q
    assert [(r.from_value, r.to_value, r.step) for r in q.integer_range] == [(1, 1024, 1)], q
    assert d["gate_controllers"].read_only and d["gate_controllers"].type == ParameterType.PARAMETER_STRING_ARRAY, d["gate_controllers"]
    assert d["method"].type == ParameterType.PARAMETER_STRING and not d["method"].read_only, d["method"]
    assert d["tolerance"].type == ParameterType.PARAMETER_DOUBLE, d["tolerance"]

    # Refused, each with a reason, and nothing changes.
    (wrong_type,) = _set(peer, client, Parameter("tolerance", Parameter.Type.STRING, "tight"))
    assert not wrong_type.successful and wrong_type.reason, wrong_type
    (read_only,) = _set(peer, client, Parameter("gate_controllers", Parameter.Type.STRING_ARRAY, ["arm_controller"]))
    assert not read_only.successful and "read" in read_only.reason.lower(), read_only
    (out_of_range,) = _set(peer, client, Parameter("queue_size", Parameter.Type.INTEGER, 0))
    assert not out_of_range.successful and out_of_range.reason, out_of_range
    (bad_value,) = _set(peer, client, Parameter("method", Parameter.Type.STRING, "guesswork"))
    assert not bad_value.successful and bad_value.reason, bad_value
    (undeclared,) = _set(peer, client, Parameter("no_such_parameter", Parameter.Type.BOOL, True))
    assert not undeclared.successful and undeclared.reason, undeclared
    atomically = peer.wait_future(client.set_parameters_atomically([Parameter("first_only", Parameter.Type.BOOL, True), Parameter("queue_size", Parameter.Type.INTEGER, 0)]),
                                  15.0, "set_parameters_atomically").result
    assert not atomically.successful and atomically.reason, atomically
    assert _get(peer, client, "tolerance", "gate_controllers", "queue_size", "method", "first_only") == [0.001, [], 4, "certified", False]

    # A good value: taken, announced on /parameter_events, in effect on the next check.
    (ok,) = _set(peer, client, Parameter("method", Parameter.Type.STRING, "sampled"))
    assert ok.successful, ok
    assert _get(peer, client, "method") == ["sampled"]
    event = events.take(lambda e: e.node == "/ccd_guard" and any(p.name == "method" for p in e.changed_parameters), 10.0, "the change of 'method'")
    (changed,) = [p for p in event.changed_parameters if p.name == "method"]
    assert changed.value.type == ParameterType.PARAMETER_STRING and changed.value.string_value == "sampled", event
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=15))
    v = verdict_of(verdicts, 15)
    sampled = cli_report(FREE, DEMO / "scene.yaml", "--method", "sampled")
    assert v.method == "sampled", verdict_text(v)
    assert_as_cli(v, sampled)

    (ok,) = _set(peer, client, Parameter("method", Parameter.Type.STRING, "certified"), )
    (ok2,) = _set(peer, client, Parameter("tolerance", Parameter.Type.DOUBLE, 0.004))
    assert ok.successful and ok2.successful, (ok, ok2)
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=16))
    v = verdict_of(verdicts, 16)
    assert v.method == "certified" and v.tolerance == pytest.approx(0.004), verdict_text(v)
    assert_as_cli(v, cli_report(FREE, DEMO / "scene.yaml", "--tolerance", "0.004"))

    # first_only: the colliding plan's report stops at its first contact, as --first-only.
    (ok,) = _set(peer, client, Parameter("first_only", Parameter.Type.BOOL, True))
    assert ok.successful, ok
    plans.publish(joint_trajectory(load_yaml(COLLIDE), stamp_sec=33))
    v = verdict_of(verdicts, 33)
    first = cli_report(COLLIDE, DEMO / "scene.yaml", "--first-only", "--tolerance", "0.004")
    assert len(v.contacts) == len(first["contacts"]) == 1, (verdict_text(v), first["contacts"])
    assert (v.verdict, v.contacts[0].link, v.contacts[0].other) == (first["verdict"], first["contacts"][0]["link"], first["contacts"][0]["other"]), verdict_text(v)
    assert v.time_of_contact == pytest.approx(first["time_of_contact"], abs=1e-9), verdict_text(v)

    # A new scene_file: the next check is in the new scene.
    scene = write_scene(tmp_path / "scene_intruder.yaml", intruder_yaml())
    (ok,) = _set(peer, client, Parameter("first_only", Parameter.Type.BOOL, False), )
    (ok2,) = _set(peer, client, Parameter("scene_file", Parameter.Type.STRING, str(scene)))
    assert ok.successful and ok2.successful, (ok, ok2)
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=34))
    assert_as_cli(verdict_of(verdicts, 34), cli_report(FREE, scene, "--tolerance", "0.004"))
    started = [e for e in events.snapshot() if e.node == "/ccd_guard" and e.new_parameters]
    print(f"new_parameters events of /ccd_guard seen by a subscriber that existed before the node: {len(started)}")


# ----------------------------------------------------------------------------- 4. /rosout

def test_rosout(node):
    from rcl_interfaces.msg import Log

    rosout = node.peer.subscribe(Log, "/rosout", qos=ROSOUT, describe=lambda m: (m.name, m.level, m.msg[:80]))
    _, peer, verdicts, plans = start(node)
    ready = rosout.take(lambda m: m.name == "ccd_guard" and m.msg.startswith("ready:"), 15.0, "the node's 'ready' line")
    assert ready.level == Log.INFO, ready
    assert ready.stamp.sec > 0, ready
    plans.publish(joint_trajectory(load_yaml(COLLIDE), stamp_sec=17))
    verdict_of(verdicts, 17)
    line = rosout.take(lambda m: m.name == "ccd_guard" and re.search(r"\bcollision\b(?!_)", m.msg) and not m.msg.startswith("ready:"),
                       10.0, "a line about the colliding verdict")
    assert line.level in (Log.INFO, Log.WARN), line


def test_type_descriptions(node):
    """~/get_type_description, as Jazzy's nodes serve it: the installed description of a
    type, its hash checked; an unknown type or another hash refused with the reason."""
    import json
    import os

    from type_description_interfaces.srv import GetTypeDescription

    start(node)
    installed = next(Path(p) / "share/ccd_guard/msg/CollisionVerdict.json" for p in os.environ["AMENT_PREFIX_PATH"].split(":")
                     if (Path(p) / "share/ccd_guard/msg/CollisionVerdict.json").is_file())
    hashes = {h["type_name"]: h["hash_string"] for h in json.loads(installed.read_text())["type_hashes"]}
    ask = lambda name, type_hash="": node.peer.call(GetTypeDescription, "/ccd_guard/get_type_description",
                                                    GetTypeDescription.Request(type_name=name, type_hash=type_hash, include_type_sources=True))
    answer = ask("ccd_guard/msg/CollisionVerdict", hashes["ccd_guard/msg/CollisionVerdict"])
    assert answer.successful, answer.failure_reason
    described = answer.type_description.type_description
    assert described.type_name == "ccd_guard/msg/CollisionVerdict"
    assert [f.name for f in described.fields][:3] == ["header", "source", "trajectory_stamp"], [f.name for f in described.fields]
    assert {t.type_name for t in answer.type_description.referenced_type_descriptions} >= {"ccd_guard/msg/Contact", "std_msgs/msg/Header"}
    assert any("CollisionVerdict" in s.type_name and "verdict" in s.raw_file_contents for s in answer.type_sources), answer.type_sources
    wrong = ask("ccd_guard/msg/CollisionVerdict", "RIHS01_" + "0" * 64)
    assert not wrong.successful and "hash" in wrong.failure_reason, wrong
    unknown = ask("no_such_pkg/msg/Nothing")
    assert not unknown.successful and "not installed" in unknown.failure_reason, unknown


# ----------------------------------------------------------------------------- 5. use_sim_time

def _clock_publisher(peer, seconds: float):
    """/clock at ``seconds``, 20 times a second; returns once a check_trajectory verdict is
    stamped with it (the node has matched the publisher)."""
    from rosgraph_msgs.msg import Clock

    pub = peer.publisher(Clock, "/clock")
    msg = Clock(clock=stamp(seconds))
    pub.publish(msg)
    timer = peer.node.create_timer(0.05, lambda: pub.publish(msg))
    until_verdict(peer, FREE, lambda v: (v.header.stamp.sec, v.header.stamp.nanosec) == (msg.clock.sec, msg.clock.nanosec),
                  f"a check_trajectory verdict stamped with /clock's {seconds} s")
    return pub, timer


def test_use_sim_time_from_the_start(node):
    _, peer, verdicts, plans = start(node, "use_sim_time:=true")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=18))
    v = verdict_of(verdicts, 18)
    assert (v.header.stamp.sec, v.header.stamp.nanosec) == (0, 0), f"before any /clock: {v.header.stamp} ({verdict_text(v)})"
    _clock_publisher(peer, 1234.5)
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=19))
    v = verdict_of(verdicts, 19)
    assert (v.header.stamp.sec, v.header.stamp.nanosec) == (1234, 500_000_000), f"after /clock at 1234.5 s: {v.header.stamp}"


def test_use_sim_time_set_at_run_time(node):
    from rclpy.parameter import Parameter

    _, peer, verdicts, plans = start(node)
    client = _parameter_client(peer)
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=20))
    v = verdict_of(verdicts, 20)
    assert abs(v.header.stamp.sec - time.time()) < 60, f"system time expected: {v.header.stamp}"
    (ok,) = _set(peer, client, Parameter("use_sim_time", Parameter.Type.BOOL, True))
    assert ok.successful, ok
    _, timer = _clock_publisher(peer, 77.25)
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=21))
    v = verdict_of(verdicts, 21)
    assert (v.header.stamp.sec, v.header.stamp.nanosec) == (77, 250_000_000), f"after use_sim_time:=true and /clock at 77.25 s: {v.header.stamp}"
    (ok,) = _set(peer, client, Parameter("use_sim_time", Parameter.Type.BOOL, False))
    assert ok.successful, ok
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=22))
    v = verdict_of(verdicts, 22)
    assert abs(v.header.stamp.sec - time.time()) < 60, f"system time expected again after use_sim_time:=false: {v.header.stamp}"
    timer.cancel()


# ----------------------------------------------------------------------------- 6. the gate

SUCCEEDED, CANCELED, ABORTED = 4, 5, 6
GATE_SPEED = 4.0  # the demo trajectories run this much faster


class FakeController:
    """A joint_trajectory_controller stand-in on rclpy: an ActionServer on
    /arm_controller/follow_joint_trajectory that runs goals (linear between points) and
    publishes /joint_states at 50 Hz."""

    def __init__(self, peer):
        import threading

        from control_msgs.action import FollowJointTrajectory
        from rclpy.action import ActionServer, GoalResponse
        from rclpy.callback_groups import ReentrantCallbackGroup

        self.Action = FollowJointTrajectory
        self.lock = threading.Lock()
        self.position = list(HOME)
        self.goals: list[bytes] = []
        self.cancels: list[bytes] = []
        group = ReentrantCallbackGroup()
        self.states = peer.node.create_publisher(JointState, "/joint_states", RELIABLE)
        self.timer = peer.node.create_timer(0.02, self._publish_state, callback_group=group)
        self.server = ActionServer(peer.node, FollowJointTrajectory, "/arm_controller/follow_joint_trajectory", self._execute,
                                   goal_callback=lambda goal: GoalResponse.ACCEPT, cancel_callback=self._cancel, callback_group=group)

    def _publish_state(self):
        with self.lock:
            position = list(self.position)
        self.states.publish(JointState(name=list(JOINTS), position=position))

    def _cancel(self, goal_handle):
        from rclpy.action import CancelResponse

        with self.lock:
            self.cancels.append(bytes(goal_handle.goal_id.uuid))
        return CancelResponse.ACCEPT

    def _execute(self, goal_handle):
        trajectory = goal_handle.request.trajectory
        with self.lock:
            self.goals.append(bytes(goal_handle.goal_id.uuid))
            start_position = list(self.position)
        columns = [JOINTS.index(n) for n in trajectory.joint_names]
        times = [p.time_from_start.sec + p.time_from_start.nanosec * 1e-9 for p in trajectory.points]
        began = time.monotonic()
        while True:
            if goal_handle.is_cancel_requested:
                goal_handle.canceled()
                return self.Action.Result(error_code=0, error_string="cancelled")
            if not goal_handle.is_active:
                return self.Action.Result()
            elapsed = time.monotonic() - began
            previous_t, previous = 0.0, [start_position[c] for c in columns]
            target = list(trajectory.points[-1].positions)
            for t, p in zip(times, trajectory.points):
                if elapsed <= t:
                    share = min(max((elapsed - previous_t) / max(t - previous_t, 1e-9), 0.0), 1.0)
                    target = [a + share * (b - a) for a, b in zip(previous, p.positions)]
                    break
                previous_t, previous = t, list(p.positions)
            with self.lock:
                for c, value in zip(columns, target):
                    self.position[c] = value
            feedback = self.Action.Feedback(joint_names=list(trajectory.joint_names))
            feedback.desired.positions = target
            feedback.actual.positions = target
            goal_handle.publish_feedback(feedback)
            if elapsed > times[-1]:
                # Where the motion ended first, as the state broadcaster has it by the time
                # a real controller reports success.
                self._publish_state()
                time.sleep(0.1)
                goal_handle.succeed()
                return self.Action.Result(error_code=0)
            time.sleep(0.02)


def test_gate_forwards_only_certified_goals_and_relays_cancel(node):
    from control_msgs.action import FollowJointTrajectory
    from rclpy.action import ActionClient

    peer = node.peer
    controller = FakeController(peer)
    inside_box = [float(q) for q in load_yaml(COLLIDE)["points"][2]["positions"]]
    with controller.lock:
        controller.position = list(inside_box)
    _, _, verdicts, _ = start(node, "gate_controllers:=[arm_controller]")
    n = peer.node
    client = ActionClient(n, FollowJointTrajectory, "/ccd_guard/arm_controller/follow_joint_trajectory")
    assert client.wait_for_server(timeout_sec=15.0), f"the gate's action server did not appear: {n.get_service_names_and_types()}"
    wait_graph(lambda: [t for t in ("/arm_controller/follow_joint_trajectory/_action/feedback", "/joint_states")
                        if not any(i.node_name == "ccd_guard" for i in n.get_subscriptions_info_by_topic(t))],
               15.0, "the gate's subscriptions to the controller's feedback and to /joint_states")
    # The node hears the controller's joint states: it says when the robot, standing in the
    # box, collides (check_current_state), and when, back home, it no longer does.
    v = verdicts.take(lambda v: v.source == "joint_states", 20.0, "the joint_states verdict of the robot standing in the box")
    assert v.verdict == "collision", verdict_text(v)
    with controller.lock:
        controller.position = list(HOME)
    v = verdicts.take(lambda v: v.source == "joint_states", 20.0, "the joint_states verdict of the robot back home")
    assert v.verdict == "collision_free", verdict_text(v)
    feedback_count = {}

    def send(path: Path):
        goal = FollowJointTrajectory.Goal(trajectory=joint_trajectory(load_yaml(path), 0, speed=GATE_SPEED))
        with controller.lock:
            goal.trajectory.points[0].positions = list(controller.position)  # as MoveIt plans: from where the robot is
        future = client.send_goal_async(goal, feedback_callback=lambda m: feedback_count.__setitem__(bytes(m.goal_id.uuid), feedback_count.get(bytes(m.goal_id.uuid), 0) + 1))
        handle = peer.wait_future(future, 15.0, f"send_goal ({path.name})")
        return handle

    def result(handle, timeout=30.0):
        return peer.wait_future(handle.get_result_async(), timeout, "get_result")

    # A free goal: forwarded (under the client's goal id by the pure-Rust build; r2r sends a
    # goal under an id of its own: docs/node.md, Transports), run, succeeded, feedback relayed.
    goals_before = len(controller.goals)
    handle = send(FREE)
    assert handle.accepted
    r = result(handle)
    assert (r.status, r.result.error_code) == (SUCCEEDED, 0), (r.status, r.result)
    free_id = bytes(handle.goal_id.uuid)
    assert len(controller.goals) == goals_before + 1, [g.hex() for g in controller.goals]
    if node.build == "dds":
        assert free_id in controller.goals, (free_id.hex(), [g.hex() for g in controller.goals])
    assert feedback_count.get(free_id, 0) > 0, feedback_count

    # A colliding goal: accepted, aborted with INVALID_GOAL (-1) naming the verdict and the
    # pair; the controller never sees it.
    goals_before = len(controller.goals)
    handle = send(COLLIDE)
    assert handle.accepted, "interfaces.md: a goal that is not certified is accepted, then aborted"
    r = result(handle)
    assert (r.status, r.result.error_code) == (ABORTED, -1), (r.status, r.result)
    assert r.result.error_string.startswith("ccd_guard: collision") and "box" in r.result.error_string, r.result
    assert len(controller.goals) == goals_before and bytes(handle.goal_id.uuid) not in controller.goals

    # A client's cancel of a running goal reaches the controller; the goal ends cancelled.
    goals_before = len(controller.goals)
    handle = send(FREE)
    wait_until(lambda: len(controller.goals) > goals_before, 10.0, "the free goal to reach the controller")
    at_controller = controller.goals[-1]
    if node.build == "dds":
        assert at_controller == bytes(handle.goal_id.uuid), (at_controller.hex(), bytes(handle.goal_id.uuid).hex())
    time.sleep(0.4)
    cancel = peer.wait_future(handle.cancel_goal_async(), 15.0, "cancel_goal")
    assert cancel.return_code == 0, cancel
    r = result(handle)
    assert r.status == CANCELED, (r.status, r.result)
    assert at_controller in controller.cancels, ([c.hex() for c in controller.cancels], at_controller.hex())
    client.destroy()
    controller.server.destroy()


# ----------------------------------------------------------------------------- 7. octomap

OCTOMAP_RESOLUTION = 0.02
OCTOMAP_BLOCK = 0.10
MAP_ORIGIN = ([0.05, -0.03, 0.02], [0.0, 0.0, math.sin(0.15), math.cos(0.15)])  # turned 0.3 rad about z


def _rotation(q):
    x, y, z, w = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _block_keys(centre):
    axis = np.arange(-OCTOMAP_BLOCK / 2, OCTOMAP_BLOCK / 2 + 1e-9, OCTOMAP_RESOLUTION / 2)
    world = np.stack(np.meshgrid(axis, axis, axis, indexing="ij"), -1).reshape(-1, 3) + np.asarray(centre)
    return octomap_keys((world - np.asarray(MAP_ORIGIN[0])) @ _rotation(MAP_ORIGIN[1]), OCTOMAP_RESOLUTION)


def test_planning_scene_octomap(node, tmp_path):
    _, peer, verdicts, plans = start(node)
    scenes = peer.publisher(PlanningScene, "/monitored_planning_scene")
    keys = _block_keys(intruder_at_first_stop())
    (tmp_path / "scan.bt").write_bytes(octomap_bt_file(keys, OCTOMAP_RESOLUTION))
    scene = write_scene(tmp_path / "scene_map.yaml", f"  - id: scan\n    type: octomap\n    file: scan.bt\n    pose: {{position: {MAP_ORIGIN[0]}, orientation: {MAP_ORIGIN[1]}}}\n")
    with_map = cli_report(FREE, scene)
    assert with_map["verdict"] == "collision" and {c["other"] for c in with_map["contacts"]} == {"scan"}, with_map

    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=23))
    assert_as_cli(verdict_of(verdicts, 23), cli_report(FREE))

    stream, _ = octomap_binary_stream(keys)
    octomap = OctomapWithPose(origin=Pose(position=Point(**dict(zip("xyz", MAP_ORIGIN[0]))), orientation=Quaternion(**dict(zip("xyzw", MAP_ORIGIN[1])))))
    octomap.header.frame_id = "world"
    octomap.octomap = Octomap(binary=True, id="OcTree", resolution=OCTOMAP_RESOLUTION, data=int8_array(stream))
    octomap.octomap.header.frame_id = "world"
    diff = PlanningScene(is_diff=True)
    diff.world.octomap = octomap
    scenes.publish(diff)
    until_verdict(peer, FREE, lambda v: v.contacts, "the node to take in the octomap")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=24))
    v = verdict_of(verdicts, 24)
    assert {c.other for c in v.contacts} == {"<octomap>"}, verdict_text(v)
    assert_as_cli(v, with_map, rename={"<octomap>": "scan"})

    # A full scene without a map removes it (and the scene file's objects).
    scenes.publish(PlanningScene(is_diff=False, name="no map"))
    until_verdict(peer, FREE, lambda v: not v.contacts, "the node to take in the full scene without a map")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=25))
    assert_as_cli(verdict_of(verdicts, 25), cli_report(FREE, None))


# ----------------------------------------------------------------------------- 8. bad input

def test_bad_input_is_invalid_and_the_node_serves_on(node):
    guard, peer, verdicts, plans = start(node)
    free = load_yaml(FREE)

    unknown = joint_trajectory(free, stamp_sec=26)
    unknown.joint_names = ["joint1", "elbow_x", "joint3", "joint4", "joint5", "joint6"]
    plans.publish(unknown)
    v = verdict_of(verdicts, 26)
    assert v.verdict == "invalid" and not v.certified and "elbow_x" in v.error, verdict_text(v)

    nan = joint_trajectory(free, stamp_sec=27)
    nan.points[1].positions[1] = float("nan")
    plans.publish(nan)
    v = verdict_of(verdicts, 27)
    assert v.verdict == "invalid" and not v.certified and v.error, verdict_text(v)

    empty = JointTrajectory(joint_names=list(JOINTS))
    empty.header.stamp.sec = 28
    plans.publish(empty)
    v = verdict_of(verdicts, 28)
    assert v.verdict == "invalid" and not v.certified and v.error, verdict_text(v)

    nothing = JointTrajectory()
    nothing.header.stamp.sec = 29
    plans.publish(nothing)
    v = verdict_of(verdicts, 29)
    assert v.verdict == "invalid" and not v.certified and v.error, verdict_text(v)

    answer = peer.call(CheckTrajectory, "/ccd_guard/check_trajectory", CheckTrajectory.Request(trajectory=unknown))
    assert answer.verdict.verdict == "invalid" and "elbow_x" in answer.verdict.error, verdict_text(answer.verdict)

    plans.publish(joint_trajectory(free, stamp_sec=30))
    assert_as_cli(verdict_of(verdicts, 30), cli_report(FREE))
    assert guard.alive()


# ----------------------------------------------------------------------------- robot_description

def test_robot_description_topic_brings_the_robot(node):
    guard, peer, verdicts, plans = start(node, urdf=False)
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=31))
    v = verdict_of(verdicts, 31)
    assert v.verdict == "invalid" and v.error, f"without a robot: {verdict_text(v)}"
    urdf = (DEMO / "robot.urdf").read_text().replace('filename="meshes/', f'filename="file://{DEMO}/meshes/')
    description = peer.publisher(String, "/robot_description", qos=LATCHED)
    description.publish(String(data=urdf))
    until_verdict(peer, FREE, lambda v: v.verdict != "invalid", "the node to take the robot from /robot_description")
    plans.publish(joint_trajectory(load_yaml(FREE), stamp_sec=32))
    assert_as_cli(verdict_of(verdicts, 32), cli_report(FREE))
