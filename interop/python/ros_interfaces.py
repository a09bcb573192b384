"""The ROS 2 message definitions, as rosbags parses them: the independent reference for
the node's CDR.

rosbags' Jazzy type store holds the core packages (std_msgs, geometry_msgs, sensor_msgs,
shape_msgs, trajectory_msgs, visualization_msgs, action_msgs' messages); MoveIt's and
control_msgs' messages, control_msgs' FollowJointTrajectory action and action_msgs'
CancelGoal service come from ``interop/python/interfaces``, and ccd_guard's own from ``msg/``
and ``srv/`` at the root.
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
from rosbags.typesys import Stores, get_typestore, get_types_from_msg
from rosbags.typesys.base import Nodetype

REPO = Path(__file__).resolve().parents[2]
INTERFACES = Path(__file__).resolve().parent / "interfaces"


def _register_dir(store, root: Path) -> None:
    types = {}
    for path in sorted(root.glob("*/msg/*.msg")):
        name = f"{path.parent.parent.name}/msg/{path.stem}"
        types.update(get_types_from_msg(path.read_text(), name))
    store.register(types)


def _register_parts(store, package: str, kind: str, stem: str, text: str, parts) -> None:
    """A service's or action's parts (``---`` between them) as ``package/kind/stem_Part``."""
    types = {}
    for part, part_text in zip(parts, text.split("\n---\n")):
        # rosbags names every parsed type pkg/msg/Name; the parts are pkg/srv/Name_Part or
        # pkg/action/Name_Part.
        (definition,) = get_types_from_msg(part_text, f"{package}/msg/{stem}_{part}").values()
        types[f"{package}/{kind}/{stem}_{part}"] = definition
    store.register(types)


def _register_action_wrappers(store, package: str, stem: str) -> None:
    """The ROS 2 action protocol's messages around an action's goal, result and feedback,
    as rosidl generates them: ``_SendGoal`` and ``_GetResult`` services and the
    ``_FeedbackMessage`` topic."""
    name = f"{package}/action/{stem}"
    uuid = ("goal_id", (Nodetype.NAME, "unique_identifier_msgs/msg/UUID"))
    store.register({
        f"{name}_SendGoal_Request": ([], [uuid, ("goal", (Nodetype.NAME, f"{name}_Goal"))]),
        f"{name}_SendGoal_Response": ([], [("accepted", (Nodetype.BASE, ("bool", 0))), ("stamp", (Nodetype.NAME, "builtin_interfaces/msg/Time"))]),
        f"{name}_GetResult_Request": ([], [uuid]),
        f"{name}_GetResult_Response": ([], [("status", (Nodetype.BASE, ("int8", 0))), ("result", (Nodetype.NAME, f"{name}_Result"))]),
        f"{name}_FeedbackMessage": ([], [uuid, ("feedback", (Nodetype.NAME, f"{name}_Feedback"))]),
    })


def typestore(stores: Stores = Stores.ROS2_JAZZY):
    """Jazzy's store (or that of ``stores``, e.g. ``Stores.ROS2_HUMBLE``) plus MoveIt's,
    control_msgs' and ccd_guard's messages, service parts and action parts."""
    store = get_typestore(stores)
    _register_dir(store, INTERFACES)
    for path in sorted(INTERFACES.glob("*/srv/*.srv")):
        _register_parts(store, path.parent.parent.name, "srv", path.stem, path.read_text(), ("Request", "Response"))
    for path in sorted(INTERFACES.glob("*/action/*.action")):
        package = path.parent.parent.name
        _register_parts(store, package, "action", path.stem, path.read_text(), ("Goal", "Result", "Feedback"))
        _register_action_wrappers(store, package, path.stem)
    types = {}
    for path in sorted((REPO / "msg").glob("*.msg")):
        types.update(get_types_from_msg(path.read_text(), f"ccd_guard/msg/{path.stem}"))
    store.register(types)
    for path in sorted((REPO / "srv").glob("*.srv")):
        _register_parts(store, "ccd_guard", "srv", path.stem, path.read_text(), ("Request", "Response"))
    return store


_NUMPY = {
    "bool": np.bool_, "byte": np.uint8, "char": np.uint8, "int8": np.int8, "uint8": np.uint8,
    "int16": np.int16, "uint16": np.uint16, "int32": np.int32, "uint32": np.uint32,
    "int64": np.int64, "uint64": np.uint64, "float32": np.float32, "float64": np.float64,
}
_LETTERS = "abcXYZ_/ 09éλ→"


def _random_base(rng: random.Random, kind: str):
    if kind == "string":
        return "".join(rng.choice(_LETTERS) for _ in range(rng.randrange(0, 9)))
    if kind == "bool":
        return rng.random() < 0.5
    if kind in ("float32", "float64"):
        value = rng.choice([0.0, 1.0, -2.5, rng.uniform(-1e3, 1e3), rng.uniform(-1e-3, 1e-3)])
        return float(np.float32(value)) if kind == "float32" else value
    if kind == "byte":
        # An octet in ROS 2 (our u8), a signed byte to rosbags: the same bits, so values
        # both read alike.
        return rng.randint(0, 127)
    info = np.iinfo(_NUMPY[kind])
    return rng.randint(int(info.min), int(info.max))


def random_message(store, type_name: str, rng: random.Random, depth: int = 0):
    """A message of ``type_name`` with random fields: sequences of 0 to 3 elements
    (none below depth 4), strings with multi-byte characters, integers over their range."""
    fields = {}
    for name, (node, details) in store.fielddefs[type_name][1]:
        fields[name] = _random_field(store, node, details, rng, depth)
    return store.types[type_name](**fields)


def _random_field(store, node, details, rng, depth):
    if node == Nodetype.BASE:
        return _random_base(rng, details[0])
    if node == Nodetype.NAME:
        return random_message(store, details, rng, depth + 1)
    (inner_node, inner), size = details
    if node == Nodetype.SEQUENCE:
        size = rng.randrange(0, min(size, 3) + 1) if size else (rng.randrange(0, 4) if depth < 4 else 0)
    values = [_random_field(store, inner_node, inner, rng, depth + 1) for _ in range(size)]
    if inner_node == Nodetype.BASE and inner[0] != "string":
        return np.array(values, dtype=_NUMPY[inner[0]])
    return values


def to_json(store, message, type_name: str):
    """The message as the JSON the probe reads: fields by name, arrays as lists."""
    out = {}
    for name, (node, details) in store.fielddefs[type_name][1]:
        out[name] = _field_json(store, getattr(message, name), node, details)
    return out


def _field_json(store, value, node, details):
    if node == Nodetype.BASE:
        return value.item() if isinstance(value, np.generic) else value
    if node == Nodetype.NAME:
        return to_json(store, value, details)
    inner_node, inner = details[0]
    if isinstance(value, np.ndarray):
        return value.tolist()
    return [_field_json(store, v, inner_node, inner) for v in value]


def normalized(store, value, type_name: str):
    """JSON of ``type_name`` with float32 fields as the float32 they denote (a float32
    printed as its shortest decimal reads back as the same float32)."""
    return {name: _normalized_field(store, value[name], node, details) for name, (node, details) in store.fielddefs[type_name][1]}


def _normalized_field(store, value, node, details):
    if node == Nodetype.BASE:
        return float(np.float32(value)) if details[0] == "float32" else value
    if node == Nodetype.NAME:
        return normalized(store, value, details)
    inner_node, inner = details[0]
    return [_normalized_field(store, v, inner_node, inner) for v in value]


def default_message(store, type_name: str, **fields):
    """A message of ``type_name`` with the given fields and every other field at its
    default (zero, false, empty string or sequence, fixed-size arrays of zeros), as a
    ROS 2 message is constructed. Base-type sequences given as lists become numpy arrays,
    as rosbags' serializer takes them."""
    values = {}
    for name, (node, details) in store.fielddefs[type_name][1]:
        if name in fields:
            values[name] = _as_field(fields.pop(name), node, details)
        else:
            values[name] = _default_field(store, node, details)
    if fields:
        raise TypeError(f"{type_name} has no field(s) {sorted(fields)}")
    return store.types[type_name](**values)


def _default_field(store, node, details):
    if node == Nodetype.BASE:
        kind = details[0]
        return "" if kind == "string" else False if kind == "bool" else 0.0 if kind.startswith("float") else 0
    if node == Nodetype.NAME:
        return default_message(store, details)
    (inner_node, inner), size = details
    count = size if node == Nodetype.ARRAY else 0
    if inner_node == Nodetype.BASE and inner[0] != "string":
        return np.zeros(count, dtype=_NUMPY[inner[0]])
    return [_default_field(store, inner_node, inner) for _ in range(count)]


def _as_field(value, node, details):
    if node in (Nodetype.SEQUENCE, Nodetype.ARRAY):
        (inner_node, inner), _ = details
        if inner_node == Nodetype.BASE and inner[0] != "string" and not isinstance(value, np.ndarray):
            return np.asarray(value, dtype=_NUMPY[inner[0]])
    return value
