"""A ROS 2 peer on Cyclone DDS (the pip package ``cyclonedds``), written without any of
ccd_guard's code: its message types are built from the ``.msg`` definitions as rosbags
parses them (plain final structs, XCDR1), its topic and type names follow the ROS 2 DDS
conventions (``rt/...``, ``pkg::msg::dds_::Name_``, services as ``rq/...Request`` and
``rr/...Reply`` with rmw_cyclonedds's request header).

It is run inside a private network namespace (``unshare -n``) by the interop tests:
``python dds_peer.py SCENARIO.json`` starts the node with the scenario's arguments, plays
the scenario's steps, and prints one JSON document with what it received.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import types
from dataclasses import dataclass, fields as dataclass_fields
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cyclonedds.idl.types as t  # noqa: E402
from cyclonedds.core import Policy, Qos  # noqa: E402
from cyclonedds.domain import DomainParticipant  # noqa: E402
from cyclonedds.idl import IdlStruct  # noqa: E402
from cyclonedds.pub import DataWriter  # noqa: E402
from cyclonedds.sub import DataReader  # noqa: E402
from cyclonedds.topic import Topic  # noqa: E402
from cyclonedds.util import duration as dds_duration  # noqa: E402
from rosbags.typesys.base import Nodetype  # noqa: E402

from ros_interfaces import typestore  # noqa: E402

_BASE = {
    "bool": bool, "byte": t.uint8, "char": t.uint8, "int8": t.int8, "uint8": t.uint8,
    "int16": t.int16, "uint16": t.uint16, "int32": t.int32, "uint32": t.uint32,
    "int64": t.int64, "uint64": t.uint64, "float32": t.float32, "float64": t.float64, "string": str,
}


class IdlTypes:
    """Cyclone DDS classes for ROS message types, made from rosbags' field definitions."""

    def __init__(self):
        self.store = typestore()
        self.classes = {}

    def dds_name(self, type_name: str) -> str:
        package, kind, name = type_name.split("/")
        return f"{package}::{kind}::dds_::{name}_"

    def get(self, type_name: str, prefix_fields=(), dds_name: str | None = None):
        key = (type_name, tuple(prefix_fields), dds_name)
        if key not in self.classes:
            annotations = {name: kind for name, kind in prefix_fields}
            for name, (node, details) in self.store.fielddefs[type_name][1]:
                annotations[name] = self._field(node, details)
            typename = dds_name or self.dds_name(type_name)
            cls = types.new_class(
                typename.replace("::", "_"),
                (IdlStruct,),
                {"typename": typename},
                lambda ns: ns.update({"__annotations__": annotations}),
            )
            self.classes[key] = dataclass(cls)
        return self.classes[key]

    def _field(self, node, details):
        if node == Nodetype.BASE:
            return _BASE[details[0]]
        if node == Nodetype.NAME:
            return self.get(details)
        (inner_node, inner), size = details
        inner_type = self._field(inner_node, inner)
        if node == Nodetype.ARRAY:
            return t.array[inner_type, size]
        return t.sequence[inner_type, size] if size else t.sequence[inner_type]

    def make(self, type_name: str, value: dict, prefix=None):
        """A message from a dict (missing fields get their defaults)."""
        cls = self.get(type_name, prefix[0] if prefix else ())
        kwargs = dict(prefix[1]) if prefix else {}
        for name, (node, details) in self.store.fielddefs[type_name][1]:
            kwargs[name] = self._value(node, details, value.get(name))
        return cls(**kwargs)

    def _value(self, node, details, value):
        if node == Nodetype.BASE:
            default = {"string": "", "bool": False, "float32": 0.0, "float64": 0.0}.get(details[0], 0)
            return default if value is None else value
        if node == Nodetype.NAME:
            if details == "geometry_msgs/msg/Quaternion" and value is None:
                value = {"w": 1.0}
            return self.make(details, value or {})
        (inner_node, inner), size = details
        if node == Nodetype.ARRAY:
            value = value if value is not None else [None] * size
        return [self._value(inner_node, inner, v) for v in (value or [])]


def to_dict(message):
    if hasattr(message, "__dataclass_fields__"):
        return {f.name: to_dict(getattr(message, f.name)) for f in dataclass_fields(message)}
    if isinstance(message, (list, tuple)):
        return [to_dict(v) for v in message]
    return message


def dds_topic_name(topic: str) -> str:
    """A ROS topic's DDS name: ``rt`` and the name; ``ros_discovery_info`` is as it is."""
    return topic.lstrip("/") if topic == "/ros_discovery_info" else "rt" + topic


def qos(depth=10, transient_local=False):
    policies = [
        Policy.Reliability.Reliable(max_blocking_time=dds_duration(seconds=1)),
        Policy.History.KeepLast(depth),
        Policy.DataRepresentation(use_cdrv0_representation=True),
    ]
    policies.append(Policy.Durability.TransientLocal if transient_local else Policy.Durability.Volatile)
    return Qos(*policies)


class Peer:
    def __init__(self, node_ns: str = "/ccd_guard"):
        self.types = IdlTypes()
        self.participant = DomainParticipant(int(os.environ.get("ROS_DOMAIN_ID", "0")))
        self.node_ns = node_ns
        self.writers = {}
        self.readers = {}
        self.service = None

    def writer(self, topic: str, type_name: str, transient_local=False):
        if topic not in self.writers:
            cls = self.types.get(type_name)
            dds_topic = Topic(self.participant, dds_topic_name(topic), cls, qos=qos(1 if transient_local else 10, transient_local))
            self.writers[topic] = DataWriter(self.participant, dds_topic, qos=qos(1 if transient_local else 10, transient_local))
        return self.writers[topic]

    def reader(self, topic: str, type_name: str, transient_local=False, depth=100):
        if topic not in self.readers:
            cls = self.types.get(type_name)
            dds_topic = Topic(self.participant, dds_topic_name(topic), cls, qos=qos(depth, transient_local))
            self.readers[topic] = DataReader(self.participant, dds_topic, qos=qos(depth, transient_local))
        return self.readers[topic]

    def wait_matched(self, writer, timeout=20.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if writer.get_matched_subscriptions():
                return True
            time.sleep(0.05)
        return False

    def publish(self, topic, type_name, value, transient_local=False):
        writer = self.writer(topic, type_name, transient_local)
        if not self.wait_matched(writer):
            raise RuntimeError(f"no subscriber matched {topic}")
        writer.write(self.types.make(type_name, value))

    def take(self, topic, type_name, count=1, timeout=30.0, transient_local=False):
        reader = self.reader(topic, type_name, transient_local)
        out = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            out.extend(to_dict(s) for s in reader.take(N=100))
            time.sleep(0.01)
        return out

    # The CheckTrajectory service as rmw_cyclonedds calls it: a request header
    # (the client's id and a sequence number) before the request's fields.
    def call(self, request: dict, timeout=60.0):
        header = (("client_guid", t.uint64), ("sequence_number", t.int64))
        if self.service is None:
            req_cls = self.types.get("ccd_guard/srv/CheckTrajectory_Request", header)
            rep_cls = self.types.get("ccd_guard/srv/CheckTrajectory_Response", header)
            name = self.node_ns + "/check_trajectory"
            rq = Topic(self.participant, "rq" + name + "Request", req_cls, qos=qos())
            rr = Topic(self.participant, "rr" + name + "Reply", rep_cls, qos=qos())
            self.service = (DataWriter(self.participant, rq, qos=qos()), DataReader(self.participant, rr, qos=qos()), [0])
        writer, reader, counter = self.service
        if not self.wait_matched(writer):
            raise RuntimeError("the service's request reader did not match")
        # Let the reply writer match our reader too.
        deadline = time.monotonic() + 20
        while not reader.get_matched_publications() and time.monotonic() < deadline:
            time.sleep(0.05)
        counter[0] += 1
        guid = 0x1234_5678_9ABC_DEF0
        writer.write(self.types.make("ccd_guard/srv/CheckTrajectory_Request", request, (header, {"client_guid": guid, "sequence_number": counter[0]})))
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for sample in reader.take(N=10):
                if sample.client_guid == guid and sample.sequence_number == counter[0]:
                    return to_dict(sample)["verdict"]
            time.sleep(0.01)
        raise RuntimeError("no reply from check_trajectory")


def main():
    scenario = json.loads(Path(sys.argv[1]).read_text())
    env = dict(os.environ, RUST_LOG="info,rustdds=error,ros2_client=error")
    log = open(scenario["node_log"], "w")
    node = subprocess.Popen(scenario["node_command"], stdout=log, stderr=subprocess.STDOUT, env=env)
    results = {}
    try:
        peer = Peer(scenario.get("node_fqn", "/ccd_guard"))
        for step in scenario["steps"]:
            kind = step["kind"]
            if kind == "publish":
                if step.get("delay"):
                    time.sleep(step["delay"])
                peer.publish(step["topic"], step["type"], step["message"], step.get("transient_local", False))
            elif kind == "publish_many":
                writer = peer.writer(step["topic"], step["type"])
                if not peer.wait_matched(writer):
                    raise RuntimeError(f"no subscriber matched {step['topic']}")
                for message in step["messages"]:
                    writer.write(peer.types.make(step["type"], message))
            elif kind == "publish_raw":
                # A struct with the topic's type name and a layout of our choosing: bytes
                # the node must refuse as malformed.
                cls = peer.types.get("std_msgs/msg/String", (), peer.types.dds_name(step["type"]))
                topic = Topic(peer.participant, "rt" + step["topic"], cls, qos=qos())
                writer = DataWriter(peer.participant, topic, qos=qos())
                peer.wait_matched(writer)
                writer.write(cls(data=step["data"]))
            elif kind == "take":
                results[step["name"]] = peer.take(step["topic"], step["type"], step.get("count", 1), step.get("timeout", 30.0), step.get("transient_local", False))
            elif kind == "subscribe":
                peer.reader(step["topic"], step["type"], step.get("transient_local", False))
            elif kind == "call":
                results[step["name"]] = peer.call(step["request"])
            elif kind == "expect_no_match":
                # The node must stay invisible: no reader of its matches within the time.
                writer = peer.writer(step["topic"], step["type"])
                results[step["name"]] = peer.wait_matched(writer, timeout=step["seconds"])
            elif kind == "sleep":
                time.sleep(step["seconds"])
            else:
                raise ValueError(kind)
        results["node_alive"] = node.poll() is None
    except Exception as exc:  # reported to the test, with the node's log
        import traceback

        results["error"] = f"{exc!r}\n{traceback.format_exc()}"
    finally:
        node.terminate()
        try:
            node.wait(10)
        except subprocess.TimeoutExpired:
            node.kill()
        log.close()
    print(json.dumps(results, default=lambda v: v.hex() if isinstance(v, bytes) else float(v)))


if __name__ == "__main__":
    main()
