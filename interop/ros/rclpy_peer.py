"""An rclpy peer of the ccd_guard node, and the node's process, for the ROS 2 suite.

``Peer`` is one rclpy node in its own context (its own ROS_DOMAIN_ID), spun by a
multi-threaded executor on a background thread, so a test can publish, wait for what
arrives (``Inbox``), call services and actions, all with time limits. ``GuardNode`` is the
ccd_guard node under test as a child process, its console in a log file.

Everything here waits with a timeout and says, when it gives up, what it waited for and
what did arrive.
"""
from __future__ import annotations

import array
import math
import os
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Callable

import rclpy
from rclpy.executors import ExternalShutdownException, MultiThreadedExecutor
from rclpy.qos import DurabilityPolicy, HistoryPolicy, QoSProfile, ReliabilityPolicy

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "assets" / "demo"
JOINTS = ["joint1", "joint2", "joint3", "joint4", "joint5", "joint6"]
HOME = [0.0, -0.5, 1.9, 0.17, -1.5708, 0.0]

RELIABLE = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE, history=HistoryPolicy.KEEP_LAST)
LATCHED = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL, history=HistoryPolicy.KEEP_LAST)
# What rcl's /rosout publisher offers (rcl_qos_profile_rosout_default): a late subscriber
# asking for transient local gets the lines sent before it matched.
ROSOUT = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL, history=HistoryPolicy.KEEP_LAST)


class WaitTimeout(AssertionError):
    pass


def wait_until(condition: Callable[[], object], timeout: float, what: str, detail: Callable[[], str] | None = None, period: float = 0.05):
    """Polls ``condition`` until it is truthy (returns its value) or fails after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() >= deadline:
            raise WaitTimeout(f"timed out after {timeout:.1f} s waiting for {what}" + (f"; {detail()}" if detail else ""))
        time.sleep(period)


class Inbox:
    """Every message of one subscription, in arrival order; ``take`` hands out the next
    one that matches, waiting for it."""

    def __init__(self, topic: str, describe: Callable[[object], str] = repr):
        self.topic, self.describe = topic, describe
        self.messages: list = []
        self.taken: set[int] = set()
        self.cond = threading.Condition()

    def __call__(self, message):
        with self.cond:
            self.messages.append(message)
            self.cond.notify_all()

    def take(self, predicate: Callable[[object], bool] = lambda m: True, timeout: float = 20.0, what: str = "a message"):
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for i, m in enumerate(self.messages):
                    if i not in self.taken and predicate(m):
                        self.taken.add(i)
                        return m
                left = deadline - time.monotonic()
                if left <= 0:
                    got = [self.describe(m) for m in self.messages[-8:]]
                    raise WaitTimeout(f"no {what} on {self.topic} within {timeout:.1f} s; {len(self.messages)} message(s) arrived, the last: {got}")
                self.cond.wait(min(left, 0.1))

    def snapshot(self) -> list:
        with self.cond:
            return list(self.messages)


class Peer:
    """One rclpy node (``ccd_guard_test_peer``) in its own context on ``domain_id``."""

    def __init__(self, domain_id: int, name: str = "ccd_guard_test_peer"):
        self.domain_id = domain_id
        self.context = rclpy.Context()
        rclpy.init(context=self.context, domain_id=domain_id)
        self.node = rclpy.create_node(name, context=self.context)
        self.executor = MultiThreadedExecutor(num_threads=6, context=self.context)
        self.executor.add_node(self.node)
        self.thread = threading.Thread(target=self._spin, name="peer-executor", daemon=True)
        self.thread.start()

    def _spin(self):
        try:
            while self.context.ok():
                self.executor.spin_once(timeout_sec=0.05)
        except (ExternalShutdownException, rclpy.executors.ShutdownException):
            pass
        except Exception:  # the context went away under the executor while closing
            if self.context.ok():
                raise

    def close(self):
        try:
            self.executor.shutdown(timeout_sec=2.0)
        except Exception:
            pass
        try:
            self.node.destroy_node()
        finally:
            rclpy.try_shutdown(context=self.context)
            self.thread.join(3.0)

    # -- topics
    def subscribe(self, msg_type, topic: str, qos: QoSProfile = RELIABLE, describe: Callable[[object], str] = repr,
                  matched_timeout: float | None = None) -> Inbox:
        """An inbox of ``topic``; with ``matched_timeout``, waits until a publisher matched it."""
        inbox = Inbox(topic, describe)
        sub = inbox.subscription = self.node.create_subscription(msg_type, topic, inbox, qos)
        if matched_timeout:
            wait_until(lambda: sub.get_publisher_count() > 0, matched_timeout, f"a publisher of {topic} to match",
                       lambda: f"publishers the graph knows: {[(i.node_name, i.node_namespace) for i in self.node.get_publishers_info_by_topic(topic)]}")
        return inbox

    def publisher(self, msg_type, topic: str, qos: QoSProfile = RELIABLE, matched_timeout: float | None = 15.0):
        """A publisher; with ``matched_timeout``, waits until a subscriber (the node's) matched it."""
        pub = self.node.create_publisher(msg_type, topic, qos)
        if matched_timeout:
            wait_until(lambda: pub.get_subscription_count() > 0, matched_timeout, f"a subscriber of {topic} to match",
                       lambda: f"subscribers the graph knows: {[(i.node_name, i.node_namespace) for i in self.node.get_subscriptions_info_by_topic(topic)]}")
        return pub

    # -- services and futures
    def wait_future(self, future, timeout: float, what: str):
        done = threading.Event()
        future.add_done_callback(lambda _f: done.set())
        if not done.wait(timeout):
            future.cancel()
            raise WaitTimeout(f"no answer to {what} within {timeout:.1f} s")
        exc = future.exception()
        if exc is not None:
            raise AssertionError(f"{what} failed: {exc!r}")
        return future.result()

    def call(self, srv_type, name: str, request, timeout: float = 20.0):
        """Calls a service through one client per service (kept: a new client would have to
        be discovered by the server again)."""
        clients = self.__dict__.setdefault("_clients", {})
        client = clients.get(name)
        if client is None:
            client = clients[name] = self.node.create_client(srv_type, name)
        if not client.wait_for_service(timeout_sec=timeout):
            raise WaitTimeout(f"service {name} did not appear within {timeout:.1f} s; services: {self.node.get_service_names_and_types()}")
        return self.wait_future(client.call_async(request), timeout, f"a call of {name}")


class GuardNode:
    """The ccd_guard node as a child process; its console goes to ``log_path``."""

    def __init__(self, command: list[str], env: dict, log_path: Path):
        self.command, self.log_path = command, log_path
        self.log_file = open(log_path, "wb")
        self.proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=self.log_file, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        self.returncode: int | None = None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""

    def log_tail(self, chars: int = 3000) -> str:
        return self.log()[-chars:]

    def alive(self) -> bool:
        return self.proc.poll() is None

    def wait_ready(self, timeout: float = 20.0):
        def ready():
            if "]: ready: " in self.log():
                return True
            if not self.alive():
                raise AssertionError(f"the node exited ({self.proc.returncode}) before it was ready: {self.command}\n{self.log_tail()}")
            return False
        wait_until(ready, timeout, "the node's 'ready' line", lambda: f"its log:\n{self.log_tail()}")

    def stop(self, grace: float = 8.0) -> int:
        """SIGINT, wait, then SIGKILL; returns the exit status."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(grace)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self.log_file.close()
        self.returncode = self.proc.returncode
        return self.returncode


# ----------------------------------------------------------------------------- messages

def duration(seconds: float):
    from builtin_interfaces.msg import Duration

    sec = math.floor(seconds)
    return Duration(sec=int(sec), nanosec=int(round((seconds - sec) * 1e9)))


def stamp(seconds: float):
    from builtin_interfaces.msg import Time

    sec = math.floor(seconds)
    return Time(sec=int(sec), nanosec=int(round((seconds - sec) * 1e9)))


def load_yaml(path: Path) -> dict:
    import yaml

    return yaml.safe_load(Path(path).read_text())


def joint_trajectory(data: dict, stamp_sec: int = 0, frame_id: str = "world", speed: float = 1.0):
    """A ``trajectory_msgs/JointTrajectory`` of a trajectory file's contents (``speed``
    times faster)."""
    from trajectory_msgs.msg import JointTrajectory, JointTrajectoryPoint

    msg = JointTrajectory()
    msg.header.stamp.sec = stamp_sec
    msg.header.frame_id = frame_id
    msg.joint_names = list(data["joint_names"])
    for p in data["points"]:
        t = p["time_from_start"]
        t = t["sec"] + t["nanosec"] * 1e-9 if isinstance(t, dict) else float(t)
        msg.points.append(JointTrajectoryPoint(positions=[float(q) for q in p["positions"]], time_from_start=duration(t / speed)))
    return msg


def int8_array(data: bytes) -> array.array:
    out = array.array("b")
    out.frombytes(data)
    return out


def verdict_text(v) -> str:
    """A verdict message in a line, for failure messages."""
    contacts = [(c.link, c.other, round(c.time_of_contact, 6)) for c in v.contacts]
    return (f"<{v.source} stamp={v.trajectory_stamp.sec}.{v.trajectory_stamp.nanosec:09d} {v.verdict} certified={v.certified} "
            f"method={v.method} toc={v.time_of_contact} seg={v.segment_index} contacts={contacts} "
            f"clearance={v.min_clearance} error={v.error!r}>")


# ----------------------------------------------------------------------------- kinematics

def _rpy(r: float, p: float, y: float):
    import numpy as np

    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def _axis_angle(axis, angle: float):
    import numpy as np

    a = np.asarray(axis, float) / np.linalg.norm(axis)
    K = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K


def link_position(urdf: Path, joint_values: dict[str, float], link: str):
    """Where ``link``'s origin is (URDF root at the origin), by the URDF's joint chain:
    a few lines of forward kinematics independent of ccd_guard, to place obstacles."""
    import xml.etree.ElementTree as ET

    import numpy as np

    root = ET.parse(urdf).getroot()
    joints = {j.find("child").get("link"): j for j in root.findall("joint")}
    chain = []
    while link in joints:
        chain.append(joints[link])
        link = joints[link].find("parent").get("link")
    T = np.eye(4)
    for j in reversed(chain):
        o = j.find("origin")
        xyz = [float(v) for v in (o.get("xyz", "0 0 0") if o is not None else "0 0 0").split()]
        rpy = [float(v) for v in (o.get("rpy", "0 0 0") if o is not None else "0 0 0").split()]
        step = np.eye(4)
        step[:3, :3], step[:3, 3] = _rpy(*rpy), xyz
        move = np.eye(4)
        q = joint_values.get(j.get("name"), 0.0)
        axis = [float(v) for v in (j.find("axis").get("xyz") if j.find("axis") is not None else "1 0 0").split()]
        if j.get("type") in ("revolute", "continuous"):
            move[:3, :3] = _axis_angle(axis, q)
        elif j.get("type") == "prismatic":
            move[:3, 3] = q * np.asarray(axis)
        T = T @ step @ move
    return T[:3, 3]


# ----------------------------------------------------------------------------- octomaps

OCTOMAP_KEY_CENTRE = 32768
OCTOMAP_DEPTH = 16


def octomap_keys(points, resolution: float) -> set[tuple[int, int, int]]:
    """The finest-level keys of the cells holding the points, as octomap's coordToKey."""
    import numpy as np

    keys = np.floor(np.asarray(points, float) * (1.0 / resolution)).astype(np.int64) + OCTOMAP_KEY_CENTRE
    return {tuple(int(v) for v in k) for k in keys}


def octomap_binary_stream(keys: set[tuple[int, int, int]]) -> tuple[bytes, int]:
    """octomap's ``writeBinaryData`` of an OcTree whose occupied leaves are the finest cells
    ``keys`` (not pruned): per node, pre-order, two bytes of 2-bit child codes (children
    0-3, then 4-7; bit 2i+1 alone: occupied leaf, both bits: inner node), child index
    x + 2y + 4z of the key bit below the node's depth. Returns (stream, node count)."""
    out = bytearray()
    count = 1

    def write(node_keys, depth):
        nonlocal count
        bit = OCTOMAP_DEPTH - 1 - depth
        children: list[list] = [[] for _ in range(8)]
        for k in node_keys:
            children[((k[0] >> bit) & 1) | (((k[1] >> bit) & 1) << 1) | (((k[2] >> bit) & 1) << 2)].append(k)
        code = [0, 0]
        leaf = depth + 1 == OCTOMAP_DEPTH
        for i, c in enumerate(children):
            if c:
                count += 1
                j = i % 4
                code[i // 4] |= (1 << (2 * j + 1)) if leaf else (3 << (2 * j))
        out.extend(bytes(code))
        if not leaf:
            for c in children:
                if c:
                    write(c, depth + 1)

    write(sorted(keys), 0)
    return bytes(out), count


def octomap_bt_file(keys, resolution: float) -> bytes:
    """A ``.bt`` file (OcTree::writeBinary's header, then the binary stream)."""
    stream, size = octomap_binary_stream(keys)
    header = (f"# Octomap OcTree binary file\n# (feel free to add / change comments, but leave the first line as it is!)\n#\n"
              f"id OcTree\nsize {size}\nres {resolution}\ndata\n").encode()
    return header + stream


def env_with(extra: dict) -> dict:
    env = dict(os.environ)
    env.update(extra)
    return env
