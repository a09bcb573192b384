#!/usr/bin/env bash
# The package as a ROS 2 user builds it: `colcon build` in a workspace whose src/ holds
# this repository (a link), over the underlay that scripts/setup_ros.sh makes (ROS 2 Jazzy
# from PyPI wheels and the message packages PyPI lacks). CMakeLists.txt generates the
# interfaces and builds the node on rcl (cargo feature `rcl`, through r2r).
#   workspace: target/ros/pkg_ws (build/, install/, log/)
#   the node:  target/ros/pkg_ws/install/lib/ccd_guard/ccd_guard
# Incremental: colcon, CMake and cargo rebuild only what changed. Run scripts/setup_ros.sh
# first. Output goes to target/ros/logs/colcon_package.log, shown if the build fails.
#   --clippy: then `cargo clippy -D warnings` of the rcl build, in the build's own cargo
#             target directory and environment (so r2r's bindings are not made again).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROS_DIR="$REPO_ROOT/target/ros"
WS="$ROS_DIR/pkg_ws"
LOG="$ROS_DIR/logs/colcon_package.log"

[ -f "$ROS_DIR/env.sh" ] || { echo "ros_package: run scripts/setup_ros.sh first" >&2; exit 1; }
# r2r generates its bindings with bindgen, which needs libclang.
if ! ls /usr/lib/llvm-*/lib/libclang*.so* >/dev/null 2>&1; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends libclang-dev
fi

mkdir -p "$WS/src" "$(dirname "$LOG")"
ln -sfn "$REPO_ROOT" "$WS/src/ccd_guard"
# shellcheck disable=SC1091
. "$ROS_DIR/env.sh"
# The wheels' librcl.so pulls in their Python type support, which leaves libpython's
# symbols to the program: a program that links rcl must link libpython too. A quirk of the
# wheels, kept here (a distribution's rcl needs no such thing).
libdir="$("$CCD_GUARD_ROS_PYTHON" -c 'import sysconfig; print(sysconfig.get_config_var("LIBDIR"))')"
export RUSTFLAGS="-C link-arg=-L$libdir -C link-arg=-Wl,--no-as-needed -C link-arg=-lpython3.11 -C link-arg=-Wl,--as-needed"

start=$(date +%s)
cd "$WS"
if ! colcon build --merge-install --event-handlers console_direct+ \
        --cmake-args -DBUILD_TESTING=OFF "-DPython3_EXECUTABLE=$CCD_GUARD_ROS_PYTHON" >"$LOG" 2>&1; then
    tail -n 60 "$LOG" >&2
    echo "ros_package: colcon build failed (log: $LOG)" >&2
    exit 1
fi
echo "ros_package: colcon build of ccd_guard in $(( $(date +%s) - start )) s; the node: $WS/install/lib/ccd_guard/ccd_guard"

if [ "${1:-}" = "--clippy" ]; then
    # What CMakeLists.txt's install step gives cargo: the install prefix first, and the
    # packages the node binds (read from CMakeLists.txt, where they are listed once).
    export AMENT_PREFIX_PATH="$WS/install:$AMENT_PREFIX_PATH"
    IDL_PACKAGE_FILTER="$(sed -n 's/^ *"\(ccd_guard;[^"]*\)")$/\1/p' "$REPO_ROOT/CMakeLists.txt")"
    [ -n "$IDL_PACKAGE_FILTER" ] || { echo "ros_package: no package list in CMakeLists.txt" >&2; exit 1; }
    export IDL_PACKAGE_FILTER
    cd "$REPO_ROOT"
    cargo clippy --release --no-default-features --features rcl --lib --bins \
        --target-dir "$WS/build/ccd_guard/cargo" -- -D warnings
fi
