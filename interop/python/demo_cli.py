"""The demo work cell and the CLI's report on it: what the node tests compare the
verdicts they receive through DDS with."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import REPO_ROOT

DEMO = REPO_ROOT / "assets" / "demo"


def cli_report(node_binary: Path, trajectory: Path) -> dict:
    """`ccd_guard check` (the node's binary) on the demo robot, scene and `trajectory`."""
    out = subprocess.run(
        [str(node_binary), "check", "--urdf", str(DEMO / "robot.urdf"), "--srdf", str(DEMO / "robot.srdf"),
         "--scene", str(DEMO / "scene.yaml"), "--trajectory", str(trajectory)],
        capture_output=True, text=True, timeout=300,
    )
    # (its exit status tells the verdict: 1 for a collision)
    assert out.stdout.strip(), f"ccd_guard check printed nothing ({out.returncode}): {out.stderr[-2000:]}"
    return json.loads(out.stdout)
