#!/usr/bin/env python3
"""Generate the embedded demo assets of ``ccd_guard demo`` into ``assets/demo/``.

Writes (deterministically; re-running gives byte-identical files):

  assets/demo/robot.urdf            6-axis arm ``demo_arm`` (UR5-like proportions)
  assets/demo/robot.srdf            disabled collision pairs (MoveIt style)
  assets/demo/meshes/upper_arm.stl  binary STL, tapered capsule (closed, convex)
  assets/demo/meshes/forearm.stl    binary STL, rounded box (closed, convex)
  assets/demo/scene.yaml            work cell: table, shelf with a 3 mm board, box, bottle, ...
  assets/demo/traj_free.yaml        collision-free trajectory
  assets/demo/traj_collide.yaml     trajectory that drives the gripper into the box
  assets/demo/traj_thin.yaml        free waypoints, but one segment tunnels through the thin board
  assets/demo/README.md             description and expected verdicts (numbers from --verify)

Generation needs only Python 3 + numpy.

``--verify`` additionally checks the written files with independent tools
(pinocchio >= 3, coal, PyYAML must be importable): URDF parsing and
mesh resolution, home pose and waypoints, dense sampling of every trajectory,
and the 0.01 rad discrete sampling of the thin trajectory.

Usage:
    python3 scripts/make_demo_assets.py [--out DIR] [--verify]
"""

import argparse
import math
import os
import struct
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_OUT = os.path.normpath(os.path.join(HERE, "..", "assets", "demo"))

# ----------------------------------------------------------------------------
# Robot: kinematics (UR5 link lengths, "candle" zero pose: arm straight up)
# ----------------------------------------------------------------------------
D1 = 0.089159  # shoulder height above the base plate
SHOULDER_Y = 0.13585  # shoulder offset along joint2's axis
ELBOW_Y = -0.1197  # elbow offset back along the joint axes
A2 = 0.425  # upper arm length
A3 = 0.39225  # forearm length
WRIST2_Y = 0.093
D5 = 0.09465
D6 = 0.0823  # wrist3 axis -> flange (tool0)

JOINT_NAMES = ["joint1", "joint2", "joint3", "joint4", "joint5", "joint6"]

PI = math.pi
# (name, parent, child, xyz, rpy, axis, type, lower, upper, effort, velocity)
JOINTS = [
    ("joint1", "base_link", "link1", (0, 0, D1), (0, 0, 0), (0, 0, 1), "revolute", -PI, PI, 150.0, 2.0),
    ("joint2", "link1", "link2", (0, SHOULDER_Y, 0), (0, 0, 0), (0, 1, 0), "revolute", -PI, PI, 150.0, 2.0),
    ("joint3", "link2", "link3", (0, ELBOW_Y, A2), (0, 0, 0), (0, 1, 0), "revolute", -2.8, 2.8, 150.0, 3.0),
    ("joint4", "link3", "link4", (0, 0, A3), (0, 0, 0), (0, 1, 0), "revolute", -PI, PI, 28.0, 3.0),
    ("joint5", "link4", "link5", (0, WRIST2_Y, 0), (0, 0, 0), (0, 0, 1), "revolute", -PI, PI, 28.0, 3.0),
    ("joint6", "link5", "link6", (0, 0, D5), (0, 0, 0), (0, 1, 0), "continuous", None, None, 28.0, 3.0),
    # flange: tool0 z axis (approach direction) = link6 y axis
    ("tool0_fixed_joint", "link6", "tool0", (0, D6, 0), (-PI / 2, 0, 0), None, "fixed", None, None, None, None),
    ("gripper_fixed_joint", "tool0", "gripper", (0, 0, 0), (0, 0, 0), None, "fixed", None, None, None, None),
]

# rpy that turns a z-aligned primitive (URDF cylinder axis) into the y axis
ALONG_Y = (-PI / 2, 0, 0)
ALONG_Z = (0, 0, 0)

# Mesh parameters (also used for the inertials)
UPPER_ARM = dict(r0=0.058, r1=0.048, length=A2)  # tapered capsule, sphere centres z=0 and z=A2
FOREARM = dict(half=(0.02, 0.02, 0.1555), radius=0.022, centre=(0.0, 0.0, 0.1875))  # rounded box

# Gripper
PALM = (0.05, 0.08, 0.04)  # box, centred at z = 0.02 in tool0
FINGER = (0.006, 0.012, 0.05)  # box; x (thin) y (opening direction) z (approach)
FINGER_Y = 0.022  # finger centres at y = +-FINGER_Y
FINGER_Z = 0.04 + FINGER[2] / 2  # finger centres; finger tips at z = 0.09

# Collision geometry per link: (kind, params, xyz, rpy)
#   cylinder: (radius, length)   sphere: (radius,)   box: (sx, sy, sz)   mesh: (relative path,)
COLLISIONS = {
    "base_link": [
        ("cylinder", (0.075, 0.073), (0, 0, 0.0485), ALONG_Z),  # z in [0.012, 0.085]
    ],
    "link1": [
        ("cylinder", (0.060, 0.130), (0, 0.075, 0), ALONG_Y),  # shoulder housing around joint2's axis
    ],
    "link2": [
        ("mesh", ("meshes/upper_arm.stl",), (0, 0, 0), (0, 0, 0)),
    ],
    "link3": [
        ("cylinder", (0.050, 0.120), (0, 0.040, 0), ALONG_Y),  # elbow housing
        ("mesh", ("meshes/forearm.stl",), (0, 0, 0), (0, 0, 0)),
    ],
    "link4": [  # capsule along y = cylinder + two spheres
        ("cylinder", (0.040, 0.090), (0, 0.045, 0), ALONG_Y),
        ("sphere", (0.040,), (0, 0.0, 0), (0, 0, 0)),
        ("sphere", (0.040,), (0, 0.090, 0), (0, 0, 0)),
    ],
    "link5": [  # capsule along z
        ("cylinder", (0.038, 0.050), (0, 0, 0.040), ALONG_Z),
        ("sphere", (0.038,), (0, 0, 0.015), (0, 0, 0)),
        ("sphere", (0.038,), (0, 0, 0.065), (0, 0, 0)),
    ],
    "link6": [
        ("cylinder", (0.0375, 0.060), (0, 0.050, 0), ALONG_Y),  # flange, y in [0.02, 0.08]
    ],
    "gripper": [
        ("box", PALM, (0, 0, PALM[2] / 2), (0, 0, 0)),
        ("box", FINGER, (0, FINGER_Y, FINGER_Z), (0, 0, 0)),
        ("box", FINGER, (0, -FINGER_Y, FINGER_Z), (0, 0, 0)),
    ],
}

# mass [kg], centre of mass (xyz) and a solid-cylinder inertia model (radius, length, axis)
INERTIALS = {
    "base_link": (4.0, (0, 0, 0.0485), (0.075, 0.073, "z")),
    "link1": (3.7, (0, 0.075, 0), (0.06, 0.13, "y")),
    "link2": (8.393, (0, 0, A2 / 2), (0.053, A2, "z")),
    "link3": (2.275, (0, 0, 0.1875), (0.042, A3, "z")),
    "link4": (1.219, (0, 0.045, 0), (0.04, 0.13, "y")),
    "link5": (1.219, (0, 0, 0.04), (0.038, 0.126, "z")),
    "link6": (0.1879, (0, 0.05, 0), (0.0375, 0.06, "y")),
    "tool0": (0.001, (0, 0, 0), (0.005, 0.01, "z")),
    "gripper": (0.6, (0, 0, 0.035), (0.04, 0.09, "z")),
}

LINKS = ["base_link", "link1", "link2", "link3", "link4", "link5", "link6", "tool0", "gripper"]

# Pairs never checked (MoveIt "disable_collisions"): adjacent links, plus pairs that
# cannot touch for any joint values (checked by random sampling with --verify).
SRDF_ADJACENT = [
    ("base_link", "link1"), ("link1", "link2"), ("link2", "link3"), ("link3", "link4"),
    ("link4", "link5"), ("link5", "link6"), ("link6", "gripper"),
]
SRDF_NEVER = [
    ("base_link", "link2"),  # upper arm is 0.136 m off the pan axis, base radius 0.075
    ("link4", "link6"),  # flange stays in the slab 0.057..0.132 m along link4's z
    ("link4", "gripper"),
    ("link5", "gripper"),
]

# ----------------------------------------------------------------------------
# Scene (world frame = base_link frame; the base stands at the origin)
# ----------------------------------------------------------------------------
TABLE_TOP = -0.01
SHELF_X0 = 0.92  # front edge of the shelf boards
SHELF_DEPTH = 0.25
SHELF_WIDTH = 0.40
BOARD_T = 0.003  # the thin board
BOARD_Z = 0.25  # centre height of the thin board
POST = 0.03
SHELF_H = 0.55
BOX_SIZE = (0.16, 0.12, 0.10)
BOX_POS = (0.40, 0.42, TABLE_TOP + 0.05)
BOX_YAW = math.radians(30.0)
NO_ROT = (0.0, 0.0, 0.0, 1.0)


def scene_objects():
    objs = []
    objs.append(("table", "box", (1.7, 1.2, 0.04), (0.40, 0.0, TABLE_TOP - 0.02), NO_ROT))
    xc = SHELF_X0 + SHELF_DEPTH / 2
    # four posts standing on the table, just outside the board's corners
    px = (SHELF_X0 - POST / 2, SHELF_X0 + SHELF_DEPTH + POST / 2)
    py = (-(SHELF_WIDTH / 2 + POST / 2), SHELF_WIDTH / 2 + POST / 2)
    names = {(0, 0): "post_front_right", (0, 1): "post_front_left", (1, 0): "post_back_right", (1, 1): "post_back_left"}
    for i, x in enumerate(px):
        for j, y in enumerate(py):
            objs.append((names[(i, j)], "box", (POST, POST, SHELF_H), (x, y, TABLE_TOP + SHELF_H / 2), NO_ROT))
    objs.append(("shelf_board", "box", (SHELF_DEPTH, SHELF_WIDTH, BOARD_T), (xc, 0.0, BOARD_Z), NO_ROT))
    objs.append(("shelf_top", "box", (SHELF_DEPTH, SHELF_WIDTH + 2 * POST, 0.018), (xc, 0.0, TABLE_TOP + SHELF_H + 0.009), NO_ROT))
    # the box is turned by 30 degrees about z (exercises the orientation convention)
    objs.append(("box", "box", BOX_SIZE, BOX_POS, (0.0, 0.0, math.sin(BOX_YAW / 2), math.cos(BOX_YAW / 2))))
    objs.append(("bottle", "cylinder", (0.22, 0.035), (0.38, -0.40, TABLE_TOP + 0.11), NO_ROT))
    objs.append(("ball", "sphere", (0.04,), (-0.30, 0.42, TABLE_TOP + 0.04), NO_ROT))
    objs.append(("cone", "cone", (0.12, 0.05), (-0.30, -0.42, TABLE_TOP + 0.06), NO_ROT))
    return objs


# ----------------------------------------------------------------------------
# Trajectories (joint values in rad, time in s)
# ----------------------------------------------------------------------------
HOME = [0.0, -0.5, 1.9, 0.17, -1.5708, 0.0]  # gripper pointing down above the table

# Waypoints (found by inverse kinematics with pinocchio, rounded to 1e-4 rad)
ABOVE_BOX = [0.5912, 0.2082, 1.6807, -0.3181, -1.5708, -0.9796]  # tool0 at (0.40, 0.40, 0.30), pointing down
ABOVE_BOTTLE = [-1.0102, 0.1296, 1.5134, -0.0722, -1.5708, 0.5606]  # tool0 at (0.38, -0.40, 0.40), pointing down
SHELF_FRONT = [-0.1642, 0.7202, 1.117, -1.8372, -1.4066, 1.5708]  # tool0 at (0.75, 0, 0.40), pointing +x
INTO_BOX = [0.6205, 0.4593, 1.8631, -0.7516, -1.5708, -0.9503]  # tool0 at (0.40, 0.42, 0.12): fingers 6 cm deep in the box

# Thin-board crossing. The finger tips point +x, reach 2 cm past the board's front edge and
# have their 6 mm side vertical. THIN_DIR moves joints 1-4 together: joints 2-4 swing the
# tips down at ~16.5 mm per 0.01 rad and joint 1 moves them sideways. The tips are at board
# height ~0.045 rad after THIN_ABOVE. The fingers overlap the board over ~0.0057 rad around
# that point. The segment is 0.0899 rad long, not a whole number of 0.01 rad steps, so
# float rounding cannot change the step count. Both common samplers straddle the contact:
#   fixed 0.01 rad steps from the segment start (+ the end): samples at 0.04 and 0.05 rad;
#   ceil(0.0899 / 0.01) = 9 equal steps of 0.00999 rad: samples at 0.03996 and 0.04994 rad.
THIN_DIR = [1.0, 1.0, 1.0, 1.0, 0.0, 0.0]
THIN_ABOVE = [-0.1877, 1.0869, 0.69, -1.9118, -1.4281, 1.5708]  # finger tips ~7 cm above the board
THIN_STEP = 0.0899
THIN_BELOW = [round(a + THIN_STEP * d, 4) for a, d in zip(THIN_ABOVE, THIN_DIR)]  # ~7 cm below it

TRAJECTORIES = {
    "traj_free": ([
        "Free motion around the cell: home -> above the box -> above the bottle ->",
        "in front of the shelf (between the thin board and the top) -> home.",
        "Expected verdict: no collision (clearance >= 2 cm along the whole motion).",
    ], [(HOME, 0.0), (ABOVE_BOX, 2.5), (ABOVE_BOTTLE, 5.5), (SHELF_FRONT, 8.5), (HOME, 11.5)]),
    "traj_collide": ([
        "Drives the gripper down into the box: home -> above the box -> into the box -> back up.",
        "Expected verdict: collision (gripper fingers vs box) on the segment 1 -> 2, and waypoint 2 itself collides.",
    ], [(HOME, 0.0), (ABOVE_BOX, 2.5), (INTO_BOX, 4.0), (ABOVE_BOX, 5.5)]),
    "traj_thin": ([
        "Every waypoint is collision-free, but on the last segment (0.0899 rad on joints 1-4 in 0.3 s)",
        "the finger tips sweep down through the 3 mm shelf board (~16.5 mm per 0.01 rad).",
        "Expected verdict: collision (gripper fingers vs shelf_board) between waypoints 1 and 2;",
        "checking only every 0.01 rad of joint motion misses it.",
    ], [(HOME, 0.0), (THIN_ABOVE, 3.0), (THIN_BELOW, 3.3)]),
}
COLLIDE_WAYPOINTS = {2}  # waypoints of traj_collide that are meant to be in collision


# ----------------------------------------------------------------------------
# README (numbers from the --verify output)
# ----------------------------------------------------------------------------
README = """# Demo assets of `ccd_guard demo`

<!-- Generated by scripts/make_demo_assets.py; do not edit by hand. -->

These files are embedded in the binary. `ccd_guard demo` uses them, so the demo needs no
files on the machine it runs on. They are generated by `scripts/make_demo_assets.py`
(Python 3 + numpy, deterministic). Do not edit them by hand. To regenerate and verify:

```sh
python3 scripts/make_demo_assets.py            # writes assets/demo/
python3 scripts/make_demo_assets.py --verify   # also checks them with pinocchio + coal + PyYAML
```

All lengths are in metres and all angles in radians. Quaternions are written `[x, y, z, w]`.
The world frame is `base_link`, and the robot stands at the origin.

## Robot: `robot.urdf`, `robot.srdf`, `meshes/`

`demo_arm` is a 6-axis arm with UR5 link lengths: shoulder height 0.089, upper arm 0.425,
forearm 0.392, wrist offsets 0.093 / 0.095 / 0.082. The shoulder axis is 0.817 m from
wrist 1 and 0.912 m from the flange when the arm is stretched. In the zero pose the arm
points straight up.

| joint | type | axis (parent frame) | limits |
|---|---|---|---|
| joint1 | revolute | z | ±π |
| joint2 | revolute | y | ±π |
| joint3 | revolute | y | ±2.8 |
| joint4 | revolute | y | ±π |
| joint5 | revolute | z | ±π |
| joint6 | **continuous** | y | none |
| tool0_fixed_joint, gripper_fixed_joint | fixed | | |

The links are `base_link`, `link1` … `link6`, `tool0` and `gripper`. The z axis of `tool0`
is the approach direction. Every link has an `<inertial>`. The collision geometry is:

| link | collision elements |
|---|---|
| base_link | cylinder r 0.075, z ∈ [0.012, 0.085] |
| link1 | cylinder r 0.06 along y (shoulder housing) |
| link2 | mesh `meshes/upper_arm.stl`: tapered capsule r 0.058 → 0.048, 1024 triangles |
| link3 | cylinder r 0.05 along y (elbow) + mesh `meshes/forearm.stl`: rounded box, 972 triangles |
| link4 | capsule along y: cylinder + 2 spheres, r 0.04 |
| link5 | capsule along z: cylinder + 2 spheres, r 0.038 |
| link6 | cylinder r 0.0375 along y (flange) |
| gripper | palm box 0.05×0.08×0.04 + two finger boxes 0.006×0.012×0.05 (tips 0.09 in front of tool0) |

Both meshes are binary STL files, closed and convex. Mesh file names are **relative to the URDF
file** (`meshes/upper_arm.stl`). In pinocchio, pass the URDF's folder as `package_dirs`.

`robot.srdf` has a `home` group state and the MoveIt-style `disable_collisions` pairs:

- the 7 adjacent pairs;
- 4 pairs that can never touch: base_link/link2, link4/link6, link4/gripper and link5/gripper.
  Across 20000 random configurations their smallest distances were 2.9 mm, 17 mm, 7.5 mm and
  44 mm.

Adjacent links overlap on purpose, so self-collision checks must honour the SRDF.

Home pose: `[0, -0.5, 1.9, 0.17, -1.5708, 0]`. The gripper points down above the table.

## Scene: `scene.yaml`

| id | type | what it is |
|---|---|---|
| table | box 1.7×1.2×0.04 | the top is at z = -0.01, 22 mm below the base cylinder |
| post_front_right/left, post_back_right/left | box 0.03×0.03×0.55 | shelf posts, front face at x = 0.89 |
| shelf_board | box 0.25×0.40×**0.003** | the thin board, x ∈ [0.92, 1.17], centre height z = 0.25 |
| shelf_top | box 0.25×0.46×0.018 | top of the shelf, z ≈ 0.55 |
| box | box 0.16×0.12×0.10 | on the table at (0.40, 0.42), **turned by 30° about z** |
| bottle | cylinder, height 0.22, radius 0.035 | on the table at (0.38, -0.40) |
| ball | sphere, radius 0.04 | behind the robot |
| cone | cone, height 0.12, radius 0.05 | behind the robot (centred at its mid-height) |

## Trajectories

Each trajectory lists `joint_names` and `points`, and each point has `positions` and
`time_from_start`. Motion between points is linear in joint space. Joint6 never changes by
more than π in one segment, so linear and shortest-path interpolation give the same motion.

| file | motion | expected verdict |
|---|---|---|
| `traj_free.yaml` | home → above the box → above the bottle → in front of the shelf, between the board and the top → home; 11.5 s | **free**. The minimum distance is 24.7 mm, a self pair: forearm vs wrist 2. The robot stays ≥ 39 mm from the table and ≥ 86 mm from every other object. |
| `traj_collide.yaml` | home → above the box → into the box (fingers 6 cm deep) → back up | **collision**: gripper vs `box`. The first contact is at t ≈ 3.487 s on segment 1→2, and waypoint 2 itself is in collision. |
| `traj_thin.yaml` | home → fingers 7 cm above the thin board's front edge → 7 cm below it. The last segment moves joints 1–4 by 0.0899 rad each in 0.3 s. | **collision between waypoints**: gripper fingers vs `shelf_board`, first contact at t ≈ 3.1405 s. All three waypoints are free. **Checking every 0.01 rad misses the contact**. |

How `traj_thin` works: the fingers point +x and stick 2 cm past the board's front edge. Their
6 mm side is vertical. During the crossing the finger tips move 18.9 mm per 0.01 rad of joint
motion, 16.5 mm of it vertical; tool0 moves 16.2 mm per 0.01 rad. The fingers overlap the
3 mm board only between 0.0421 and 0.0478 rad from the start of the segment, an interval of
0.0057 rad.

The contact falls between the samples of both common discrete samplers:

- Fixed steps: one sample every 0.01 rad of the largest-moving joint, counted from the
  start of each segment, plus the segment end. The samples nearest the contact are at 0.04
  and 0.05 rad.
- Equal steps: `ceil(0.0899 / 0.01)` = 9 steps of 0.00999 rad, which is what
  `ccd_guard --method sampled` does. The nearest samples are at 0.03996 and 0.04994 rad.

At all four of those samples the fingers are 3.3–3.4 mm from the board. The segment length
is deliberately not a whole number of steps: with exactly 0.09 rad, float rounding can turn
`ceil` into 10 steps, and one of those samples would land in the board. Sampling at
0.005 rad or finer, or a continuous check, finds the collision.
"""

# ----------------------------------------------------------------------------
# Meshes
# ----------------------------------------------------------------------------
def tapered_capsule(r0, r1, length, n_around=32, n_cap=8):
    """Convex hull of a sphere (r0, centre z=0) and a sphere (r1, centre z=length)."""
    s = (r0 - r1) / length  # sine of the cone half-angle
    alpha = math.asin(s)
    # profile (rho, z) from the bottom pole to the top pole; the straight part joins the
    # spheres at latitude alpha, where the cone is tangent to both
    prof = []
    for k in range(n_cap + 1):  # bottom sphere: latitude -pi/2 .. alpha
        lat = -PI / 2 + (alpha + PI / 2) * k / n_cap
        prof.append((r0 * math.cos(lat), r0 * math.sin(lat)))
    for k in range(n_cap + 1):  # top sphere: latitude alpha .. pi/2
        lat = alpha + (PI / 2 - alpha) * k / n_cap
        prof.append((r1 * math.cos(lat), length + r1 * math.sin(lat)))
    verts = [(0.0, 0.0, prof[0][1])]
    ring_start = []
    for rho, z in prof[1:-1]:
        ring_start.append(len(verts))
        for i in range(n_around):
            a = 2 * PI * i / n_around
            verts.append((rho * math.cos(a), rho * math.sin(a), z))
    verts.append((0.0, 0.0, prof[-1][1]))
    top = len(verts) - 1
    faces = []
    r = ring_start
    for i in range(n_around):
        j = (i + 1) % n_around
        faces.append((0, r[0] + j, r[0] + i))
    for k in range(len(r) - 1):
        for i in range(n_around):
            j = (i + 1) % n_around
            a, b, c, d = r[k] + i, r[k] + j, r[k + 1] + i, r[k + 1] + j
            faces.append((a, b, d))
            faces.append((a, d, c))
    for i in range(n_around):
        j = (i + 1) % n_around
        faces.append((r[-1] + i, r[-1] + j, top))
    return np.array(verts, dtype=np.float64), np.array(faces, dtype=np.int64)


def rounded_box(half, radius, n_arc=4):
    """Minkowski sum of a box (half extents) and a sphere, as a closed convex mesh."""
    half = np.asarray(half, dtype=np.float64)
    outer = half + radius
    # grid coordinates along each axis on the unit cube, with extra lines in the rounded zone
    axes = []
    for a in range(3):
        t0 = half[a] / outer[a]
        ang = [math.sin(PI / 2 * k / n_arc) for k in range(n_arc + 1)]  # 0..1
        ts = [t0 + (1 - t0) * u for u in ang]  # t0..1
        axes.append(sorted(set([-t for t in ts] + ts)))
    index = {}
    verts = []
    faces = []

    def vid(u):
        key = tuple(int(round(c * 1e9)) for c in u)
        if key not in index:
            q = np.array(u) * outer
            inner = np.clip(q, -half, half)
            n = q - inner
            n /= np.linalg.norm(n)
            index[key] = len(verts)
            verts.append(inner + radius * n)
        return index[key]

    for axis in range(3):
        o1, o2 = [a for a in range(3) if a != axis]
        for sign in (-1.0, 1.0):
            g1, g2 = axes[o1], axes[o2]
            for i in range(len(g1) - 1):
                for j in range(len(g2) - 1):
                    quad = []
                    for (ii, jj) in ((i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)):
                        u = [0.0, 0.0, 0.0]
                        u[axis] = sign
                        u[o1] = g1[ii]
                        u[o2] = g2[jj]
                        quad.append(vid(u))
                    faces.append((quad[0], quad[1], quad[2]))
                    faces.append((quad[0], quad[2], quad[3]))
    verts = np.array(verts)
    faces = np.array(faces, dtype=np.int64)
    # orient outwards (convex, centred at the origin)
    tri = verts[faces]
    nrm = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    flip = np.einsum("ij,ij->i", nrm, tri.mean(axis=1)) < 0
    faces[flip] = faces[flip][:, ::-1]
    return verts, faces


def write_binary_stl(path, verts, faces, name):
    tri = verts[faces]
    nrm = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    nrm /= np.linalg.norm(nrm, axis=1, keepdims=True)
    header = ("ccd_guard demo mesh: " + name).encode("ascii").ljust(80, b" ")[:80]
    out = bytearray(header)
    out += struct.pack("<I", len(faces))
    for n, t in zip(nrm, tri):
        out += struct.pack("<12fH", *n, *t[0], *t[1], *t[2], 0)
    with open(path, "wb") as f:
        f.write(bytes(out))


def make_meshes():
    v, f = tapered_capsule(UPPER_ARM["r0"], UPPER_ARM["r1"], UPPER_ARM["length"])
    upper = (v, f)
    v, f = rounded_box(FOREARM["half"], FOREARM["radius"])
    v = v + np.array(FOREARM["centre"])
    fore = (v, f)
    return {"meshes/upper_arm.stl": upper, "meshes/forearm.stl": fore}


# ----------------------------------------------------------------------------
# Writers
# ----------------------------------------------------------------------------
def fmt(x):
    """Short, deterministic float formatting."""
    if abs(x) < 5e-13:
        x = 0.0
    s = "%.6f" % x
    s = s.rstrip("0").rstrip(".")
    if s in ("-0", ""):
        s = "0"
    return s


def vec(v):
    return " ".join(fmt(c) for c in v)


def cylinder_inertia(m, r, l, axis):
    ia = 0.5 * m * r * r
    it = m * (3 * r * r + l * l) / 12.0
    d = {"x": (ia, it, it), "y": (it, ia, it), "z": (it, it, ia)}[axis]
    return d


def urdf_text():
    L = ['<?xml version="1.0"?>',
         "<!-- Generated by scripts/make_demo_assets.py; do not edit by hand. -->",
         "<!-- demo_arm: 6-axis arm with UR5-like proportions (reach ~0.85 m), zero pose = arm straight up. -->",
         '<robot name="demo_arm">']
    for link in LINKS:
        L.append('  <link name="%s">' % link)
        m, com, (r, l, ax) = INERTIALS[link]
        ixx, iyy, izz = cylinder_inertia(m, r, l, ax)
        L.append("    <inertial>")
        L.append('      <origin xyz="%s" rpy="0 0 0"/>' % vec(com))
        L.append('      <mass value="%s"/>' % fmt(m))
        L.append('      <inertia ixx="%s" ixy="0" ixz="0" iyy="%s" iyz="0" izz="%s"/>' % (
            "%.6g" % ixx, "%.6g" % iyy, "%.6g" % izz))
        L.append("    </inertial>")
        for kind, p, xyz, rpy in COLLISIONS.get(link, []):
            L.append("    <collision>")
            L.append('      <origin xyz="%s" rpy="%s"/>' % (vec(xyz), vec(rpy)))
            L.append("      <geometry>")
            if kind == "cylinder":
                L.append('        <cylinder radius="%s" length="%s"/>' % (fmt(p[0]), fmt(p[1])))
            elif kind == "sphere":
                L.append('        <sphere radius="%s"/>' % fmt(p[0]))
            elif kind == "box":
                L.append('        <box size="%s"/>' % vec(p))
            elif kind == "mesh":
                L.append('        <mesh filename="%s"/>' % p[0])
            L.append("      </geometry>")
            L.append("    </collision>")
        L.append("  </link>")
    for (name, parent, child, xyz, rpy, axis, jtype, lo, hi, eff, vel) in JOINTS:
        L.append('  <joint name="%s" type="%s">' % (name, jtype))
        L.append('    <parent link="%s"/>' % parent)
        L.append('    <child link="%s"/>' % child)
        L.append('    <origin xyz="%s" rpy="%s"/>' % (vec(xyz), vec(rpy)))
        if axis is not None:
            L.append('    <axis xyz="%s"/>' % vec(axis))
        if jtype == "revolute":
            L.append('    <limit lower="%s" upper="%s" effort="%s" velocity="%s"/>' % (fmt(lo), fmt(hi), fmt(eff), fmt(vel)))
        elif jtype == "continuous":
            L.append('    <limit effort="%s" velocity="%s"/>' % (fmt(eff), fmt(vel)))
        L.append("  </joint>")
    L.append("</robot>")
    return "\n".join(L) + "\n"


def srdf_text():
    L = ['<?xml version="1.0"?>',
         "<!-- Generated by scripts/make_demo_assets.py; do not edit by hand. -->",
         '<robot name="demo_arm">',
         '  <group name="manipulator">',
         '    <chain base_link="base_link" tip_link="tool0"/>',
         "  </group>",
         '  <group_state name="home" group="manipulator">']
    for n, v in zip(JOINT_NAMES, HOME):
        L.append('    <joint name="%s" value="%s"/>' % (n, fmt(v)))
    L.append("  </group_state>")
    L.append('  <end_effector name="gripper" parent_link="tool0" group="manipulator"/>')
    for a, b in SRDF_ADJACENT:
        L.append('  <disable_collisions link1="%s" link2="%s" reason="Adjacent"/>' % (a, b))
    for a, b in SRDF_NEVER:
        L.append('  <disable_collisions link1="%s" link2="%s" reason="Never"/>' % (a, b))
    L.append("</robot>")
    return "\n".join(L) + "\n"


def scene_text():
    L = ["# Generated by scripts/make_demo_assets.py; do not edit by hand.",
         "# Demo work cell. Units: metres; orientation quaternions are [x, y, z, w].",
         "# box: dimensions [x, y, z] full sizes; sphere: [radius];",
         "# cylinder/cone: [height, radius], axis along z, centred at the pose.",
         "frame_id: world",
         "objects:"]
    for oid, typ, dims, pos, quat in scene_objects():
        L.append("  - id: %s" % oid)
        L.append("    type: %s" % typ)
        L.append("    dimensions: [%s]" % ", ".join(fmt(d) for d in dims))
        L.append("    pose: {position: [%s], orientation: [%s]}" % (", ".join(fmt(c) for c in pos), ", ".join(fmt(c) for c in quat)))
    return "\n".join(L) + "\n"


def traj_text(name, comment, points):
    L = ["# Generated by scripts/make_demo_assets.py; do not edit by hand."]
    for c in comment:
        L.append("# " + c)
    L.append("joint_names: [%s]" % ", ".join(JOINT_NAMES))
    L.append("points:")
    for q, t in points:
        L.append("  - {positions: [%s], time_from_start: %s}" % (", ".join(fmt(v) for v in q), "%.2f" % t))
    return "\n".join(L) + "\n"


def write_all(out):
    os.makedirs(os.path.join(out, "meshes"), exist_ok=True)
    files = []

    def put(rel, text):
        p = os.path.join(out, rel)
        with open(p, "w", newline="\n", encoding="utf-8") as f:
            f.write(text)
        files.append(rel)

    for rel, (v, f) in make_meshes().items():
        write_binary_stl(os.path.join(out, rel), v, f, os.path.basename(rel))
        files.append(rel)
    put("robot.urdf", urdf_text())
    put("robot.srdf", srdf_text())
    put("scene.yaml", scene_text())
    for name, (comment, points) in TRAJECTORIES.items():
        put(name + ".yaml", traj_text(name, comment, points))
    put("README.md", README)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=DEFAULT_OUT, help="output directory (default: assets/demo)")
    ap.add_argument("--verify", action="store_true", help="check the written files with pinocchio + coal")
    args = ap.parse_args()
    files = write_all(args.out)
    for f in files:
        print("wrote", os.path.join(args.out, f))
    if args.verify:
        ok = verify(args.out)
        sys.exit(0 if ok else 1)


# ----------------------------------------------------------------------------
# Verification (pinocchio + coal + PyYAML; independent of ccd_guard)
# ----------------------------------------------------------------------------
class Checker:
    """Robot (pinocchio, from the written URDF/SRDF) + scene (coal shapes, from scene.yaml)."""

    def __init__(self, out):
        import xml.etree.ElementTree as ET

        import coal
        import pinocchio as pin
        import yaml

        self.pin, self.coal = pin, coal
        urdf = os.path.join(out, "robot.urdf")
        self.model = pin.buildModelFromUrdf(urdf)
        # relative mesh paths ("meshes/x.stl") are resolved against the URDF's folder
        self.gmodel = pin.buildGeomFromUrdf(self.model, urdf, pin.COLLISION, package_dirs=[out])
        self.n_robot_geoms = len(self.gmodel.geometryObjects)
        self.mesh_info = []
        for go in self.gmodel.geometryObjects:
            if isinstance(go.geometry, coal.BVHModelBase):
                self.mesh_info.append((go.name, go.meshPath, go.geometry.num_tris, go.geometry.num_vertices))
        with open(os.path.join(out, "scene.yaml")) as f:
            self.scene = yaml.safe_load(f)
        for obj in self.scene["objects"]:
            d = obj["dimensions"]
            t = obj["type"]
            if t == "box":
                shape = coal.Box(*d)  # full side lengths
            elif t == "sphere":
                shape = coal.Sphere(d[0])
            elif t == "cylinder":
                shape = coal.Cylinder(d[1], d[0])  # (radius, height), centred
            elif t == "cone":
                shape = coal.Cone(d[1], d[0])  # (radius, height), centred
            else:
                raise ValueError("unsupported type " + t)
            x, y, z, w = obj["pose"]["orientation"]
            R = pin.Quaternion(w, x, y, z).toRotationMatrix()
            M = pin.SE3(R, np.array(obj["pose"]["position"], dtype=float))
            go = pin.GeometryObject("scene/" + obj["id"], 0, 0, M, shape)
            self.gmodel.addGeometryObject(go)
        # disabled pairs from the SRDF
        root = ET.parse(os.path.join(out, "robot.srdf")).getroot()
        self.disabled = set()
        for e in root.iter("disable_collisions"):
            self.disabled.add(frozenset((e.get("link1"), e.get("link2"))))
        self.owner = []  # link name (or scene id) per geometry
        for i, go in enumerate(self.gmodel.geometryObjects):
            if i < self.n_robot_geoms:
                self.owner.append(self.model.frames[go.parentFrame].name)
            else:
                self.owner.append(go.name)
        n = len(self.gmodel.geometryObjects)
        for i in range(n):
            for j in range(i + 1, n):
                a, b = self.owner[i], self.owner[j]
                if i >= self.n_robot_geoms and j >= self.n_robot_geoms:
                    continue  # scene vs scene
                if a == b or frozenset((a, b)) in self.disabled:
                    continue
                self.gmodel.addCollisionPair(pin.CollisionPair(i, j))
        self.moving_pair = np.array([
            self.gmodel.geometryObjects[cp.first].parentJoint != 0 or self.gmodel.geometryObjects[cp.second].parentJoint != 0
            for cp in self.gmodel.collisionPairs])
        self.scene_pair = np.array([cp.second >= self.n_robot_geoms for cp in self.gmodel.collisionPairs])
        self.gdata = pin.GeometryData(self.gmodel)
        self.data = self.model.createData()
        for req in self.gdata.collisionRequests:
            req.security_margin = 0.0
        self.tool_frame = self.model.getFrameId("tool0")

    def to_pin(self, q):
        """Joint angles (one per joint, continuous joints as angle) -> pinocchio q."""
        qp = np.zeros(self.model.nq)
        for k in range(1, self.model.njoints):
            j = self.model.joints[k]
            if j.nq == 1:
                qp[j.idx_q] = q[k - 1]
            else:  # continuous joint: (cos, sin)
                qp[j.idx_q] = math.cos(q[k - 1])
                qp[j.idx_q + 1] = math.sin(q[k - 1])
        return qp

    def pair_name(self, k):
        cp = self.gmodel.collisionPairs[k]
        return "%s <-> %s" % (self.gmodel.geometryObjects[cp.first].name, self.gmodel.geometryObjects[cp.second].name)

    def collisions(self, q):
        """Names of colliding pairs at q (empty list = free)."""
        pin = self.pin
        pin.computeCollisions(self.model, self.data, self.gmodel, self.gdata, self.to_pin(q), False)
        return [self.pair_name(k) for k, r in enumerate(self.gdata.collisionResults) if r.isCollision()]

    def in_collision(self, q):
        return self.pin.computeCollisions(self.model, self.data, self.gmodel, self.gdata, self.to_pin(q), True)

    def distances(self, q):
        """Distance of every checked pair at q (collisionPairs order)."""
        self.pin.computeDistances(self.model, self.data, self.gmodel, self.gdata, self.to_pin(q))
        return np.array([r.min_distance for r in self.gdata.distanceResults])

    def min_distance(self, q, moving_only=False):
        """(distance, pair name) of the closest checked pair at q. With moving_only, pairs
        that cannot change (base_link vs scene) are left out."""
        d = self.distances(q)
        if moving_only:
            d = np.where(self.moving_pair, d, np.inf)
        k = int(np.argmin(d))
        return float(d[k]), self.pair_name(k)

    def point(self, q, frame="tool0", local=(0, 0, 0)):
        pin = self.pin
        pin.framesForwardKinematics(self.model, self.data, self.to_pin(q))
        M = self.data.oMf[self.model.getFrameId(frame)]
        return M.act(np.array(local, dtype=float))


def segment_samples(q0, q1, step, equal=False):
    """Interpolation parameters s in [0, 1] of the discrete checks on one segment.

    Default (the definition used for the demo): every `step` rad of the largest-moving joint,
    counted from the segment start, plus the segment end. With equal=True: ceil(travel / step)
    equal steps (what ccd_guard's `sampled` method does)."""
    m = float(np.max(np.abs(np.asarray(q1) - np.asarray(q0))))
    if m == 0.0:
        return np.array([0.0, 1.0])
    if equal:
        n = max(1, int(math.ceil(m / step)))
        return np.arange(n + 1) / n
    n = int(math.floor(m / step + 1e-12))
    s = [k * step / m for k in range(n + 1)]
    if s[-1] < 1.0:
        s.append(1.0)
    return np.array(s)


def load_traj(path):
    import yaml

    with open(path) as f:
        d = yaml.safe_load(f)
    assert d["joint_names"] == JOINT_NAMES, d["joint_names"]
    qs = [np.array(p["positions"], dtype=float) for p in d["points"]]
    ts = [float(p["time_from_start"]) for p in d["points"]]
    assert all(b > a for a, b in zip(ts, ts[1:])), "time_from_start must increase"
    return qs, ts


def scan(ck, qs, ts, step, stop_at_collision=True, equal=False):
    """Collision-check the configurations at `step` rad of the largest-moving joint along
    every segment (see segment_samples).

    Returns a dict: samples (count); first = (time, pairs, segment, s) of the first collision,
    refined by bisection between the last free sample and the first colliding one; hits =
    {segment: set of colliding pair names} over all colliding samples (unless stopped at the
    first)."""
    res = {"samples": 0, "first": None, "hits": {}}
    for i in range(len(qs) - 1):
        q0, q1 = qs[i], qs[i + 1]
        prev = None
        for s in segment_samples(q0, q1, step, equal):
            res["samples"] += 1
            if ck.in_collision(q0 + s * (q1 - q0)):
                res["hits"].setdefault(i, set()).update(ck.collisions(q0 + s * (q1 - q0)))
                if res["first"] is None:
                    lo, hi = (prev, s) if prev is not None else (s, s)
                    for _ in range(60 if prev is not None else 0):
                        mid = 0.5 * (lo + hi)
                        if ck.in_collision(q0 + mid * (q1 - q0)):
                            hi = mid
                        else:
                            lo = mid
                    res["first"] = (ts[i] + hi * (ts[i + 1] - ts[i]), ck.collisions(q0 + hi * (q1 - q0)), i, hi)
                if stop_at_collision:
                    return res
            prev = s
    return res


def distance_profile(ck, qs, ts, step=1e-3, refine=1e-4):
    """Minimum distances along a trajectory: sampled every `step` rad of the largest-moving
    joint, then refined every `refine` rad within one step around the closest sample.
    Returns (min over moving pairs (d, pair, t), min over all pairs (d, pair, t),
    {scene object: (d, robot link)})."""
    best = [float("inf"), None, None]
    best_all = [float("inf"), None, None]
    per_obj = {}

    def visit(i, s):
        q = qs[i] + s * (qs[i + 1] - qs[i])
        t = ts[i] + s * (ts[i + 1] - ts[i])
        d = ck.distances(q)
        k = int(np.argmin(d))
        if d[k] < best_all[0]:
            best_all[:] = [d[k], ck.pair_name(k), t]
        dm = np.where(ck.moving_pair, d, np.inf)
        k = int(np.argmin(dm))
        if dm[k] < best[0]:
            best[:] = [dm[k], ck.pair_name(k), t, i, s]
        for k in np.nonzero(ck.moving_pair & ck.scene_pair)[0]:
            cp = ck.gmodel.collisionPairs[int(k)]
            o = ck.owner[cp.second]
            if d[k] < per_obj.get(o, (float("inf"),))[0]:
                per_obj[o] = (float(d[k]), ck.owner[cp.first])

    for i in range(len(qs) - 1):
        for s in segment_samples(qs[i], qs[i + 1], step):
            visit(i, s)
    i, s = best[3], best[4]
    m = float(np.max(np.abs(qs[i + 1] - qs[i])))
    if m > 0:
        for k in range(-int(round(step / refine)), int(round(step / refine)) + 1):
            ss = s + k * refine / m
            if 0.0 <= ss <= 1.0:
                visit(i, ss)
    return tuple(best[:3]), tuple(best_all), per_obj


def stl_check(path):
    """Read a binary STL with struct and check it is a closed, consistently oriented
    2-manifold (every edge used exactly once in each direction); returns (triangles, volume)."""
    with open(path, "rb") as f:
        data = f.read()
    n = struct.unpack_from("<I", data, 80)[0]
    assert len(data) == 84 + 50 * n, "size mismatch"
    tri = np.array([struct.unpack_from("<12f", data, 84 + 50 * k)[3:] for k in range(n)]).reshape(n, 3, 3)
    keys = {}
    ids = np.zeros((n, 3), dtype=np.int64)
    for k in range(n):
        for c in range(3):
            ids[k, c] = keys.setdefault(tuple(tri[k, c]), len(keys))
    edges = {}
    for a, b, c in ids:
        for e in ((a, b), (b, c), (c, a)):
            edges[e] = edges.get(e, 0) + 1
    closed = all(v == 1 for v in edges.values()) and all((b, a) in edges for (a, b) in edges)
    vol = float(np.einsum("ij,ij->i", tri[:, 0], np.cross(tri[:, 1], tri[:, 2])).sum() / 6.0)
    chi = len(keys) - len(edges) // 2 + n
    return n, vol, closed and chi == 2 and vol > 0


def verify(out):
    import xml.etree.ElementTree as ET

    ck = Checker(out)
    pin, coal = ck.pin, ck.coal
    ok = True

    def report(cond, msg):
        nonlocal ok
        ok = ok and bool(cond)
        print(("  [ok]   " if cond else "  [FAIL] ") + msg)

    print("\n== robot (pinocchio %s, coal %s)" % (pin.__version__, coal.__version__))
    names = [ck.model.names[k] for k in range(1, ck.model.njoints)]
    report(names == JOINT_NAMES, "URDF parsed: joints %s (nq=%d, nv=%d; joint6 continuous -> 2 coordinates)"
           % (names, ck.model.nq, ck.model.nv))
    root = ET.parse(os.path.join(out, "robot.urdf")).getroot()
    links = [l.get("name") for l in root.iter("link")]
    report(all(l.find("inertial") is not None for l in root.iter("link")), "links %s all have <inertial>" % links)
    print("  robot collision geometries: %d on %d links; scene objects: %d; checked pairs: %d; SRDF-disabled link pairs: %d"
          % (ck.n_robot_geoms, len(set(ck.owner[:ck.n_robot_geoms])), len(ck.scene["objects"]),
             len(ck.gmodel.collisionPairs), len(ck.disabled)))
    for name, path, ntri, nv in ck.mesh_info:
        size = os.path.getsize(path)
        n, vol, closed = stl_check(path)
        report(os.path.isfile(path) and size < 200_000 and 300 <= ntri <= 2000 and closed and n == ntri,
               "%s: %s resolved relative to the URDF, %d triangles, %d vertices, %d bytes, closed: %s, volume %.2f l"
               % (name, os.path.relpath(path, out), ntri, nv, size, closed, vol * 1000))
    report(len(ck.mesh_info) >= 2, "at least two links use STL meshes")
    p_sh = ck.point([0, PI / 2, 0, 0, 0, 0], "link2")
    p_w = ck.point([0, PI / 2, 0, 0, 0, 0], "link4")
    p_t = ck.point([0, PI / 2, 0, 0, 0, 0], "tool0")
    print("  arm stretched horizontally: shoulder axis -> wrist1 %.3f m, -> tool0 %.3f m"
          % (p_w[0] - p_sh[0], p_t[0] - p_sh[0]))

    print("\n== SRDF 'Never' pairs: minimum distance over 20000 random configurations")
    rng = np.random.default_rng(0)
    groups = {frozenset(p): [] for p in SRDF_NEVER}
    for i in range(ck.n_robot_geoms):
        for j in range(i + 1, ck.n_robot_geoms):
            key = frozenset((ck.owner[i], ck.owner[j]))
            if key in groups:
                groups[key].append((i, j))
    worst = {k: float("inf") for k in groups}
    lo = np.maximum(ck.model.lowerPositionLimit[:5], -PI)
    hi = np.minimum(ck.model.upperPositionLimit[:5], PI)
    geoms = ck.gmodel.geometryObjects
    for _ in range(20000):
        q = np.concatenate([rng.uniform(lo, hi), rng.uniform(-PI, PI, 1)])
        pin.updateGeometryPlacements(ck.model, ck.data, ck.gmodel, ck.gdata, ck.to_pin(q))
        for key, pairs in groups.items():
            for i, j in pairs:
                d = coal.distance(geoms[i].geometry, ck.gdata.oMg[i], geoms[j].geometry, ck.gdata.oMg[j],
                                  coal.DistanceRequest(), coal.DistanceResult())
                worst[key] = min(worst[key], d)
    for a, b in SRDF_NEVER:
        report(worst[frozenset((a, b))] > 0.0, "%s / %s: %.4f m" % (a, b, worst[frozenset((a, b))]))

    def within_limits(q):
        for k in range(1, ck.model.njoints):
            j = ck.model.joints[k]
            if j.nq == 1 and not (ck.model.lowerPositionLimit[j.idx_q] <= q[k - 1] <= ck.model.upperPositionLimit[j.idx_q]):
                return False
        return True

    vmax = np.array([ck.model.velocityLimit[ck.model.joints[k].idx_v] for k in range(1, ck.model.njoints)])

    print("\n== home pose and waypoints (distances without the static base_link-table pair, which is %.4f m)"
          % ck.min_distance(HOME)[0])
    d, pair = ck.min_distance(HOME, moving_only=True)
    report(not ck.collisions(HOME) and within_limits(HOME), "home %s: free, min distance %.4f m (%s)" % (HOME, d, pair))
    trajs = {}
    for name in ("traj_free", "traj_collide", "traj_thin"):
        qs, ts = load_traj(os.path.join(out, name + ".yaml"))
        trajs[name] = (qs, ts)
        for k, q in enumerate(qs):
            cols = ck.collisions(q)
            d, pair = ck.min_distance(q, moving_only=True)
            lim = within_limits(q)
            if not (name == "traj_collide" and k in COLLIDE_WAYPOINTS):
                report(lim and not cols, "%s[%d] t=%.2f: within limits, free, min distance %.4f m (%s)" % (name, k, ts[k], d, pair))
            else:
                report(lim and bool(cols), "%s[%d] t=%.2f: within limits, in collision as intended: %s" % (name, k, ts[k], cols))
        dq = np.array([np.abs(qs[k + 1] - qs[k]) for k in range(len(qs) - 1)])
        vel = np.array([np.abs(qs[k + 1] - qs[k]) / (ts[k + 1] - ts[k]) for k in range(len(qs) - 1)])
        report(np.all(vel <= vmax) and np.all(dq[:, 5] < PI),
               "%s: joint speeds <= limits (max %.2f rad/s); |joint6 step| < pi (no wrap-around ambiguity)" % (name, vel.max()))

    print("\n== traj_free: collision check every 1e-4 rad of the largest-moving joint")
    qs, ts = trajs["traj_free"]
    r = scan(ck, qs, ts, 1e-4)
    report(r["first"] is None, "free: %d samples, no collision" % r["samples"])
    (d, pair, t), (d0, pair0, _), per_obj = distance_profile(ck, qs, ts)
    report(d >= 0.02, "free: minimum distance %.4f m at t=%.3f s (%s) [distances every 1e-3 rad, refined "
           "every 1e-4 rad around the minimum]" % (d, t, pair))
    print("  (the static base_link-table pair, not counted above: %.4f m)" % ck.min_distance(HOME)[0])
    print("  clearance of the moving links per scene object: " +
          ", ".join("%s %.3f (%s)" % (o.replace("scene/", ""), v[0], v[1]) for o, v in sorted(per_obj.items())))

    print("\n== traj_collide: dense sampling every 1e-4 rad + bisection")
    qs, ts = trajs["traj_collide"]
    r = scan(ck, qs, ts, 1e-4)
    c = r["first"]
    report(c is not None and any("scene/box" in p for p in c[1]),
           "collide: first collision at t=%.4f s (segment %d, s=%.4f): %s" % ((c[0], c[2], c[3], c[1]) if c else (0, -1, 0, [])))

    print("\n== traj_thin")
    qs, ts = trajs["traj_thin"]
    r = scan(ck, qs, ts, 1e-4, stop_at_collision=False)
    c = r["first"]
    report(c is not None and any("shelf_board" in p for p in c[1]),
           "dense (1e-4 rad, %d samples): first collision at t=%.5f s (segment %d, s=%.5f): %s"
           % ((r["samples"], c[0], c[2], c[3], c[1]) if c else (r["samples"], 0, -1, 0, [])))
    only = sorted({p for ps in r["hits"].values() for p in ps})
    report(list(r["hits"]) == [len(qs) - 2] and all("shelf_board" in p for p in only),
           "all colliding dense samples are on segment %s and involve only: %s" % (list(r["hits"]), only))
    for equal, label in ((False, "0.01 rad steps from each segment start, both ends included"),
                         (True, "ceil(travel / 0.01 rad) equal steps per segment")):
        r01 = scan(ck, qs, ts, 0.01, stop_at_collision=False, equal=equal)
        d, pair, t = (float("inf"), None, None)
        for k in range(len(qs) - 1):
            for s_ in segment_samples(qs[k], qs[k + 1], 0.01, equal):
                dd, pp = ck.min_distance(qs[k] + s_ * (qs[k + 1] - qs[k]), moving_only=True)
                if dd < d:
                    d, pair, t = dd, pp, ts[k] + s_ * (ts[k + 1] - ts[k])
        report(not r01["hits"], "%s: %d samples, all free; closest %.4f m at t=%.4f s (%s)"
               % (label, r01["samples"], d, t, pair))
    if c is not None:
        i = c[2]
        q0, q1 = qs[i], qs[i + 1]
        m = float(np.max(np.abs(q1 - q0)))
        moving = [JOINT_NAMES[k] for k in range(6) if abs(abs(q1[k] - q0[k]) - m) < 1e-9]
        ss = segment_samples(q0, q1, 1e-5)
        hit = [s for s in ss if ck.in_collision(q0 + s * (q1 - q0))]
        s_in, s_out = min(hit), max(hit)
        s01 = segment_samples(q0, q1, 0.01)
        print("  tunnelling segment %d: largest joint change %.4f rad (%s), %d samples at 0.01 rad"
              % (i, m, "+".join(moving), len(s01)))
        print("  collision interval (1e-5 rad sampling): %.5f .. %.5f rad from the segment start, length %.5f rad"
              % (s_in * m, s_out * m, (s_out - s_in) * m))
        sm, ds = 0.5 * (s_in + s_out), 0.01 / m
        for fr, loc, label in (("tool0", (0, 0, 0), "tool0 origin"),
                               ("gripper", (0, 0, FINGER_Z + FINGER[2] / 2), "finger tip centre")):
            a = ck.point(q0 + (sm - ds / 2) * (q1 - q0), fr, loc)
            b = ck.point(q0 + (sm + ds / 2) * (q1 - q0), fr, loc)
            print("  %s moves %.1f mm (vertical %.1f mm) per 0.01 rad during the crossing"
                  % (label, 1000 * np.linalg.norm(b - a), 1000 * abs(b[2] - a[2])))
        for equal in (False, True):
            s01 = segment_samples(q0, q1, 0.01, equal)
            for s in (max(x for x in s01 if x < s_in), min(x for x in s01 if x > s_out)):
                dd, pp = ck.min_distance(q0 + s * (q1 - q0), moving_only=True)
                print("  neighbouring %s sample at %.5f rad: distance %.4f m (%s)"
                      % ("equal-step" if equal else "0.01 rad", s * m, dd, pp))
    print("\nverification %s" % ("PASSED" if ok else "FAILED"))
    return ok


if __name__ == "__main__":
    main()
