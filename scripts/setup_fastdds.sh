#!/usr/bin/env bash
# Installs what the Fast DDS interop peer (interop/fastdds_peer/fastdds_peer.cpp) needs to be
# built: Debian's Fast DDS (libfastrtps-dev, with Fast CDR, libfastcdr-dev) and g++.
# Idempotent: prints nothing and does nothing when all of it is already installed.
# Exits non-zero with a message when something cannot be installed.
set -euo pipefail

packages=(libfastrtps-dev libfastcdr-dev g++)

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup_fastdds.sh: missing ${missing[*]} and apt-get is not available to install them" >&2
    exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=(sudo -n)
    else
        echo "setup_fastdds.sh: missing ${missing[*]}; installing them needs root (or sudo)" >&2
        exit 1
    fi
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
echo "setup_fastdds.sh: installing ${missing[*]}" >&2
# A package list that does not know the packages yet gets one update first.
if ! apt-cache show "${missing[@]}" >/dev/null 2>&1; then
    "${sudo[@]}" apt-get update -q >"$log" 2>&1 || { cat "$log" >&2; echo "setup_fastdds.sh: apt-get update failed" >&2; exit 1; }
fi
if ! "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}" >"$log" 2>&1; then
    tail -n 30 "$log" >&2
    echo "setup_fastdds.sh: could not install ${missing[*]} with apt-get" >&2
    exit 1
fi
echo "setup_fastdds.sh: installed Fast DDS $(dpkg-query -W -f='${Version}' libfastrtps-dev)" >&2
