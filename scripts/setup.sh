#!/usr/bin/env bash
# Set up synconf on a fresh Debian machine: the real agent (syncthing), Chromium and syncthingctl (syncthingtray: a real
# client the tests put behind synconf proxy) from Debian,
# the npm dependencies, the build, and every agent version synconf knows in its cache (`synconf agents install`:
# 1.12.1, 1.19.2, 1.29.5 from Debian's packages, fetched with a private apt configuration; 1.30.0, 2.1.0, 2.1.2
# built from the Go module proxy, which needs Go 1.25 or later and a C compiler: ~15 min with empty Go caches on
# a 2-core machine). Safe to run again: what is installed is kept.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
command -v syncthing >/dev/null || missing+=(syncthing)
command -v chromium >/dev/null || missing+=(chromium)
command -v syncthingctl >/dev/null || missing+=(syncthingtray)
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
node dist/bin/synconf.js agents install
