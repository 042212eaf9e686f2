#!/usr/bin/env bash
# Speed benchmark of synconf (`npm run bench`): three ratios, timed in one interleaved series by bench/ratios.mjs
# (each round runs every command once, so the shared machine's load hits them alike; medians of RUNS rounds):
#   help    `synconf --help` against bare `node -e 0` (target ≤ 3×);
#   replay  `synconf replay` of the bundled 1.19.2 recordings against `node -e 0` (target ≤ 10×);
#   live    the same 13 requests against one lab agent, sent by `synconf run --suite bench/synconf-13.yaml`
#           and by bench/plain-13.mjs (built-in fetch, checks by hand): target ≤ 0.9×.
# Then serve --stateful under load (bench/stateful-load.mjs): 50 clients, 1,000 mixed reads and writes; requests a
# second and peak memory (a record, no target). Then serve's request log at 1,000 and 10,000 requests
# (bench/serve-log.mjs): bytes written and time a request, and their ratio (1 = linear; a record).
# Last, `synconf history` of the bundled recordings and again from its cache (bench/history.mjs --replay; the live
# figure is `npm run bench:history`). Then `synconf spec --boundaries` over the installed releases (bench/boundaries.mjs).
# Each a whole process as a user starts it. Results: bench/results.json.
#
# Environment: RUNS (default 30), WARMUP (default 3), SYNCONF_BENCH_NO_BUILD=1 to skip `npm run build`.
set -euo pipefail
cd "$(dirname "$0")/.."

# NODE_EXTRA_CA_CERTS makes every Node start read a certificate bundle (~50 ms here) and adds nothing to the work.
unset NODE_EXTRA_CA_CERTS

# Time the built command (package.json "bin": what `synconf` runs once installed), not tsx compiling
# TypeScript on the fly.
BIN="$(node -p 'require("./package.json").bin.synconf')"
if [ "${SYNCONF_BENCH_NO_BUILD:-}" != 1 ]; then
  if ! npm run build --silent >&2; then
    [ -f "$BIN" ] || { echo "bench: npm run build failed and there is no $BIN to time" >&2; exit 2; }
    echo "bench: WARNING: npm run build failed; timing the $BIN that is there (it may be stale)" >&2
  fi
fi
[ -f "$BIN" ] || { echo "bench: $BIN is missing (run npm run build)" >&2; exit 2; }
SYNCONF=(node "$BIN")

TMP="$(mktemp -d "${TMPDIR:-/tmp}/synconf-bench-XXXXXX")"
LAB="$TMP/lab"
cleanup() {
  "${SYNCONF[@]}" lab down --dir "$LAB" >/dev/null 2>&1 || true
  rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

echo "bench: starting a lab agent in $LAB" >&2
"${SYNCONF[@]}" lab up --json --dir "$LAB" >"$TMP/lab.json"
read -r URL KEY DATA < <(node -e 'const [a] = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(a.url, a.apiKey, a.dataDir)' "$TMP/lab.json")
FOLDER=bench-folder

# The folder of db/status and db/need: created before timing, then wait for its first scan; clear the
# agent's start-up errors so every timed run sees the same state.
node --input-type=module - "$URL" "$KEY" "$FOLDER" "$DATA/$FOLDER" <<'EOF'
import { mkdirSync } from 'node:fs';
const [url, key, id, path] = process.argv.slice(2);
mkdirSync(path, { recursive: true });
const call = async (method, p, body) => {
  const res = await fetch(url + p, { method, headers: { 'X-API-Key': key, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.text();
};
await call('POST', '/rest/config/folders', { id, label: 'synconf bench', path, type: 'sendreceive' });
for (let i = 0; ; i++) {
  const s = await call('GET', `/rest/db/status?folder=${id}`).catch(() => undefined);
  if (s?.state === 'idle') break;
  if (i > 100) throw new Error(`folder ${id} did not become idle`);
  await new Promise((r) => setTimeout(r, 100));
}
await call('POST', '/rest/system/error/clear');
EOF

PLAIN="node bench/plain-13.mjs $URL $KEY $FOLDER"
RUN="node $BIN run --agent $URL --api-key $KEY --suite bench/synconf-13.yaml --report-dir $TMP/r --expectations bench/known-deviations-1.19.2.yaml"

# Both must hold before they are timed (a fast failure is no result).
$PLAIN >/dev/null || { echo "bench: plain-13.mjs does not pass against the lab agent" >&2; exit 1; }
$RUN >"$TMP/preflight.txt" || { cat "$TMP/preflight.txt" >&2; echo "bench: synconf does not pass against the lab agent" >&2; exit 1; }

node bench/ratios.mjs "$BIN" "$TMP" "$URL" "$KEY" "$FOLDER"

echo "bench: serve --stateful, 50 clients, 1,000 mixed reads and writes (bench/stateful-load.mjs)" >&2
node bench/stateful-load.mjs

echo "bench: serve --log, 1,000 then 10,000 requests (bench/serve-log.mjs)" >&2
node bench/serve-log.mjs

echo "bench: synconf history of the bundled recordings, then again from its cache (bench/history.mjs --replay)" >&2
node bench/history.mjs --replay

echo "bench: synconf spec --boundaries over the installed releases (bench/boundaries.mjs)" >&2
node bench/boundaries.mjs
