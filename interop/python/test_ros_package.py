"""The ROS 2 package files (issue 6, item 5), as far as they can be tested without a ROS
installation: package.xml is a valid format 3 manifest (catkin_pkg, the parser rosdep and
colcon use), the launch file builds its description, the build file names every
interface, and the rviz config shows the node's markers. The params file is loaded by
the node's own parser in `tests/node/ros_node.rs`.

What `colcon build` does with CMakeLists.txt is run with CMake itself (issue 15, item 10)
against stand-in ament_cmake and rosidl_default_generators packages
(`interop/ros_build_standins`): configure, build and install, then the install layout.
"""
from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
from pathlib import Path

import pytest
import yaml
from catkin_pkg.package import parse_package

from conftest import release_binary

REPO = Path(__file__).resolve().parents[2]


def test_package_xml_is_a_valid_format_3_manifest():
    package = parse_package(str(REPO / "package.xml"))
    package.validate()
    assert package.package_format == 3
    assert package.name == "ccd_guard"
    assert "rosidl_interface_packages" in [g.name for g in package.member_of_groups]
    assert package.get_build_type() == "ament_cmake"
    cargo_version = re.search(r'^version = "([^"]+)"', (REPO / "Cargo.toml").read_text(), re.M).group(1)
    assert package.version == cargo_version
    build = {d.name for d in package.build_depends}
    # Every package an interface of ours refers to is a build dependency.
    referenced = set()
    for path in list((REPO / "msg").glob("*.msg")) + list((REPO / "srv").glob("*.srv")):
        referenced |= set(re.findall(r"^(\w+)/\w+\s", path.read_text(), re.M))
    assert referenced <= build, referenced - build


def test_cmake_generates_every_interface():
    cmake = (REPO / "CMakeLists.txt").read_text()
    for path in sorted((REPO / "msg").glob("*.msg")) + sorted((REPO / "srv").glob("*.srv")):
        assert f'"{path.parent.name}/{path.name}"' in cmake, path.name
    assert "install(PROGRAMS ${CARGO_TARGET_DIR}/release/ccd_guard DESTINATION lib/${PROJECT_NAME})" in cmake


class _Recorded:
    """Stands in for a launch class: records how it was made."""

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs


def _stub_launch_modules():
    names = {
        "launch": ["LaunchDescription"],
        "launch.actions": ["DeclareLaunchArgument"],
        "launch.substitutions": ["LaunchConfiguration", "PathJoinSubstitution"],
        "launch_ros": [],
        "launch_ros.actions": ["Node"],
        "launch_ros.parameter_descriptions": ["ParameterValue"],
        "launch_ros.substitutions": ["FindPackageShare"],
    }
    saved = {name: sys.modules.get(name) for name in names}
    for module_name, classes in names.items():
        module = types.ModuleType(module_name)
        for cls in classes:
            setattr(module, cls, type(cls, (_Recorded,), {}))
        sys.modules[module_name] = module
    return saved


@pytest.mark.parametrize("launch_file", ["ccd_guard.launch.py", "ccd_guard_gate.launch.py"])
def test_launch_file_describes_the_node(launch_file):
    saved = _stub_launch_modules()
    try:
        spec = importlib.util.spec_from_file_location("ccd_guard_launch", REPO / "launch" / launch_file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        description = module.generate_launch_description()
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    (entities,) = description.args
    declared = {e.args[0] for e in entities if type(e).__name__ == "DeclareLaunchArgument"}
    (node,) = [e for e in entities if type(e).__name__ == "Node"]
    assert node.kwargs["package"] == "ccd_guard" and node.kwargs["executable"] == "ccd_guard"
    assert node.kwargs["name"] == "ccd_guard"

    def used(value):
        if type(value).__name__ == "LaunchConfiguration":
            yield value.args[0]
        elif type(value).__name__ == "ParameterValue":
            yield from used(value.args)
        elif isinstance(value, dict):
            for v in value.values():
                yield from used(v)
        elif isinstance(value, (list, tuple)):
            for v in value:
                yield from used(v)

    configurations = set(used(list(node.kwargs.values())))
    assert configurations <= declared, configurations - declared
    assert "params_file" in configurations
    share = [e for e in entities if type(e).__name__ == "DeclareLaunchArgument" and e.args[0] == "params_file"][0]
    path = share.kwargs["default_value"].args[0]
    assert [type(path[0]).__name__, *path[1:]] == ["FindPackageShare", "config", "ccd_guard.yaml"]
    assert (REPO / "config" / "ccd_guard.yaml").is_file()
    # The parameters it sets are ones the node declares.
    declared_params = set(re.findall(r'declared\("(\w+)",', (REPO / "src" / "node" / "parameters" / "declared.rs").read_text()))
    assert set(node.kwargs["parameters"][1]) <= declared_params
    if launch_file == "ccd_guard_gate.launch.py":
        assert "gate_controllers" in node.kwargs["parameters"][1]
    # The log level goes in launch_ros's ros_arguments, not as the program's arguments.
    assert "--ros-args" not in (node.kwargs.get("arguments") or [])
    assert node.kwargs["ros_arguments"][0] == "--log-level"


def test_the_node_takes_the_command_line_launch_ros_writes(tmp_path):
    """The exact command line launch_ros's Node action builds (launch_ros/actions/node.py:
    `arguments`, then `['--ros-args'] + ros_arguments`, then its own `--ros-args` section
    with `-r __node:=NAME`, `-r __ns:=/` for an empty namespace, and one `--params-file`
    per entry of `parameters`, a dict written by `_create_params_file_from_dict` to a
    temporary file with `yaml.dump(..., default_flow_style=False)` under the node's full
    name, its lists as Python tuples): the node starts with every parameter taken, says
    it is ready, and stops with status 0 on SIGTERM."""
    node = release_binary("ccd_guard", "cargo build --release")
    demo = REPO / "assets" / "demo"
    params = {"urdf_file": str(demo / "robot.urdf"), "srdf_file": str(demo / "robot.srdf"), "scene_file": str(demo / "scene.yaml"),
              "gate_controllers": ("arm_controller", "other_controller"), "gate_min_clearance": 0.0, "method": "certified"}
    temporary = tmp_path / "launch_params_k3j9x2ab"
    temporary.write_text(yaml.dump({"/ccd_guard": {"ros__parameters": params}}, default_flow_style=False))
    assert "!!python/tuple" in temporary.read_text(), "launch_ros writes lists as tuples"
    argv = [str(node), "--ros-args", "--log-level", "info", "--ros-args", "-r", "__node:=ccd_guard", "-r", "__ns:=/",
            "--params-file", str(REPO / "config" / "ccd_guard.yaml"), "--params-file", str(temporary)]
    script = 'ip link set lo up; exec "$0" "$@"'
    proc = subprocess.Popen(["unshare", "--net", "sh", "-c", script, *argv], stderr=subprocess.PIPE, text=True,
                            env={k: v for k, v in os.environ.items() if k != "RUST_LOG"})
    try:
        ready = None
        for line in proc.stderr:
            if "ready:" in line:
                ready = line
                break
        assert ready is not None, "the node did not start"
        for words in ("/ccd_guard on domain", "robot 'demo_arm' (6 joints)", "/ccd_guard/arm_controller/follow_joint_trajectory",
                      "/ccd_guard/other_controller/follow_joint_trajectory"):
            assert words in ready, (words, ready)
        proc.terminate()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_moveit_controllers_point_at_the_gate():
    """The shipped MoveIt controllers file sends goals to the gate's action: controller
    `ccd_guard/C`, `action_ns: follow_joint_trajectory` (the contract)."""
    config = yaml.safe_load((REPO / "config" / "moveit_controllers.yaml").read_text())
    manager = config["moveit_simple_controller_manager"]
    for name in manager["controller_names"]:
        assert name.startswith("ccd_guard/")
        assert manager[name]["type"] == "FollowJointTrajectory" and manager[name]["action_ns"] == "follow_joint_trajectory"


def test_rviz_config_shows_the_markers():
    config = yaml.safe_load((REPO / "config" / "ccd_guard.rviz").read_text())
    displays = config["Visualization Manager"]["Displays"]
    markers = [d for d in displays if d["Class"] == "rviz_default_plugins/MarkerArray"]
    assert markers and markers[0]["Topic"]["Value"] == "/ccd_guard/markers"
    namespaces = set(markers[0]["Namespaces"])
    source = (REPO / "src" / "moveit" / "markers.rs").read_text()
    assert namespaces == set(re.findall(r'new\("(\w+)"', source))
    assert any(d["Class"] == "rviz_default_plugins/RobotModel" for d in displays)


def test_cmake_configures_builds_and_installs_the_package(tmp_path):
    """CMakeLists.txt as colcon runs it (configure, build, install) with CMake, against
    the stand-ins: the generated type support compiles (C and C++ enabled), the node
    lands in lib/ccd_guard, launch and config files and package.xml in share/ccd_guard."""
    cmake = shutil.which("cmake")
    if cmake is None:
        pytest.fail("cmake is needed (the test command installs Debian's cmake)")
    standins = REPO / "interop" / "ros_build_standins"
    node = release_binary("ccd_guard", "cargo build --release")
    build, install = tmp_path / "build", tmp_path / "install"
    env = dict(os.environ, CCD_GUARD_NODE_BINARY=str(node))

    def run(*args):
        proc = subprocess.run([cmake, *args], capture_output=True, text=True, env=env, timeout=600)
        assert proc.returncode == 0, f"cmake {' '.join(args)}:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"

    run("-S", str(REPO), "-B", str(build), f"-DCMAKE_PREFIX_PATH={standins}", f"-DCARGO={standins / 'bin' / 'cargo'}",
        f"-DCMAKE_INSTALL_PREFIX={install}")
    run("--build", str(build))
    run("--install", str(build))
    assert os.access(install / "lib" / "ccd_guard" / "ccd_guard", os.X_OK)
    share = install / "share" / "ccd_guard"
    for launch in (REPO / "launch").glob("*.launch.py"):
        assert (share / "launch" / launch.name).is_file(), launch.name
    for config in (REPO / "config").iterdir():
        assert (share / "config" / config.name).is_file(), config.name
    assert (share / "package.xml").read_text() == (REPO / "package.xml").read_text()
    assert list((install / "lib").glob("libccd_guard__rosidl_typesupport_cpp.*")), "the generated C++ type support is built"
