#!/usr/bin/env bash
# Re-records the bundled cassettes (recordings/syncthing-<version>/) of the agent versions given, default the
# default set (`synconf agents list`): `npm run record`, `npm run record -- 1.29.5`. Each version runs the whole suite live in its own lab (the binaries
# `synconf agents install` put in the cache) and keeps what its report says as recorded-run.json (scripts/recorded-run.mjs):
# each scenario's duration (the --shard weights) and each check's verdict, what its replay must give. A run that does
# not conform (exit 1) or fails (2, 3) keeps the old recordings.
set -euo pipefail
cd "$(dirname "$0")/.."
versions=("$@")
[ ${#versions[@]} -gt 0 ] || mapfile -t versions < <(node dist/bin/synconf.js agents list --json | node -e 'let s="";process.stdin.on("data",(d)=>(s+=d)).on("end",()=>{for(const a of JSON.parse(s))if(a.inSetup)console.log(a.version)})')
for v in "${versions[@]}"; do
  dir="recordings/syncthing-$v"
  rm -rf "$dir.new" "reports/recorded-$v"
  node dist/bin/synconf.js run --syncthing "$v" --record "$dir.new" --report-dir "reports/recorded-$v"
  node scripts/recorded-run.mjs "reports/recorded-$v/report.json" "$dir.new/recorded-run.json"
  rm -rf "$dir"
  mv "$dir.new" "$dir"
  echo "recorded $dir"
done
