"""The execution gate's surroundings on Cyclone DDS (the pip package ``cyclonedds``), written
without any of ccd_guard's code: a fake joint_trajectory_controller and a MoveIt-like
client of the gate, both speaking the ROS 2 action protocol as rmw_cyclonedds puts it on
DDS (services ``rq/<action>/_action/send_goalRequest`` and ``rr/...Reply`` with the
request header, topics ``rt/<action>/_action/feedback`` and ``status``), with the message
layouts rosbags parses from the ``.msg`` and ``.action`` files.

- The fake controller serves ``/<controller>/follow_joint_trajectory``: it accepts every
  goal, moves its joints along the trajectory (linear between points, from where they
  are) publishing ``/joint_states`` at 50 Hz and feedback, preempts a running goal for a
  new one, stops on cancel, and answers ``get_result`` when the goal ends.
- The client sends goals to ``/ccd_guard/<controller>/follow_joint_trajectory`` and waits
  for the result, as MoveIt's controller manager does.

``python gate_peer.py SCENARIO.json`` (inside a private network namespace) starts the node,
plays the scenario's steps and prints one JSON document with what happened.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cyclonedds.idl.types as t  # noqa: E402
from cyclonedds.domain import DomainParticipant  # noqa: E402
from cyclonedds.pub import DataWriter  # noqa: E402
from cyclonedds.sub import DataReader  # noqa: E402
from cyclonedds.topic import Topic  # noqa: E402

from dds_peer import IdlTypes, qos, to_dict  # noqa: E402

ACTION = "control_msgs/action/FollowJointTrajectory"
HEADER = (("client_guid", t.uint64), ("sequence_number", t.int64))
# action_msgs/GoalStatus
ACCEPTED, EXECUTING, CANCELING, SUCCEEDED, CANCELED, ABORTED = 1, 2, 3, 4, 5, 6


def seconds(duration: dict) -> float:
    return duration["sec"] + duration["nanosec"] * 1e-9


class ServiceEnd:
    """One side of a service as rmw_cyclonedds has it: a request and a reply topic whose
    samples start with the request header."""

    def __init__(self, peer, name: str, request_type: str, response_type: str, server: bool):
        self.peer, self.request_type, self.response_type = peer, request_type, response_type
        types = peer.types
        rq = Topic(peer.participant, "rq" + name + "Request", types.get(request_type, HEADER), qos=qos())
        rr = Topic(peer.participant, "rr" + name + "Reply", types.get(response_type, HEADER), qos=qos())
        if server:
            self.reader, self.writer = DataReader(peer.participant, rq, qos=qos()), DataWriter(peer.participant, rr, qos=qos())
        else:
            self.writer, self.reader = DataWriter(peer.participant, rq, qos=qos()), DataReader(peer.participant, rr, qos=qos())
        self.guid = uuid.uuid4().int & 0xFFFF_FFFF_FFFF_FFFF
        self.sequence = 0
        self.lock = threading.Lock()

    def matched(self) -> bool:
        return bool(self.writer.get_matched_subscriptions()) and bool(self.reader.get_matched_publications())

    # client side
    def request(self, value: dict) -> int:
        with self.lock:
            self.sequence += 1
            sequence = self.sequence
            self.writer.write(self.peer.types.make(self.request_type, value, (HEADER, {"client_guid": self.guid, "sequence_number": sequence})))
        return sequence

    def replies(self) -> list:
        return [(s.sequence_number, to_dict(s)) for s in self.reader.take(N=100) if s.client_guid == self.guid]

    # server side
    def requests(self) -> list:
        return [((s.client_guid, s.sequence_number), to_dict(s)) for s in self.reader.take(N=100)]

    def reply(self, header, value: dict):
        self.writer.write(self.peer.types.make(self.response_type, value, (HEADER, {"client_guid": header[0], "sequence_number": header[1]})))


class Peer:
    def __init__(self):
        self.types = IdlTypes()
        self.participant = DomainParticipant(int(os.environ.get("ROS_DOMAIN_ID", "0")))

    def topic_writer(self, topic: str, type_name: str, transient_local=False):
        dds_topic = Topic(self.participant, "rt" + topic, self.types.get(type_name), qos=qos(1 if transient_local else 10, transient_local))
        return DataWriter(self.participant, dds_topic, qos=qos(1 if transient_local else 10, transient_local))

    def topic_reader(self, topic: str, type_name: str, transient_local=False):
        dds_topic = Topic(self.participant, "rt" + topic, self.types.get(type_name), qos=qos(1 if transient_local else 100, transient_local))
        return DataReader(self.participant, dds_topic, qos=qos(1 if transient_local else 100, transient_local))


def action_ends(peer, action: str, server: bool):
    base = action + "/_action/"
    return {
        "send_goal": ServiceEnd(peer, base + "send_goal", ACTION + "_SendGoal_Request", ACTION + "_SendGoal_Response", server),
        "get_result": ServiceEnd(peer, base + "get_result", ACTION + "_GetResult_Request", ACTION + "_GetResult_Response", server),
        "cancel_goal": ServiceEnd(peer, base + "cancel_goal", "action_msgs/srv/CancelGoal_Request", "action_msgs/srv/CancelGoal_Response", server),
    }


class FakeController(threading.Thread):
    """A joint_trajectory_controller stand-in: see the module's text."""

    def __init__(self, peer, name: str, joints: list[str], start: list[float]):
        super().__init__(daemon=True)
        self.peer, self.joints, self.position = peer, joints, list(start)
        self.ends = action_ends(peer, f"/{name}/follow_joint_trajectory", server=True)
        self.feedback = peer.topic_writer(f"/{name}/follow_joint_trajectory/_action/feedback", ACTION + "_FeedbackMessage")
        self.status = peer.topic_writer(f"/{name}/follow_joint_trajectory/_action/status", "action_msgs/msg/GoalStatusArray", transient_local=True)
        self.joint_states = peer.topic_writer("/joint_states", "sensor_msgs/msg/JointState")
        self.goals = []     # (goal id, goal, time received)
        self.cancels = []   # (goal id, time received)
        self.active = None  # {"id", "goal", "start", "from"}
        self.results = {}   # goal id -> (status, error_code, error_string)
        self.waiting = {}   # goal id -> [request headers]
        self.stop_flag = False
        self.lock = threading.Lock()

    def run(self):
        last_state = 0.0
        while not self.stop_flag:
            now = time.monotonic()
            with self.lock:
                self._serve(now)
                self._move(now)
                if now - last_state >= 0.02:
                    last_state = now
                    self._publish_joint_states()
            time.sleep(0.002)

    def _serve(self, now):
        for header, request in self.ends["send_goal"].requests():
            goal_id = bytes(request["goal_id"]["uuid"]).hex()
            self.goals.append((goal_id, request["goal"], now))
            if self.active is not None:  # a new goal preempts the running one
                self._end(CANCELED, 0, "preempted by a new goal")
            self.active = {"id": goal_id, "uuid": request["goal_id"], "goal": request["goal"], "start": now, "from": list(self.position)}
            self.ends["send_goal"].reply(header, {"accepted": True, "stamp": {"sec": int(time.time()), "nanosec": 0}})
            self._publish_status(EXECUTING)
        for header, request in self.ends["cancel_goal"].requests():
            goal_id = bytes(request["goal_info"]["goal_id"]["uuid"]).hex()
            self.cancels.append((goal_id, now))
            canceling = []
            if self.active is not None and goal_id in (self.active["id"], "0" * 32):
                canceling = [{"goal_id": self.active["uuid"], "stamp": {"sec": 0, "nanosec": 0}}]
                self._end(CANCELED, 0, "cancelled")
            self.ends["cancel_goal"].reply(header, {"return_code": 0 if canceling else 2, "goals_canceling": canceling})
        for header, request in self.ends["get_result"].requests():
            goal_id = bytes(request["goal_id"]["uuid"]).hex()
            if goal_id in self.results:
                self._answer(header, goal_id)
            else:
                self.waiting.setdefault(goal_id, []).append(header)

    def _answer(self, header, goal_id):
        status, code, text = self.results[goal_id]
        self.ends["get_result"].reply(header, {"status": status, "result": {"error_code": code, "error_string": text}})

    def _publish_joint_states(self):
        self.joint_states.write(self.peer.types.make("sensor_msgs/msg/JointState", {"name": self.joints, "position": list(self.position)}))

    def _end(self, status, code, text):
        # Where the motion ended first, as a controller's state broadcaster has it by then.
        self._publish_joint_states()
        time.sleep(0.01)
        goal_id = self.active["id"]
        self.results[goal_id] = (status, code, text)
        for header in self.waiting.pop(goal_id, []):
            self._answer(header, goal_id)
        self._publish_status(status)
        self.active = None

    def _publish_status(self, status):
        if self.active is None:
            return
        info = {"goal_id": self.active["uuid"], "stamp": {"sec": 0, "nanosec": 0}}
        self.status.write(self.peer.types.make("action_msgs/msg/GoalStatusArray", {"status_list": [{"goal_info": info, "status": status}]}))

    def _move(self, now):
        if self.active is None:
            return
        trajectory = self.active["goal"]["trajectory"]
        names, points = trajectory["joint_names"], trajectory["points"]
        elapsed = now - self.active["start"]
        times = [seconds(p["time_from_start"]) for p in points]
        columns = [self.joints.index(n) for n in names]
        start = [self.active["from"][c] for c in columns]
        previous_time, previous = 0.0, start
        target = points[-1]["positions"]
        for time_k, point in zip(times, points):
            if elapsed <= time_k:
                span = max(time_k - previous_time, 1e-9)
                share = min(max((elapsed - previous_time) / span, 0.0), 1.0)
                target = [a + share * (b - a) for a, b in zip(previous, point["positions"])]
                break
            previous_time, previous = time_k, point["positions"]
        for c, value in zip(columns, target):
            self.position[c] = value
        feedback = {"joint_names": names, "desired": {"positions": target}, "actual": {"positions": target}, "error": {"positions": [0.0] * len(names)}}
        self.feedback.write(self.peer.types.make(ACTION + "_FeedbackMessage", {"goal_id": self.active["uuid"], "feedback": feedback}))
        if elapsed > times[-1]:
            self._end(SUCCEEDED, 0, "")


class GateClient:
    """MoveIt's side: goals to the gate, and their results."""

    def __init__(self, peer, action: str):
        self.peer = peer
        self.ends = action_ends(peer, action, server=False)
        self.feedback = peer.topic_reader(action + "/_action/feedback", ACTION + "_FeedbackMessage")
        self.status = peer.topic_reader(action + "/_action/status", "action_msgs/msg/GoalStatusArray", transient_local=True)
        self.replies = {name: {} for name in self.ends}
        self.feedback_count = {}

    def ready(self, timeout=30.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(end.matched() for end in self.ends.values()):
                return True
            time.sleep(0.05)
        return False

    def _wait(self, name: str, sequence: int, timeout: float):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for seq, reply in self.ends[name].replies():
                self.replies[name][seq] = reply
            if sequence in self.replies[name]:
                return self.replies[name].pop(sequence)
            self._drain_feedback()
            time.sleep(0.002)
        raise RuntimeError(f"no {name} reply within {timeout} s")

    def _drain_feedback(self):
        for sample in self.feedback.take(N=100):
            goal_id = bytes(to_dict(sample)["goal_id"]["uuid"]).hex()
            self.feedback_count[goal_id] = self.feedback_count.get(goal_id, 0) + 1

    def send_goal(self, goal: dict, goal_uuid: bytes | None = None):
        """Sends a goal; returns (goal id, accepted, seconds to the answer)."""
        goal_uuid = goal_uuid or uuid.uuid4().bytes
        started = time.monotonic()
        sequence = self.ends["send_goal"].request({"goal_id": {"uuid": list(goal_uuid)}, "goal": goal})
        reply = self._wait("send_goal", sequence, 30.0)
        return goal_uuid.hex(), reply["accepted"], time.monotonic() - started

    def send_goals(self, goals: list) -> list:
        """Sends goals in a burst (every request written before any answer is awaited);
        returns their ids, in order."""
        ids = [uuid.uuid4().bytes for _ in goals]
        sequences = [self.ends["send_goal"].request({"goal_id": {"uuid": list(i)}, "goal": g}) for i, g in zip(ids, goals)]
        for sequence in sequences:
            self._wait("send_goal", sequence, 30.0)
        return [i.hex() for i in ids]

    def result(self, goal_id: str, timeout=60.0) -> dict:
        sequence = self.ends["get_result"].request({"goal_id": {"uuid": list(bytes.fromhex(goal_id))}})
        reply = self._wait("get_result", sequence, timeout)
        self._drain_feedback()
        return {"status": reply["status"], "error_code": reply["result"]["error_code"], "error_string": reply["result"]["error_string"], "feedback": self.feedback_count.get(goal_id, 0)}

    def cancel(self, goal_id: str) -> dict:
        sequence = self.ends["cancel_goal"].request({"goal_info": {"goal_id": {"uuid": list(bytes.fromhex(goal_id))}}})
        return self._wait("cancel_goal", sequence, 30.0)


def main():
    scenario = json.loads(Path(sys.argv[1]).read_text())
    env = dict(os.environ, RUST_LOG="info,rustdds=error,ros2_client=error")
    log = open(scenario["node_log"], "w")
    node = subprocess.Popen(scenario["node_command"], stdout=log, stderr=subprocess.STDOUT, env=env)
    results = {"steps": []}
    controller = None
    try:
        peer = Peer()
        controller = FakeController(peer, scenario["controller"], scenario["joints"], scenario["start"])
        controller.start()
        clients = {c: GateClient(peer, f"/ccd_guard/{c}/follow_joint_trajectory") for c in scenario["gated"]}
        collision_object = peer.topic_writer("/collision_object", "moveit_msgs/msg/CollisionObject")
        if not all(c.ready() for c in clients.values()):
            raise RuntimeError("the gate's actions did not match")
        # The gate's own client must have found the controller, and the node its joint states.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(end.matched() for end in controller.ends.values()):
            time.sleep(0.05)
        time.sleep(0.5)
        for step in scenario["steps"]:
            kind, out = step["kind"], {"name": step.get("name", step["kind"])}
            client = clients[step.get("controller", scenario["controller"])]
            if kind == "goal":
                goal = step["goal"]
                if step.get("from_current", True) and goal["trajectory"]["points"]:
                    # As MoveIt plans: the first point is where the robot is (give or take
                    # the step's start_offset).
                    with controller.lock:
                        position = list(controller.position)
                    names = goal["trajectory"]["joint_names"]
                    if all(n in scenario["joints"] for n in names):
                        offset = step.get("start_offset", 0.0)
                        goal["trajectory"]["points"][0]["positions"] = [position[scenario["joints"].index(n)] + offset for n in names]
                goal_id, accepted, answer_s = client.send_goal(goal)
                out.update(goal_id=goal_id, accepted=accepted, answer_s=answer_s)
                out["sent"] = time.monotonic() - answer_s
                if step.get("cancel_after") is not None:
                    time.sleep(step["cancel_after"])
                    out["cancel"] = client.cancel(goal_id)
                if step.get("obstacle_after") is not None:
                    time.sleep(step["obstacle_after"])
                    out["obstacle_sent"] = time.monotonic()
                    collision_object.write(peer.types.make("moveit_msgs/msg/CollisionObject", step["obstacle"]))
                if step.get("wait_result", True):
                    out["result"] = client.result(goal_id, step.get("timeout", 60.0))
                out["finished"] = time.monotonic()
            elif kind == "flood":
                ids = client.send_goals(step["goals"])
                out["results"] = [client.result(i, 120.0) for i in ids]
            elif kind == "raw_goal":
                # A goal whose bytes are not a FollowJointTrajectory goal: a String's layout
                # under the goal request's type name.
                cls = peer.types.get("std_msgs/msg/String", HEADER, peer.types.dds_name(ACTION + "_SendGoal_Request"))
                topic = Topic(peer.participant, f"rq/ccd_guard/{scenario['controller']}/follow_joint_trajectory/_action/send_goalRequest", cls, qos=qos())
                writer = DataWriter(peer.participant, topic, qos=qos())
                time.sleep(0.5)
                writer.write(cls(client_guid=1, sequence_number=1, data="not a goal"))
                time.sleep(0.5)
            elif kind == "scene":
                collision_object.write(peer.types.make("moveit_msgs/msg/CollisionObject", step["object"]))
            elif kind == "sleep":
                time.sleep(step["seconds"])
            else:
                raise ValueError(kind)
            with controller.lock:
                out["controller_goals"] = [(g, n["trajectory"]["points"] and len(n["trajectory"]["points"]), at) for g, n, at in controller.goals]
                out["controller_cancels"] = list(controller.cancels)
                out["position"] = list(controller.position)
            results["steps"].append(out)
        results["node_alive"] = node.poll() is None
    except Exception as exc:  # reported to the test, with the node's log
        import traceback

        results["error"] = f"{exc!r}\n{traceback.format_exc()}"
    finally:
        if controller is not None:
            controller.stop_flag = True
        node.terminate()
        try:
            node.wait(10)
        except subprocess.TimeoutExpired:
            node.kill()
        log.close()
    print(json.dumps(results, default=lambda v: v.hex() if isinstance(v, bytes) else float(v)))


if __name__ == "__main__":
    main()
