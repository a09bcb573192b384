#!/usr/bin/env bash
# The test command of the project: bash scripts/test.sh
#   1. the Python test environment (.venv, see scripts/setup_python.sh)
#   2. cargo test --release           (all Rust tests)
#   3. cargo build --release --examples (the probe used by the Python tests)
#   4. pytest test/python             (cross-checks against pinocchio, coal, exact arithmetic)
# Stops at the first failure with a non-zero exit status.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO_ROOT"

section() {
    printf '\n==================== %s ====================\n' "$*"
}

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

section "cargo test --release"
cargo test --release

section "cargo build --release --examples"
cargo build --release --examples

section "pytest test/python"
# No bytecode or pytest cache files in the work tree.
export PYTHONDONTWRITEBYTECODE=1
# Last: pytest's summary line closes the output.
.venv/bin/python -m pytest -q -p no:cacheprovider test/python
