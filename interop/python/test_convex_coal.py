"""Convex polytopes (`probe convex`): Lin–Canny closest features
(`query::closest_features`) and the translational penetration depth (MTD) by EPA
(`query::penetration::penetration_depth` on `VertexCloud`s) and exactly
(`polytope_penetration_exact`), against coal and an independent numpy certificate.

Sample: N_SEPARATED + N_INTERSECTING pairs of convex polytopes, the hulls of random point
clouds of 4..40 points (Gaussian, uniform in a cube, or all on a sphere; anisotropic,
2-40 cm; the local origin off-centre). The pairs draw from a pool of N_CLOUDS clouds
(building the numpy hull is the expensive part), each polytope at its own random
orientation and position. Separated pairs are placed 1e-4..0.3 m apart (from far away
along coal's normal); intersecting pairs are either deep (positions a few cm apart) or
shallow (pushed 1e-6..1e-2 m into contact along coal's normal).

References:

1. The hull of each cloud in numpy, independently of coal and of the tool: every triple
   of points whose plane has all points on one side is a facet (brute force over the
   triples, vectorised); the hull's edges are the facet triangles' sides.
2. Distance certificate (separated pairs): our closest points must lie in the two hulls
   (facet-plane tests) and be `distance` apart, so the true distance is at most ours;
   the plane normal to point_b - point_a must separate the hulls by at least
   `distance - TOL_DISTANCE` (vertex projections), so it is at least that.
3. Depth certificate (intersecting pairs): the MTD is the least support value
   h(n) = max_a a.n - min_b b.n of the Minkowski difference A - B over its facet
   normals, which are among A's facet normals, -(B's facet normals) and the cross
   products of an edge of A with an edge of B (both signs). Every unit n has
   h(n) >= MTD, so the minimum over that candidate set is the exact MTD (to rounding).
   Our normals must realise our depths: h(normal) = depth (translating B by
   depth * normal separates them).
4. coal 3.0.3: `coal.Convex.convexHull` of the same points (qhull), `coal.distance` both
   ways round and `coal.collide` (enable_contact, -penetration_depth) both ways round,
   GJK/EPA tolerances COAL_TOL. The 1e-6 agreement with coal's depth is asserted where
   coal is within COAL_TRUSTED of the certificate.

Measured (this sample): Lin–Canny distance vs coal 5e-16 m, vs the certificate 1.7e-12
m, closest points inside their hulls to 3.6e-16 m; depths (EPA and exact) vs the
certificate 4.7e-16 m, vs coal 1.9e-15 m; coal vs the certificate 1.4e-15 m (coal is
exact on polytopes; it was within COAL_TRUSTED on every query).

Intersecting pairs must have Lin–Canny distance 0 and `penetrating`; separated pairs
`penetrating` false and no depth; the walk's exhaustive fallback (never expected) must
not occur. The witness points of the depths (`Penetration::point_a` in A, `point_b` in
B, point_a - point_b = depth * normal) are checked in test_penetration_witness_points.
"""

from __future__ import annotations

import itertools
import json
import time

import coal
import numpy as np
import pytest

from test_collision_coal import quat_to_matrix
from test_distance_coal import Worst as DistanceWorst
from test_distance_coal import position, random_quaternion, rotation, set_position, transform

N_SEPARATED = 6000
N_INTERSECTING = 4000  # half deep, half shallow
N_CLOUDS = 2500  # distinct point clouds the pairs draw from (each at its own random pose)

TOL_DISTANCE = 1e-9  # m: Lin–Canny distance against coal and the certificate
TOL_POINTS = 1e-9  # m: closest points in their hulls, |point_a - point_b| = distance
TOL_DEPTH = 1e-9  # m: our depths (EPA and exact) against the certificate
TOL_DEPTH_COAL = 1e-6  # m: our depths against coal's where coal is trusted
COAL_TRUSTED = 1e-7  # m: coal's depth this close to the certificate: compared at TOL_DEPTH_COAL
COAL_TOL = 1e-12  # coal's GJK / EPA tolerances
HULL_TOL = 1e-13  # relative: a point at most this far outside a facet plane counts as on its side


# ----------------------------------------------------------------------------- clouds



_DIRECTIONS = np.random.default_rng(0).normal(size=(10, 3))
_TRIPLES = {n: np.array(list(itertools.combinations(range(n), 3))) for n in range(4, 41)}


class Hull:
    """The convex hull of a point cloud by brute force (numpy): outward unit facet
    normals with offsets, and the hull edges (index pairs)."""

    def __init__(self, points: np.ndarray):
        P = np.asarray(points, float)
        self.points = P
        tol = HULL_TOL * np.max(np.linalg.norm(P - P.mean(axis=0), axis=1))
        t = _TRIPLES[len(P)]
        a = P[t[:, 0]]
        n = np.cross(P[t[:, 1]] - a, P[t[:, 2]] - a)
        length = np.linalg.norm(n, axis=1)
        ok = length > 0
        t, a, n = t[ok], a[ok], n[ok] / length[ok, None]
        offsets = np.einsum("kj,kj->k", n, a)

        def heights(Q):  # (triples, points): signed heights of points Q over each plane
            return n[:, 0:1] * Q[:, 0] + n[:, 1:2] * Q[:, 1] + n[:, 2:3] * Q[:, 2] - offsets[:, None]

        # A quick filter first: the points extreme along a few directions are hull
        # vertices; a facet has all of them on one side.
        dirs = np.concatenate([np.eye(3), -np.eye(3), _DIRECTIONS])
        s = heights(P[np.unique(np.argmax(P @ dirs.T, axis=0))])
        keep = (s.max(axis=1) <= tol) | (s.min(axis=1) >= -tol)
        t, a, n, offsets = t[keep], a[keep], n[keep], offsets[keep]
        s = heights(P)
        upper, lower = s.max(axis=1) <= tol, s.min(axis=1) >= -tol
        self.normals = np.concatenate([n[upper], -n[lower]])
        self.offsets = np.concatenate([offsets[upper], -offsets[lower]])
        # How thick the hull is: the least, over its facets, of the depth of its deepest point.
        self.thickness = float(min(-s[upper].min(initial=np.inf), s[lower].max(initial=np.inf)))
        facets = np.concatenate([t[upper], t[lower]])
        edges = np.concatenate([facets[:, [0, 1]], facets[:, [1, 2]], facets[:, [0, 2]]])
        self.edges = np.unique(np.sort(edges, axis=1), axis=0)
        self.diameter = float(np.max(np.linalg.norm(P[:, None] - P[None], axis=-1)))

    def placed(self, R, p):
        """Normals, offsets, points and edge vectors in the world frame."""
        W = self.points @ R.T + p
        normals = self.normals @ R.T
        return normals, self.offsets + normals @ p, W, W[self.edges[:, 1]] - W[self.edges[:, 0]]


def random_cloud(rng) -> np.ndarray:
    n = int(rng.integers(4, 41))
    kind = rng.integers(3)
    if kind == 0:
        P = rng.normal(size=(n, 3))
    elif kind == 1:
        P = rng.uniform(-1.0, 1.0, (n, 3))
    else:
        P = rng.normal(size=(n, 3))
        P /= np.linalg.norm(P, axis=1)[:, None]
    return P * rng.uniform(0.01, 0.2, 3) + rng.uniform(-0.05, 0.05, 3)


class Cloud:
    """A random point cloud with its numpy hull and coal's hull (both in its own frame)."""

    def __init__(self, rng):
        while True:
            self.points = random_cloud(rng)
            self.hull = Hull(self.points)
            if self.hull.thickness > 1e-3 * self.hull.diameter:
                break
        v = coal.StdVec_Vec3s()
        for p in self.points:
            v.append(p)
        self.coal = coal.Convex.convexHull(v, False, None)  # qhull, as coal builds it


def random_polytope(rng, pool, position=(0.0, 0.0, 0.0)) -> dict:
    """One of the pool's clouds at a random orientation."""
    cloud = pool[int(rng.integers(len(pool)))]
    return {
        "points": cloud.points.tolist(),
        "pose": {"position": [float(v) for v in position], "orientation": [float(v) for v in random_quaternion(rng)]},
        "_cloud": cloud,
    }


def wire(obj) -> dict:
    return {k: v for k, v in obj.items() if not k.startswith("_")}


def placed(obj):
    return obj["_cloud"].hull.placed(rotation(obj), position(obj))


# ----------------------------------------------------------------------------- coal


def coal_convex(obj):
    return obj["_cloud"].coal


def coal_distance(x, y):
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    req.gjk_tolerance = COAL_TOL
    req.epa_tolerance = COAL_TOL
    req.gjk_max_iterations = 10000
    req.epa_max_iterations = 10000
    req.enable_signed_distance = True
    d = coal.distance(coal_convex(x), transform(x), coal_convex(y), transform(y), req, res)
    return d, np.array(res.getNearestPoint1()), np.array(res.getNearestPoint2())


def coal_depth(x, y):
    """coal.collide's depth (positive) and unit normal from x to y; None when apart."""
    req, res = coal.CollisionRequest(), coal.CollisionResult()
    req.enable_contact = True
    req.num_max_contacts = 1
    req.security_margin = 0.0
    req.gjk_tolerance = COAL_TOL
    req.epa_tolerance = COAL_TOL
    req.gjk_max_iterations = 10000
    req.epa_max_iterations = 10000
    if not coal.collide(coal_convex(x), transform(x), coal_convex(y), transform(y), req, res):
        return None
    c = res.getContact(0)
    return -c.penetration_depth, np.array(c.normal)


# ----------------------------------------------------------------------------- certificates


def height(Aw, Bw, n):
    """Support value of A - B along the rows of n: max_a a.n - min_b b.n."""
    n = np.atleast_2d(n)
    return (Aw @ n.T).max(axis=0) - (Bw @ n.T).min(axis=0)


def exact_mtd(a, b):
    """The MTD of two intersecting hulls: min of h over the candidate facet normals of A - B."""
    na, _, Aw, ea = placed(a)
    nb, _, Bw, eb = placed(b)
    cross = np.cross(ea[:, None, :], eb[None, :, :]).reshape(-1, 3)
    length = np.linalg.norm(cross, axis=1)
    scale = np.linalg.norm(ea, axis=1)[:, None] * np.linalg.norm(eb, axis=1)[None, :]
    ok = length > 1e-12 * scale.reshape(-1)
    cross = cross[ok] / length[ok, None]
    candidates = np.concatenate([na, -nb, cross, -cross])
    h = height(Aw, Bw, candidates)
    k = int(np.argmin(h))
    return float(h[k]), candidates[k]


def outside(obj, point):
    """How far a world point lies outside the hull: the largest height over its facet
    planes (negative inside)."""
    normals, offsets, _, _ = placed(obj)
    return float(np.max(normals @ point - offsets))


# ----------------------------------------------------------------------------- sampling


def place_at_distance(rng, a, b, target):
    """Moves b so that its distance to a is about `target` (negative: pushed into a by
    that much along the normal of contact)."""
    direction = rng.normal(size=3)
    direction /= np.linalg.norm(direction)
    set_position(b, position(a) + 2.0 * direction)
    d, pa, pb = coal_distance(a, b)
    normal = (pb - pa) / np.linalg.norm(pb - pa)
    set_position(b, position(b) - (d - target) * normal)


def make_pairs(rng):
    pool = [Cloud(rng) for _ in range(N_CLOUDS)]
    separated, intersecting = [], []
    while len(separated) < N_SEPARATED:
        a, b = random_polytope(rng, pool, rng.uniform(-0.3, 0.3, 3)), random_polytope(rng, pool)
        place_at_distance(rng, a, b, 10 ** rng.uniform(-4, np.log10(0.3)))
        separated.append([a, b])
    while len(intersecting) < N_INTERSECTING:
        a, b = random_polytope(rng, pool, rng.uniform(-0.3, 0.3, 3)), random_polytope(rng, pool)
        if len(intersecting) % 2 == 0:
            set_position(b, position(a) + rng.normal(size=3) * 0.03)
        else:
            place_at_distance(rng, a, b, -(10 ** rng.uniform(-6, -2)))
        if coal_depth(a, b) is not None:
            intersecting.append([a, b])
    return separated, intersecting


class Worst(DistanceWorst):
    """The largest value seen per quantity, with the pair that produced it (as a
    `probe convex` request)."""

    def pair(self, key):
        pair = self.values.get(key, (0.0, None))[1]
        return json.dumps({"pairs": [[wire(o) for o in pair]]}) if pair else "null"

    def check(self, key, tol):
        assert self[key] <= tol, f"{key}: {self[key]:.3e} > {tol}; probe convex input: {self.pair(key)}"


@pytest.fixture(scope="module")
def sample(run_probe):
    rng = np.random.default_rng(20261210)
    t0 = time.perf_counter()
    separated, intersecting = make_pairs(rng)
    t1 = time.perf_counter()
    got = run_probe("convex", {"pairs": [[wire(a), wire(b)] for a, b in separated + intersecting]})["results"]
    t2 = time.perf_counter()
    print(f"\n{len(separated)} separated and {len(intersecting)} intersecting pairs: generated in {t1 - t0:.1f} s, probe {t2 - t1:.1f} s")
    return separated, intersecting, got[: len(separated)], got[len(separated):]


def test_lin_canny_distance_agrees_with_coal(sample):
    separated, intersecting, got_separated, got_intersecting = sample
    t0 = time.perf_counter()
    worst = Worst()
    flags = []
    for pair, r in zip(separated, got_separated):
        a, b = pair
        d = r["distance"]
        pa, pb = np.asarray(r["point_a"]), np.asarray(r["point_b"])
        if r["penetrating"] or r["depth"] is not None or r["exact_depth"] is not None or r["fallback"]:
            flags.append((pair, {k: r[k] for k in ("penetrating", "depth", "exact_depth", "fallback")}))
        worst.add("||pa - pb| - distance|", abs(np.linalg.norm(pa - pb) - d), pair)
        worst.add("point_a outside hull a", max(outside(a, pa), 0.0), pair)
        worst.add("point_b outside hull b", max(outside(b, pb), 0.0), pair)
        n = (pb - pa) / np.linalg.norm(pb - pa)
        _, _, Aw, _ = placed(a)
        _, _, Bw, _ = placed(b)
        worst.add("distance - separation (certificate)", d + height(Aw, Bw, n)[0], pair)
        for x, y in ((a, b), (b, a)):
            worst.add("|ours - coal|", abs(d - coal_distance(x, y)[0]), pair)
    for pair, r in zip(intersecting, got_intersecting):
        worst.add("intersecting: distance", r["distance"], pair)
        if not r["penetrating"] or r["fallback"]:
            flags.append((pair, {k: r[k] for k in ("distance", "penetrating", "fallback")}))
    worst.report(f"Lin–Canny: {len(separated)} separated, {len(intersecting)} intersecting pairs, checked in {time.perf_counter() - t0:.1f} s")
    assert not flags, f"{len(flags)} pairs with a wrong flag, e.g. {flags[0][1]}: {json.dumps({'pairs': [[wire(o) for o in flags[0][0]]]})}"
    assert worst["intersecting: distance"] == 0.0, worst.pair("intersecting: distance")
    for key in ("||pa - pb| - distance|", "point_a outside hull a", "point_b outside hull b"):
        worst.check(key, TOL_POINTS)
    worst.check("distance - separation (certificate)", TOL_DISTANCE)
    worst.check("|ours - coal|", TOL_DISTANCE)


def test_penetration_depth_agrees_with_coal(sample):
    _, intersecting, _, got = sample
    t0 = time.perf_counter()
    worst = Worst()
    missing = []
    coal_untrusted = 0
    for pair, r in zip(intersecting, got):
        a, b = pair
        if r["depth"] is None or r["exact_depth"] is None:
            missing.append(pair)
            continue
        cert, _ = exact_mtd(a, b)
        _, _, Aw, _ = placed(a)
        _, _, Bw, _ = placed(b)
        for name in ("depth", "exact_depth"):
            ours, normal = r[name], np.asarray(r["normal" if name == "depth" else "exact_normal"])
            worst.add(f"|{name} - certificate|", abs(ours - cert), pair)
            worst.add(f"|h(normal) - {name}| (translation separates)", abs(height(Aw, Bw, normal)[0] - ours), pair)
            worst.add(f"||normal| - 1| ({name})", abs(np.linalg.norm(normal) - 1.0), pair)
        for x, y in ((a, b), (b, a)):
            c = coal_depth(x, y)
            if c is None:
                worst.add("coal: apart (depth of ours)", r["depth"], pair)
                coal_untrusted += 1
                continue
            coal_err = abs(c[0] - cert)
            worst.add("|coal - certificate|", coal_err, pair)
            if coal_err <= COAL_TRUSTED:
                worst.add("|ours - coal| (coal trusted)", max(abs(r["depth"] - c[0]), abs(r["exact_depth"] - c[0])), pair)
            else:
                coal_untrusted += 1
                worst.add("coal - certificate (coal untrusted, >= 0 expected)", -(c[0] - cert), pair)
    worst.report(
        f"penetration depth: {len(intersecting)} intersecting pairs, coal off the certificate by > {COAL_TRUSTED} "
        f"(or apart) on {coal_untrusted} of {2 * len(intersecting)} queries; checked in {time.perf_counter() - t0:.1f} s"
    )
    assert not missing, f"{len(missing)} intersecting pairs without a depth: {json.dumps({'pairs': [[wire(o) for o in missing[0]]]})}"
    for name in ("depth", "exact_depth"):
        worst.check(f"|{name} - certificate|", TOL_DEPTH)
        worst.check(f"|h(normal) - {name}| (translation separates)", TOL_DEPTH)
        worst.check(f"||normal| - 1| ({name})", 1e-12)
    worst.check("|ours - coal| (coal trusted)", TOL_DEPTH_COAL)
    assert coal_untrusted <= 0.02 * 2 * len(intersecting), f"coal is off on {coal_untrusted} queries: too few compared at {TOL_DEPTH_COAL}"


def _witness_points(sample):
    """`Penetration::point_a` is a point of A (on its surface) and `point_b` one of B,
    with point_a - point_b = depth * normal; the MTD of generic polytopes (vertex-facet
    or edge-edge) has a unique such pair, so EPA's and the exact one's must agree."""
    _, intersecting, _, got = sample
    worst = Worst()
    off = {"depth": 0, "exact_depth": 0}
    for pair, r in zip(intersecting, got):
        a, b = pair
        if r["depth"] is None or r["exact_depth"] is None:
            continue  # reported by test_penetration_depth_agrees_with_coal
        for name, prefix in (("depth", "depth_"), ("exact_depth", "exact_")):
            pa, pb = np.asarray(r[prefix + "point_a"]), np.asarray(r[prefix + "point_b"])
            normal = np.asarray(r["normal" if name == "depth" else "exact_normal"])
            worst.add(f"|pa - pb - depth * normal| ({name})", np.linalg.norm(pa - pb - r[name] * normal), pair)
            out = max(outside(a, pa), outside(b, pb), 0.0)
            worst.add(f"point_a outside hull a ({name})", max(outside(a, pa), 0.0), pair)
            worst.add(f"point_b outside hull b ({name})", max(outside(b, pb), 0.0), pair)
            off[name] += out > TOL_POINTS
        worst.add("|EPA point_a - exact point_a|", np.linalg.norm(np.subtract(r["depth_point_a"], r["exact_point_a"])), pair)
    worst.report(f"witness points: outside their hull by > {TOL_POINTS} on {off['depth']} (EPA) and {off['exact_depth']} (exact) of {len(intersecting)} pairs")
    return worst


def _check_witnesses(worst, name):
    worst.check(f"|pa - pb - depth * normal| ({name})", TOL_POINTS)
    worst.check(f"point_a outside hull a ({name})", TOL_POINTS)
    worst.check(f"point_b outside hull b ({name})", TOL_POINTS)


def test_penetration_witness_points(sample):
    _check_witnesses(_witness_points(sample), "exact_depth")


def test_epa_witness_points(sample):
    _check_witnesses(_witness_points(sample), "depth")
