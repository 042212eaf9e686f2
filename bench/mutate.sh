#!/usr/bin/env bash
# Speed target of `synconf mutate` (`npm run bench:mutate`): every mutant of the bundled 1.19.2
# recordings, run by the built command as a user runs it, must finish well under a minute on a
# 2-core machine. Times RUNS whole processes (default 3) and prints the median and the mutant count.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
BIN="$(node -p 'require("./package.json").bin.synconf')"
[ "${SYNCONF_BENCH_NO_BUILD:-}" = 1 ] || npm run build --silent >&2
TMP="$(mktemp -d "${TMPDIR:-/tmp}/synconf-bench-mutate-XXXXXX")"
trap 'rm -rf "$TMP"' EXIT INT TERM
times=()
for i in $(seq "$RUNS"); do
  start=$(date +%s%N)
  node "$BIN" mutate --report-dir "$TMP/r" >"$TMP/out.txt" 2>>"$TMP/out.txt" || { cat "$TMP/out.txt" >&2; echo "bench: synconf mutate failed" >&2; exit 1; }
  times+=($(( ($(date +%s%N) - start) / 1000000 )))
done
TMP_REPORT="$TMP/r/mutation.json" node -e '
const times = process.argv.slice(2).map(Number).sort((a, b) => a - b);
const r = JSON.parse(require("fs").readFileSync(process.env.TMP_REPORT, "utf8"));
const median = times[Math.floor(times.length / 2)];
console.log(`synconf mutate: ${r.totals.mutants} mutants of ${r.recordings}, score ${(r.totals.score * 100).toFixed(1)}%`);
console.log(`whole process: median ${(median / 1000).toFixed(1)} s (runs: ${times.map((t) => (t / 1000).toFixed(1)).join(", ")} s); ${Math.round(r.totals.mutants / (median / 1000))} mutants/s`);
console.log(`target: well under 60 s on 2 cores: ${median < 30000 ? "met" : "NOT met"} (nproc: ${require("os").availableParallelism()})`);
' "${times[@]}"
