"""Triangle-triangle intersection of the probe (`probe tri_tri`) against exact references.

Triangles are closed (touching counts) and may be degenerate (a segment or a point).

1. 20,000 pairs with small integer coordinates in [-3, 3], many of them degenerate or
   special (coplanar, sharing a vertex or an edge, collinear vertices, repeated
   vertices).  Reference: exact integer arithmetic.  Two closed convex sets A, B
   intersect iff the origin lies in conv(A - B), the hull of the 9 vertex differences;
   by Caratheodory's theorem that holds iff the origin lies in the hull of an affinely
   independent subset of at most 4 of them, which is decided with integer determinant
   signs.  A second exact method (squared distance by projection onto every affine hull,
   with fractions.Fraction) cross-checks that reference on a sample.  Exact agreement
   is required on every pair.
2. 2,000 random float triangle pairs against coal (coal.TriangleP + coal.collide),
   skipping pairs whose coal distance is within 1e-9 of 0 (ambiguous for floats).
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import coal
import numpy as np

N_INT_PAIRS = 20_000
N_FLOAT_PAIRS = 2_000
N_CROSS_CHECK = 3_000
COORD = 3
AMBIGUOUS = 1e-9

# ----------------------------------------------------------------------------- exact reference


def _cross(a, b):
    return np.stack(
        [
            a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1],
            a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2],
            a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0],
        ],
        axis=-1,
    )


def _dot(a, b):
    return a[..., 0] * b[..., 0] + a[..., 1] * b[..., 1] + a[..., 2] * b[..., 2]


def _det(a, b, c):
    return _dot(a, _cross(b, c))


def _nonneg(x):
    return np.asarray(x >= 0, dtype=bool)


def _nonpos(x):
    return np.asarray(x <= 0, dtype=bool)


def _zero(x):
    return np.asarray(x == 0, dtype=bool)


def exact_tri_tri(A, B) -> np.ndarray:
    """Closed-triangle intersection, exact.  A, B: arrays (N, 3, 3) of integers (int64 for
    small values, or dtype=object holding Python ints for any size)."""
    A = np.asarray(A)
    B = np.asarray(B)
    # Minkowski difference vertices: D[:, 3*i + j] = A[:, i] - B[:, j]
    D = (A[:, :, None, :] - B[:, None, :, :]).reshape(len(A), 9, 3)
    d = [D[:, k, :] for k in range(9)]
    hit = np.zeros(len(A), dtype=bool)
    # one point: the origin itself
    for p in d:
        hit |= np.all(_zero(p), axis=1)
    # two points: origin on the closed segment (collinear through 0, on opposite sides)
    for p, q in itertools.combinations(d, 2):
        hit |= np.all(_zero(_cross(p, q)), axis=1) & _nonpos(_dot(p, q))
    # three non-collinear points: origin in their plane and inside the closed triangle
    for p, q, r in itertools.combinations(d, 3):
        n = _cross(q - p, r - p)
        nondeg = ~np.all(_zero(n), axis=1)
        coplanar = _zero(_det(p, q, r))
        inside = _nonneg(_dot(n, _cross(q, r))) & _nonneg(_dot(n, _cross(r, p))) & _nonneg(_dot(n, _cross(p, q)))
        hit |= nondeg & coplanar & inside
    # four non-coplanar points: origin inside the closed tetrahedron
    for p, q, r, s in itertools.combinations(d, 4):
        e1, e2, e3 = q - p, r - p, s - p
        vol = _det(e1, e2, e3)
        sign = np.asarray(vol > 0, dtype=bool).astype(np.int64) - np.asarray(vol < 0, dtype=bool).astype(np.int64)
        # barycentric numerators of the origin: p + x1 e1 + x2 e2 + x3 e3 = 0 (Cramer)
        x1 = _det(-p, e2, e3) * sign
        x2 = _det(e1, -p, e3) * sign
        x3 = _det(e1, e2, -p) * sign
        x0 = vol * sign - x1 - x2 - x3
        hit |= ~_zero(vol) & _nonneg(x0) & _nonneg(x1) & _nonneg(x2) & _nonneg(x3)
    return hit


def _det3(m):
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


def _cramer(G, rhs):
    """det(G) and the numerators of G x = rhs by Cramer's rule (k <= 3), exact for ints
    and Fractions."""
    k = len(G)
    if k == 1:
        return G[0][0], [rhs[0]]
    if k == 2:
        det = G[0][0] * G[1][1] - G[0][1] * G[1][0]
        return det, [rhs[0] * G[1][1] - G[0][1] * rhs[1], G[0][0] * rhs[1] - rhs[0] * G[1][0]]
    det = _det3(G)
    nums = []
    for c in range(3):
        m = [[rhs[r] if cc == c else G[r][cc] for cc in range(3)] for r in range(3)]
        nums.append(_det3(m))
    return det, nums


def exact_sq_distance(a, b) -> Fraction:
    """Exact squared distance between two closed triangles (lists of 3 points with int or
    Fraction coordinates): the minimum of |x|^2 over x in conv(A - B), found by projecting
    the origin onto the affine hull of every affinely independent subset of the 9
    difference vertices and keeping the projections that fall inside the subset's hull
    (the closest point of a polytope is such a projection)."""
    D = list(dict.fromkeys(tuple(p[k] - q[k] for k in range(3)) for p in a for q in b))
    best = None
    for size in range(1, min(4, len(D)) + 1):
        for S in itertools.combinations(D, size):
            p0 = S[0]
            E = [tuple(v[k] - p0[k] for k in range(3)) for v in S[1:]]
            if E:
                G = [[sum(e[k] * f[k] for k in range(3)) for f in E] for e in E]
                rhs = [-sum(e[k] * p0[k] for k in range(3)) for e in E]
                det, nums = _cramer(G, rhs)
                # G is a Gram matrix: det > 0 iff the subset is affinely independent
                if det == 0 or any(v < 0 for v in nums) or sum(nums) > det:
                    continue
                xn = [p0[k] * det + sum(nums[i] * E[i][k] for i in range(len(E))) for k in range(3)]
                d2 = Fraction(sum(v * v for v in xn)) / (det * det)
            else:
                d2 = Fraction(sum(v * v for v in p0))
            if best is None or d2 < best:
                best = d2
                if best == 0:
                    return best
    return best


def float_to_int_exact(*arrays: np.ndarray) -> list[np.ndarray]:
    """Scale float coordinates by one common power of two so that they all become Python
    ints (exact; the intersection test is invariant under the common scaling); returns
    object arrays."""
    fracs = [[Fraction(float(v)) for v in a.ravel()] for a in arrays]
    denom = max(f.denominator for fr in fracs for f in fr)
    return [np.array([int(f * denom) for f in fr], dtype=object).reshape(a.shape) for fr, a in zip(fracs, arrays)]


# ----------------------------------------------------------------------------- generators


def _pts(rng, n, lo=-COORD, hi=COORD):
    return rng.integers(lo, hi + 1, size=(n, 3))


def random_int_pair(rng: np.random.Generator):
    mode = rng.choice(["uniform", "small", "coplanar", "shared", "degenerate"], p=[0.3, 0.15, 0.2, 0.2, 0.15])
    if mode == "uniform":
        a, b = _pts(rng, 3), _pts(rng, 3)
    elif mode == "small":
        a, b = _pts(rng, 3, -1, 1), _pts(rng, 3, -1, 1)
    elif mode == "coplanar":
        pts = _pts(rng, 6)
        axis = rng.integers(3)
        pts[:, axis] = rng.integers(-1, 2)
        if rng.random() < 0.3:  # a slanted plane: x + y + z = c  (z solved from x, y)
            pts[:, 2] = rng.integers(-1, 2) - pts[:, 0] - pts[:, 1]
            pts = np.clip(pts, -COORD, COORD)  # may leave the plane: still a valid test
        a, b = pts[:3], pts[3:]
    elif mode == "shared":
        a = _pts(rng, 3)
        b = _pts(rng, 3)
        k = rng.integers(1, 3)  # share a vertex or an edge
        b[:k] = a[rng.permutation(3)[:k]]
        b = b[rng.permutation(3)]
    else:  # degenerate: collinear vertices, repeated vertices, a single point
        a, b = _pts(rng, 3), _pts(rng, 3)
        t = a if rng.random() < 0.5 else b
        kind = rng.integers(3)
        if kind == 0:
            p, dvec = _pts(rng, 1, -1, 1)[0], _pts(rng, 1, -1, 1)[0]
            t[:] = [p, p + dvec, p + rng.integers(-2, 3) * dvec]
        elif kind == 1:
            t[1] = t[0]
        else:
            t[1] = t[0]
            t[2] = t[0]
        if rng.random() < 0.3:  # both degenerate
            o = b if t is a else a
            o[2] = o[rng.integers(2)]
    return np.asarray(a, dtype=np.int64), np.asarray(b, dtype=np.int64)


def int_pairs(n: int, seed: int):
    rng = np.random.default_rng(seed)
    A = np.empty((n, 3, 3), dtype=np.int64)
    B = np.empty((n, 3, 3), dtype=np.int64)
    for i in range(n):
        A[i], B[i] = random_int_pair(rng)
    return A, B


def float_pairs(n: int, seed: int):
    """A in [-1, 1]^3; B's vertices within 0.7 of A's centroid (about half intersect)."""
    rng = np.random.default_rng(seed)
    A = rng.uniform(-1.0, 1.0, size=(n, 3, 3))
    B = A.mean(axis=1, keepdims=True) + rng.uniform(-0.7, 0.7, size=(n, 3, 3))
    return A, B


def to_payload(A, B):
    return {"pairs": [[a.astype(float).tolist(), b.astype(float).tolist()] for a, b in zip(A, B)]}


def describe(A, B):
    kinds = []
    for t in (A, B):
        n = np.cross(t[1] - t[0], t[2] - t[0])
        if np.any(n != 0):
            kinds.append("triangle")
        elif np.all(t[0] == t[1]) and np.all(t[0] == t[2]):
            kinds.append("point")
        else:
            kinds.append("segment")
    return "/".join(kinds)


def coal_tri_tri(a, b):
    """(intersect?, signed distance) by coal: TriangleP shapes, collide with contacts
    enabled; the result's distance_lower_bound is then the separation distance, or minus
    the penetration depth when they intersect (coal.distance has no triangle-triangle)."""
    ta, tb = coal.TriangleP(*(np.asarray(v, float) for v in a)), coal.TriangleP(*(np.asarray(v, float) for v in b))
    I = coal.Transform3s()
    req, res = coal.CollisionRequest(), coal.CollisionResult()
    req.enable_contact = True
    hit = bool(coal.collide(ta, I, tb, I, req, res))
    return hit, float(res.distance_lower_bound)


def probe_results(run_probe, payload, n):
    out = run_probe("tri_tri", payload)
    res = out.get("results") if isinstance(out, dict) else None
    assert isinstance(res, list) and len(res) == n, f"expected 'results' with {n} booleans, got {str(out)[:300]}"
    assert all(isinstance(v, bool) for v in res), f"non-boolean results: {[v for v in res if not isinstance(v, bool)][:5]}"
    return np.asarray(res, dtype=bool)


# ----------------------------------------------------------------------------- tests


def test_reference_self_check():
    """Self-check of the reference side (no probe needed): the integer Caratheodory test
    agrees with the exact Fraction squared distance, and hand-made cases come out right."""
    cases = [
        # (A, B, intersect?)
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[1, 1, 0], [3, 3, 0], [3, 1, 0]], True),  # coplanar, vertex on edge
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[2, 2, 0], [3, 3, 0], [3, 2, 0]], False),  # coplanar, apart
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[0, 0, 1], [1, 1, -1], [1, 1, 1]], True),  # piercing
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[0, 0, 1], [1, 1, 1], [1, 2, 1]], False),  # parallel planes
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[1, 1, 0], [1, 1, 0], [1, 1, 0]], True),  # point on edge
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[2, 2, 0], [2, 2, 0], [2, 2, 0]], False),  # point off
        ([[0, 0, 0], [2, 0, 0], [1, 0, 0]], [[1, -1, 0], [1, 1, 0], [1, 1, 0]], True),  # crossing segments
        ([[0, 0, 0], [2, 0, 0], [1, 0, 0]], [[1, -1, 1], [1, 1, 1], [1, 1, 1]], False),  # skew segments
        ([[0, 0, 0], [2, 0, 0], [0, 2, 0]], [[2, 0, 0], [3, 0, 1], [3, 1, 0]], True),  # shared vertex only
    ]
    A = np.array([c[0] for c in cases], dtype=np.int64)
    B = np.array([c[1] for c in cases], dtype=np.int64)
    expected = [c[2] for c in cases]
    assert exact_tri_tri(A, B).tolist() == expected
    assert [exact_sq_distance(a, b) == 0 for a, b in zip(A.tolist(), B.tolist())] == expected

    A, B = int_pairs(N_CROSS_CHECK, seed=1234)
    fast = exact_tri_tri(A, B)
    slow = np.array([exact_sq_distance(a, b) == 0 for a, b in zip(A.tolist(), B.tolist())])
    bad = np.flatnonzero(fast != slow)
    assert bad.size == 0, f"reference methods disagree on {bad.size} pairs, e.g. {A[bad[0]].tolist()} {B[bad[0]].tolist()}"
    assert 0.25 < fast.mean() < 0.75, fast.mean()


def test_tri_tri_exact_integer_triangles(run_probe):
    A, B = int_pairs(N_INT_PAIRS, seed=20240607)
    want = exact_tri_tri(A, B)
    got = probe_results(run_probe, to_payload(A, B), len(A))
    bad = np.flatnonzero(got != want)
    n_deg = sum(describe(a, b) != "triangle/triangle" for a, b in zip(A, B))
    summary = (
        f"{len(A)} integer pairs: {int(want.sum())} intersecting, {int((~want).sum())} disjoint, "
        f"{n_deg} with a degenerate triangle"
    )
    details = [
        f"  #{i} ({describe(A[i], B[i])}): A={A[i].tolist()} B={B[i].tolist()} exact={bool(want[i])} "
        f"probe={bool(got[i])} exact sq. distance={exact_sq_distance(A[i].tolist(), B[i].tolist())}"
        for i in bad[:15]
    ]
    kinds = {}
    for i in bad:
        k = describe(A[i], B[i]) + (" false negative" if want[i] else " false positive")
        kinds[k] = kinds.get(k, 0) + 1
    assert bad.size == 0, f"{bad.size} disagreements ({kinds}); {summary}:\n" + "\n".join(details)


def test_tri_tri_float_triangles_vs_coal(run_probe):
    A, B = float_pairs(N_FLOAT_PAIRS, seed=777)
    got = probe_results(run_probe, to_payload(A, B), len(A))
    exact = exact_tri_tri(*float_to_int_exact(A, B))
    failures = []
    n_skipped = n_hit = 0
    for i, (a, b) in enumerate(zip(A, B)):
        hit, dist = coal_tri_tri(a, b)
        if abs(dist) <= AMBIGUOUS:
            n_skipped += 1
            continue
        n_hit += hit
        if bool(got[i]) != hit:
            failures.append(
                f"  #{i}: A={a.tolist()} B={b.tolist()} coal={hit} (distance {dist:.3e}) probe={bool(got[i])} "
                f"exact={bool(exact[i])}"
            )
    summary = f"{N_FLOAT_PAIRS} float pairs: {n_hit} intersecting, {n_skipped} skipped as ambiguous"
    assert not failures, f"{len(failures)} disagreements with coal; {summary}:\n" + "\n".join(failures[:15])
    assert 0.2 * N_FLOAT_PAIRS < n_hit < 0.8 * N_FLOAT_PAIRS, summary
