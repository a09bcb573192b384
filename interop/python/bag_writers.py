"""Bags of recorded plans and scenes for the `ccd_guard audit` tests, written by software we
did not write, and the world each recorded plan meets, replayed here independently of
ccd_guard, as the files `ccd_guard check` reads.

Writers:
- :func:`write_rosbag2`: rosbags' ``rosbag2.Writer`` (a bag folder with ``metadata.yaml``),
  MCAP or SQLite3 (``.db3``) storage, rosbag2 format 8 or 9, messages from a Humble or Jazzy
  type store (:func:`ros_interfaces.typestore`);
- :func:`write_mcap`: the ``mcap`` package's own writer, one ``.mcap`` file with the ``ros2``
  profile, ``ros2msg`` schemas (rosbags' message definitions, dependencies after lines of
  ``=``) and ``cdr`` messages (rosbags' ``serialize_cdr``), as ``ros2 bag record`` writes them.

A bag is a list of :class:`Event` (receive time, topic, type, message). :class:`WorldReplay`
replays the events up to a plan as the interface spec (``audit``) says: the ``--scene`` file,
then ``PlanningScene`` (full, diff, octomap) and ``CollisionObject`` messages in time order,
the latest ``JointState`` for the joints a plan leaves out (a DisplayTrajectory's
``trajectory_start`` first); and writes that world as a ``PlanningScene`` echo
(``is_diff: false``), the plan as a JointTrajectory / DisplayTrajectory echo and the start
state as a JointState, the inputs of `ccd_guard check`. (JSON is YAML: the echoes are
written as JSON, floats in their shortest round-trip form.)
"""
from __future__ import annotations

import copy
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from conftest import REPO_ROOT, octomap_file_bytes, octomap_keys, octomap_stream
from ros_interfaces import default_message, to_json

DEMO = REPO_ROOT / "assets" / "demo"
URDF = DEMO / "robot.urdf"
SRDF = DEMO / "robot.srdf"
SCENE = DEMO / "scene.yaml"

# 2024-11-27 09:33:20 UTC: receive times of the main scenario start here.
T0 = 1_732_700_000_000_000_000
SECOND = 1_000_000_000

JOINTS = [f"joint{i}" for i in range(1, 7)]
HOME = [0.0, -0.5, 1.9, 0.17, -1.5708, 0.0]

JOINT_STATE = "sensor_msgs/msg/JointState"
JOINT_TRAJECTORY = "trajectory_msgs/msg/JointTrajectory"
DISPLAY_TRAJECTORY = "moveit_msgs/msg/DisplayTrajectory"
COLLISION_OBJECT = "moveit_msgs/msg/CollisionObject"
PLANNING_SCENE = "moveit_msgs/msg/PlanningScene"
PLAN_TYPES = (JOINT_TRAJECTORY, DISPLAY_TRAJECTORY)

# moveit_msgs/CollisionObject operations, shape_msgs/SolidPrimitive types.
ADD, REMOVE, APPEND, MOVE = 0, 1, 2, 3
PRIMITIVE = {"box": 1, "sphere": 2, "cylinder": 3, "cone": 4}


# ----------------------------------------------------------------------------- events


@dataclass
class Event:
    """One recorded message: its receive time (ns), topic, type and message; ``raw`` the
    CDR bytes to record instead (a message that does not decode); ``expect`` the verdict
    a scenario means a plan to have."""

    stamp: int
    topic: str
    msgtype: str
    message: object = None
    raw: bytes | None = None
    expect: str | None = None

    @property
    def is_plan(self) -> bool:
        return self.msgtype in PLAN_TYPES

    def cdr(self, store) -> bytes:
        if self.raw is not None:
            return self.raw
        return bytes(store.serialize_cdr(self.message, self.msgtype))


def plans(events: list[Event]) -> list[Event]:
    return [e for e in events if e.is_plan]


# ----------------------------------------------------------------------------- messages


def time_msg(store, ns: int):
    return default_message(store, "builtin_interfaces/msg/Time", sec=ns // SECOND, nanosec=ns % SECOND)


def duration_msg(store, seconds: float):
    sec = int(np.floor(seconds))
    nanosec = int(round((seconds - sec) * 1e9))
    if nanosec == SECOND:
        sec, nanosec = sec + 1, 0
    return default_message(store, "builtin_interfaces/msg/Duration", sec=sec, nanosec=nanosec)


def header(store, stamp: int, frame: str = ""):
    return default_message(store, "std_msgs/msg/Header", stamp=time_msg(store, stamp), frame_id=frame)


def pose_msg(store, position, orientation=(0.0, 0.0, 0.0, 1.0)):
    x, y, z = (float(v) for v in position)
    qx, qy, qz, qw = (float(v) for v in orientation)
    return default_message(
        store, "geometry_msgs/msg/Pose",
        position=default_message(store, "geometry_msgs/msg/Point", x=x, y=y, z=z),
        orientation=default_message(store, "geometry_msgs/msg/Quaternion", x=qx, y=qy, z=qz, w=qw),
    )


def joint_state(store, stamp: int, names, positions):
    return default_message(store, JOINT_STATE, header=header(store, stamp), name=list(names), position=[float(p) for p in positions])


def joint_trajectory(store, stamp: int, names, points, frame: str = "world"):
    """``points``: (positions, time_from_start in seconds) pairs."""
    return default_message(
        store, JOINT_TRAJECTORY,
        header=header(store, stamp, frame),
        joint_names=list(names),
        points=[
            default_message(store, "trajectory_msgs/msg/JointTrajectoryPoint", positions=[float(p) for p in q], time_from_start=duration_msg(store, t))
            for q, t in points
        ],
    )


def display_trajectory(store, trajectory, start: tuple[list[str], list[float]] | None = None, model_id: str = "demo_arm"):
    """A DisplayTrajectory as move_group publishes it: ``trajectory`` one JointTrajectory
    (or a list: the parts of one motion), ``trajectory_start`` the plan's start state
    (``start``: names and positions)."""
    robot_state = default_message(store, "moveit_msgs/msg/RobotState")
    if start is not None:
        robot_state.joint_state = joint_state(store, 0, start[0], start[1])
    parts = trajectory if isinstance(trajectory, list) else [trajectory]
    parts = [default_message(store, "moveit_msgs/msg/RobotTrajectory", joint_trajectory=part) for part in parts]
    return default_message(store, DISPLAY_TRAJECTORY, model_id=model_id, trajectory=parts, trajectory_start=robot_state)


def demo_points(name: str, drop: tuple[str, ...] = ()) -> tuple[list[str], list[tuple[list[float], float]]]:
    """A demo trajectory (``traj_<name>.yaml``) as joint names and (positions, time) points,
    without the joints ``drop``."""
    data = yaml.safe_load((DEMO / f"traj_{name}.yaml").read_text())
    keep = [k for k, j in enumerate(data["joint_names"]) if j not in drop]
    names = [data["joint_names"][k] for k in keep]
    points = [([p["positions"][k] for k in keep], float(p["time_from_start"])) for p in data["points"]]
    return names, points


def solid_object(store, stamp: int, object_id: str, kind: str, dimensions, position, orientation=(0.0, 0.0, 0.0, 1.0), frame: str = "world", operation: int = ADD):
    """A CollisionObject of one primitive, placed by the object's pose (the primitive at
    the object's origin)."""
    primitive = default_message(store, "shape_msgs/msg/SolidPrimitive", type=PRIMITIVE[kind], dimensions=[float(d) for d in dimensions])
    return default_message(
        store, COLLISION_OBJECT,
        header=header(store, stamp, frame), pose=pose_msg(store, position, orientation), id=object_id,
        primitives=[primitive], primitive_poses=[pose_msg(store, (0, 0, 0))], operation=operation,
    )


def move_object(store, stamp: int, object_id: str, position, orientation=(0.0, 0.0, 0.0, 1.0), frame: str = "world"):
    return default_message(store, COLLISION_OBJECT, header=header(store, stamp, frame), pose=pose_msg(store, position, orientation), id=object_id, operation=MOVE)


def remove_object(store, stamp: int, object_id: str, frame: str = "world"):
    """REMOVE of ``object_id``; an empty id removes every object."""
    return default_message(store, COLLISION_OBJECT, header=header(store, stamp, frame), id=object_id, operation=REMOVE)


def scene_file_objects(store, path: Path = SCENE, stamp: int = 0) -> list:
    """The objects of a contract scene file (primitives only) as CollisionObject ADDs."""
    data = yaml.safe_load(path.read_text())
    frame = data.get("frame_id", "")
    out = []
    for o in data["objects"]:
        pose = o.get("pose", {})
        out.append(solid_object(store, stamp, o["id"], o["type"], o["dimensions"], pose.get("position", (0, 0, 0)), pose.get("orientation", (0, 0, 0, 1)), frame))
    return out


def octomap_with_pose(store, stamp: int, points, resolution: float, origin=(0.0, 0.0, 0.0), frame: str = "world", binary: bool = True):
    """An OctomapWithPose whose map (octomap's own library: one occupied cell per point, in
    the map's frame) stands at ``origin`` in ``frame``; its data the binary or full stream."""
    bt, ot = octomap_file_bytes(octomap_keys(points, resolution), resolution)
    stream = octomap_stream(bt if binary else ot)
    octomap = default_message(
        store, "octomap_msgs/msg/Octomap",
        header=header(store, stamp, frame), binary=binary, id="OcTree", resolution=resolution,
        data=np.frombuffer(stream, dtype=np.int8).copy(),
    )
    return default_message(store, "octomap_msgs/msg/OctomapWithPose", header=header(store, stamp, frame), origin=pose_msg(store, origin), octomap=octomap)


def planning_scene(store, stamp: int, *, is_diff: bool, objects=(), octomap=None, name: str = "demo_cell"):
    world = default_message(store, "moveit_msgs/msg/PlanningSceneWorld", collision_objects=list(objects))
    if octomap is not None:
        world.octomap = octomap
    return default_message(store, PLANNING_SCENE, name=name, robot_model_name="demo_arm", world=world, is_diff=is_diff)


# ----------------------------------------------------------------------------- the main scenario

# Where the free motion passes: the gripper above the bottle at t = 5.5 s (fingers down to
# z = 0.31), and in front of the shelf at t = 8.5 s (fingers along +x to x = 0.84).
CRATE = dict(kind="box", dimensions=(0.1, 0.1, 0.1), position=(0.38, -0.40, 0.30))
CRATE_AWAY = (1.5, 1.5, 0.3)
# A 5 mm ball 0.8 mm below a finger tip of the free motion's gripper above the bottle
# (t = 5.5 s): the motion passes it closer than the default tolerance (1 mm), untouched.
NEAR_MISS = dict(kind="sphere", dimensions=(0.005,), position=(0.37998, -0.37799, 0.3042))
# An octomap block around the fingers' path in front of the shelf, its origin 0.1 m along x.
OCTOMAP_ORIGIN = (0.1, 0.0, 0.0)
OCTOMAP_RESOLUTION = 0.02


def octomap_points() -> np.ndarray:
    """Cell centres of the block x in [0.78, 0.86], y in [-0.04, 0.04], z in [0.36, 0.44]
    (world), in the map's frame."""
    r = OCTOMAP_RESOLUTION
    axis = lambda lo, hi: np.arange(lo + r / 2, hi, r)  # noqa: E731
    grid = np.stack(np.meshgrid(axis(0.78, 0.86), axis(-0.04, 0.04), axis(0.36, 0.44), indexing="ij"), -1).reshape(-1, 3)
    return grid - np.asarray(OCTOMAP_ORIGIN)


def main_scenario(store, t0: int = T0) -> list[Event]:
    """Plans on three topics in a changing world (see the timeline below), with the verdict
    each is meant to have. Receive times increase; odd nanoseconds keep them distinct."""
    events: list[Event] = []

    def at(seconds: float) -> int:
        return t0 + int(round(seconds * SECOND)) + 123

    def add(seconds, topic, msgtype, message, expect=None):
        events.append(Event(at(seconds), topic, msgtype, message, expect=expect))

    def jt(seconds, name, drop=()):
        names, points = demo_points(name, drop)
        return joint_trajectory(store, at(seconds) - 7_000_000, names, points)

    def dt(seconds, name, drop=(), start=None):
        return display_trajectory(store, jt(seconds, name, drop), start)

    home_with = lambda **joints: (JOINTS + ["finger_joint"], [joints.get(j, HOME[k]) for k, j in enumerate(JOINTS)] + [0.01])  # noqa: E731

    add(0.1, "/joint_states", JOINT_STATE, joint_state(store, at(0.1), *home_with()))
    add(0.5, "/display_planned_path", DISPLAY_TRAJECTORY, dt(0.5, "free", start=(JOINTS, HOME)), "collision_free")
    add(1.0, "/planned_trajectory", JOINT_TRAJECTORY, jt(1.0, "collide"), "collision")
    add(1.5, "/arm/plan", JOINT_TRAJECTORY, jt(1.5, "thin"), "collision")
    # An object in the free motion's way: the same plan now collides.
    add(2.0, "/collision_object", COLLISION_OBJECT, solid_object(store, at(2.0), "crate", **CRATE))
    add(2.5, "/display_planned_path", DISPLAY_TRAJECTORY, dt(2.5, "free", start=(JOINTS, HOME)), "collision")
    add(3.0, "/collision_object", COLLISION_OBJECT, move_object(store, at(3.0), "crate", CRATE_AWAY, frame="base_link"))
    add(3.5, "/planned_trajectory", JOINT_TRAJECTORY, jt(3.5, "free"), "collision_free")
    # A near miss, added by a diff: closer than the tolerance, neither free nor colliding.
    add(4.0, "/monitored_planning_scene", PLANNING_SCENE, planning_scene(store, at(4.0), is_diff=True, objects=[solid_object(store, at(4.0), "near_miss", **NEAR_MISS)]))
    add(4.5, "/planned_trajectory", JOINT_TRAJECTORY, jt(4.5, "free"), "uncertain")
    add(5.0, "/collision_object", COLLISION_OBJECT, remove_object(store, at(5.0), "near_miss"))
    # Start states: a plan without joint1 takes it from /joint_states (-0.97: down onto the
    # bottle); a DisplayTrajectory's trajectory_start comes first (0.6: into the box).
    add(5.2, "/joint_states", JOINT_STATE, joint_state(store, at(5.2), *home_with(joint1=-0.97)))
    add(5.5, "/arm/plan", JOINT_TRAJECTORY, jt(5.5, "collide", drop=("joint1",)), "collision")
    add(6.0, "/display_planned_path", DISPLAY_TRAJECTORY, dt(6.0, "collide", drop=("joint1",), start=home_with(joint1=0.6)), "collision")
    add(6.5, "/joint_states", JOINT_STATE, joint_state(store, at(6.5), *home_with()))
    # A diff removes a scene-file object: the plan that went into the box is free.
    add(7.0, "/monitored_planning_scene", PLANNING_SCENE, planning_scene(store, at(7.0), is_diff=True, objects=[remove_object(store, at(7.0), "box")]))
    add(7.5, "/planned_trajectory", JOINT_TRAJECTORY, jt(7.5, "collide"), "collision_free")
    # A diff brings an octomap in the free motion's way.
    octomap = octomap_with_pose(store, at(8.0), octomap_points(), OCTOMAP_RESOLUTION, OCTOMAP_ORIGIN)
    add(8.0, "/monitored_planning_scene", PLANNING_SCENE, planning_scene(store, at(8.0), is_diff=True, octomap=octomap))
    add(8.5, "/display_planned_path", DISPLAY_TRAJECTORY, dt(8.5, "free", start=(JOINTS, HOME)), "collision")
    # A full scene: the table and the thin board alone (every other object and the map gone).
    kept = [o for o in scene_file_objects(store, stamp=at(9.0)) if o.id in ("table", "shelf_board")]
    add(9.0, "/monitored_planning_scene", PLANNING_SCENE, planning_scene(store, at(9.0), is_diff=False, objects=kept))
    add(9.5, "/arm/plan", JOINT_TRAJECTORY, jt(9.5, "thin"), "collision")
    add(10.0, "/display_planned_path", DISPLAY_TRAJECTORY, dt(10.0, "free", start=(JOINTS, HOME)), "collision_free")
    add(10.5, "/collision_object", COLLISION_OBJECT, solid_object(store, at(10.5), "crate", **CRATE))
    add(11.0, "/display_planned_path", DISPLAY_TRAJECTORY, dt(11.0, "free", start=(JOINTS, HOME)), "collision")
    # REMOVE with an empty id: every object goes.
    add(11.5, "/collision_object", COLLISION_OBJECT, remove_object(store, at(11.5), ""))
    add(12.0, "/arm/plan", JOINT_TRAJECTORY, jt(12.0, "thin"), "collision_free")
    # A full scene brings the scene file's objects back; a plan in two parts (the second
    # starting where the first ends, times from 0) is one motion: into the box again.
    add(12.5, "/monitored_planning_scene", PLANNING_SCENE, planning_scene(store, at(12.5), is_diff=False, objects=scene_file_objects(store, stamp=at(12.5))))
    names, points = demo_points("collide")
    first, second = points[:3], [(q, t - points[2][1]) for q, t in points[2:]]
    parts = [joint_trajectory(store, at(13.0) - 7_000_000, names, first), joint_trajectory(store, at(13.0) - 7_000_000, names, second)]
    add(13.0, "/display_planned_path", DISPLAY_TRAJECTORY, display_trajectory(store, parts, (JOINTS, HOME)), "collision")
    return events


def small_scenario(store, t0: int, plans_: list[tuple[str, str, str]], world: list[tuple[float, str, str, object]] = ()) -> list[Event]:
    """A bag of plans only (``plans_``: (topic, demo trajectory, expected verdict)), one
    second apart after a home /joint_states, with ``world`` events (seconds, topic, type,
    message) among them."""
    events = [Event(t0 + 100, "/joint_states", JOINT_STATE, joint_state(store, t0 + 100, JOINTS, HOME))]
    events += [Event(t0 + int(s * SECOND), topic, msgtype, message) for s, topic, msgtype, message in world]
    for k, (topic, name, expect) in enumerate(plans_):
        stamp = t0 + (k + 1) * SECOND + 456
        names, points = demo_points(name)
        message = joint_trajectory(store, stamp, names, points)
        if topic == "/display_planned_path":
            events.append(Event(stamp, topic, DISPLAY_TRAJECTORY, display_trajectory(store, message, (JOINTS, HOME)), expect=expect))
        else:
            events.append(Event(stamp, topic, JOINT_TRAJECTORY, message, expect=expect))
    return sorted(events, key=lambda e: e.stamp)


# ----------------------------------------------------------------------------- writers


def write_rosbag2(path: Path, events: list[Event], store, *, storage: str = "mcap", version: int = 9) -> Path:
    """A rosbag2 folder written by rosbags (``storage``: ``mcap`` or ``sqlite3``; uncompressed,
    as `ros2 bag record` writes by default)."""
    from rosbags.rosbag2 import StoragePlugin, Writer

    plugin = {"mcap": StoragePlugin.MCAP, "sqlite3": StoragePlugin.SQLITE3}[storage]
    with Writer(path, version=version, storage_plugin=plugin) as writer:
        connections = {}
        for event in events:
            key = (event.topic, event.msgtype)
            if key not in connections:
                connections[key] = writer.add_connection(event.topic, event.msgtype, typestore=store)
            writer.write(connections[key], event.stamp, event.cdr(store))
    return path


def bag_file(folder: Path) -> Path:
    """The one storage file of a rosbag2 folder."""
    (path,) = [p for p in folder.iterdir() if p.suffix in (".mcap", ".db3")]
    return path


def write_mcap(path: Path, events: list[Event], store, *, compression: str = "zstd", chunk_size: int = 1024 * 1024) -> Path:
    """One ``.mcap`` file written by the ``mcap`` package: profile ``ros2``, a ``ros2msg``
    schema per type (rosbags' definition of it), a ``cdr`` channel per topic."""
    from mcap.writer import CompressionType, Writer

    with open(path, "wb") as stream:
        writer = Writer(stream, chunk_size=chunk_size, compression={"zstd": CompressionType.ZSTD, "lz4": CompressionType.LZ4, "none": CompressionType.NONE}[compression])
        writer.start(profile="ros2", library="ccd_guard interop tests (mcap)")
        schemas: dict[str, int] = {}
        channels: dict[tuple[str, str], int] = {}
        sequence: dict[int, int] = {}
        for event in events:
            if event.msgtype not in schemas:
                msgdef, _ = store.generate_msgdef(event.msgtype, ros_version=2)
                schemas[event.msgtype] = writer.register_schema(name=event.msgtype, encoding="ros2msg", data=msgdef.encode())
            key = (event.topic, event.msgtype)
            if key not in channels:
                channels[key] = writer.register_channel(topic=event.topic, message_encoding="cdr", schema_id=schemas[event.msgtype], metadata={"offered_qos_profiles": ""})
            channel = channels[key]
            sequence[channel] = sequence.get(channel, 0) + 1
            writer.add_message(channel, log_time=event.stamp, data=event.cdr(store), publish_time=event.stamp - 1000, sequence=sequence[channel])
        writer.finish()
    return path


# ----------------------------------------------------------------------------- the expected world


def _echo_object(obj: dict) -> dict:
    """A collision object as the expected world holds it: ADD, in the planning frame."""
    obj = copy.deepcopy(obj)
    obj["operation"] = ADD
    obj["header"]["frame_id"] = ""
    return obj


class WorldReplay:
    """The world at each plan, replayed from a bag's events as the spec says, kept as the
    messages' JSON: objects by id, the octomap, the latest joint values."""

    # Frames that are the planning frame: the scene file's frame and the URDF root link.
    PLANNING_FRAMES = ("", "world", "base_link")

    def __init__(self, store, scene_file: Path | None = SCENE):
        self.store = store
        self.objects: dict[str, dict] = {}
        self.octomap: dict | None = None
        self.joints: dict[str, float] = {}
        if scene_file is not None:
            for obj in scene_file_objects(store, scene_file):
                self._collision_object(to_json(store, obj, COLLISION_OBJECT))

    def _collision_object(self, obj: dict) -> None:
        assert obj["header"]["frame_id"].lstrip("/") in self.PLANNING_FRAMES, "the replay places objects in the planning frame only"
        op, oid = obj["operation"], obj["id"]
        if op == ADD:
            self.objects[oid] = _echo_object(obj)
        elif op == REMOVE:
            if oid:
                self.objects.pop(oid, None)
            else:
                self.objects.clear()
        elif op == MOVE:
            self.objects[oid]["pose"] = copy.deepcopy(obj["pose"])
        else:
            raise NotImplementedError(f"operation {op}")

    def apply(self, event: Event) -> None:
        if event.raw is not None:
            return
        data = to_json(self.store, event.message, event.msgtype)
        if event.msgtype == JOINT_STATE:
            self.joints.update(zip(data["name"], data["position"]))
        elif event.msgtype == COLLISION_OBJECT:
            self._collision_object(data)
        elif event.msgtype == PLANNING_SCENE:
            assert not data["robot_state"]["joint_state"]["name"] and not data["robot_state"]["attached_collision_objects"]
            if not data["is_diff"]:
                self.objects.clear()
                self.octomap = None
            for obj in data["world"]["collision_objects"]:
                self._collision_object(obj)
            octomap = data["world"]["octomap"]
            if not data["is_diff"] or octomap["octomap"]["data"]:
                self.octomap = None
                if octomap["octomap"]["data"]:
                    octomap = copy.deepcopy(octomap)
                    assert octomap["header"]["frame_id"] in self.PLANNING_FRAMES
                    octomap["header"]["frame_id"] = ""
                    octomap["octomap"]["header"]["frame_id"] = ""
                    self.octomap = octomap

    def scene_echo(self) -> dict:
        """The world as a full PlanningScene (what `check --scene` reads)."""
        world = {"collision_objects": list(self.objects.values())}
        if self.octomap is not None:
            world["octomap"] = self.octomap
        return {"name": "expected", "is_diff": False, "world": world}

    def start_state(self, plan: Event) -> dict | None:
        """The latest joint values, a DisplayTrajectory's ``trajectory_start`` over them."""
        joints = dict(self.joints)
        if plan.msgtype == DISPLAY_TRAJECTORY:
            start = plan.message.trajectory_start.joint_state
            joints.update(zip(start.name, (float(p) for p in start.position)))
        if not joints:
            return None
        return {"name": list(joints), "position": list(joints.values())}

    def check_inputs(self, plan: Event, directory: Path, stem: str) -> dict[str, Path]:
        """The world and start state at ``plan`` and the plan itself, as files for `check`."""
        directory.mkdir(parents=True, exist_ok=True)
        files = {"scene": directory / f"{stem}.scene.yaml", "trajectory": directory / f"{stem}.trajectory.yaml"}
        files["scene"].write_text(json.dumps(self.scene_echo()))
        files["trajectory"].write_text(json.dumps(to_json(self.store, plan.message, plan.msgtype)))
        start = self.start_state(plan)
        if start is not None:
            files["start_state"] = directory / f"{stem}.start.yaml"
            files["start_state"].write_text(json.dumps(start))
        return files


def expected_inputs(events: list[Event], store, directory: Path, scene_file: Path | None = SCENE) -> list[dict[str, Path] | None]:
    """For each plan of ``events`` in order, the `check` inputs of its world (``None`` for a
    plan recorded as bytes that do not decode)."""
    replay = WorldReplay(store, scene_file)
    out = []
    for event in sorted(events, key=lambda e: e.stamp):
        if event.is_plan:
            out.append(None if event.raw is not None else replay.check_inputs(event, directory, f"plan{len(out):02d}"))
        else:
            replay.apply(event)
    return out
