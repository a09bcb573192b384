#!/usr/bin/env bash
# Create (or refresh) the Python virtual environment used by the cross-check tests:
# .venv at the repository root, with interop/python/requirements.txt installed.
# Idempotent: does nothing but a quick check when the venv is complete and up to date
# (a stamp file records the hash of the requirements and the interpreter version).
#
# Environment: PYTHON  interpreter to build the venv from (default: python3).
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$REPO_ROOT/.venv"
REQUIREMENTS="$REPO_ROOT/interop/python/requirements.txt"
STAMP="$VENV/.ccd_guard-requirements.stamp"
PYTHON="${PYTHON:-python3}"

log() { printf 'setup_python: %s\n' "$*"; }
die() { printf 'setup_python: error: %s\n' "$*" >&2; exit 1; }

command -v "$PYTHON" >/dev/null 2>&1 || die "$PYTHON not found (need CPython >= 3.10 with pip)"
[ -f "$REQUIREMENTS" ] || die "$REQUIREMENTS missing"

py_version="$("$PYTHON" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')"
req_hash="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
wanted_stamp="requirements=$req_hash python=$py_version"

venv_python_ok() {
    [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c 'import sys' >/dev/null 2>&1
}

if venv_python_ok && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$wanted_stamp" ]; then
    log "$VENV is up to date"
    exit 0
fi

apt_install_venv() {
    # Debian's python3 ships without the venv/ensurepip modules: they come in python3-venv
    # (and python3.X-venv for the versioned interpreter).
    command -v apt-get >/dev/null 2>&1 || die "python3 -m venv failed and apt-get is not available to install python3-venv"
    local sudo=""
    if [ "$(id -u)" -ne 0 ]; then
        command -v sudo >/dev/null 2>&1 || die "python3 -m venv failed; install python3-venv (needs root)"
        sudo="sudo"
    fi
    local minor pkgs
    minor="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
    log "the venv module is missing: installing python3-venv with apt-get"
    $sudo apt-get update
    pkgs="python3-venv"
    if apt-cache show "python${minor}-venv" >/dev/null 2>&1; then
        pkgs="$pkgs python${minor}-venv"
    fi
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends $pkgs
}

create_venv() {
    local err
    err="$(mktemp)"
    if "$PYTHON" -m venv "$VENV" 2>"$err"; then
        rm -f "$err"
        return 0
    fi
    cat "$err" >&2
    if grep -qiE 'ensurepip|No module named venv|python3(\.[0-9]+)?-venv' "$err"; then
        rm -f "$err"
        rm -rf "$VENV"
        apt_install_venv
        "$PYTHON" -m venv "$VENV"
    else
        rm -f "$err"
        die "$PYTHON -m venv $VENV failed"
    fi
}

if ! venv_python_ok || ! "$VENV/bin/python" -m pip --version >/dev/null 2>&1; then
    if [ -e "$VENV" ]; then
        log "$VENV is incomplete or broken: recreating it"
        rm -rf "$VENV"
    fi
    log "creating $VENV with $PYTHON ($py_version)"
    create_venv
fi

rm -f "$STAMP"
log "installing $(basename "$REQUIREMENTS") into $VENV"
"$VENV/bin/python" -m pip install --disable-pip-version-check --no-input --quiet -r "$REQUIREMENTS"
# Check that the packages really import (and example-robot-data's robots are there).
"$VENV/bin/python" - <<'PY'
import sys, sysconfig
from pathlib import Path
import coal, numpy, pinocchio, pytest  # noqa: F401
sp = Path(sysconfig.get_paths()["purelib"])
robots = sp / "cmeel.prefix" / "share" / "example-robot-data" / "robots"
if not (robots / "panda_description" / "urdf" / "panda.urdf").is_file():
    sys.exit(f"example-robot-data robots not found under {robots}")
print(f"setup_python: pinocchio {pinocchio.__version__}, coal {coal.__version__}, numpy {numpy.__version__}, pytest {pytest.__version__}")
PY
printf '%s\n' "$wanted_stamp" >"$STAMP"
log "done"
