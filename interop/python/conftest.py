"""Shared fixtures for the Python cross-check tests of ccd_guard.

The tests compare the Rust implementation, driven through the probe program
``target/release/examples/probe``, with independent implementations
(pinocchio, coal, exact rational arithmetic).

Probe protocol: ``probe <command>`` reads ONE JSON document on stdin and writes ONE
JSON document on stdout, exit code 0; on error a non-zero exit code and a message on
stderr.  ``package://`` URIs are resolved through ``AMENT_PREFIX_PATH``, which these
fixtures point at the venv's ``cmeel.prefix`` (where example-robot-data installs
``share/example-robot-data/robots/...``).
"""

from __future__ import annotations

import json
import os
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

# Generous: the largest payload (a few hundred configurations) should take well under a second.
PROBE_TIMEOUT_S = 600


def _site_packages_dirs() -> list[Path]:
    dirs: list[str] = []
    for key in ("purelib", "platlib"):
        p = sysconfig.get_paths().get(key)
        if p:
            dirs.append(p)
    try:
        dirs.extend(site.getsitepackages())
    except AttributeError:  # pragma: no cover - very old virtualenv
        pass
    dirs.extend(p for p in sys.path if p.endswith("site-packages"))
    seen: list[Path] = []
    for d in dirs:
        path = Path(d)
        if path not in seen:
            seen.append(path)
    return seen


def find_cmeel_prefix() -> Path:
    """The ``cmeel.prefix`` directory of the running interpreter that holds example-robot-data."""
    for sp in _site_packages_dirs():
        prefix = sp / "cmeel.prefix"
        if (prefix / "share" / "example-robot-data" / "robots").is_dir():
            return prefix
    raise RuntimeError(
        "example-robot-data not found: no <site-packages>/cmeel.prefix/share/example-robot-data "
        f"under {[str(p) for p in _site_packages_dirs()]} (interpreter {sys.executable}); "
        "run `bash scripts/setup_python.sh` and use .venv/bin/python"
    )


def release_binary(relative: str, build: str) -> Path:
    """A release build product (``CARGO_TARGET_DIR`` honoured); fails the test with the
    command that builds it when it is missing."""
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO_ROOT / "target"))
    if not target.is_absolute():
        target = REPO_ROOT / target
    path = target / "release" / relative
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.fail(f"{path.name} binary not found at {path}: run `{build}` first (`bash scripts/test.sh` does this)", pytrace=False)
    return path


def probe_path() -> Path:
    return release_binary("examples/probe", "cargo build --release --examples")


@pytest.fixture(scope="session")
def cmeel_prefix() -> Path:
    return find_cmeel_prefix()


@pytest.fixture(scope="session")
def robots_dir(cmeel_prefix: Path) -> Path:
    """``.../cmeel.prefix/share/example-robot-data/robots``."""
    return cmeel_prefix / "share" / "example-robot-data" / "robots"


@pytest.fixture(scope="session")
def package_share_dir(cmeel_prefix: Path) -> Path:
    """Directory holding the ROS package ``example-robot-data`` (for pinocchio's package_dirs)."""
    return cmeel_prefix / "share"


@pytest.fixture(scope="session")
def probe(cmeel_prefix: Path) -> Path:
    return probe_path()


class ProbeError(AssertionError):
    pass


def _run_probe(probe_bin: Path, cmeel_prefix: Path, cmd: str, payload: dict, *, expect_ok: bool = True):
    env = dict(os.environ)
    env["AMENT_PREFIX_PATH"] = str(cmeel_prefix)
    data = json.dumps(payload)
    try:
        proc = subprocess.run(
            [str(probe_bin), cmd],
            input=data,
            capture_output=True,
            text=True,
            env=env,
            timeout=PROBE_TIMEOUT_S,
        )
    except subprocess.TimeoutExpired as exc:
        raise ProbeError(f"probe {cmd} timed out after {PROBE_TIMEOUT_S} s") from exc
    if not expect_ok:
        return proc
    if proc.returncode != 0:
        raise ProbeError(
            f"probe {cmd} exited with {proc.returncode}\n"
            f"stderr:\n{proc.stderr[-4000:]}\n"
            f"input (first 1000 chars): {data[:1000]}"
        )
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise ProbeError(
            f"probe {cmd} did not print one JSON document on stdout: {exc}\n"
            f"stdout (first 2000 chars):\n{proc.stdout[:2000]}\nstderr:\n{proc.stderr[-2000:]}"
        ) from exc


@pytest.fixture(scope="session")
def run_probe(probe: Path, cmeel_prefix: Path):
    """``run_probe(cmd, payload) -> dict``: run ``probe cmd`` with ``payload`` as JSON on stdin.

    Fails the test (with the probe's stderr) if the probe exits non-zero or prints anything
    but one JSON document.  ``run_probe(cmd, payload, expect_ok=False)`` returns the
    ``subprocess.CompletedProcess`` instead, for error-path tests.
    """

    def run(cmd: str, payload: dict, *, expect_ok: bool = True):
        return _run_probe(probe, cmeel_prefix, cmd, payload, expect_ok=expect_ok)

    return run


# ----------------------------------------------------------------------------- octomaps
#
# Octomaps for the octomap tests, written by octomap's own C++ library (the pip package
# octomap-python, imported lazily so that other tests run without it). Keys follow
# octomap's coordToKey for doubles (what coal's makeOctree uses): key = floor(x / res) +
# 32768 per axis, with 1 / res computed once as octomap does; key k covers
# [(k - 32768) res, (k - 32767) res].

OCTOMAP_KEY_CENTRE = 32768


def octomap_keys(points, resolution: float):
    """The distinct finest-level keys (n, 3) of the cells holding the points (x, y, z)."""
    import numpy as np

    keys = np.floor(np.asarray(points, float) * (1.0 / resolution)).astype(np.int64) + OCTOMAP_KEY_CENTRE
    assert keys.min() >= 0 and keys.max() < 2 * OCTOMAP_KEY_CENTRE, "points outside octomap's key range"
    return np.unique(keys, axis=0)


def octomap_tree(keys, resolution: float):
    """An octomap ``OcTree`` with each key's cell updated once as occupied (log-odds
    0.85, probability 0.7), lazily, then its inner nodes updated: the tree coal's
    makeOctree builds from points."""
    import octomap

    tree = octomap.OcTree(resolution)
    updates = []
    for k in keys:
        key = octomap.OcTreeKey()
        key[0], key[1], key[2] = int(k[0]), int(k[1]), int(k[2])
        updates.append(key)
    tree.updateNodes(updates, True, lazy_eval=True)
    tree.updateInnerOccupancy()
    return tree


def octomap_file_bytes(keys, resolution: float) -> tuple[bytes, bytes]:
    """(.bt, .ot) file contents of the tree of ``keys``, as octomap writes them: the
    ``.ot`` (AbstractOcTree::write: header and writeData) of the tree as built, unpruned;
    the ``.bt`` (OcTree::writeBinary: header and writeBinaryData) of its max-likelihood,
    pruned form (8 occupied siblings become one leaf)."""
    tree = octomap_tree(keys, resolution)
    ot = tree.write()  # first: writeBinary prunes the tree it is called on
    bt = tree.writeBinary()
    return bt, ot


def octomap_stream(file_bytes: bytes) -> bytes:
    """The raw stream of a .bt/.ot file (what an ``octomap_msgs/Octomap`` carries as
    ``data``: octomap_msgs writes the same writeBinaryData/writeData): what follows the
    header's ``data`` line."""
    marker = b"\ndata\n"
    at = file_bytes.index(marker)
    return file_bytes[at + len(marker):]


def octomap_leaves(path) -> list[tuple[int, int, int, int]]:
    """The occupied leaves octomap reads from a .bt or .ot file, each (kx, ky, kz, level):
    the key of its lowest corner at the finest depth and its levels above the finest."""
    import octomap

    path = str(path)
    if open(path, "rb").read(28) == b"# Octomap OcTree binary file":
        tree = octomap.OcTree(0.1)
        assert tree.readBinary(path.encode()), f"octomap cannot read {path}"
    else:
        tree = octomap.OcTree.read(path.encode())
        assert tree is not None, f"octomap cannot read {path}"
    out = []
    for it in tree.begin_leafs():
        if tree.isNodeOccupied(it):
            key = it.getIndexKey()
            out.append((key[0], key[1], key[2], 16 - it.getDepth()))
    return out


def int8_values(data: bytes) -> list[int]:
    """Bytes as the ``int8[]`` of an ``octomap_msgs/Octomap`` message."""
    return [b - 256 if b > 127 else b for b in data]


@pytest.fixture(scope="module")
def node_binary() -> Path:
    """The node's binary (ccd_guard), built in release mode."""
    return release_binary("ccd_guard", "cargo build --release")
