"""Discrete collision checking of the probe (`probe collide`) against pinocchio + coal.

The Panda (panda.urdf: STL collision meshes for link0..link7 and the hand, boxes for the
fingers) with its SRDF, in random scenes of ~20 primitive obstacles (box, sphere,
cylinder, cone; 2-25 cm; within ~0.9 m of the base), at random configurations within the
joint limits.  The reference is pinocchio (kinematics, URDF/STL loading) + coal (narrow
phase: meshes as BVH models of their triangles, primitives as coal shapes).

For every configuration the probe's set of colliding pairs must equal coal's, except for
one documented semantic difference: coal treats a mesh as its surface, so a solid that
lies entirely inside a closed link mesh without touching its surface (a small obstacle
swallowed by a link, or a finger box/another link inside a link) does not collide for
coal.  If the probe reports such a pair, the containment is verified independently
(point-in-closed-mesh by winding number, numpy point-in-primitive tests) and only then
accepted.  (The converse, a whole link mesh inside a solid primitive, is a collision for
coal too: coal tests each triangle against the solid primitive.)  Any other disagreement
fails, with the configuration, the pair and coal's distance for diagnosis.

Configurations where the reference itself is ambiguous -- some checked pair changes its
answer when the geometry is inflated or shrunk by EPS_AMBIGUOUS -- are left out before
the probe is asked (their number is reported; with the fixed seeds there are few or none).
"""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path

import coal
import numpy as np
import pinocchio as pin
import pytest

from robot_util import UrdfInfo, all_joint_values, key_str, parse_urdf, pinocchio_q, random_configuration

URDF_REL = "panda_description/urdf/panda.urdf"
SRDF_REL = "panda_description/srdf/panda.srdf"

N_SCENES = 10
CONFIGS_PER_SCENE = 60  # 600 configurations in total
N_OBJECTS = 20
SIZE_MIN, SIZE_MAX = 0.02, 0.25  # full extent of an obstacle, metres
PLACEMENT_RADIUS = 0.9  # obstacle centres within this distance of the base origin
SHOULDER = np.array([0.0, 0.0, 0.333])
EPS_AMBIGUOUS = 1e-6
MIN_SHARE = 0.2  # both colliding and free configurations must be at least this frequent
SELF_CONFIGS = 100  # per self-collision-only test, half of them self-colliding

OBSTACLE_TYPES = ("box", "sphere", "cylinder", "cone")
OBSTACLE_TYPE_P = (0.35, 0.25, 0.25, 0.15)


# ----------------------------------------------------------------------------- geometry


def quat_to_matrix(q):
    """Unit quaternion [x, y, z, w] -> rotation matrix."""
    x, y, z, w = q
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
        ]
    )


@dataclass
class Obstacle:
    id: str
    type: str
    dimensions: list[float]  # as in the scene YAML (shape_msgs/SolidPrimitive)
    position: list[float]
    orientation: list[float]  # [x, y, z, w]

    @property
    def rotation(self) -> np.ndarray:
        return quat_to_matrix(self.orientation)

    def se3(self) -> pin.SE3:
        return pin.SE3(self.rotation, np.asarray(self.position, float))

    def coal_shape(self, shrink: float = 0.0):
        """The coal shape, optionally shrunk by `shrink` (every surface point moves inwards
        by at least about `shrink`)."""
        d = self.dimensions
        if self.type == "box":  # coal.Box takes the full side lengths
            return coal.Box(*(max(v - 2 * shrink, 1e-9) for v in d))
        if self.type == "sphere":
            return coal.Sphere(d[0] - shrink)
        if self.type == "cylinder":  # scene [height, radius]; coal.Cylinder(radius, length)
            return coal.Cylinder(d[1] - shrink, d[0] - 2 * shrink)
        if self.type == "cone":  # scene [height, radius]; coal.Cone(radius, length)
            # coal's cone, like SolidPrimitive's, has its base at z=-h/2 and apex at z=+h/2.
            # Shrink by scaling about the bounding box centre: moves the surface inwards by
            # at least shrink when the factor removes 2*shrink/min(h, r) of the size.
            h, r = d
            s = 1.0 - 4.0 * shrink / min(h, r)
            return coal.Cone(r * s, h * s)
        raise ValueError(self.type)

    def contains(self, points_world: np.ndarray, tol: float = 0.0) -> np.ndarray:
        """Which world points lie inside the closed solid (numpy, independent of coal)."""
        p = (np.asarray(points_world, float) - np.asarray(self.position, float)) @ self.rotation
        d = self.dimensions
        if self.type == "box":
            return np.all(np.abs(p) <= np.asarray(d) / 2 + tol, axis=1)
        if self.type == "sphere":
            return np.linalg.norm(p, axis=1) <= d[0] + tol
        rho = np.hypot(p[:, 0], p[:, 1])
        h, r = d
        if self.type == "cylinder":
            return (np.abs(p[:, 2]) <= h / 2 + tol) & (rho <= r + tol)
        if self.type == "cone":
            return (np.abs(p[:, 2]) <= h / 2 + tol) & (rho <= r * (h / 2 - p[:, 2]) / h + tol)
        raise ValueError(self.type)


def fmt_float(x: float) -> str:
    s = repr(float(x))
    if "e" in s and "." not in s.split("e")[0]:
        m, e = s.split("e")
        s = f"{m}.0e{e}"
    return s


def fmt_list(v) -> str:
    return "[" + ", ".join(fmt_float(x) for x in v) + "]"


def write_scene_yaml(path: Path, objects: list[Obstacle]) -> None:
    lines = ["# generated by test_collision_coal.py", "frame_id: world", "objects:"]
    for o in objects:
        lines += [
            f"  - id: {o.id}",
            f"    type: {o.type}",
            f"    dimensions: {fmt_list(o.dimensions)}",
            f"    pose: {{position: {fmt_list(o.position)}, orientation: {fmt_list(o.orientation)}}}",
        ]
    path.write_text("\n".join(lines) + "\n")


def winding_number(points: np.ndarray, verts: np.ndarray, tris: np.ndarray) -> np.ndarray:
    """Generalised winding number of a closed triangle mesh at each point (~±1 inside, ~0 outside)."""
    out = np.empty(len(points))
    for k, p in enumerate(np.asarray(points, float)):
        a = verts[tris[:, 0]] - p
        b = verts[tris[:, 1]] - p
        c = verts[tris[:, 2]] - p
        la, lb, lc = (np.linalg.norm(v, axis=1) for v in (a, b, c))
        num = np.einsum("ij,ij->i", a, np.cross(b, c))
        den = (
            la * lb * lc
            + np.einsum("ij,ij->i", a, b) * lc
            + np.einsum("ij,ij->i", a, c) * lb
            + np.einsum("ij,ij->i", b, c) * la
        )
        out[k] = np.sum(2 * np.arctan2(num, den)) / (4 * math.pi)
    return out


# ----------------------------------------------------------------------------- the robot


def parse_srdf_disabled(path: Path) -> set[frozenset[str]]:
    root = ET.parse(path).getroot()
    return {frozenset((d.get("link1"), d.get("link2"))) for d in root.findall("disable_collisions")}


@dataclass
class Panda:
    urdf: Path
    srdf: Path
    info: UrdfInfo
    model: pin.Model
    robot_geoms: pin.GeometryModel  # the robot's collision geometry only
    link_of_geom: list[str]  # link name of each robot geometry
    geom_links: list[str]  # links with collision geometry, in URDF order
    disabled: set[frozenset[str]]
    mesh_data: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)  # geom -> (V, T) local

    def self_pairs(self, disabled: set[frozenset[str]]) -> list[tuple[str, str]]:
        return [
            (a, b)
            for a, b in itertools.combinations(self.geom_links, 2)
            if frozenset((a, b)) not in disabled
        ]


def load_panda(robots_dir: Path, share_dir: Path) -> Panda:
    urdf = robots_dir / URDF_REL
    srdf = robots_dir / SRDF_REL
    info = parse_urdf(urdf)
    model = pin.buildModelFromUrdf(str(urdf))
    geoms = pin.buildGeomFromUrdf(model, str(urdf), pin.COLLISION, package_dirs=[str(share_dir)])
    link_of_geom = [model.frames[g.parentFrame].name for g in geoms.geometryObjects]
    geom_links = [link for link in info.links if link in set(link_of_geom)]
    panda = Panda(urdf, srdf, info, model, geoms, link_of_geom, geom_links, parse_srdf_disabled(srdf))
    for gid, g in enumerate(geoms.geometryObjects):
        if isinstance(g.geometry, coal.BVHModelBase):
            V = np.array(g.geometry.vertices())
            T = np.array([[g.geometry.tri_indices(i)[k] for k in range(3)] for i in range(g.geometry.num_tris)])
            panda.mesh_data[gid] = (V, T)
    return panda


@pytest.fixture(scope="module")
def panda(robots_dir, package_share_dir) -> Panda:
    return load_panda(robots_dir, package_share_dir)


# ----------------------------------------------------------------------------- reference


class Reference:
    """Colliding pairs per configuration, by pinocchio + coal, for one scene.

    Pairs are keys ("obstacle", link, obstacle_id) or ("self", link_a, link_b) with
    link_a < link_b."""

    def __init__(self, panda: Panda, obstacles: list[Obstacle], use_srdf: bool = True):
        self.panda = panda
        self.obstacles = obstacles
        self.obstacle_by_id = {o.id: o for o in obstacles}
        disabled = panda.disabled if use_srdf else {frozenset(p) for p in panda.info.adjacent_link_pairs}
        self.self_link_pairs = panda.self_pairs(disabled)
        self.models = {}
        for variant in ("exact", "inflated", "shrunk"):
            self.models[variant] = self._build(variant)

    def _build(self, variant: str):
        panda = self.panda
        gm = pin.GeometryModel()
        link_geoms: dict[str, list[int]] = {}
        for gid, g in enumerate(panda.robot_geoms.geometryObjects):
            g2 = pin.GeometryObject(g)
            if variant == "shrunk" and isinstance(g.geometry, coal.Box):
                g2.geometry = coal.Box(*(2 * g.geometry.halfSide - 2 * EPS_AMBIGUOUS))
            gm.addGeometryObject(g2)
            link_geoms.setdefault(panda.link_of_geom[gid], []).append(gid)
        obstacle_gid = {}
        for o in self.obstacles:
            shape = o.coal_shape(shrink=EPS_AMBIGUOUS if variant == "shrunk" else 0.0)
            obstacle_gid[o.id] = gm.addGeometryObject(pin.GeometryObject(o.id, 0, 0, o.se3(), shape))
        pair_keys = []
        margins = []
        for link in panda.geom_links:
            for o in self.obstacles:
                for gid in link_geoms[link]:
                    gm.addCollisionPair(pin.CollisionPair(gid, obstacle_gid[o.id]))
                    pair_keys.append(("obstacle", link, o.id))
                    margins.append(0.0)
        for a, b in self.self_link_pairs:
            for ga in link_geoms[a]:
                for gb in link_geoms[b]:
                    gm.addCollisionPair(pin.CollisionPair(ga, gb))
                    key = ("self",) + tuple(sorted((a, b)))
                    pair_keys.append(key)
                    both_meshes = ga in panda.mesh_data and gb in panda.mesh_data
                    margins.append(-EPS_AMBIGUOUS if both_meshes else 0.0)
        gd = gm.createData()
        for k, req in enumerate(gd.collisionRequests):
            if variant == "inflated":
                req.security_margin = EPS_AMBIGUOUS
            elif variant == "shrunk":
                req.security_margin = margins[k]
            else:
                req.security_margin = 0.0
        return gm, gd, pair_keys, link_geoms, obstacle_gid

    def collide(self, cfg: dict[str, float], variant: str = "exact") -> set[tuple]:
        gm, gd, keys, _, _ = self.models[variant]
        q = pinocchio_q(self.panda.model, all_joint_values(self.panda.info, cfg))
        data = self.panda.model.createData()
        pin.computeCollisions(self.panda.model, data, gm, gd, q, False)
        return {keys[k] for k, res in enumerate(gd.collisionResults) if res.isCollision()}

    def is_ambiguous(self, cfg) -> bool:
        exact = self.collide(cfg)
        return self.collide(cfg, "inflated") != exact or self.collide(cfg, "shrunk") != exact

    # -- diagnosis and verification of the documented semantic difference

    def placements(self, cfg):
        gm, gd, keys, link_geoms, obstacle_gid = self.models["exact"]
        q = pinocchio_q(self.panda.model, all_joint_values(self.panda.info, cfg))
        data = self.panda.model.createData()
        pin.framesForwardKinematics(self.panda.model, data, q)
        pin.updateGeometryPlacements(self.panda.model, data, gm, gd)
        return gm, gd, link_geoms, obstacle_gid

    def body_geoms(self, name, link_geoms, obstacle_gid):
        return link_geoms[name] if name in link_geoms else [obstacle_gid[name]]

    def min_distance(self, cfg, key) -> float:
        """coal.distance between the two bodies of a pair (min over their geometries)."""
        gm, gd, link_geoms, obstacle_gid = self.placements(cfg)
        best = math.inf
        for ga in self.body_geoms(key[1], link_geoms, obstacle_gid):
            for gb in self.body_geoms(key[2], link_geoms, obstacle_gid):
                req, res = coal.DistanceRequest(), coal.DistanceResult()
                d = coal.distance(
                    gm.geometryObjects[ga].geometry,
                    coal.Transform3s(gd.oMg[ga].rotation, gd.oMg[ga].translation),
                    gm.geometryObjects[gb].geometry,
                    coal.Transform3s(gd.oMg[gb].rotation, gd.oMg[gb].translation),
                    req,
                    res,
                )
                best = min(best, d)
        return best

    def _world_mesh(self, gid, gd):
        V, T = self.panda.mesh_data[gid]
        M = gd.oMg[gid]
        return V @ M.rotation.T + M.translation, T

    def containment(self, cfg, key) -> str | None:
        """If one solid of the pair lies entirely inside the other, verified without coal's
        collision answer, a description of it; else None."""
        gm, gd, link_geoms, obstacle_gid = self.placements(cfg)
        ga_list = self.body_geoms(key[1], link_geoms, obstacle_gid)
        gb_list = self.body_geoms(key[2], link_geoms, obstacle_gid)
        for ga, gb in itertools.chain(
            itertools.product(ga_list, gb_list), itertools.product(gb_list, ga_list)
        ):
            inner, outer = gm.geometryObjects[ga], gm.geometryObjects[gb]
            # inner entirely inside outer?
            if gb in self.panda.mesh_data:
                V, T = self._world_mesh(gb, gd)
                if ga in self.panda.mesh_data:
                    pts = self._world_mesh(ga, gd)[0]
                elif inner.name in self.obstacle_by_id:
                    pts = np.asarray([self.obstacle_by_id[inner.name].position], float)
                else:  # a primitive of the robot (finger box): its centre
                    pts = gd.oMg[ga].translation[None, :]
                w = winding_number(pts, V, T)
                if np.all(np.abs(np.abs(w) - 1) < 1e-6):
                    return f"{inner.name} lies inside the closed mesh {outer.name} (winding numbers {w.min():.6f}..{w.max():.6f})"
            elif outer.name in self.obstacle_by_id and ga in self.panda.mesh_data:
                pts = self._world_mesh(ga, gd)[0]
                if np.all(self.obstacle_by_id[outer.name].contains(pts)):
                    return f"all vertices of {inner.name} lie inside obstacle {outer.name}"
        return None


# ----------------------------------------------------------------------------- scenes


def random_obstacle(rng: np.random.Generator, idx: int) -> Obstacle:
    kind = str(rng.choice(OBSTACLE_TYPES, p=OBSTACLE_TYPE_P))
    size = lambda: float(rng.uniform(SIZE_MIN, SIZE_MAX))  # noqa: E731
    if kind == "box":
        dims = [size(), size(), size()]
    elif kind == "sphere":
        dims = [size() / 2]
    else:  # cylinder, cone: [height, radius]
        dims = [size(), size() / 2]
    while True:
        p = rng.uniform(-PLACEMENT_RADIUS, PLACEMENT_RADIUS, 3)
        if np.linalg.norm(p) <= PLACEMENT_RADIUS and p[2] > -0.1:
            break
    p = p + np.array([0.0, 0.0, 0.25])
    qv = rng.normal(size=4)
    qv /= np.linalg.norm(qv)
    return Obstacle(f"{kind}_{idx:02d}", kind, dims, p.tolist(), qv.tolist())


def hits_base(panda: Panda, o: Obstacle) -> bool:
    """Whether the obstacle touches link0 (static: it would collide in every configuration)."""
    gid = panda.link_of_geom.index("panda_link0")
    req, res = coal.CollisionRequest(), coal.CollisionResult()
    req.security_margin = 0.01
    return bool(
        coal.collide(
            panda.robot_geoms.geometryObjects[gid].geometry,
            coal.Transform3s(),
            o.coal_shape(),
            coal.Transform3s(o.rotation, np.asarray(o.position)),
            req,
            res,
        )
    )


def random_scene(panda: Panda, rng: np.random.Generator) -> list[Obstacle]:
    objects: list[Obstacle] = []
    while len(objects) < N_OBJECTS:
        o = random_obstacle(rng, len(objects))
        if not hits_base(panda, o):
            objects.append(o)
    return objects


# ----------------------------------------------------------------------------- comparison


def normalise_probe_pairs(result, links: set[str], obstacle_ids: set[str], where: str) -> set[tuple]:
    assert isinstance(result, dict) and isinstance(result.get("pairs"), list), f"{where}: bad result {result!r:.300}"
    pairs = result["pairs"]
    problems = []
    keys = set()
    for p in pairs:
        if not (isinstance(p, list) and len(p) == 2 and all(isinstance(s, str) for s in p)):
            problems.append(f"malformed pair {p!r}")
            continue
        a, b = p
        if a not in links:
            problems.append(f"pair {p}: first element is not a link")
            continue
        if b in obstacle_ids:
            key = ("obstacle", a, b)
        elif b in links:
            key = ("self",) + tuple(sorted((a, b)))
        else:
            problems.append(f"pair {p}: second element is neither a link nor an obstacle id")
            continue
        if key in keys:
            problems.append(f"pair {p} listed twice")
        keys.add(key)
    if pairs != sorted(pairs):
        problems.append(f"pairs not sorted: {pairs}")
    assert not problems, f"{where}: " + "; ".join(problems)
    return keys


def compare_scene(panda, ref: Reference, configs, probe_results, label):
    """Returns (failures, accepted) lists of strings."""
    links = set(panda.info.links)
    ids = set(ref.obstacle_by_id)
    failures, accepted = [], []
    for k, (cfg, res) in enumerate(zip(configs, probe_results)):
        where = f"{label} config {k}"
        got = normalise_probe_pairs(res, links, ids, where)
        want = ref.collide(cfg)
        for key in sorted(want - got):
            failures.append(
                f"{where}: coal reports {key_str(key)} colliding, the probe does not "
                f"(coal distance {ref.min_distance(cfg, key):.3e})\n    config={cfg}"
            )
        for key in sorted(got - want):
            why = ref.containment(cfg, key)
            if why is not None:
                accepted.append(f"{where}: {key_str(key)}: {why}")
            else:
                failures.append(
                    f"{where}: the probe reports {key_str(key)} colliding, coal does not "
                    f"(coal distance {ref.min_distance(cfg, key):.3e}; no containment)\n    config={cfg}"
                )
    return failures, accepted


# ----------------------------------------------------------------------------- tests


def test_reference_shape_conventions():
    """Self-check of the reference side (no probe needed): coal's primitive conventions,
    as used here, agree with the scene format's (checked by numpy point tests)."""
    rng = np.random.default_rng(3)
    probe_ball = coal.Sphere(1e-9)
    for kind in OBSTACLE_TYPES:
        dims = {"box": [0.3, 0.2, 0.1], "sphere": [0.1], "cylinder": [0.3, 0.1], "cone": [0.3, 0.1]}[kind]
        qv = rng.normal(size=4)
        o = Obstacle("o", kind, dims, [0.1, -0.2, 0.3], (qv / np.linalg.norm(qv)).tolist())
        pts = np.asarray(o.position) + rng.uniform(-0.2, 0.2, (3000, 3))
        inside = o.contains(pts)
        assert 0.02 < inside.mean() < 0.98, kind
        shape, tf = o.coal_shape(), coal.Transform3s(o.rotation, np.asarray(o.position))
        for p, expected in zip(pts, inside):
            req, res = coal.CollisionRequest(), coal.CollisionResult()
            got = coal.collide(shape, tf, probe_ball, coal.Transform3s(np.eye(3), p), req, res)
            if bool(got) != bool(expected):
                margin = np.abs(np.asarray(o.contains(p[None], 1e-6)) ^ np.asarray(o.contains(p[None], -1e-6)))
                assert margin.any(), f"{kind}: coal and numpy disagree at {p} (numpy inside={expected})"


def test_collide_matches_coal(panda, run_probe, tmp_path):
    rng = np.random.default_rng(424242)
    failures, accepted = [], []
    n_total = n_colliding = n_self = n_obstacle = n_ambiguous = 0
    for s in range(N_SCENES):
        objects = random_scene(panda, rng)
        ref = Reference(panda, objects)
        configs = []
        while len(configs) < CONFIGS_PER_SCENE:
            cfg = random_configuration(panda.info, rng)
            if ref.is_ambiguous(cfg):
                n_ambiguous += 1
                continue
            configs.append(cfg)
        scene_path = tmp_path / f"scene_{s}.yaml"
        write_scene_yaml(scene_path, objects)
        out = run_probe(
            "collide",
            {"urdf": str(panda.urdf), "srdf": str(panda.srdf), "scene": str(scene_path), "configurations": configs},
        )
        results = out.get("results") if isinstance(out, dict) else None
        assert isinstance(results, list) and len(results) == len(configs), (
            f"scene {s}: expected 'results' with {len(configs)} entries, got {str(out)[:300]}"
        )
        f, a = compare_scene(panda, ref, configs, results, f"scene {s} ({scene_path})")
        failures += f
        accepted += a
        for cfg in configs:
            want = ref.collide(cfg)
            n_total += 1
            n_colliding += bool(want)
            n_self += any(k[0] == "self" for k in want)
            n_obstacle += any(k[0] == "obstacle" for k in want)
    summary = (
        f"{n_total} configurations in {N_SCENES} scenes: {n_colliding} colliding per coal "
        f"({n_obstacle} with an obstacle, {n_self} self-colliding), {n_total - n_colliding} free; "
        f"{n_ambiguous} ambiguous configurations skipped; {len(accepted)} containment disagreements accepted"
    )
    print(summary)
    for line in accepted:
        print("accepted:", line)
    assert not failures, f"{len(failures)} disagreements with coal ({summary}):\n" + "\n".join(failures[:15])
    assert n_colliding >= MIN_SHARE * n_total and n_total - n_colliding >= MIN_SHARE * n_total, summary


@pytest.mark.parametrize("use_srdf", [True, False], ids=["srdf", "no_srdf"])
def test_collide_self_collision_only(panda, run_probe, use_srdf):
    """No scene: self-collision only, with the SRDF's disabled pairs, or without an SRDF.
    Without an SRDF every pair of links with geometry is checked except links joined
    directly by a joint -- so panda_link7 and panda_hand, joined through the geometry-less
    panda_link8, are checked, and they always touch.  With the SRDF, configurations are
    picked so that half of them self-collide."""
    rng = np.random.default_rng(99 if use_srdf else 98)
    ref = Reference(panda, [], use_srdf=use_srdf)
    colliding, free = [], []
    for _ in range(20000):
        if len(colliding) + len(free) >= SELF_CONFIGS and (
            not use_srdf or min(len(colliding), len(free)) >= SELF_CONFIGS // 2
        ):
            break
        cfg = random_configuration(panda.info, rng)
        if ref.is_ambiguous(cfg):
            continue
        (colliding if ref.collide(cfg) else free).append(cfg)
    if use_srdf:
        configs = colliding[: SELF_CONFIGS // 2] + free[: SELF_CONFIGS // 2]
    else:
        configs = (colliding + free)[:SELF_CONFIGS]
    assert len(configs) == SELF_CONFIGS, (len(colliding), len(free))
    out = run_probe(
        "collide",
        {"urdf": str(panda.urdf), "srdf": str(panda.srdf) if use_srdf else None, "scene": None, "configurations": configs},
    )
    results = out.get("results") if isinstance(out, dict) else None
    assert isinstance(results, list) and len(results) == len(configs), str(out)[:300]
    label = "self-collision " + ("with SRDF" if use_srdf else "without SRDF")
    failures, accepted = compare_scene(panda, ref, configs, results, label)
    pairs_seen = sorted({key_str(k) for cfg in configs for k in ref.collide(cfg)})
    assert not failures, (
        f"{len(failures)} disagreements with coal ({len(configs)} configurations; "
        f"colliding pairs in the set: {pairs_seen}):\n" + "\n".join(failures[:15])
    )
