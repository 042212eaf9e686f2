// What serve's request log costs as a session grows (`node bench/serve-log.mjs`): the built serve of the 1.19.2
// recordings asked 1,000 then (a fresh serve) 10,000 requests, one after another by one client, each session's bytes
// written by the serve process (/proc/PID/io wchar, read once its log is appended: the log is nearly all it writes)
// and time, per request. A log whose cost is linear in the session writes as many bytes a request at 10,000 as at
// 1,000 (ratio 1); one rewritten whole every 200 ms writes more a request the longer the session (issue 38).
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printedUrl, startBuilt } from './built.mjs';

const ROOT = new URL('..', import.meta.url).pathname;
const KEY = 'bench-key-123456';
const dir = mkdtempSync(join(tmpdir(), 'synconf-bench-serve-log-'));

/** the built serve, once it printed where it listens */
function startServe(log) {
  const args = ['serve', join(ROOT, 'recordings/syncthing-1.19.2'), '--api-key', KEY, '--port', '0', '--log', log];
  return startBuilt(args, printedUrl(/Stop with Ctrl-C/));
}

const written = (pid) => Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))[1]);

/** one session of `n` requests: bytes written and milliseconds, per request; the log's size */
async function session(n) {
  const log = join(dir, `${n}.har`);
  const serve = await startServe(log);
  const before = written(serve.child.pid);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${serve.url}/rest/system/version`, { headers: { 'X-API-Key': KEY } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`request ${i}: ${res.status}`);
  }
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 500)); // the serve appends (or rewrites) its log 200 ms after a request
  const bytes = written(serve.child.pid) - before;
  serve.child.kill('SIGTERM');
  await new Promise((r) => serve.child.on('exit', r));
  return { bytes: bytes / n, ms: ms / n, size: statSync(log).size };
}

const small = await session(1000);
const large = await session(10000);
rmSync(dir, { recursive: true, force: true });
const kb = (b) => (b / 1024).toFixed(2);
console.log(
  `serve --log, 1,000 requests: ${kb(small.bytes)} KiB written a request, ${small.ms.toFixed(2)} ms a request`,
);
console.log(
  `serve --log, 10,000 requests: ${kb(large.bytes)} KiB written a request, ${large.ms.toFixed(2)} ms a request`,
);
console.log(
  `ratio 10,000 : 1,000 a request: bytes written ${(large.bytes / small.bytes).toFixed(2)}, time ${(large.ms / small.ms).toFixed(2)} (1 = linear); log ${kb(large.size / 10000)} KiB an entry; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
