"""The node against a second DDS: a Fast DDS peer (issue 6, item 7).

``interop/fastdds_peer/fastdds_peer.cpp`` is a small C++ program on Debian's Fast DDS
(libfastrtps-dev) with hand-written CDR for ``trajectory_msgs/JointTrajectory`` and
``ccd_guard/CollisionVerdict``. ``scripts/setup_fastdds.sh`` installs what it needs and the
test builds it with g++ into a temporary directory. Then, in a private network namespace
that has only the loopback interface (so nothing leaves the machine), the node runs in
the background and the peer publishes the free and the colliding demo trajectories on
``/planned_trajectory``, one run each; the verdicts it receives must be the CLI's.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import yaml

from conftest import REPO_ROOT, release_binary
from demo_cli import DEMO, cli_report

PEER_SOURCE = REPO_ROOT / "interop" / "fastdds_peer" / "fastdds_peer.cpp"
SETUP = REPO_ROOT / "scripts" / "setup_fastdds.sh"
PEER_TIMEOUT_S = 30  # the peer's own limit on matching and on waiting for the verdict

# Runs inside the namespace: loopback up with multicast (for SPDP), the node in the
# background (stopped on exit, killed if it lingers), then the peer once per trajectory.
NAMESPACE_SCRIPT = r"""
set -u
ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo || exit 90
"$@" >"$WORK/node.log" 2>&1 &
node=$!
stop_node() {
    kill "$node" 2>/dev/null
    i=0
    while kill -0 "$node" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
    kill -9 "$node" 2>/dev/null
    wait "$node" 2>/dev/null
}
trap stop_node EXIT
for name in $RUNS; do
    start=$(date +%s.%N)
    timeout -k 5 $((PEER_TIMEOUT * 3 + 15)) "$PEER" "$WORK/$name.txt" "$PEER_TIMEOUT" >"$WORK/$name.json" 2>"$WORK/$name.err"
    echo $? >"$WORK/$name.rc"
    echo "$start $(date +%s.%N)" >"$WORK/$name.time"
done
kill -0 "$node" 2>/dev/null && echo yes >"$WORK/node_alive"
exit 0
"""


@pytest.fixture(scope="module")
def fastdds_peer(tmp_path_factory) -> Path:
    """The peer, built (after scripts/setup_fastdds.sh) outside the source tree."""
    setup = subprocess.run(["bash", str(SETUP)], capture_output=True, text=True, timeout=900)
    assert setup.returncode == 0, f"scripts/setup_fastdds.sh failed ({setup.returncode}):\n{setup.stdout[-2000:]}\n{setup.stderr[-3000:]}"
    compiler = shutil.which("g++")
    assert compiler, "g++ not found after scripts/setup_fastdds.sh"
    binary = tmp_path_factory.mktemp("fastdds_peer") / "fastdds_peer"
    build = subprocess.run([compiler, "-std=c++17", "-O1", str(PEER_SOURCE), "-o", str(binary), "-lfastrtps", "-lfastcdr"],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, f"building the Fast DDS peer failed:\n{build.stderr[-4000:]}"
    return binary


def peer_input(trajectory: Path, stamp_sec: int) -> str:
    """The peer's input format (see fastdds_peer.cpp): times as sec and nanosec, positions
    as Python's shortest round-trip reprs."""
    data = yaml.safe_load(trajectory.read_text())
    lines = [f"stamp {stamp_sec} 0", "frame world", "joints " + " ".join(data["joint_names"])]
    for point in data["points"]:
        seconds = float(point["time_from_start"])
        sec = int(seconds)
        nanosec = int(round((seconds - sec) * 1e9))
        lines.append(f"point {sec} {nanosec} " + " ".join(repr(float(q)) for q in point["positions"]))
    return "\n".join(lines) + "\n"


def assert_same_verdict(verdict: dict, report: dict):
    assert verdict["verdict"] == report["verdict"]
    assert verdict["certified"] == report["certified"]
    assert verdict["method"] == report["method"]
    if report["time_of_contact"] is None:
        assert verdict["time_of_contact"] is None and verdict["segment_index"] == -1  # NaN, printed as null
    else:
        assert verdict["time_of_contact"] == pytest.approx(report["time_of_contact"], abs=1e-9)
        assert verdict["segment_index"] == report["segment_index"]
    assert [(c["link"], c["other"]) for c in verdict["contacts"]] == [(c["link"], c["other"]) for c in report["contacts"]]
    for got, want in zip(verdict["contacts"], report["contacts"]):
        assert got["time_of_contact"] == pytest.approx(want["time_of_contact"], abs=1e-9)
        assert got["max_penetration_depth"] == pytest.approx(want["max_penetration_depth"], rel=1e-9)
    assert verdict["min_clearance"] == pytest.approx(report["min_clearance"], abs=1e-9)
    assert verdict["error"] == ""


def test_fastdds_peer_gets_the_clis_verdicts(tmp_path, node_binary, fastdds_peer):
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.fail("the DDS tests need unshare (util-linux) and ip (iproute2) for a private network namespace")
    runs = {"free": (DEMO / "traj_free.yaml", 1), "collide": (DEMO / "traj_collide.yaml", 2)}
    for name, (trajectory, stamp) in runs.items():
        (tmp_path / f"{name}.txt").write_text(peer_input(trajectory, stamp))
    node = [str(node_binary), "--ros-args", "-p", f"urdf_file:={DEMO / 'robot.urdf'}",
            "-p", f"srdf_file:={DEMO / 'robot.srdf'}", "-p", f"scene_file:={DEMO / 'scene.yaml'}"]
    env = dict(os.environ, WORK=str(tmp_path), PEER=str(fastdds_peer), RUNS=" ".join(runs),
               PEER_TIMEOUT=str(PEER_TIMEOUT_S), RUST_LOG="info,rustdds=error,ros2_client=error")
    started = time.monotonic()
    proc = subprocess.run(["unshare", "--net", "sh", "-c", NAMESPACE_SCRIPT, "sh", *node],
                          capture_output=True, text=True, env=env, timeout=(PEER_TIMEOUT_S * 3 + 25) * len(runs) + 60)
    wall = time.monotonic() - started
    log = (tmp_path / "node.log").read_text() if (tmp_path / "node.log").exists() else ""
    assert proc.returncode == 0, f"namespace script failed ({proc.returncode}): {proc.stderr[-3000:]}\nnode log:\n{log[-3000:]}"

    verdicts = {}
    for name in runs:
        rc = int((tmp_path / f"{name}.rc").read_text())
        peer_log = (tmp_path / f"{name}.err").read_text()
        assert rc == 0, f"fastdds_peer ({name}) exited {rc}:\n{peer_log[-3000:]}\nnode log:\n{log[-3000:]}"
        verdicts[name] = json.loads((tmp_path / f"{name}.json").read_text().strip().splitlines()[-1])
        start, end = map(float, (tmp_path / f"{name}.time").read_text().split())
        print(f"{name}: peer ran {end - start:.2f} s; {peer_log.strip().replace(chr(10), '; ')}")
    print(f"namespace run: {wall:.2f} s")
    assert (tmp_path / "node_alive").exists(), f"the node died during the runs:\n{log[-3000:]}"

    free_report = cli_report(node_binary, DEMO / "traj_free.yaml")
    collide_report = cli_report(node_binary, DEMO / "traj_collide.yaml")
    assert free_report["verdict"] == "collision_free" and collide_report["verdict"] == "collision"
    for name, report in (("free", free_report), ("collide", collide_report)):
        v = verdicts[name]
        assert_same_verdict(v, report)
        assert v["source"] == "planned_trajectory"
        assert v["trajectory_stamp"] == {"sec": runs[name][1], "nanosec": 0}
        assert v["header"]["frame_id"] == "world"
    assert verdicts["free"]["certified"] and verdicts["collide"]["contacts"][0]["link"] == "gripper"
