"""Octomaps in scene files (`type: octomap`) against coal's and octomap's own octrees.

The maps: point sets in the Panda's reach (a shelf-like slab filled with points, Gaussian
blobs of clutter, sparse single points; none near the static base), at 1-2 cm, some
placed with a non-identity pose. From the same points come
  * coal's octree, ``coal.makeOctree(points, res)`` (octomap's updateNode per point, lazy,
    then updateInnerOccupancy: every touched cell an occupied leaf of log-odds 0.85);
  * the files our reader loads, written by octomap's own library (the pip package
    octomap-python): the same cells (keys floor(x / res) + 32768, what octomap's
    coordToKey gives for doubles, checked against coal's cells below) updated the same
    way, written as ``.ot`` (writeData, unpruned) and ``.bt`` (writeBinary: the
    max-likelihood tree, pruned, so 8 occupied siblings are one bigger leaf).
coal's own ``OcTree.tobytes()`` is no octomap stream (coal 3.0.3 copies coordinates
through a byte iterator), so octomap's library writes the files.

1. Leaves: our reader's occupied leaves (``probe octomap_leaves`` on a scene file naming
   the .bt and the .ot) are octomap's (its readBinary / read of the same files), key and
   level for key and level; their cells are exactly coal's ``toBoxes()`` cubes (the
   unpruned .ot one cube for one box, in metres to 1e-12 m); resolution and pose are the
   scene's. A .bt whose ``size`` header is off by one is refused, as octomap refuses it.
   Leaves of log-odds exactly 0 are occupied, of -1e-6 free (octomap's isNodeOccupied).
2. Discrete collisions: ``probe collide`` with the Panda (STL meshes, finger boxes; SRDF)
   at random configurations against pinocchio + coal (each link's collision geometry
   against coal's octree, placed at the map's pose): the links touching the map must be
   the same, except where coal's answer is ill-conditioned (its distance between the
   link and the map within EPS_NEAR, counted as near-touching) and where a voxel lies
   wholly inside a closed link mesh (a contact for us, not for coal, which treats meshes
   as surfaces: accepted only when a voxel centre's winding number w.r.t. the link mesh
   is +-1 while coal finds no surface contact).
3. Continuous verdicts: ``ccd_guard check --method certified`` on random linear Panda
   motions (2-4 waypoints) near the maps, against dense sampling (joint steps of at most
   DENSE_STEP rad) with pinocchio + coal and bisection of the first contact:
   * ``collision_free`` (certified) never has a colliding sample, and its min_clearance is
     at most coal's link-map distance at a few samples (it is a proven lower bound);
   * ``collision``: every contact names the map's id; the first contact is no later than
     coal's first colliding sample; when coal's first contact is transversal (the pair
     is apart TRANSVERSAL_DT before and in contact TRANSVERSAL_DT after), the time of
     contact agrees with the bisected one within TOC_TOL and names one of coal's first
     links; otherwise (grazing, or a contact all samples stepped over, or the tool earlier
     than coal) the tool's first contact must be real: coal finds the pair colliding at
     toc + TOC_TOL, or within EPS_NEAR of it at toc, or a voxel lies inside the link's
     mesh (checked as in 2.);
   * ``uncertain`` (allowed by the contract near contact) is counted and printed, with
     coal's distance at a few samples;
   * exit status 0 / 1 / 3 as the verdict says.
   Trajectories are drawn so that half of them collide per coal and the other half come
   within NEAR_MARGIN of the map (coal's collision with that security margin at a
   sample) without touching it; trajectories that self-collide at a sample (SRDF pairs,
   every 4th sample) or start with a voxel inside a link mesh are drawn again.
   TOC_TOL is 1e-6 s: coal's GJK/EPA tolerance is tightened to 1e-9 m and the bisection
   takes 40 steps, so coal's first contact is good to ~1e-8 s at these speeds (the largest
   difference seen on transversal contacts is ~2e-8 s).

Counts (configurations, agreements, near-touching, containment, verdicts, largest time
difference) are printed; run with ``-s`` to see them.
"""

from __future__ import annotations

import json
import math
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import coal
import numpy as np
import pinocchio as pin
import pytest

from conftest import OCTOMAP_KEY_CENTRE, octomap_file_bytes, octomap_keys, octomap_leaves, release_binary
from robot_util import all_joint_values, pinocchio_q, random_configuration
from test_collision_coal import fmt_list, quat_to_matrix, winding_number
from test_pipeline_coal import COAL_TOL, PANDA, Robot, Trajectory, _tf, _tighten, run_tool

EPS_NEAR = 1e-6  # m: coal's link-map distance within this: its collision answer is ill-conditioned
DISCRETE_CONFIGS = 200  # per map
DENSE_STEP = 1e-3  # rad of the largest joint motion between two reference samples
BISECTION_STEPS = 40
TOC_TOL = 1e-6  # s
TRANSVERSAL_DT = 2e-4  # s
MAX_JOINT_MOVE = 0.6  # rad per segment and joint
DURATION_RANGE = (0.5, 2.0)  # s per segment
LIMIT_MARGIN = 0.05  # rad kept from the joint limits
TRAJECTORIES_PER_MAP = 10  # half colliding per coal, half free
NEAR_MARGIN = 0.02  # m: free trajectories come this close to the map
CLEARANCE_SAMPLES = 6  # samples of a free trajectory where coal's distance bounds min_clearance
MIN_SHARE = 0.25
SHOULDER = np.array([0.0, 0.0, 0.333])


# ----------------------------------------------------------------------------- maps


@dataclass
class MapSpec:
    """How to draw a map: resolution, seed, and whether its pose is a random one (else
    the identity)."""

    name: str
    resolution: float
    seed: int
    rotated: bool


@dataclass
class OctoMap:
    id: str
    resolution: float
    points: np.ndarray  # map frame
    position: list[float]
    orientation: list[float]  # [x, y, z, w]
    keys: np.ndarray = field(init=False)
    tree: coal.OcTree = field(init=False)

    def __post_init__(self):
        self.keys = octomap_keys(self.points, self.resolution)
        self.tree = coal.makeOctree(np.ascontiguousarray(self.points), self.resolution)

    @property
    def rotation(self) -> np.ndarray:
        return quat_to_matrix(self.orientation)

    def se3(self) -> pin.SE3:
        return pin.SE3(self.rotation, np.asarray(self.position, float))

    def centres_world(self) -> np.ndarray:
        """Centres of the occupied cells (finest level), world frame."""
        centres = (self.keys - OCTOMAP_KEY_CENTRE + 0.5) * self.resolution
        return centres @ self.rotation.T + np.asarray(self.position)

    def write(self, directory: Path) -> tuple[Path, Path]:
        """The .bt and .ot files (octomap's writer) of the map."""
        bt, ot = octomap_file_bytes(self.keys, self.resolution)
        paths = directory / f"{self.id}.bt", directory / f"{self.id}.ot"
        paths[0].write_bytes(bt)
        paths[1].write_bytes(ot)
        return paths


def random_pose(rng: np.random.Generator) -> tuple[list[float], list[float]]:
    axis = rng.normal(size=3)
    axis /= np.linalg.norm(axis)
    angle = rng.uniform(0.3, 1.2)
    q = [*(axis * math.sin(angle / 2)), math.cos(angle / 2)]
    return rng.uniform(-0.1, 0.1, 3).tolist(), [float(v) for v in q]


def rotz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def in_reach(rng: np.random.Generator, r_min: float, r_max: float) -> np.ndarray:
    """A point at distance r_min..r_max from the shoulder, above z = 0.05."""
    while True:
        d = rng.normal(size=3)
        p = SHOULDER + d / np.linalg.norm(d) * rng.uniform(r_min, r_max)
        if p[2] > 0.05 and math.hypot(p[0], p[1]) > 0.3:
            return p


def make_map(spec: MapSpec) -> OctoMap:
    """A shelf-like slab (a box filled with points at res / 2) at 0.45-0.7 m from the
    base and 0.15-0.6 m high, 3-5 Gaussian blobs of clutter (sigma 2-5 cm) and 60 sparse
    points, in the Panda's reach; points within 0.25 m of the base's axis below 0.5 m are
    left out (the static links would touch them in every configuration)."""
    rng = np.random.default_rng(spec.seed)
    res = spec.resolution
    yaw = rng.uniform(-math.pi, math.pi)
    centre = rotz(yaw) @ np.array([rng.uniform(0.45, 0.7), 0.0, 0.0]) + [0.0, 0.0, rng.uniform(0.15, 0.6)]
    size = np.array([rng.uniform(0.2, 0.3), rng.uniform(0.4, 0.7), rng.uniform(0.02, 0.04)])
    axes = [np.linspace(-s / 2, s / 2, int(math.ceil(s / (res / 2))) + 1) for s in size]
    slab = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, 3) @ rotz(yaw).T + centre
    parts = [slab]
    for _ in range(int(rng.integers(3, 6))):
        parts.append(rng.normal(in_reach(rng, 0.3, 0.75), rng.uniform(0.02, 0.05), (int(rng.integers(80, 250)), 3)))
    parts.append(rng.uniform([-0.8, -0.8, 0.0], [0.8, 0.8, 1.1], (60, 3)))
    world = np.concatenate(parts)
    keep = (np.hypot(world[:, 0], world[:, 1]) > 0.25) | (world[:, 2] > 0.5)
    world = world[keep & (world[:, 2] > -0.05)]
    if spec.rotated:
        position, orientation = random_pose(rng)
    else:
        position, orientation = [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]
    R = quat_to_matrix(orientation)
    points = (world - np.asarray(position)) @ R  # map frame: R^T (p - t)
    return OctoMap(spec.name, res, points, position, orientation)


def write_map_scene(path: Path, entries: list[tuple[str, str, list[float], list[float]]]) -> None:
    """A scene file of octomap objects (id, file relative to the scene, position, orientation)."""
    lines = ["# generated by test_octomap_coal.py", "frame_id: world", "objects:"]
    for object_id, file, position, orientation in entries:
        lines += [
            f"  - id: {object_id}",
            "    type: octomap",
            f"    file: {file}",
            f"    pose: {{position: {fmt_list(position)}, orientation: {fmt_list(orientation)}}}",
        ]
    path.write_text("\n".join(lines) + "\n")


# ----------------------------------------------------------------------------- robot + reference


@pytest.fixture(scope="module")
def panda(robots_dir, package_share_dir) -> Robot:
    return Robot(PANDA, robots_dir, package_share_dir)


@pytest.fixture(scope="module")
def ccd_guard(cmeel_prefix) -> Path:
    return release_binary("ccd_guard", "cargo build --release")


def map_case(spec, panda: Robot, tmp_path: Path, kind: str):
    """The map of ``spec``, a scene file holding it (its .bt at its pose) and the coal
    reference of the Panda against it."""
    omap = make_map(spec)
    bt, _ = omap.write(tmp_path)
    scene = tmp_path / f"{kind}_{omap.id}.yaml"
    write_map_scene(scene, [(omap.id, bt.name, omap.position, omap.orientation)])
    return omap, scene, MapRef(panda, omap)


class MapRef:
    """pinocchio + coal: the Panda's links against one map (coal's octree at the map's
    pose), and the Panda's self-collision pairs (the SRDF's)."""

    def __init__(self, robot: Robot, omap: OctoMap):
        self.robot = robot
        self.omap = omap
        gm = pin.GeometryModel()
        self.link_geoms: dict[str, list[int]] = {}
        for gid, g in enumerate(robot.geoms.geometryObjects):
            gm.addGeometryObject(pin.GeometryObject(g))
            self.link_geoms.setdefault(robot.link_of_geom[gid], []).append(gid)
        self.map_gid = gm.addGeometryObject(pin.GeometryObject(omap.id, 0, 0, omap.se3(), omap.tree))
        self.map_keys = []  # link of each map pair, in pair order
        for link in robot.geom_links:
            for gid in self.link_geoms[link]:
                gm.addCollisionPair(pin.CollisionPair(gid, self.map_gid))
                self.map_keys.append(link)
        self.n_map_pairs = len(self.map_keys)
        for a, b in robot.self_pairs():
            for ga in self.link_geoms[a]:
                for gb in self.link_geoms[b]:
                    gm.addCollisionPair(pin.CollisionPair(ga, gb))
        self.gm = gm
        self.gd = gm.createData()
        for req in self.gd.collisionRequests:
            req.security_margin = 0.0
            _tighten(req)
        # a model with the map pairs only, for fast sampling
        self.gm_map = pin.GeometryModel()
        for g in gm.geometryObjects:
            self.gm_map.addGeometryObject(pin.GeometryObject(g))
        for k in range(self.n_map_pairs):
            self.gm_map.addCollisionPair(gm.collisionPairs[k])
        self.gd_map = self.gm_map.createData()
        for req in self.gd_map.collisionRequests:
            req.security_margin = 0.0
            _tighten(req)
        self.gd_near = self.gm_map.createData()  # the map pairs, inflated by NEAR_MARGIN
        for req in self.gd_near.collisionRequests:
            req.security_margin = NEAR_MARGIN
        self.data = robot.model.createData()
        self.centres = omap.centres_world()

    # -- configurations as pinocchio vectors
    def q_of_cfg(self, cfg: dict[str, float]) -> np.ndarray:
        return pinocchio_q(self.robot.model, all_joint_values(self.robot.info, cfg))

    def map_links(self, q) -> set[str]:
        """Links colliding with the map."""
        pin.computeCollisions(self.robot.model, self.data, self.gm_map, self.gd_map, q, False)
        return {self.map_keys[k] for k, r in enumerate(self.gd_map.collisionResults) if r.isCollision()}

    def any_map_collision(self, q) -> bool:
        return bool(pin.computeCollisions(self.robot.model, self.data, self.gm_map, self.gd_map, q, True))

    def near_map(self, q) -> bool:
        """Some link within NEAR_MARGIN of the map."""
        return bool(pin.computeCollisions(self.robot.model, self.data, self.gm_map, self.gd_near, q, True))

    def self_collision(self, q) -> bool:
        pin.computeCollisions(self.robot.model, self.data, self.gm, self.gd, q, False)
        return any(r.isCollision() for r in list(self.gd.collisionResults)[self.n_map_pairs:])

    def place(self, q):
        pin.framesForwardKinematics(self.robot.model, self.data, q)
        pin.updateGeometryPlacements(self.robot.model, self.data, self.gm, self.gd)

    def link_collides(self, q, link: str) -> bool:
        self.place(q)
        for gid in self.link_geoms[link]:
            req, res = _tighten(coal.CollisionRequest()), coal.CollisionResult()
            if coal.collide(self.gm.geometryObjects[gid].geometry, _tf(self.gd.oMg[gid]), self.omap.tree, _tf(self.omap.se3()), req, res):
                return True
        return False

    def link_distance(self, q, link: str) -> float:
        """coal's distance between the link and the map (negative: penetrating)."""
        self.place(q)
        best = math.inf
        for gid in self.link_geoms[link]:
            req, res = _tighten(coal.DistanceRequest()), coal.DistanceResult()
            d = coal.distance(self.gm.geometryObjects[gid].geometry, _tf(self.gd.oMg[gid]), self.omap.tree, _tf(self.omap.se3()), req, res)
            best = min(best, d)
        return best

    def map_distance(self, q) -> float:
        return min(self.link_distance(q, link) for link in self.robot.geom_links)

    def containment(self, q, link: str, limit: int | None = 50) -> str | None:
        """A voxel of the map wholly inside a closed mesh of the link, checked without
        coal's collision answer: its centre has winding number +-1 (coal found no surface
        contact, so the whole cube is inside). Cubes whose centres lie in the mesh's box
        are tried (the first ``limit`` of them)."""
        self.place(q)
        half = self.omap.resolution * math.sqrt(3) / 2
        for gid in self.link_geoms[link]:
            if gid not in self.robot.mesh_data:
                continue
            V, T = self.robot.mesh_data[gid]
            M = self.gd.oMg[gid]
            W = V @ M.rotation.T + M.translation
            lo, hi = W.min(axis=0) + half, W.max(axis=0) - half
            near = np.all((self.centres >= lo) & (self.centres <= hi), axis=1)
            candidates = self.centres[near]
            if len(candidates) == 0:
                continue
            candidates = candidates[:limit]
            w = winding_number(candidates, W, T)
            inside = np.abs(np.abs(w) - 1) < 1e-6
            if inside.any():
                c = candidates[inside][0]
                return f"the voxel at {np.round(c, 4).tolist()} lies inside the closed mesh of {link} (winding number {w[inside][0]:.6f})"
        return None


# ----------------------------------------------------------------------------- 1. leaves


LEAF_MAPS = [
    MapSpec("shelf_1cm", 0.01, 11, rotated=False),
    MapSpec("clutter_2cm", 0.02, 12, rotated=True),
]


def extremes_map() -> OctoMap:
    """Cells near both ends of the key range, a dense block that prunes into bigger
    leaves in the .bt, and points on negative coordinates, at 5 cm."""
    res = 0.05
    rng = np.random.default_rng(13)
    edge = 32767 * res
    block = np.stack(np.meshgrid(*[np.arange(0.0, 0.8, res / 2) + 0.001] * 3, indexing="ij"), -1).reshape(-1, 3)
    points = np.concatenate([
        block,
        rng.uniform(-1.0, 1.0, (400, 3)),
        [[edge - 0.001, -edge + 0.001, 0.3], [-edge + 0.001, edge - 0.001, -edge + 0.001], [123.456, -987.654, 55.5]],
    ])  # fmt: skip
    return OctoMap("extremes_5cm", res, points, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])


def expand(voxels) -> set[tuple[int, int, int]]:
    """The finest-level cells of leaves (kx, ky, kz, level)."""
    cells = set()
    for kx, ky, kz, level in voxels:
        n = 1 << level
        for dx in range(n):
            for dy in range(n):
                for dz in range(n):
                    cells.add((kx + dx, ky + dy, kz + dz))
    return cells


def test_leaves_match_coal_and_octomap(run_probe, tmp_path):
    maps = [make_map(spec) for spec in LEAF_MAPS] + [extremes_map()]
    entries, files = [], []
    for omap in maps:
        bt, ot = omap.write(tmp_path)
        entries += [(f"{omap.id}_bt", bt.name, omap.position, omap.orientation), (f"{omap.id}_ot", ot.name, omap.position, omap.orientation)]
        files += [(omap, bt), (omap, ot)]
    scene = tmp_path / "leaves.yaml"
    write_map_scene(scene, entries)
    answer = run_probe("octomap_leaves", {"scene": str(scene)})
    assert [m["id"] for m in answer["maps"]] == [e[0] for e in entries], answer.keys()
    summary = []
    for (omap, path), ours in zip(files, answer["maps"]):
        where = f"{ours['id']} ({path})"
        res = omap.resolution
        # coal's cells are the keys we computed (octomap's coordToKey for doubles)
        boxes = np.array(omap.tree.toBoxes())
        assert np.all(boxes[:, 3] == res) and np.all(boxes[:, 4] >= 0.5), f"{where}: coal's leaves are not all finest and occupied"
        coal_keys = np.rint(boxes[:, :3] / res - 0.5).astype(np.int64) + OCTOMAP_KEY_CENTRE
        assert np.abs(boxes[:, :3] - (coal_keys - OCTOMAP_KEY_CENTRE + 0.5) * res).max() < 1e-9
        keys = {tuple(k) for k in omap.keys.tolist()}
        assert {tuple(k) for k in coal_keys.tolist()} == keys, f"{where}: coal's cells are not floor(x / res) + 32768"
        # resolution and pose as the scene says
        assert ours["resolution"] == res, where
        assert np.abs(np.array(ours["pose"]["translation"]) - omap.position).max() <= 1e-15, where
        assert np.abs(np.array(ours["pose"]["rotation"]) - omap.rotation).max() < 1e-12, where
        # our leaves are octomap's, key and level
        voxels = sorted(tuple(v) for v in ours["voxels"])
        octomaps = sorted(octomap_leaves(path))
        assert len(voxels) == len(set(voxels)), f"{where}: a leaf twice"
        missing, extra = sorted(set(octomaps) - set(voxels)), sorted(set(voxels) - set(octomaps))
        assert not missing and not extra, f"{where}: octomap's leaves we lack {missing[:5]} ({len(missing)}), ours octomap lacks {extra[:5]} ({len(extra)})"
        # ... and cover exactly coal's cells
        assert expand(voxels) == keys, f"{where}: our leaves do not cover coal's cells"
        # cubes in metres: the key grid, and for the unpruned .ot coal's boxes one for one
        v = np.array(voxels, dtype=np.int64)
        order = np.lexsort(np.array([vv[:3] for vv in ours["voxels"]]).T[::-1])
        cubes = np.array(ours["cubes"], float)[order]
        v_sorted = np.array(ours["voxels"], dtype=np.int64)[order]
        lo = (v_sorted[:, :3] - OCTOMAP_KEY_CENTRE) * res
        hi = (v_sorted[:, :3] + (1 << v_sorted[:, 3:4]) - OCTOMAP_KEY_CENTRE) * res
        assert np.abs(cubes[:, 0] - lo).max() <= 1e-12 * max(1.0, np.abs(lo).max()), where
        assert np.abs(cubes[:, 1] - hi).max() <= 1e-12 * max(1.0, np.abs(hi).max()), where
        levels = np.bincount(v[:, 3], minlength=1)
        if path.suffix == ".ot":
            assert np.all(v[:, 3] == 0), f"{where}: the unpruned tree has bigger leaves"
            coal_sorted = boxes[np.lexsort(coal_keys.T[::-1])]
            assert np.abs(cubes[:, 0] - (coal_sorted[:, :3] - res / 2)).max() < 1e-9, where
            assert np.abs(cubes[:, 1] - (coal_sorted[:, :3] + res / 2)).max() < 1e-9, where
        summary.append(f"{ours['id']}: {len(voxels)} leaves (per level {levels.tolist()}) for {len(keys)} cells")
    print("leaves: " + "; ".join(summary))
    # the pruned .bt files must have merged something, or the level check tested nothing
    assert any(max(v[3] for v in m["voxels"]) > 0 for m in answer["maps"] if m["id"].endswith("_bt"))


def test_bt_size_header_is_checked(run_probe, tmp_path):
    """A .bt whose header's node count is off is refused, naming the file and the
    mismatch (octomap's readBinary refuses it); an .ot's count is not checked (octomap's
    read does not)."""
    omap = make_map(LEAF_MAPS[1])
    bt, ot = omap.write(tmp_path)
    for path in (bt, ot):
        text = path.read_bytes()
        size = int(re.search(rb"\nsize (\d+)\n", text).group(1))
        path.with_name("off_" + path.name).write_bytes(text.replace(b"\nsize %d\n" % size, b"\nsize %d\n" % (size + 1), 1))
    for name, ok in (("off_" + bt.name, False), ("off_" + ot.name, True)):
        scene = tmp_path / f"{name}.yaml"
        write_map_scene(scene, [("m", name, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0])])
        proc = run_probe("octomap_leaves", {"scene": str(scene)}, expect_ok=False)
        if ok:
            assert proc.returncode == 0, proc.stderr
            assert len(json.loads(proc.stdout)["maps"][0]["voxels"]) == len(octomap_leaves(ot))
        else:
            assert proc.returncode != 0, f"{name}: a wrong size header was accepted"
            assert name in proc.stderr and "size" in proc.stderr.lower(), proc.stderr


def test_occupancy_threshold_as_octomap(run_probe, tmp_path):
    """Leaves at log-odds exactly 0 (probability 0.5) are occupied, at -1e-6 free, as
    octomap's isNodeOccupied (log-odds >= 0) and coal's (probability >= 0.5) say: our
    leaves of the .ot (log-odds as written) and the .bt (octomap's max-likelihood) are
    octomap's."""
    import octomap

    values = [0.0, -1e-6, 1e-6, -0.0, -2.0, 3.0, 0.4, -0.4]
    tree = octomap.OcTree(0.05)
    for i, log_odds in enumerate(values):
        key = octomap.OcTreeKey()
        key[0], key[1], key[2] = OCTOMAP_KEY_CENTRE + 2 * i, OCTOMAP_KEY_CENTRE - 3, OCTOMAP_KEY_CENTRE + 1
        tree.updateNode(key, float(log_odds), True)
    tree.updateInnerOccupancy()
    ot, bt = tmp_path / "threshold.ot", tmp_path / "threshold.bt"
    ot.write_bytes(tree.write())
    bt.write_bytes(tree.writeBinary())
    scene = tmp_path / "threshold.yaml"
    write_map_scene(scene, [("ot", ot.name, [0.0] * 3, [0.0, 0.0, 0.0, 1.0]), ("bt", bt.name, [0.0] * 3, [0.0, 0.0, 0.0, 1.0])])
    answer = run_probe("octomap_leaves", {"scene": str(scene)})
    expected = sorted((OCTOMAP_KEY_CENTRE + 2 * i, OCTOMAP_KEY_CENTRE - 3, OCTOMAP_KEY_CENTRE + 1, 0) for i, v in enumerate(values) if v >= 0)
    for m, path in zip(answer["maps"], (ot, bt)):
        assert sorted(octomap_leaves(path)) == expected, f"octomap reads {path} otherwise than this test expects"
        assert sorted(tuple(v) for v in m["voxels"]) == expected, f"{path}: our leaves {m['voxels']}, octomap's {expected}"


# ----------------------------------------------------------------------------- 2. discrete


DISCRETE_MAPS = [
    MapSpec("map_a", 0.01, 21, rotated=False),
    MapSpec("map_b", 0.02, 22, rotated=True),
    MapSpec("map_c", 0.015, 23, rotated=True),
]


def test_discrete_collisions_match_coal(panda, run_probe, tmp_path):
    rng = np.random.default_rng(2024)
    failures, notes = [], []
    n = colliding = agree = near = contained = links_compared = 0
    for spec in DISCRETE_MAPS:
        omap, scene, ref = map_case(spec, panda, tmp_path, "discrete")
        configs = [random_configuration(panda.info, rng) for _ in range(DISCRETE_CONFIGS)]
        out = run_probe("collide", {"urdf": str(panda.urdf), "srdf": str(panda.srdf), "scene": str(scene), "configurations": configs})
        results = out.get("results")
        assert isinstance(results, list) and len(results) == len(configs), str(out)[:300]
        for k, (cfg, result) in enumerate(zip(configs, results)):
            where = f"{omap.id} ({scene}) configuration {k}"
            ours = set()
            for a, b in result["pairs"]:
                if b == omap.id:
                    assert a in panda.geom_links, f"{where}: pair {[a, b]} names no link with geometry"
                    ours.add(a)
                else:
                    assert a in panda.geom_links and b in panda.geom_links, f"{where}: pair {[a, b]} names neither the map nor two links"
            q = ref.q_of_cfg(cfg)
            theirs = ref.map_links(q)
            n += 1
            colliding += bool(theirs)
            links_compared += len(panda.geom_links)
            if ours == theirs:
                agree += 1
                continue
            for link in sorted(ours ^ theirs):
                d = ref.link_distance(q, link)
                if abs(d) <= EPS_NEAR:
                    near += 1
                    notes.append(f"{where}: {link}: near-touching (coal distance {d:.2e}), ours {link in ours}, coal {link in theirs}")
                elif link in theirs:
                    failures.append(f"{where}: coal finds {link} touching the map (distance {d:.3e}), we do not\n    config={cfg}")
                else:
                    why = ref.containment(q, link)
                    if why is None:
                        failures.append(f"{where}: we find {link} touching the map, coal does not (distance {d:.3e}, no voxel inside the link)\n    config={cfg}")
                    else:
                        contained += 1
                        notes.append(f"{where}: {link}: {why}")
    summary = (
        f"discrete: {n} configurations on {len(DISCRETE_MAPS)} maps: {colliding} touching the map per coal, "
        f"{n - colliding} free; {agree} with the same links touching; {near} near-touching link disagreements "
        f"(|coal distance| <= {EPS_NEAR}) tolerated; {contained} voxels inside a link mesh accepted"
    )
    print(summary)
    for note in notes:
        print("note:", note)
    assert not failures, f"{len(failures)} disagreements with coal ({summary}):\n" + "\n".join(failures[:15])
    assert MIN_SHARE * n <= colliding <= (1 - MIN_SHARE) * n, summary


# ----------------------------------------------------------------------------- 3. continuous


CONTINUOUS_MAPS = [
    MapSpec("cmap_a", 0.02, 31, rotated=False),
    MapSpec("cmap_b", 0.01, 32, rotated=True),
    MapSpec("cmap_c", 0.02, 33, rotated=True),
]


def sample_times(traj: Trajectory) -> list[float]:
    """Per segment, a joint step of at most DENSE_STEP rad of the largest joint motion."""
    out = [float(traj.times[0])]
    for k in range(len(traj.times) - 1):
        steps = max(1, math.ceil(float(np.max(np.abs(traj.pos[k + 1] - traj.pos[k]))) / DENSE_STEP * 1.0001))
        t0, T = traj.times[k], traj.times[k + 1] - traj.times[k]
        out += [float(t0 + T * i / steps) for i in range(1, steps + 1)]
    return out


@dataclass
class DenseRef:
    colliding: bool
    self_colliding: bool = False
    near: bool = False  # free, and some sample within NEAR_MARGIN of the map
    t_sample: float = math.nan  # first colliding sample
    t_prev: float = math.nan
    link_times: dict = field(default_factory=dict)  # link -> bisected first contact
    t_ref: float = math.nan
    first_links: set = field(default_factory=set)
    transversal: bool = False
    why_not_transversal: str = ""


def dense_reference(ref: MapRef, robot: Robot, traj: Trajectory) -> DenseRef:
    ts = sample_times(traj)
    near = False
    for i, t in enumerate(ts):
        q = robot.q(traj.at(t))
        if i % 4 == 0 and ref.self_collision(q):
            return DenseRef(False, self_colliding=True)
        if not ref.any_map_collision(q):
            near = near or ref.near_map(q)
            continue
        if i == 0:
            return DenseRef(True, t_sample=t, t_prev=t)
        prev = ts[i - 1]
        out = DenseRef(True, t_sample=t, t_prev=prev)
        for link in ref.map_links(q):
            lo, hi = prev, t
            for _ in range(BISECTION_STEPS):
                mid = 0.5 * (lo + hi)
                if ref.link_collides(robot.q(traj.at(mid)), link):
                    hi = mid
                else:
                    lo = mid
            out.link_times[link] = hi
        out.t_ref = min(out.link_times.values())
        out.first_links = {k for k, v in out.link_times.items() if v <= out.t_ref + TOC_TOL}
        first = min(out.link_times, key=out.link_times.get)
        t_end = float(traj.times[-1])
        after = ref.link_collides(robot.q(traj.at(min(out.t_ref + TRANSVERSAL_DT, t_end))), first)
        before = ref.link_distance(robot.q(traj.at(max(out.t_ref - TRANSVERSAL_DT, 0.0))), first)
        out.transversal = after and before > 0
        if not out.transversal:
            out.why_not_transversal = f"collides at t_ref + {TRANSVERSAL_DT}: {after}; distance at t_ref - {TRANSVERSAL_DT}: {before:.3e}"
        return out
    return DenseRef(False, near=near)


def random_trajectory(robot: Robot, ref: MapRef, rng: np.random.Generator) -> Trajectory:
    lo, hi = robot.lower + LIMIT_MARGIN, robot.upper - LIMIT_MARGIN
    for _ in range(1000):
        x0 = rng.uniform(lo, hi)
        q0 = robot.q(x0)
        if ref.any_map_collision(q0) or ref.self_collision(q0):
            continue
        # nor a voxel inside a link (a contact for the tool, not for coal): the first
        # contact is then one of surfaces, which coal sees
        if not any(ref.containment(q0, link, limit=None) for link in robot.geom_links):
            break
    else:
        raise AssertionError("no free start in 1000 tries")
    n = int(rng.integers(2, 5))
    pos = [x0]
    for _ in range(n - 1):
        pos.append(np.clip(pos[-1] + rng.uniform(-MAX_JOINT_MOVE, MAX_JOINT_MOVE, len(x0)), lo, hi))
    times = np.concatenate([[0.0], np.cumsum(rng.uniform(*DURATION_RANGE, n - 1))])
    return Trajectory(times, np.array(pos))


@dataclass
class Tally:
    trajectories: int = 0
    coal_colliding: int = 0
    coal_free: int = 0
    free: int = 0
    collision: int = 0
    uncertain: int = 0
    uncertain_colliding: int = 0  # of which coal finds a collision
    transversal: int = 0
    grazing: int = 0
    early_real: int = 0
    missed_by_sampling: int = 0
    other_link_real: int = 0
    self_redrawn: int = 0
    not_wanted: int = 0  # drawn, but its kind was complete or it stayed far from the map
    clearance_checked: int = 0
    min_free_clearance: float = math.inf  # smallest min_clearance of a collision_free verdict
    max_toc_diff: float = 0.0
    tool_seconds: float = 0.0
    notes: list = field(default_factory=list)


def is_real(ref: MapRef, robot: Robot, traj: Trajectory, link: str, toc: float) -> tuple[bool, str]:
    t_end = float(traj.times[-1])
    if ref.link_collides(robot.q(traj.at(min(toc + TOC_TOL, t_end))), link):
        return True, "coal collides"
    d = ref.link_distance(robot.q(traj.at(toc)), link)
    if d <= EPS_NEAR:
        return True, f"coal distance at toc {d:.2e}"
    why = ref.containment(robot.q(traj.at(min(toc + TOC_TOL, t_end))), link, limit=None)
    if why is not None:
        return True, why
    return False, f"coal: no collision at toc + {TOC_TOL}, distance {d:.3e} at toc"


def compare(ref: MapRef, robot: Robot, traj: Trajectory, dense: DenseRef, out: dict, tally: Tally, where: str) -> list[str]:
    if "error" in out:
        return [f"{where}: {out['error']}"]
    rep, rc = out["report"], out["returncode"]
    tally.tool_seconds += out["seconds"]
    verdict = rep.get("verdict")
    expected_rc = {"collision_free": 0, "collision": 1, "uncertain": 3}.get(verdict)
    if expected_rc is None or rc != expected_rc:
        return [f"{where}: verdict {verdict!r} with exit status {rc}; stderr: {out['stderr']}"]
    contacts = rep.get("contacts") or []
    map_id = ref.omap.id
    coal_desc = (
        f"coal: first colliding sample {dense.t_sample:.9f}, t_ref {dense.t_ref:.9f} "
        f"({'transversal' if dense.transversal else 'grazing: ' + dense.why_not_transversal}), "
        f"links {', '.join(f'{k}@{v:.9f}' for k, v in sorted(dense.link_times.items(), key=lambda kv: kv[1]))}"
        if dense.colliding
        else "coal: every sample free"
    )
    if verdict == "uncertain":
        # allowed (the motion may come closer than the tolerance); shown with coal's
        # distance at a few samples
        tally.uncertain += 1
        tally.uncertain_colliding += dense.colliding
        d = min(ref.map_distance(robot.q(traj.at(float(t)))) for t in np.linspace(traj.times[0], traj.times[-1], CLEARANCE_SAMPLES))
        tally.notes.append(
            f"{where}: uncertain (error {rep.get('error')!r}, min_clearance {rep.get('min_clearance')}, tolerance {rep.get('tolerance')}); "
            f"{coal_desc}; coal's smallest link-map distance at {CLEARANCE_SAMPLES} samples {d:.4e}"
        )
        return []
    if verdict == "collision_free":
        tally.free += 1
        fails = []
        if not rep.get("certified"):
            fails.append(f"{where}: collision_free but not certified")
        if contacts or rep.get("time_of_contact") is not None:
            fails.append(f"{where}: collision_free with contacts {contacts}")
        if dense.colliding:
            fails.append(f"{where}: the tool certifies collision_free; {coal_desc}")
            return fails
        # its min_clearance is a proven lower bound: at most coal's distance anywhere
        clearance = rep.get("min_clearance")
        tally.min_free_clearance = min(tally.min_free_clearance, clearance)
        for t in np.linspace(traj.times[0], traj.times[-1], CLEARANCE_SAMPLES):
            d = ref.map_distance(robot.q(traj.at(float(t))))
            tally.clearance_checked += 1
            if not clearance <= d + EPS_NEAR:
                fails.append(f"{where}: min_clearance {clearance} but coal's link-map distance at t={t:.4f} is {d:.6e}")
        return fails
    # collision
    tally.collision += 1
    if not contacts:
        return [f"{where}: verdict collision without contacts"]
    fails = []
    others = sorted({c["other"] for c in contacts})
    if others != [map_id]:
        fails.append(f"{where}: contacts name {others}, not only the map '{map_id}'")
    toc = rep["time_of_contact"]
    if toc != contacts[0]["time_of_contact"] or toc != min(c["time_of_contact"] for c in contacts):
        fails.append(f"{where}: time_of_contact {toc} is not the first contact's")
    link = contacts[0]["link"]
    real, why = is_real(ref, robot, traj, link, toc)
    tool_desc = f"tool: first contact [{link}, {contacts[0]['other']}] at {toc!r}"
    if not dense.colliding:
        if real:
            tally.missed_by_sampling += 1
            tally.notes.append(f"{where}: coal's samples are all free; {tool_desc} is real ({why})")
        else:
            fails.append(f"{where}: coal's samples are all free and {tool_desc} is not real: {why}")
        return fails
    if toc > dense.t_sample + TOC_TOL:
        return fails + [f"{where}: the tool's contact is later than coal's first colliding sample; {tool_desc}; {coal_desc}"]
    diff = toc - dense.t_ref
    if not real:
        return fails + [f"{where}: the tool's first contact (toc - t_ref = {diff:.3e} s) is not real: {why}; {tool_desc}; {coal_desc}"]
    if diff < -TOC_TOL:
        tally.early_real += 1
        tally.notes.append(f"{where}: tool earlier by {-diff:.3e} s, real ({why}); {tool_desc}; {coal_desc}")
        return fails
    if not dense.transversal:
        tally.grazing += 1
        if abs(diff) > TOC_TOL:
            tally.notes.append(f"{where}: grazing contact, toc differs by {diff:.3e} s; {tool_desc}; {coal_desc}")
        return fails
    tally.transversal += 1
    tally.max_toc_diff = max(tally.max_toc_diff, abs(diff))
    if abs(diff) > TOC_TOL:
        fails.append(f"{where}: |toc - t_ref| = {abs(diff):.3e} s > {TOC_TOL}; {tool_desc}; {coal_desc}")
    elif link not in dense.first_links:
        tally.other_link_real += 1
        tally.notes.append(f"{where}: the tool's first link is not among coal's first links but is real ({why}); {tool_desc}; {coal_desc}")
    return fails


def test_certified_verdicts_match_dense_coal(panda, ccd_guard, cmeel_prefix, tmp_path):
    started = time.monotonic()
    rng = np.random.default_rng(77)
    tally = Tally()
    cases = []  # (where, ref, traj, dense, cmd)
    for spec in CONTINUOUS_MAPS:
        omap, scene, ref = map_case(spec, panda, tmp_path, "continuous")
        wanted = {True: TRAJECTORIES_PER_MAP // 2, False: TRAJECTORIES_PER_MAP - TRAJECTORIES_PER_MAP // 2}
        for _ in range(200):
            if not any(wanted.values()):
                break
            traj = random_trajectory(panda, ref, rng)
            dense = dense_reference(ref, panda, traj)
            if dense.self_colliding:
                tally.self_redrawn += 1
                continue
            if wanted[dense.colliding] == 0 or not (dense.colliding or dense.near):
                tally.not_wanted += 1
                continue
            wanted[dense.colliding] -= 1
            i = len(cases)
            path = tmp_path / f"continuous_{omap.id}_traj_{i}.yaml"
            traj.write_yaml(path, PANDA.joints)
            cmd = [
                str(ccd_guard), "check", "--urdf", str(panda.urdf), "--srdf", str(panda.srdf), "--scene", str(scene),
                "--trajectory", str(path), "--method", "certified", "--format", "json",
            ]  # fmt: skip
            cases.append((f"{omap.id} trajectory {i} ({len(traj.times)} points)", ref, traj, dense, cmd))
        assert not any(wanted.values()), f"{omap.id}: could not draw the trajectories ({wanted} missing)"
    failures = []
    with ThreadPoolExecutor(max_workers=1) as pool:
        futures = [pool.submit(run_tool, cmd, cmeel_prefix) for *_, cmd in cases]
        for (where, ref, traj, dense, cmd), fut in zip(cases, futures):
            tally.trajectories += 1
            tally.coal_colliding += dense.colliding
            tally.coal_free += not dense.colliding
            fails = compare(ref, panda, traj, dense, fut.result(), tally, where)
            failures += [f + f"\n    reproduce: AMENT_PREFIX_PATH={cmeel_prefix} {' '.join(cmd)}" for f in fails]
    summary = (
        f"continuous: {tally.trajectories} trajectories on {len(CONTINUOUS_MAPS)} maps: coal {tally.coal_colliding} colliding, "
        f"{tally.coal_free} free ({tally.self_redrawn} self-colliding and {tally.not_wanted} not needed or far from the map drawn again; the free ones all within {NEAR_MARGIN} m of it); tool {tally.collision} collision, "
        f"{tally.free} collision_free, {tally.uncertain} uncertain ({tally.uncertain_colliding} of them colliding per coal); "
        f"first contacts: {tally.transversal} transversal (max |toc - t_ref| {tally.max_toc_diff:.3e} s), {tally.grazing} grazing, "
        f"{tally.early_real} tool earlier & real, {tally.missed_by_sampling} real contacts missed by sampling, "
        f"{tally.other_link_real} other first link real; {tally.clearance_checked} samples bounding min_clearance (smallest of free verdicts {tally.min_free_clearance:.4f} m); "
        f"tool {tally.tool_seconds:.1f} s, total {time.monotonic() - started:.1f} s"
    )
    print(summary)
    for note in tally.notes:
        print("note:", note)
    assert not failures, f"{len(failures)} disagreements ({summary}):\n" + "\n".join(failures[:12])
    assert tally.uncertain <= MIN_SHARE * tally.trajectories, summary
    assert tally.transversal >= 3, summary
