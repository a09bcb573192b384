"""Fixtures of the ROS 2 (rclpy) suite of the ccd_guard node.

Run it in a private network namespace, with the ROS environment of scripts/setup_ros.sh:

    unshare -n sh -c 'ip link set lo up; . target/ros/env.sh; "$CCD_GUARD_ROS_PYTHON" -m pytest interop/ros'

The suite refuses to start when any network interface besides ``lo`` exists: the node and
the peers must not send a packet beyond loopback.

Each test runs against two builds of the node (the ``node`` fixture's parameters):
``dds``, the pure-Rust build ``target/release/ccd_guard`` (ros2-client on RustDDS), and
``rcl``, the r2r build whose path ``CCD_GUARD_RCL_NODE`` gives (skipped when it is unset).
Each test has its own ROS_DOMAIN_ID, its own rclpy context and its own node process, which
is stopped (SIGINT, wait, then SIGKILL) when the test ends.
"""
from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "assets" / "demo"
DDS_NODE = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
DDS_NODE = (DDS_NODE if DDS_NODE.is_absolute() else REPO / DDS_NODE) / "release" / "ccd_guard"
TEST_TIME_LIMIT_S = 90  # each test, all waits included
RUN_COMMAND = "unshare -n sh -c 'ip link set lo up; . target/ros/env.sh; \"$CCD_GUARD_ROS_PYTHON\" -m pytest interop/ros'"


def _interfaces_besides_loopback() -> list[str]:
    """The network interfaces of this process's network namespace, besides ``lo``.

    Asked of the kernel (if_nameindex, netlink), not of /sys/class/net: under ``unshare -n``
    without a fresh sysfs mount, /sys/class/net still lists the host's interfaces."""
    return sorted(name for _, name in socket.if_nameindex() if name != "lo")


def pytest_configure(config):
    others = _interfaces_besides_loopback()
    if others:
        pytest.exit(
            "interop/ros starts DDS participants and must run in a private network namespace with only "
            f"the loopback interface; this one also has {', '.join(others)}. Run it as:\n  {RUN_COMMAND}",
            returncode=3,
        )
    try:
        import rclpy  # noqa: F401
        from ccd_guard.msg import CollisionVerdict  # noqa: F401
        from control_msgs.action import FollowJointTrajectory  # noqa: F401
        from moveit_msgs.msg import PlanningScene  # noqa: F401
        from octomap_msgs.msg import Octomap  # noqa: F401
    except ImportError as exc:
        pytest.exit(
            f"interop/ros needs rclpy and the message packages (ccd_guard, moveit_msgs, control_msgs, octomap_msgs): {exc}. "
            f"Run `bash scripts/setup_ros.sh`, then:\n  {RUN_COMMAND}",
            returncode=3,
        )


# ----------------------------------------------------------------------------- time limit

class TestTimeLimit(Exception):
    pass


@pytest.fixture(autouse=True)
def time_limit():
    """Fails a test that runs longer than TEST_TIME_LIMIT_S (every wait has its own, shorter limit)."""

    def expired(signum, frame):
        raise TestTimeLimit(f"the test ran over its {TEST_TIME_LIMIT_S} s limit")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(TEST_TIME_LIMIT_S)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


# ----------------------------------------------------------------------------- the CLI

_cli_cache: dict = {}


def cli_report(trajectory: Path, scene: Path | None = DEMO / "scene.yaml", *args: str) -> dict:
    """What ``ccd_guard check --format json`` (the pure-Rust build's CLI) reports on the demo
    robot, ``scene`` (None: no scene) and ``trajectory``."""
    key = (str(trajectory), str(scene), args, Path(trajectory).read_bytes(), Path(scene).read_bytes() if scene else b"")
    if key in _cli_cache:
        return _cli_cache[key]
    command = [str(DDS_NODE), "check", "--urdf", str(DEMO / "robot.urdf"), "--srdf", str(DEMO / "robot.srdf"),
               "--trajectory", str(trajectory), "--format", "json", *args]
    if scene is not None:
        command += ["--scene", str(scene)]
    out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert out.stdout.strip(), f"`{' '.join(command)}` printed nothing (exit {out.returncode}): {out.stderr[-2000:]}"
    report = json.loads(out.stdout)
    _cli_cache[key] = report
    return report


# ----------------------------------------------------------------------------- peer and node

_domains = iter(random.Random().sample(range(1, 200), 199))


class NodeLauncher:
    """Starts the node of one build (``build``: dds or rcl) on the test's domain."""

    def __init__(self, build: str, binary: Path, extra_env: dict, domain_id: int, workdir: Path):
        self.build, self.binary, self.extra_env, self.domain_id, self.workdir = build, binary, extra_env, domain_id, workdir
        self.started: list = []

    def command(self, *params: str, ros_args: tuple = (), urdf: bool = True) -> list[str]:
        command = [str(self.binary), "--ros-args"]
        defaults = {"srdf_file": DEMO / "robot.srdf", "scene_file": DEMO / "scene.yaml"}
        if urdf:
            defaults = {"urdf_file": DEMO / "robot.urdf", **defaults}
        given = {p.split(":=", 1)[0] for p in params}
        for name, value in defaults.items():
            if name not in given:
                command += ["-p", f"{name}:={value}"]
        for p in params:
            command += ["-p", p]
        return command + list(ros_args)

    def start(self, *params: str, ros_args: tuple = (), urdf: bool = True, ready_timeout: float = 20.0):
        """Starts the node with the demo robot, SRDF and scene and ``-p`` ``params``; waits
        for its 'ready' line."""
        from rclpy_peer import GuardNode, env_with

        env = env_with({"ROS_DOMAIN_ID": str(self.domain_id), **self.extra_env})
        env.pop("ROS_LOCALHOST_ONLY", None)
        env.pop("ROS_AUTOMATIC_DISCOVERY_RANGE", None)
        log = self.workdir / f"node{len(self.started)}-{self.build}.log"
        node = GuardNode(self.command(*params, ros_args=ros_args, urdf=urdf), env, log)
        self.started.append(node)
        node.wait_ready(ready_timeout)
        return node

    def stop_all(self) -> list[str]:
        """Stops every node started; returns what went wrong (docs/node.md: SIGINT stops the
        node cleanly with exit status 0)."""
        wrong = []
        for node in self.started:
            was_running = node.alive()
            code = node.stop()
            if not was_running:
                wrong.append(f"the node {node.command[0]} had exited ({code}) before the test ended")
            elif code != 0:
                wrong.append(f"the node exited {code} on SIGINT, not 0")
        return wrong


def _build(request) -> tuple[Path, dict]:
    if request.param == "dds":
        if not (DDS_NODE.is_file() and os.access(DDS_NODE, os.X_OK)):
            pytest.fail(f"the pure-Rust node {DDS_NODE} is missing: `cargo build --release` first", pytrace=False)
        return DDS_NODE, {}
    path = os.environ.get("CCD_GUARD_RCL_NODE")
    if not path:
        pytest.skip("CCD_GUARD_RCL_NODE is unset: set it to the rcl (r2r) build of ccd_guard to run the rcl half of this suite")
    binary = Path(path)
    if not (binary.is_file() and os.access(binary, os.X_OK)):
        pytest.fail(f"CCD_GUARD_RCL_NODE={path} is not an executable file", pytrace=False)
    # Started as `ros2 run` starts it: the sourced environment, nothing more (the wheels'
    # need of libpython is met at link time, by scripts/ros_package.sh).
    return binary, {}


@pytest.fixture(params=["dds", "rcl"])
def node(request, tmp_path):
    """A launcher of the node under test (``node.start(*params)``), with ``node.peer``, the
    rclpy peer on the same, test-private ROS_DOMAIN_ID, created before any node starts (so
    it hears /rosout and /parameter_events from the first message on)."""
    binary, extra_env = _build(request)
    from rclpy_peer import Peer

    domain_id = next(_domains)
    peer = Peer(domain_id)
    launcher = NodeLauncher(request.param, binary, extra_env, domain_id, tmp_path)
    launcher.peer = peer
    request.node._ccd_guard_launcher = launcher
    try:
        yield launcher
    finally:
        try:
            wrong = launcher.stop_all()
        finally:
            peer.close()
    assert not wrong, f"{wrong}\n" + "\n".join(n.log_tail(2000) for n in launcher.started)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    launcher = getattr(item, "_ccd_guard_launcher", None)
    if launcher is not None and report.failed:
        for i, node in enumerate(launcher.started):
            report.sections.append((f"ccd_guard node {i} ({launcher.build}) log", node.log_tail(6000)))
