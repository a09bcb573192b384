"""Times coal (through pinocchio) on the discrete states of `benches/discrete.rs`.

Reads the request JSON the bench writes (URDF, SRDF, scene objects, joint names, free and
colliding configurations) and prints the median seconds per state check, stopping at the
first collision like the Rust side. Each timed call is pin.computeCollisions: forward
kinematics, geometry placement and the narrow phase of every pair, all in C++.
"""
import json
import statistics
import sys
import time

import coal
import numpy as np
import pinocchio as pin


def shape(obj):
    d = obj["dimensions"]
    if obj["type"] == "box":
        return coal.Box(*d)
    if obj["type"] == "sphere":
        return coal.Sphere(d[0])
    if obj["type"] == "cylinder":
        return coal.Cylinder(d[1], d[0])
    if obj["type"] == "cone":
        return coal.Cone(d[1], d[0])
    raise ValueError(obj["type"])


def main():
    req = json.load(open(sys.argv[1]))
    share = req["prefix"] + "/share"
    model = pin.buildModelFromUrdf(req["urdf"])
    geom = pin.buildGeomFromUrdf(model, req["urdf"], pin.COLLISION, package_dirs=[share])
    link_geoms = list(range(len(geom.geometryObjects)))
    geom.addAllCollisionPairs()
    pin.removeCollisionPairs(model, geom, req["srdf"])
    robot_pairs = [(p.first, p.second) for p in geom.collisionPairs]
    geom.removeAllCollisionPairs()
    for a, b in robot_pairs:
        geom.addCollisionPair(pin.CollisionPair(a, b))
    for obj in req["scene"]["objects"]:
        x, y, z, w = obj["pose"]["orientation"]
        placement = pin.SE3(pin.Quaternion(w, x, y, z).toRotationMatrix(), np.array(obj["pose"]["position"]))
        gid = geom.addGeometryObject(pin.GeometryObject(obj["id"], 0, 0, placement, shape(obj)))
        for g in link_geoms:
            geom.addCollisionPair(pin.CollisionPair(g, gid))
    data = model.createData()
    gdata = pin.GeometryData(geom)

    def q_of(values):
        q = pin.neutral(model)
        for name, v in zip(req["joint_names"], values):
            jid = model.getJointId(name)
            q[model.joints[jid].idx_q] = v
        return q

    out = {}
    for key in ("free", "colliding"):
        qs = [q_of(v) for v in req[key]]
        times = []
        hits = 0
        for _ in range(req["repeats"]):
            for q in qs:
                t = time.perf_counter()
                hit = pin.computeCollisions(model, data, geom, gdata, q, True)
                times.append(time.perf_counter() - t)
                hits += hit
        out[key + "_median_s"] = statistics.median(times)
        out[key + "_hits"] = hits / req["repeats"]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
