"""Forward kinematics of the probe (`probe fk`) against pinocchio.

For 200 random configurations within the joint limits, every link's world pose from the
probe must match pinocchio's BODY frame placement to 1e-9 m (translation) and 1e-9
(rotation matrix entries).

Robots (from example-robot-data):
- Panda: revolute + prismatic fingers; panda_finger_joint2 mimics panda_finger_joint1
  (default multiplier 1, offset 0).
- UR5: 6 revolute joints, root link `world`.
- PR2: continuous joints, 10 mimic joints (multipliers +1 and -1), 82 links.
- Baxter: prismatic mimic joints with multiplier -1.
example-robot-data has no usable mimic joint with a non-zero offset (alex_psyonic_hands
has some, but they name leader joints that do not exist), so offsets are not covered here.

Configurations given to the probe hold the independent joints only; mimic joints follow
their leader (value = multiplier * leader + offset), which the reference computes itself
and feeds to a pinocchio model built with mimic=False (mimic joints as ordinary joints).
"""

from __future__ import annotations

import math

import numpy as np
import pinocchio as pin
import pytest

from robot_util import UrdfInfo, all_joint_values, parse_urdf, pinocchio_q, random_configuration

N_CONFIGS = 200
TOL_T = 1e-9
TOL_R = 1e-9

ROBOTS = {
    "panda": "panda_description/urdf/panda.urdf",
    "ur5": "ur_description/urdf/ur5_robot.urdf",
    "pr2_mimic_continuous": "pr2_description/urdf/pr2.urdf",
    "baxter_mimic": "baxter_description/urdf/baxter.urdf",
}


def pinocchio_link_poses(model, data, info: UrdfInfo, cfg: dict[str, float]) -> dict[str, pin.SE3]:
    q = pinocchio_q(model, all_joint_values(info, cfg))
    pin.framesForwardKinematics(model, data, q)
    return {
        f.name: data.oMf[i].copy()
        for i, f in enumerate(model.frames)
        if f.type == pin.FrameType.BODY
    }


# --- an independent, minimal numpy FK used only to sanity-check how pinocchio is driven ---

def _rpy(r, p, y):
    cr, sr, cp, sp, cy, sy = math.cos(r), math.sin(r), math.cos(p), math.sin(p), math.cos(y), math.sin(y)
    rx = np.array([[1, 0, 0], [0, cr, -sr], [0, sr, cr]])
    ry = np.array([[cp, 0, sp], [0, 1, 0], [-sp, 0, cp]])
    rz = np.array([[cy, -sy, 0], [sy, cy, 0], [0, 0, 1]])
    return rz @ ry @ rx


def _axis_angle(axis, angle):
    k = np.asarray(axis, float)
    k = k / np.linalg.norm(k)
    kx = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    return np.eye(3) + math.sin(angle) * kx + (1 - math.cos(angle)) * kx @ kx


def numpy_fk(urdf_path, info: UrdfInfo, cfg: dict[str, float]) -> dict[str, np.ndarray]:
    import xml.etree.ElementTree as ET

    values = all_joint_values(info, cfg)
    root = ET.parse(urdf_path).getroot()
    by_child = {}
    for j in root.findall("joint"):
        o = j.find("origin")
        xyz = [float(v) for v in (o.get("xyz", "0 0 0").split() if o is not None else [0, 0, 0])]
        rpy = [float(v) for v in (o.get("rpy", "0 0 0").split() if o is not None else [0, 0, 0])]
        a = j.find("axis")
        axis = [float(v) for v in a.get("xyz").split()] if a is not None else [1.0, 0.0, 0.0]
        by_child[j.find("child").get("link")] = (j, xyz, rpy, axis)
    poses = {}

    def pose(link):
        if link in poses:
            return poses[link]
        if link not in by_child:
            poses[link] = np.eye(4)
            return poses[link]
        j, xyz, rpy, axis = by_child[link]
        t = np.eye(4)
        t[:3, :3] = _rpy(*rpy)
        t[:3, 3] = xyz
        m = np.eye(4)
        jt = j.get("type")
        if jt in ("revolute", "continuous"):
            m[:3, :3] = _axis_angle(axis, values[j.get("name")])
        elif jt == "prismatic":
            m[:3, 3] = np.asarray(axis) / np.linalg.norm(axis) * values[j.get("name")]
        poses[link] = pose(j.find("parent").get("link")) @ t @ m
        return poses[link]

    for link in info.links:
        pose(link)
    return poses


@pytest.fixture(scope="module", params=sorted(ROBOTS))
def robot(request, robots_dir):
    path = robots_dir / ROBOTS[request.param]
    assert path.is_file(), f"{path} missing from example-robot-data"
    info = parse_urdf(path)
    model = pin.buildModelFromUrdf(str(path))
    return request.param, path, info, model


def test_reference_pinocchio_matches_numpy_fk(robot):
    """Self-check of the reference side (no probe needed): pinocchio, as driven here
    (mimic joints, continuous joints as cos/sin), agrees with a minimal numpy FK."""
    name, path, info, model = robot
    data = model.createData()
    rng = np.random.default_rng(7)
    body_frames = [f.name for f in model.frames if f.type == pin.FrameType.BODY]
    assert sorted(body_frames) == sorted(info.links), f"{name}: pinocchio BODY frames != URDF links"
    for _ in range(10):
        cfg = random_configuration(info, rng)
        ref = pinocchio_link_poses(model, data, info, cfg)
        mine = numpy_fk(path, info, cfg)
        for link in info.links:
            np.testing.assert_allclose(ref[link].homogeneous, mine[link], atol=1e-12, err_msg=f"{name} {link}")


def test_fk_matches_pinocchio(robot, run_probe):
    name, path, info, model = robot
    data = model.createData()
    rng = np.random.default_rng(20240601 + sum(map(ord, name)))
    configs = [random_configuration(info, rng) for _ in range(N_CONFIGS)]
    out = run_probe("fk", {"urdf": str(path), "configurations": configs})
    assert isinstance(out, dict) and "poses" in out, f"fk output lacks 'poses': {str(out)[:500]}"
    poses = out["poses"]
    assert len(poses) == len(configs), f"{name}: {len(poses)} pose sets for {len(configs)} configurations"

    failures = []
    worst_t = worst_r = 0.0
    for k, (cfg, got) in enumerate(zip(configs, poses)):
        ref = pinocchio_link_poses(model, data, info, cfg)
        if set(got) != set(ref):
            failures.append(
                f"config {k}: link sets differ; missing {sorted(set(ref) - set(got))}, "
                f"unexpected {sorted(set(got) - set(ref))}"
            )
            continue
        for link, r in ref.items():
            t = np.asarray(got[link]["translation"], float)
            rot = np.asarray(got[link]["rotation"], float)
            if t.shape != (3,) or rot.shape != (3, 3):
                failures.append(f"config {k} link {link}: bad shapes {t.shape} {rot.shape}")
                continue
            dt = float(np.max(np.abs(t - r.translation)))
            dr = float(np.max(np.abs(rot - r.rotation)))
            worst_t, worst_r = max(worst_t, dt), max(worst_r, dr)
            if dt > TOL_T or dr > TOL_R:
                failures.append(
                    f"config {k} link {link}: |dt|={dt:.3e} |dR|={dr:.3e}\n"
                    f"    probe t={t.tolist()} R={rot.tolist()}\n"
                    f"    pin   t={r.translation.tolist()} R={r.rotation.tolist()}\n"
                    f"    config={cfg}"
                )
        if len(failures) > 20:
            break
    assert not failures, (
        f"{name}: {len(failures)}+ FK mismatches (worst so far dt={worst_t:.3e}, dR={worst_r:.3e}):\n"
        + "\n".join(failures[:10])
    )


def test_fk_root_link_at_identity(robot, run_probe):
    name, path, info, model = robot
    children = {j.child for j in info.joints}
    roots = [link for link in info.links if link not in children]
    assert len(roots) == 1
    out = run_probe("fk", {"urdf": str(path), "configurations": [{}]})
    pose = out["poses"][0][roots[0]]
    np.testing.assert_allclose(pose["translation"], [0, 0, 0], atol=0)
    np.testing.assert_allclose(pose["rotation"], np.eye(3), atol=0)


def test_probe_reports_errors(run_probe, tmp_path):
    """Protocol: a bad input gives a non-zero exit code and a message on stderr."""
    proc = run_probe("fk", {"urdf": str(tmp_path / "missing.urdf"), "configurations": [{}]}, expect_ok=False)
    assert proc.returncode != 0, f"probe fk on a missing URDF exited 0, stdout: {proc.stdout[:500]}"
    assert proc.stderr.strip(), "probe fk on a missing URDF printed nothing on stderr"
