"""`ccd_guard audit` on rosbag2 bags written by software we did not write, against
`ccd_guard check` on the same plans and worlds (interface spec: "Recorded plans (`audit`)").

Bags (``bag_writers.py``): rosbags' rosbag2 Writer with MCAP and SQLite3 storage and the
Humble and Jazzy type stores (MoveIt's messages from ``interfaces/``), and the ``mcap``
package's own writer (one ``.mcap`` file, ``ros2msg`` schemas, CDR from rosbags). The main
scenario records plans on three topics (DisplayTrajectory with ``trajectory_start``,
JointTrajectory) while the world changes: CollisionObject ADD / MOVE / REMOVE (one id, and
all), PlanningScene diffs (an object added, a scene-file object removed, an octomap written
by octomap's own library) and full PlanningScenes, /joint_states giving the joints a plan
leaves out, and a DisplayTrajectory in two parts. Its plans are free, colliding and
uncertain (closer than the tolerance). Other bags: several bags at once, a truncated bag,
plans and scenes whose CDR does not decode, another robot's plans, exit statuses.

The expected verdict of each plan is `ccd_guard check` on the world replayed here in Python
from what the test wrote (a full PlanningScene echo), the plan's echo and the start state;
that the replay means what the scenario says is checked on its own first
(``test_scenario_as_check_sees_it``).
"""
from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import pytest
from rosbags.typesys import Stores, get_types_from_msg

import bag_writers as bw
from conftest import REPO_ROOT
from ros_interfaces import typestore

TIMEOUT_S = 120
TOC_TOLERANCE = 1e-9

# name -> (writer, storage or compression, type store, rosbag2 format version)
FLAVORS = {
    "rosbags-mcap-humble": ("rosbag2", "mcap", Stores.ROS2_HUMBLE, 8),
    "rosbags-mcap-jazzy": ("rosbag2", "mcap", Stores.ROS2_JAZZY, 9),
    "rosbags-db3-humble": ("rosbag2", "sqlite3", Stores.ROS2_HUMBLE, 8),
    "rosbags-db3-jazzy": ("rosbag2", "sqlite3", Stores.ROS2_JAZZY, 9),
    "mcap-writer-jazzy": ("mcap", "zstd", Stores.ROS2_JAZZY, None),
}

REPORT_KEYS = {"topic", "stamp", "index", "report"}
SUMMARY_KEYS = {"plans", "collision_free", "collision", "uncertain", "invalid", "elapsed_ms"}
VERDICTS = ("collision_free", "collision", "uncertain", "invalid")


# ----------------------------------------------------------------------------- fixtures and helpers


@pytest.fixture(scope="module")
def stores():
    return {s: typestore(s) for s in (Stores.ROS2_HUMBLE, Stores.ROS2_JAZZY)}


@pytest.fixture(scope="module")
def ccd_guard(node_binary: Path) -> Path:
    """The release binary, with `audit` (fails with how to get it otherwise)."""
    out = subprocess.run([str(node_binary), "audit", "--help"], capture_output=True, text=True, timeout=60)
    if out.returncode != 0:
        pytest.fail(f"{node_binary} has no `audit` command (exit {out.returncode}): rebuild with `cargo build --release`\n{out.stderr[-1000:]}", pytrace=False)
    return node_binary


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("audit")


def write_bag(kind: tuple, path: Path, events, store) -> Path:
    writer, storage, _, version = kind
    if writer == "rosbag2":
        return bw.write_rosbag2(path, events, store, storage=storage, version=version)
    return bw.write_mcap(path.with_suffix(".mcap"), events, store, compression=storage)


@pytest.fixture(scope="module")
def main_bags(workdir, stores):
    """flavor -> (bag path, events, store): the main scenario in every flavor."""
    out = {}
    for name, kind in FLAVORS.items():
        store = stores[kind[2]]
        events = bw.main_scenario(store)
        out[name] = (write_bag(kind, workdir / f"main_{name}", events, store), events, store)
    return out


class Checker:
    """`ccd_guard check` on files, once per distinct input."""

    def __init__(self, binary: Path):
        self.binary = binary
        self.cache: dict = {}

    def __call__(self, files: dict[str, Path], options: tuple[str, ...] = ()) -> tuple[dict, int]:
        key = tuple(sorted((k, p.read_text()) for k, p in files.items())) + (options,)
        if key not in self.cache:
            cmd = [str(self.binary), "check", "--urdf", str(bw.URDF), "--srdf", str(bw.SRDF), "--format", "json", *options]
            for flag in ("scene", "trajectory", "start_state"):
                if flag in files:
                    cmd += [f"--{flag.replace('_', '-')}", str(files[flag])]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S)
            assert out.stdout.strip(), f"check printed no report (exit {out.returncode}): {' '.join(cmd)}\n{out.stderr[-2000:]}"
            self.cache[key] = (json.loads(out.stdout), out.returncode)
        return self.cache[key]


@pytest.fixture(scope="module")
def check(node_binary) -> Checker:
    return Checker(node_binary)


def expected_reports(check: Checker, events, store, directory: Path, options: tuple[str, ...] = ()) -> list[dict | None]:
    """`check`'s report of every plan (None for a plan that does not decode)."""
    inputs = bw.expected_inputs(events, store, directory)
    return [None if files is None else check(files, options)[0] for files in inputs]


class Audit:
    """One `ccd_guard audit` run: exit status, stderr, the plan lines and the summary."""

    def __init__(self, binary: Path, bags, *args: str, scene: Path | None = bw.SCENE, fmt: str = "json"):
        self.cmd = [str(binary), "audit", *[str(b) for b in bags], "--urdf", str(bw.URDF), "--srdf", str(bw.SRDF), "--format", fmt, *args]
        if scene is not None:
            self.cmd += ["--scene", str(scene)]
        out = subprocess.run(self.cmd, capture_output=True, text=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
        self.returncode, self.stdout, self.stderr = out.returncode, out.stdout, out.stderr
        self.lines: list[dict] = []
        self.summary: dict | None = None
        if fmt != "json":
            return
        rows = [json.loads(line) for line in out.stdout.splitlines() if line.strip()]
        for k, row in enumerate(rows):
            if "summary" in row:
                assert k == len(rows) - 1, f"{self.where()}: the summary is not the last line"
                assert set(row) == {"summary"}, f"{self.where()}: summary line {row}"
                self.summary = row["summary"]
            else:
                # (exactly these keys: test_json_line_keys)
                assert REPORT_KEYS <= set(row), f"{self.where()}: line {k} has keys {sorted(row)}, want {sorted(REPORT_KEYS)}"
                self.lines.append(row)

    def where(self) -> str:
        return f"`{' '.join(self.cmd)}` (exit {self.returncode}; stderr: {self.stderr.strip()[-1500:]!r})"


def toc_close(a, b) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= TOC_TOLERANCE


def first_pair(report: dict):
    contacts = report.get("contacts") or []
    return (contacts[0]["link"], contacts[0]["other"]) if contacts else None


def close(a, b, tol: float = TOC_TOLERANCE) -> bool:
    """Numbers (or lists of them, or None) equal within ``tol``."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(close(x, y, tol) for x, y in zip(a, b))
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= tol


def report_differences(got: dict, want: dict) -> list[str]:
    """How `audit`'s report of a plan differs from `check`'s: verdict, certified, method,
    segment, time of contact (1e-9 s) and the first contact pair; then every contact
    event (pair, times, point, normal, depth within 1e-9) and the largest depth."""
    out = []
    for key in ("verdict", "certified", "method", "segment_index"):
        if got.get(key) != want.get(key):
            out.append(f"{key}: audit {got.get(key)!r}, check {want.get(key)!r}")
    if not toc_close(got.get("time_of_contact"), want.get("time_of_contact")):
        out.append(f"time_of_contact: audit {got.get('time_of_contact')!r}, check {want.get('time_of_contact')!r}")
    if first_pair(got) != first_pair(want):
        out.append(f"first contact: audit {first_pair(got)}, check {first_pair(want)}")
    if want["verdict"] == "invalid" and not got.get("error"):
        out.append(f"no error for an invalid plan (check: {want.get('error')!r})")
    if out:
        return out
    got_contacts, want_contacts = got.get("contacts") or [], want.get("contacts") or []
    if [(c["link"], c["other"]) for c in got_contacts] != [(c["link"], c["other"]) for c in want_contacts]:
        out.append(f"contact pairs: audit {[(c['link'], c['other']) for c in got_contacts]}, check {[(c['link'], c['other']) for c in want_contacts]}")
    else:
        for k, (a, b) in enumerate(zip(got_contacts, want_contacts)):
            for key in ("time_of_contact", "time_of_separation", "point", "normal", "max_penetration_depth"):
                if not close(a.get(key), b.get(key)):
                    out.append(f"contact {k} {key}: audit {a.get(key)!r}, check {b.get(key)!r}")
    if not close(got.get("max_penetration_depth"), want.get("max_penetration_depth")):
        out.append(f"max_penetration_depth: audit {got.get('max_penetration_depth')!r}, check {want.get('max_penetration_depth')!r}")
    return out


def summary_of(lines: list[dict]) -> dict:
    counts = {v: 0 for v in VERDICTS}
    for line in lines:
        counts[line["report"]["verdict"]] += 1
    return {"plans": len(lines), **counts}


def expected_status(verdicts) -> int:
    """The exit status the spec gives plans of these verdicts (no --min-clearance)."""
    if "collision" in verdicts:
        return 1
    if "uncertain" in verdicts:
        return 3
    return 0


def assert_summary(audit: Audit, lines: list[dict] | None = None):
    lines = audit.lines if lines is None else lines
    assert audit.summary is not None, f"{audit.where()}: no summary line"
    assert set(audit.summary) == SUMMARY_KEYS, f"{audit.where()}: summary keys {sorted(audit.summary)}"
    got = {k: audit.summary[k] for k in SUMMARY_KEYS - {"elapsed_ms"}}
    assert got == summary_of(lines), f"{audit.where()}: summary {audit.summary}, lines say {summary_of(lines)}"
    assert isinstance(audit.summary["elapsed_ms"], (int, float)) and audit.summary["elapsed_ms"] >= 0


def plan_stamp(event) -> tuple[int, int]:
    """header.stamp of the plan's (first) JointTrajectory."""
    jt = event.message if event.msgtype == bw.JOINT_TRAJECTORY else event.message.trajectory[0].joint_trajectory
    return jt.header.stamp.sec, jt.header.stamp.nanosec


# ----------------------------------------------------------------------------- the scenario itself


def test_bags_read_back(main_bags):
    """The bags hold what the test wrote: rosbags' reader (rosbag2 folders) and the mcap
    package's reader give every message back, in time order, with its receive time."""
    from mcap.reader import make_reader
    from rosbags.rosbag2 import Reader

    for name, (path, events, store) in main_bags.items():
        want = [(e.stamp, e.topic, bytes(e.cdr(store))) for e in events]
        if path.is_dir():
            with Reader(path) as reader:
                got = [(t, c.topic, bytes(raw)) for c, t, raw in reader.messages()]
                types = {c.topic: c.msgtype for c in reader.connections}
        else:
            with open(path, "rb") as stream:
                reader = make_reader(stream)
                assert reader.get_header().profile == "ros2"
                got, types = [], {}
                for schema, channel, message in reader.iter_messages(log_time_order=True):
                    assert schema.encoding == "ros2msg" and channel.message_encoding == "cdr"
                    got.append((message.log_time, channel.topic, bytes(message.data)))
                    types[channel.topic] = schema.name
        assert got == want, name
        assert types["/display_planned_path"] == bw.DISPLAY_TRAJECTORY and types["/arm/plan"] == bw.JOINT_TRAJECTORY, name
        stamps = [e.stamp for e in events]
        assert stamps == sorted(stamps) and len(set(stamps)) == len(stamps)


def test_scenario_as_check_sees_it(check, main_bags, workdir):
    """`check` on the replayed worlds gives each plan the verdict the scenario means, so the
    comparisons below cover free, colliding and uncertain plans, start states from
    /joint_states and trajectory_start, every kind of scene change and the octomap."""
    _, events, store = main_bags["rosbags-mcap-jazzy"]
    reports = expected_reports(check, events, store, workdir / "scenario")
    got = [(p.topic, r["verdict"], first_pair(r)) for p, r in zip(bw.plans(events), reports)]
    want_verdicts = [p.expect for p in bw.plans(events)]
    assert [g[1] for g in got] == want_verdicts, got
    others = [g[2][1] for g in got if g[2]]
    # the crate (ADD, then after a MOVE away nothing), the start states (bottle from
    # /joint_states, box from trajectory_start), the octomap, the thin board, the box
    # back with a full scene (a plan in two parts)
    assert others == ["box", "shelf_board", "crate", "bottle", "box", "<octomap>", "shelf_board", "crate", "box"], got
    # the two parts are the motion of traj_collide.yaml: its first contact
    assert reports[-1]["time_of_contact"] == reports[1]["time_of_contact"]
    assert {"collision_free", "collision", "uncertain"} <= set(want_verdicts)


# ----------------------------------------------------------------------------- verdicts against check


@pytest.mark.parametrize("flavor", list(FLAVORS))
def test_plans_match_check(ccd_guard, check, main_bags, workdir, flavor):
    """Every plan of the bag, in bag order, with its topic, receive time and index; its
    report as `check`'s on the same plan, world and start state; the summary; the exit
    status (1: there are collisions)."""
    path, events, store = main_bags[flavor]
    plans = bw.plans(events)
    want = expected_reports(check, events, store, workdir / f"expected_{flavor}")
    audit = Audit(ccd_guard, [path])
    assert len(audit.lines) == len(plans), f"{audit.where()}: {len(audit.lines)} plan lines, the bag has {len(plans)} plans"
    problems = []
    for k, (line, plan, report) in enumerate(zip(audit.lines, plans, want)):
        where = f"plan {k} ({plan.topic} at {plan.stamp})"
        if (line["topic"], line["stamp"], line["index"]) != (plan.topic, plan.stamp, k):
            problems.append(f"{where}: line says topic {line['topic']!r}, stamp {line['stamp']}, index {line['index']}")
        problems += [f"{where}: {d}" for d in report_differences(line["report"], report)]
    assert not problems, f"{audit.where()}:\n" + "\n".join(problems)
    assert_summary(audit)
    assert audit.returncode == 1, audit.where()


def test_json_line_keys(ccd_guard, main_bags):
    """A plan's JSON line is the spec's object (topic, stamp, index and report, in that
    order) and the bag it came from, as given (for merging the lines of many bags); the
    summary line is the spec's."""
    path, _, _ = main_bags["rosbags-mcap-jazzy"]
    audit = Audit(ccd_guard, [path])
    keys = {tuple(line) for line in audit.lines}
    assert keys == {("topic", "stamp", "index", "report", "bag")}, f"{audit.where()}: plan lines have keys {sorted(keys)}"
    assert all(line["bag"] == str(path) for line in audit.lines)
    assert set(audit.summary) == SUMMARY_KEYS


def test_same_plan_changes_verdict_when_object_added(ccd_guard, main_bags):
    """The same recorded plan (the free motion) before and after an object is put in its
    way: free, then colliding with that object; free again once it is moved away."""
    path, events, _ = main_bags["rosbags-db3-jazzy"]
    plans = bw.plans(events)
    audit = Audit(ccd_guard, [path])
    assert len(audit.lines) == len(plans), audit.where()

    def trajectory(plan):
        jt = plan.message if plan.msgtype == bw.JOINT_TRAJECTORY else plan.message.trajectory[0].joint_trajectory
        return [(list(p.positions), p.time_from_start.sec, p.time_from_start.nanosec) for p in jt.points]

    for before, after, moved in ((0, 3, 4), (11, 12, None)):
        assert trajectory(plans[before]) == trajectory(plans[after])
        a, b = audit.lines[before]["report"], audit.lines[after]["report"]
        assert a["verdict"] == "collision_free" and b["verdict"] == "collision", audit.where()
        assert first_pair(b) == ("gripper", "crate"), audit.where()
        if moved is not None:
            assert trajectory(plans[moved]) == trajectory(plans[before])
            assert audit.lines[moved]["report"]["verdict"] == "collision_free", audit.where()


@pytest.mark.parametrize("options", [("--method", "pipeline"), ("--method", "sampled"), ("--first-only",), ("--tolerance", "0.0001")], ids=" ".join)
def test_options_as_check(ccd_guard, check, main_bags, workdir, options):
    """--method, --first-only and --tolerance act on every plan as on `check`."""
    path, events, store = main_bags["mcap-writer-jazzy"]
    want = expected_reports(check, events, store, workdir / "expected_options", options)
    audit = Audit(ccd_guard, [path], *options)
    assert len(audit.lines) == len(want), audit.where()
    problems = [f"plan {k}: {d}" for k, (line, report) in enumerate(zip(audit.lines, want)) for d in report_differences(line["report"], report)]
    assert not problems, f"{audit.where()}:\n" + "\n".join(problems)
    assert audit.returncode == expected_status([r["verdict"] for r in want]), audit.where()


# ----------------------------------------------------------------------------- exit status


def near_miss_diff(store, stamp: int):
    obj = bw.solid_object(store, stamp, "near_miss", **bw.NEAR_MISS)
    return bw.planning_scene(store, stamp, is_diff=True, objects=[obj])


@pytest.mark.parametrize("case", ["free", "free_uncertain", "free_min_clearance", "all"])
def test_exit_status(ccd_guard, stores, workdir, case):
    """1 if any collision, else 3 if any uncertain, else 4 if any plan is closer than
    --min-clearance, else 0; the summary counts the verdicts."""
    store = stores[Stores.ROS2_JAZZY]
    t0 = bw.T0 + 1000 * bw.SECOND
    plans = {
        "free": [("/planned_trajectory", "free", "collision_free"), ("/display_planned_path", "free", "collision_free")],
        "free_uncertain": [("/planned_trajectory", "free", "collision_free"), ("/planned_trajectory", "free", "uncertain")],
        "free_min_clearance": [("/planned_trajectory", "free", "collision_free")],
        "all": [("/planned_trajectory", "free", "collision_free"), ("/planned_trajectory", "free", "uncertain"), ("/arm/plan", "thin", "collision")],
    }[case]
    world = [(1.5, "/monitored_planning_scene", bw.PLANNING_SCENE, near_miss_diff(store, t0 + int(1.5 * bw.SECOND)))] if "uncertain" in {p[2] for p in plans} else []
    events = bw.small_scenario(store, t0, plans, world)
    path = bw.write_mcap(workdir / f"status_{case}.mcap", events, store)
    args = ("--min-clearance", "0.05") if case == "free_min_clearance" else ()
    audit = Audit(ccd_guard, [path], *args)
    assert [line["report"]["verdict"] for line in audit.lines] == [p[2] for p in plans], audit.where()
    assert_summary(audit)
    want = {"free": 0, "free_uncertain": 3, "free_min_clearance": 4, "all": 1}[case]
    assert audit.returncode == want, audit.where()


def test_bad_input_exit_2(ccd_guard, workdir):
    """A bag that does not exist, and a file that is not a bag: exit 2, the file named on
    stderr, no plan lines."""
    not_a_bag = workdir / "not_a_bag.mcap"
    not_a_bag.write_bytes(b"this is not an MCAP file\n" * 10)
    for path in (workdir / "missing_bag.mcap", not_a_bag, workdir / "missing_folder"):
        audit = Audit(ccd_guard, [path])
        assert audit.returncode == 2, audit.where()
        assert not audit.lines, audit.where()
        assert path.name in audit.stderr, audit.where()


# ----------------------------------------------------------------------------- --mcap-out


def ros2msg_types(text: str, name: str) -> dict:
    """The types of a ``ros2msg`` schema: the message's definition, then each dependency
    after a line of ``=`` and ``MSG: pkg/Name`` (pkg/msg/Name to rosbags)."""
    types = {}
    sections = re.split(r"\n=+\n", text.strip("\n") + "\n")
    types.update(get_types_from_msg(sections[0], name))
    for section in sections[1:]:
        head, _, body = section.partition("\n")
        assert head.startswith("MSG: "), f"schema {name}: dependency section starts with {head!r}"
        pkg, _, stem = head[5:].strip().partition("/")
        types.update(get_types_from_msg(body, f"{pkg}/msg/{stem.split('/')[-1]}"))
    return types


def nan_none(value):
    return None if isinstance(value, float) and math.isnan(value) else value


def verdict_differences(message, line: dict) -> list[str]:
    """How a decoded CollisionVerdict differs from the JSON line it should be."""
    report = line["report"]
    out = []
    if message.source != line["topic"]:
        out.append(f"source {message.source!r}, line topic {line['topic']!r}")
    for key in ("verdict", "certified", "method"):
        if getattr(message, key) != report[key]:
            out.append(f"{key}: message {getattr(message, key)!r}, line {report[key]!r}")
    pairs = {
        "time_of_contact": (nan_none(message.time_of_contact), report["time_of_contact"]),
        "segment_index": (None if message.segment_index == -1 else message.segment_index, report["segment_index"]),
        "max_penetration_depth": (nan_none(message.max_penetration_depth), report["max_penetration_depth"]),
        "min_clearance": (nan_none(message.min_clearance), report["min_clearance"]),
        "tolerance": (message.tolerance, report["tolerance"]),
        "elapsed_ms": (message.elapsed_ms, report["elapsed_ms"]),
        "error": (message.error or None, report["error"] or None),
    }
    for key, (a, b) in pairs.items():
        if a != b:
            out.append(f"{key}: message {a!r}, line {b!r}")
    got_contacts = [
        (c.link, c.other, c.time_of_contact, nan_none(c.time_of_separation), [c.point.x, c.point.y, c.point.z],
         [nan_none(c.normal.x), nan_none(c.normal.y), nan_none(c.normal.z)], nan_none(c.max_penetration_depth))
        for c in message.contacts
    ]
    want_contacts = [
        (c["link"], c["other"], c["time_of_contact"], c["time_of_separation"], c["point"], c.get("normal") or [None] * 3, c["max_penetration_depth"])
        for c in report["contacts"]
    ]
    if got_contacts != want_contacts:
        out.append(f"contacts: message {got_contacts}, line {want_contacts}")
    return out


def test_mcap_out(ccd_guard, main_bags, stores, workdir):
    """--mcap-out: the mcap package reads it; one ccd_guard/msg/CollisionVerdict per plan
    at the plan's receive time, whose CDR rosbags decodes (ccd_guard's msg/ files) into the
    plan's JSON line; MarkerArrays at the colliding plans' times; ``ros2msg`` schemas that
    rosbags parses into the very definitions of the repository's messages."""
    from mcap.reader import make_reader

    path, events, _ = main_bags["rosbags-mcap-humble"]
    out_path = workdir / "verdicts.mcap"
    audit = Audit(ccd_guard, [path], "--mcap-out", str(out_path))
    assert audit.returncode == 1 and len(audit.lines) == len(bw.plans(events)), audit.where()
    store = stores[Stores.ROS2_JAZZY]
    verdicts, markers, schemas = [], {}, {}
    with open(out_path, "rb") as stream:
        reader = make_reader(stream)
        for schema, channel, message in reader.iter_messages(log_time_order=True):
            assert channel.message_encoding == "cdr", channel
            assert schema is not None and schema.encoding == "ros2msg", (channel.topic, schema)
            schemas[schema.name] = schema.data.decode()
            decoded = store.deserialize_cdr(message.data, schema.name)
            if schema.name == "ccd_guard/msg/CollisionVerdict":
                verdicts.append((message.log_time, decoded))
            elif schema.name == "visualization_msgs/msg/MarkerArray":
                markers.setdefault(message.log_time, []).append(decoded)
    assert "ccd_guard/msg/CollisionVerdict" in schemas and "visualization_msgs/msg/MarkerArray" in schemas, sorted(schemas)
    assert len(verdicts) == len(audit.lines), f"{len(verdicts)} verdicts for {len(audit.lines)} plans"
    problems = []
    for k, ((log_time, message), line, plan) in enumerate(zip(verdicts, audit.lines, bw.plans(events))):
        if log_time != line["stamp"] or log_time != plan.stamp:
            problems.append(f"plan {k}: verdict at {log_time}, plan received at {plan.stamp}")
        problems += [f"plan {k}: {d}" for d in verdict_differences(message, line)]
        stamp = (message.trajectory_stamp.sec, message.trajectory_stamp.nanosec)
        if stamp != plan_stamp(plan):
            problems.append(f"plan {k}: trajectory_stamp {stamp}, the plan's header.stamp {plan_stamp(plan)}")
        if line["report"]["verdict"] == "collision" and not any(m.markers for m in markers.get(plan.stamp, [])):
            problems.append(f"plan {k} collides: no MarkerArray with markers at {plan.stamp}")
    assert not problems, "\n".join(problems)
    # The schemas: ros2msg text that rosbags parses, with the repository's definitions.
    own = {}
    for msg_file in sorted((REPO_ROOT / "msg").glob("*.msg")):
        own.update(get_types_from_msg(msg_file.read_text(), f"ccd_guard/msg/{msg_file.stem}"))
    for name, text in schemas.items():
        types = ros2msg_types(text, name)
        assert name in types
        for type_name, definition in types.items():
            reference = own.get(type_name) or (store.fielddefs[type_name] if type_name in store.fielddefs else None)
            assert reference is not None, f"schema {name}: unknown type {type_name}"
            assert [f[0] for f in definition[1]] == [f[0] for f in reference[1]], f"schema {name}: {type_name} fields differ"
        assert "ccd_guard/msg/Contact" in ros2msg_types(schemas["ccd_guard/msg/CollisionVerdict"], "ccd_guard/msg/CollisionVerdict")
    # A bag reader that knows no ccd_guard types: rosbags' AnyReader builds them from the
    # file's own schemas and decodes every verdict.
    from rosbags.highlevel import AnyReader

    with AnyReader([out_path]) as reader:
        read = [(t, reader.deserialize(raw, c.msgtype)) for c, t, raw in reader.messages() if c.msgtype == "ccd_guard/msg/CollisionVerdict"]
    assert [(t, m.source, m.verdict, nan_none(m.time_of_contact)) for t, m in read] == [
        (line["stamp"], line["topic"], line["report"]["verdict"], line["report"]["time_of_contact"]) for line in audit.lines
    ]


# ----------------------------------------------------------------------------- bag forms and order


# The report's fields (spec, "The report") that two runs on the same plan and world must
# agree on: not the time taken, nor the smallest distance, which (like the report's extra
# clearance fields) a run may refine differently (`check` twice on traj_free.yaml can give
# two self clearances).
STABLE_FIELDS = ("verdict", "certified", "method", "time_of_contact", "segment_index", "contacts", "max_penetration_depth", "tolerance", "error")


def comparable(lines: list[dict]) -> list[tuple]:
    """Lines as their topic, stamp and report's stable fields."""
    return [(line["topic"], line["stamp"], json.dumps({k: line["report"].get(k) for k in STABLE_FIELDS}, sort_keys=True)) for line in lines]


@pytest.mark.parametrize("flavor", ["rosbags-mcap-jazzy", "rosbags-db3-humble"])
def test_folder_and_single_file(ccd_guard, main_bags, flavor):
    """A rosbag2 folder (metadata.yaml and its file) and that .mcap / .db3 file alone give
    the same lines."""
    folder, _, _ = main_bags[flavor]
    by_folder = Audit(ccd_guard, [folder])
    by_file = Audit(ccd_guard, [bw.bag_file(folder)])
    assert by_folder.lines and by_folder.returncode == by_file.returncode == 1, (by_folder.where(), by_file.where())
    assert comparable(by_folder.lines) == comparable(by_file.lines), f"{by_folder.where()}\n{by_file.where()}"
    assert [line["index"] for line in by_file.lines] == list(range(len(by_file.lines)))


def test_several_bags_in_order(ccd_guard, stores, workdir):
    """Several bags are read in the order given: their plans' lines one bag after the other,
    in each bag's order, the summary over all of them. (The bags hold plans only, so the
    lines do not depend on whether one bag's world carries over to the next.)"""
    store = stores[Stores.ROS2_JAZZY]
    first = bw.small_scenario(store, bw.T0 + 2000 * bw.SECOND, [("/planned_trajectory", "free", "collision_free"), ("/arm/plan", "collide", "collision")])
    second = bw.small_scenario(store, bw.T0 + 3000 * bw.SECOND, [("/display_planned_path", "thin", "collision"), ("/planned_trajectory", "free", "collision_free")])
    a = bw.write_rosbag2(workdir / "order_a", first, store, storage="sqlite3")
    b = bw.write_mcap(workdir / "order_b.mcap", second, store)
    alone_a, alone_b = Audit(ccd_guard, [a]), Audit(ccd_guard, [b])
    for order, want in (([a, b], alone_a.lines + alone_b.lines), ([b, a], alone_b.lines + alone_a.lines)):
        audit = Audit(ccd_guard, order)
        assert comparable(audit.lines) == comparable(want), audit.where()
        assert_summary(audit)
        assert audit.returncode == 1, audit.where()
        indexes = [line["index"] for line in audit.lines]
        # The index counts the plans: over all bags, or within each bag.
        assert indexes in (list(range(4)), [0, 1, 0, 1]), f"{audit.where()}: indexes {indexes}"


def test_several_bags_are_one_recording(ccd_guard, check, stores, workdir):
    """Bags given together are one recording (``audit --help``: "read in the order given, as
    one recording"): the objects and joint values of the first bag are the world of the
    second's plans, as `check` says on the world replayed over both."""
    store = stores[Stores.ROS2_JAZZY]
    t0 = bw.T0 + 6000 * bw.SECOND
    first = [
        bw.Event(t0 + 1, "/collision_object", bw.COLLISION_OBJECT, bw.solid_object(store, t0 + 1, "crate", **bw.CRATE)),
        bw.Event(t0 + 2, "/joint_states", bw.JOINT_STATE, bw.joint_state(store, t0 + 2, bw.JOINTS, [-0.97] + bw.HOME[1:])),
    ]
    names, points = bw.demo_points("collide", drop=("joint1",))
    second = [
        bw.Event(t0 + 10 * bw.SECOND, "/planned_trajectory", bw.JOINT_TRAJECTORY, bw.joint_trajectory(store, t0, *bw.demo_points("free"))),
        bw.Event(t0 + 11 * bw.SECOND, "/arm/plan", bw.JOINT_TRAJECTORY, bw.joint_trajectory(store, t0, names, points)),
    ]
    a = bw.write_rosbag2(workdir / "recording_a", first, store, storage="mcap")
    b = bw.write_rosbag2(workdir / "recording_b", second, store, storage="sqlite3")
    want = expected_reports(check, first + second, store, workdir / "expected_recording")
    audit = Audit(ccd_guard, [a, b])
    assert len(audit.lines) == 2, audit.where()
    problems = [f"plan {k}: {d}" for k, (line, report) in enumerate(zip(audit.lines, want)) for d in report_differences(line["report"], report)]
    assert not problems, f"{audit.where()}:\n" + "\n".join(problems)
    assert [first_pair(r) for r in want] == [("gripper", "crate")] * 2


def test_jobs(ccd_guard, main_bags):
    """One checking thread or several: the same lines, in bag order."""
    path, _, _ = main_bags["rosbags-db3-jazzy"]
    one, two = Audit(ccd_guard, [path], "--jobs", "1"), Audit(ccd_guard, [path], "--jobs", "2")
    assert one.returncode == two.returncode == 1 and one.lines, (one.where(), two.where())
    assert comparable(one.lines) == comparable(two.lines), f"{one.where()}\n{two.where()}"


# ----------------------------------------------------------------------------- damaged and odd bags


def readable_plans(path: Path) -> list[tuple[str, int]]:
    """(topic, receive time) of the plans the mcap package's streaming reader gives from a
    (damaged) file before it fails."""
    from mcap.records import Channel, Message, Schema
    from mcap.stream_reader import StreamReader

    out = []
    channels, schemas = {}, {}
    try:
        with open(path, "rb") as stream:
            for record in StreamReader(stream, skip_magic=False, emit_chunks=False).records:
                if isinstance(record, Schema):
                    schemas[record.id] = record.name
                elif isinstance(record, Channel):
                    channels[record.id] = (record.topic, record.schema_id)
                elif isinstance(record, Message):
                    topic, schema_id = channels[record.channel_id]
                    if schemas[schema_id] in bw.PLAN_TYPES:
                        out.append((topic, record.log_time))
    except Exception:  # noqa: BLE001 - the damage
        pass
    return out


def middle_of_chunk_holding(path: Path, log_time: int) -> int:
    """The offset halfway into the chunk that holds the message received at ``log_time``."""
    from mcap.reader import make_reader

    with open(path, "rb") as stream:
        summary = make_reader(stream).get_summary()
    for index in summary.chunk_indexes:
        if index.message_start_time <= log_time <= index.message_end_time:
            return index.chunk_start_offset + index.chunk_length // 2
    raise AssertionError(f"no chunk holds {log_time}")


def stderr_lines(audit: Audit) -> list[str]:
    return [line for line in audit.stderr.splitlines() if line.strip()]


def test_truncated_bag(ccd_guard, stores, workdir):
    """A copy of a bag cut in the middle (inside the chunk of its 8th plan): the plans
    before the damage are still checked and printed (as from the whole bag), one line on
    stderr names the file, exit 2."""
    store = stores[Stores.ROS2_JAZZY]
    events = bw.main_scenario(store)
    plans = bw.plans(events)
    whole = bw.write_mcap(workdir / "whole.mcap", events, store, compression="lz4", chunk_size=1024)
    full = Audit(ccd_guard, [whole])
    assert len(full.lines) == len(plans), full.where()
    cut = workdir / "cut" / "truncated.mcap"
    cut.parent.mkdir()
    cut.write_bytes(whole.read_bytes()[: middle_of_chunk_holding(whole, plans[7].stamp)])
    before = readable_plans(cut)
    assert 0 < len(before) <= 7, f"the cut leaves {len(before)} readable plans"
    audit = Audit(ccd_guard, [cut])
    assert audit.returncode == 2, audit.where()
    printed = [(line["topic"], line["stamp"]) for line in audit.lines]
    assert printed[: len(before)] == before and len(printed) <= 7, f"{audit.where()}: printed {printed}, readable before the damage {before}"
    assert comparable(audit.lines) == comparable(full.lines[: len(audit.lines)]), audit.where()
    assert len(stderr_lines(audit)) == 1 and cut.name in stderr_lines(audit)[0], f"{audit.where()}: stderr lines {stderr_lines(audit)}"


def test_truncated_file_in_folder(ccd_guard, stores, workdir):
    """The .mcap of a rosbag2 folder (rosbags writes one chunk) cut in the middle: nothing
    but plans of the whole bag printed, one line on stderr naming that file, exit 2."""
    store = stores[Stores.ROS2_JAZZY]
    events = bw.main_scenario(store)
    folder = bw.write_rosbag2(workdir / "whole_folder", events, store, storage="mcap")
    full = Audit(ccd_guard, [folder])
    assert len(full.lines) == len(bw.plans(events)), full.where()
    inner = bw.bag_file(folder)
    inner.write_bytes(inner.read_bytes()[: inner.stat().st_size // 2])
    audit = Audit(ccd_guard, [folder])
    assert audit.returncode == 2, audit.where()
    assert comparable(audit.lines) == comparable(full.lines[: len(audit.lines)]), audit.where()
    assert len(stderr_lines(audit)) == 1 and inner.name in stderr_lines(audit)[0], f"{audit.where()}: stderr lines {stderr_lines(audit)}"


GARBAGE = b"\x00\x01\x00\x00" + b"\x07\x00\x00\x00" * 2 + b"\xff\xff\xff\x7f" + b"joint1\x00"


def test_undecodable_plan(ccd_guard, check, stores, workdir):
    """A JointTrajectory whose CDR does not decode: an `invalid` line with the reason for
    that plan; the plans around it are checked as usual."""
    store = stores[Stores.ROS2_JAZZY]
    with pytest.raises(Exception):
        store.deserialize_cdr(GARBAGE, bw.JOINT_TRAJECTORY)
    t0 = bw.T0 + 4000 * bw.SECOND
    events = bw.small_scenario(store, t0, [("/planned_trajectory", "free", "collision_free"), ("/planned_trajectory", "collide", "collision")])
    events.append(bw.Event(t0 + int(1.5 * bw.SECOND), "/planned_trajectory", bw.JOINT_TRAJECTORY, raw=GARBAGE, expect="invalid"))
    events.sort(key=lambda e: e.stamp)
    path = bw.write_mcap(workdir / "garbage.mcap", events, store)
    want = expected_reports(check, events, store, workdir / "expected_garbage")
    audit = Audit(ccd_guard, [path])
    assert [(line["topic"], line["stamp"]) for line in audit.lines] == [(p.topic, p.stamp) for p in bw.plans(events)], audit.where()
    bad = audit.lines[1]["report"]
    assert bad["verdict"] == "invalid" and bad["error"], audit.where()
    for k in (0, 2):
        assert not report_differences(audit.lines[k]["report"], want[k]), audit.where()
    assert_summary(audit)
    assert audit.summary["invalid"] == 1
    assert audit.returncode == 1, audit.where()


def test_undecodable_scene_message(ccd_guard, check, stores, workdir):
    """A PlanningScene whose CDR does not decode leaves the world unknown: a plan the known
    world lets pass is not certified free after it (the node's rule: what it cannot take in
    makes verdicts uncertain) until a full PlanningScene comes; then as `check` says."""
    store = stores[Stores.ROS2_JAZZY]
    with pytest.raises(Exception):
        store.deserialize_cdr(GARBAGE, bw.PLANNING_SCENE)
    t0 = bw.T0 + 4500 * bw.SECOND
    full = bw.planning_scene(store, t0 + int(2.5 * bw.SECOND), is_diff=False, objects=bw.scene_file_objects(store, stamp=t0))
    events = bw.small_scenario(
        store, t0,
        [("/planned_trajectory", "free", "collision_free"), ("/planned_trajectory", "free", "uncertain"), ("/planned_trajectory", "free", "collision_free")],
        [(2.5, "/monitored_planning_scene", bw.PLANNING_SCENE, full)],
    )
    events.append(bw.Event(t0 + int(1.5 * bw.SECOND), "/monitored_planning_scene", bw.PLANNING_SCENE, raw=GARBAGE))
    events.sort(key=lambda e: e.stamp)
    path = bw.write_mcap(workdir / "garbage_scene.mcap", events, store)
    want = expected_reports(check, events, store, workdir / "expected_garbage_scene")
    audit = Audit(ccd_guard, [path])
    assert [line["report"]["verdict"] for line in audit.lines] == ["collision_free", "uncertain", "collision_free"], audit.where()
    assert not audit.lines[1]["report"]["certified"]
    for k in (0, 2):
        assert not report_differences(audit.lines[k]["report"], want[k]), audit.where()
    assert audit.returncode == 3, audit.where()


def test_other_robot(ccd_guard, check, stores, workdir):
    """A bag of another robot (its joints are not the URDF's): every plan `invalid`, the
    reason naming the unknown joint, as `check` says of the same plan."""
    store = stores[Stores.ROS2_HUMBLE]
    t0 = bw.T0 + 5000 * bw.SECOND
    names = [f"panda_joint{i}" for i in range(1, 8)]
    q0 = [0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785]
    q1 = [0.3, -0.5, 0.1, -2.0, 0.0, 1.8, 0.785]
    traj = lambda stamp: bw.joint_trajectory(store, stamp, names, [(q0, 0.0), (q1, 2.0)])  # noqa: E731
    events = [
        bw.Event(t0 + 1, "/joint_states", bw.JOINT_STATE, bw.joint_state(store, t0 + 1, names, q0)),
        bw.Event(t0 + 2 * bw.SECOND, "/planned_trajectory", bw.JOINT_TRAJECTORY, traj(t0)),
        bw.Event(t0 + 3 * bw.SECOND, "/display_planned_path", bw.DISPLAY_TRAJECTORY, bw.display_trajectory(store, traj(t0), (names, q0), model_id="panda")),
    ]
    path = bw.write_rosbag2(workdir / "panda_bag", events, store, storage="sqlite3", version=8)
    want = expected_reports(check, events, store, workdir / "expected_panda")
    audit = Audit(ccd_guard, [path])
    assert len(audit.lines) == 2, audit.where()
    for line, report in zip(audit.lines, want):
        assert report["verdict"] == "invalid" and "panda_joint1" in report["error"]
        assert line["report"]["verdict"] == "invalid", audit.where()
        assert "panda_joint1" in (line["report"]["error"] or ""), f"{audit.where()}: error {line['report']['error']!r}"
    assert_summary(audit)
    assert audit.summary["invalid"] == 2
    # No collision, no uncertain verdict: invalid plans are bad input.
    assert audit.returncode == 2, audit.where()


def test_text_format(ccd_guard, main_bags):
    """--format text (the default): a table naming every plan's topic and a summary, the
    same exit status as with JSON."""
    path, events, _ = main_bags["rosbags-mcap-jazzy"]
    audit = Audit(ccd_guard, [path], fmt="text")
    assert audit.returncode == 1, audit.where()
    for topic in {p.topic for p in bw.plans(events)}:
        assert topic in audit.stdout, audit.where()
    default = subprocess.run([c for c in audit.cmd if c not in ("--format", "text")], capture_output=True, text=True, timeout=TIMEOUT_S)
    assert default.returncode == 1 and not default.stdout.lstrip().startswith("{"), default.stdout[:500]
