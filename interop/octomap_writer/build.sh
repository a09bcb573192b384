#!/usr/bin/env bash
# Builds the octomap reference writer: bash interop/octomap_writer/build.sh OUT_BINARY
# Needs g++ and Debian's liboctomap-dev (scripts/test.sh installs them when missing).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="${1:?usage: build.sh OUT_BINARY}"
mkdir -p "$(dirname "$out")"
libs="$(pkg-config --libs octomap 2>/dev/null || echo "-loctomap -loctomath")"
# shellcheck disable=SC2086
g++ -std=c++17 -O2 -Wall -Wextra -o "$out" "$here/octomap_writer.cpp" $libs
