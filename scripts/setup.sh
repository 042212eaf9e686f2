#!/usr/bin/env bash
# Set up synconf on a fresh Debian machine: the real agent (syncthing) and Chromium from Debian,
# the npm dependencies, and the build. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v syncthing >/dev/null || missing+=(syncthing)
command -v chromium >/dev/null || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update
    apt-get install -y "${missing[@]}"
  else
    echo "setup: please install the Debian packages: ${missing[*]} (apt-get install -y ${missing[*]})" >&2
  fi
fi
npm ci
npm run build
