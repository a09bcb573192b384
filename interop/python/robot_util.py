"""URDF helpers shared by the cross-check tests (plain XML parsing, no ROS needed)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import numpy as np

MOVING_TYPES = ("revolute", "continuous", "prismatic")


@dataclass
class Joint:
    name: str
    type: str
    parent: str
    child: str
    lower: float | None = None
    upper: float | None = None
    mimic_of: str | None = None
    multiplier: float = 1.0
    offset: float = 0.0


@dataclass
class UrdfInfo:
    path: Path
    links: list[str]
    joints: list[Joint]
    links_with_geometry: set[str]

    @property
    def joint_map(self) -> dict[str, Joint]:
        return {j.name: j for j in self.joints}

    @property
    def independent_joints(self) -> list[Joint]:
        """Moving joints that are not mimic joints: the ones a configuration gives."""
        return [j for j in self.joints if j.type in MOVING_TYPES and j.mimic_of is None]

    @property
    def mimic_joints(self) -> list[Joint]:
        return [j for j in self.joints if j.type in MOVING_TYPES and j.mimic_of is not None]

    @property
    def adjacent_link_pairs(self) -> set[frozenset[str]]:
        """MoveIt's default exceptions without an SRDF: links joined directly by a joint,
        and links joined through a chain of links without collision geometry."""
        neighbours: dict[str, set[str]] = {name: set() for name in self.links}
        for j in self.joints:
            neighbours[j.parent].add(j.child)
            neighbours[j.child].add(j.parent)
        pairs = {frozenset((j.parent, j.child)) for j in self.joints}
        for start in self.links:
            seen = {start}
            stack = list(neighbours[start])
            while stack:
                link = stack.pop()
                if link in seen:
                    continue
                seen.add(link)
                pairs.add(frozenset((start, link)))
                if link not in self.links_with_geometry:
                    stack.extend(neighbours[link])
        return pairs


def parse_urdf(path: Path) -> UrdfInfo:
    root = ET.parse(path).getroot()
    links = [link.get("name") for link in root.findall("link")]
    joints = []
    for j in root.findall("joint"):
        joint = Joint(
            name=j.get("name"),
            type=j.get("type"),
            parent=j.find("parent").get("link"),
            child=j.find("child").get("link"),
        )
        lim = j.find("limit")
        if lim is not None and lim.get("lower") is not None and lim.get("upper") is not None:
            joint.lower = float(lim.get("lower"))
            joint.upper = float(lim.get("upper"))
        m = j.find("mimic")
        if m is not None:
            joint.mimic_of = m.get("joint")
            joint.multiplier = float(m.get("multiplier", "1"))
            joint.offset = float(m.get("offset", "0"))
        joints.append(joint)
    with_geometry = {link.get("name") for link in root.findall("link") if link.find("collision") is not None}
    return UrdfInfo(Path(path), links, joints, with_geometry)


def random_configuration(info: UrdfInfo, rng: np.random.Generator) -> dict[str, float]:
    """Values for every independent moving joint, uniform within the joint limits
    (continuous joints, and joints without limits, in [-pi, pi])."""
    cfg = {}
    for j in info.independent_joints:
        if j.type == "continuous" or j.lower is None:
            lo, hi = -math.pi, math.pi
        else:
            lo, hi = j.lower, j.upper
        cfg[j.name] = float(rng.uniform(lo, hi))
    return cfg


def all_joint_values(info: UrdfInfo, cfg: dict[str, float]) -> dict[str, float]:
    """Configuration extended to mimic joints: value = multiplier * leader + offset
    (leaders that are themselves mimic joints are resolved recursively)."""
    jm = info.joint_map
    values = {j.name: cfg.get(j.name, 0.0) for j in info.independent_joints}

    def value(name: str, depth: int = 0) -> float:
        if name in values:
            return values[name]
        if depth > len(jm):
            raise ValueError(f"mimic cycle at joint {name}")
        j = jm[name]
        v = j.multiplier * value(j.mimic_of, depth + 1) + j.offset
        values[name] = v
        return v

    for j in info.mimic_joints:
        value(j.name)
    return values


def pinocchio_q(model, values: dict[str, float]) -> np.ndarray:
    """Pinocchio configuration vector (model built with mimic=False) from joint values.
    Continuous joints (RUB*, nq=2) take (cos, sin)."""
    q = np.zeros(model.nq)
    for jid in range(1, model.njoints):
        name = model.names[jid]
        jmodel = model.joints[jid]
        v = values[name]
        if jmodel.nq == 1:
            q[jmodel.idx_q] = v
        elif jmodel.nq == 2:
            q[jmodel.idx_q] = math.cos(v)
            q[jmodel.idx_q + 1] = math.sin(v)
        else:
            raise ValueError(f"unsupported pinocchio joint {name}: {jmodel.shortname()}")
    return q


def key_str(key) -> str:
    """A (link, other) pair key as the reports print it."""
    return f"[{key[1]}, {key[2]}]"
