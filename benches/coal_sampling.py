"""The sampling peer of `benches/real_use.rs`: MoveIt-like discrete checking of whole
trajectories with coal through pinocchio, timed per trajectory.

Reads the request JSON the bench writes (per robot: URDF, SRDF, package prefix; per
case: scene objects, joint names, waypoints and times) and, for each joint step in
`resolutions`, checks the states along each trajectory, linear in joint space between
waypoints with no joint moving more than the step between two states, stopping at the
first colliding state, as MoveIt's sampling check does. Each check is
pin.computeCollisions (forward kinematics, geometry placement, every pair's narrow phase,
all in C++). Prints per case and step the seconds it took and whether it found a
collision.
"""
import json
import sys
import time

import numpy as np
import pinocchio as pin

from coal_discrete import shape  # the scene's objects as coal shapes, as the discrete bench has them


class Robot:
    def __init__(self, spec):
        share = spec["prefix"] + "/share"
        self.model = pin.buildModelFromUrdf(spec["urdf"])
        self.geom = pin.buildGeomFromUrdf(self.model, spec["urdf"], pin.COLLISION, package_dirs=[share])
        self.links = len(self.geom.geometryObjects)
        self.geom.addAllCollisionPairs()
        pin.removeCollisionPairs(self.model, self.geom, spec["srdf"])
        self.robot_pairs = [(p.first, p.second) for p in self.geom.collisionPairs]

    def world(self, objects):
        """A geometry model with the scene's objects, checked against every link."""
        geom = self.geom.copy()
        geom.removeAllCollisionPairs()
        for a, b in self.robot_pairs:
            geom.addCollisionPair(pin.CollisionPair(a, b))
        for obj in objects:
            x, y, z, w = obj["pose"]["orientation"]
            placement = pin.SE3(pin.Quaternion(w, x, y, z).normalized().toRotationMatrix(), np.array(obj["pose"]["position"]))
            gid = geom.addGeometryObject(pin.GeometryObject(obj["id"], 0, 0, placement, shape(obj)))
            for g in range(self.links):
                geom.addCollisionPair(pin.CollisionPair(g, gid))
        return geom

    def q_of(self, names, values):
        q = pin.neutral(self.model)
        for name, v in zip(names, values):
            joint = self.model.joints[self.model.getJointId(name)]
            if joint.nq == 2:  # continuous: (cos, sin)
                q[joint.idx_q:joint.idx_q + 2] = [np.cos(v), np.sin(v)]
            else:
                q[joint.idx_q] = v
        return q


def states(waypoints, step):
    """The states along the trajectory, at most `step` apart per joint."""
    out = [np.asarray(waypoints[0], float)]
    for a, b in zip(waypoints, waypoints[1:]):
        a, b = np.asarray(a, float), np.asarray(b, float)
        n = max(1, int(np.ceil(np.max(np.abs(b - a)) / step)))
        out.extend(a + (b - a) * k / n for k in range(1, n + 1))
    return out


def main():
    req = json.load(open(sys.argv[1]))
    robots = {name: Robot(spec) for name, spec in req["robots"].items()}
    results = []
    for case in req["cases"]:
        robot = robots[case["robot"]]
        geom = robot.world(case["objects"])
        data, gdata = robot.model.createData(), pin.GeometryData(geom)
        out = {}
        for step in req["resolutions"]:
            qs = [robot.q_of(case["joint_names"], s) for s in states(case["waypoints"], step)]
            best = None
            for _ in range(req["repeats"]):
                started = time.perf_counter()
                hit = False
                for q in qs:
                    if pin.computeCollisions(robot.model, data, geom, gdata, q, True):
                        hit = True
                        break
                took = time.perf_counter() - started
                best = took if best is None else min(best, took)
            out[str(step)] = {"seconds": best, "collision": hit}
        results.append(out)
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
