"""The peer of `benches/mesh_distance.rs`: coal's distance of a mesh (a BVHModel of
OBBRSS nodes, as coal's MeshLoader builds it) and another mesh or primitive, at the
poses the bench sends, timed per pose (the best of `repeats` runs, µs).

Reads the request JSON (per case: the mesh file `a`, the other shape `b`, the poses of
`b` in `a`'s frame) and prints per case the times and distances.
"""
import json
import sys
import time

import coal
import numpy as np


def other_shape(spec, loader):
    if "mesh" in spec:
        return loader.load(spec["mesh"])
    if "box" in spec:
        return coal.Box(*spec["box"])
    if "sphere" in spec:
        return coal.Sphere(spec["sphere"])
    radius, length = spec["cylinder"]
    return coal.Cylinder(radius, length)


def main():
    request = json.load(open(sys.argv[1]))
    loader = coal.MeshLoader()
    request_, result = coal.DistanceRequest(), coal.DistanceResult()
    answer = []
    for case in request["cases"]:
        a, b = loader.load(case["a"]), other_shape(case["b"], loader)
        identity = coal.Transform3s()
        micros, distances = [], []
        for pose in case["poses"]:
            placed = coal.Transform3s(np.array(pose["rotation"]), np.array(pose["translation"]))
            best = float("inf")
            for _ in range(request["repeats"]):
                result.clear()
                started = time.perf_counter()
                distance = coal.distance(a, identity, b, placed, request_, result)
                best = min(best, time.perf_counter() - started)
            micros.append(best * 1e6)
            distances.append(distance)
        answer.append({"micros": micros, "distances": distances})
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
