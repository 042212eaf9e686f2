// What `synconf serve --stateful` answers under load (`node bench/stateful-load.mjs [ROUNDS]`, default 5): the
// built command serving the 2.1.2 recordings, 50 clients at once sending 1,000 mixed reads and writes (each adds a
// folder of its own, posts an error, relabels its folder eight times reading each label back, reads its folder and
// the errors: tests/serve-stateful-load.test.ts asserts the answers, this only times them). Each round a fresh serve;
// prints each round's requests a second and the median, and the serve process's peak memory (VmHWM).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printedUrl, startBuilt } from './built.mjs';

const ROUNDS = Number(process.argv[2] ?? 5);
const CLIENTS = 50;
const RELABELS = 8;
const ROOT = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'synconf-bench-stateful-'));
const KEY = 'bench-key-123456';

/** the built serve --stateful, once it printed where it listens */
function startServe(log) {
  const args = ['serve', join(ROOT, 'recordings/syncthing-2.1.2'), '--stateful', '--api-key', KEY, '--port', '0'];
  return startBuilt([...args, '--log', log], printedUrl(/Stop with Ctrl-C/));
}

async function ask(url, method, path, body) {
  const res = await fetch(url + path, {
    method,
    headers: { 'X-API-Key': KEY },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status}`);
}

/** client i's twenty requests */
async function client(url, i) {
  const id = `load-${i}`;
  await ask(url, 'POST', '/rest/config/folders', { id, path: `/tmp/${id}`, label: `${id} new` });
  await ask(url, 'POST', '/rest/system/error', `error of ${id}`);
  for (let k = 0; k < RELABELS; k++) {
    await ask(url, 'PATCH', `/rest/config/folders/${id}`, { label: `${id} label ${k}` });
    await ask(url, 'GET', `/rest/config/folders/${id}`);
  }
  await ask(url, 'GET', `/rest/config/folders/${id}`);
  await ask(url, 'GET', '/rest/system/error');
}

const rates = [];
let peakKb = 0;
for (let round = 0; round < ROUNDS; round++) {
  const serve = await startServe(join(dir, `round-${round}.har`));
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, (_, i) => client(serve.url, i)));
  const seconds = (performance.now() - t0) / 1000;
  rates.push(1000 / seconds);
  peakKb = Math.max(
    peakKb,
    Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${serve.child.pid}/status`, 'utf8'))?.[1]),
  );
  serve.child.kill('SIGTERM');
  await new Promise((r) => serve.child.on('exit', r));
  console.log(`round ${round + 1}: 1000 requests from ${CLIENTS} clients in ${seconds.toFixed(2)} s`);
}
rmSync(dir, { recursive: true, force: true });

const median = [...rates].sort((a, b) => a - b)[Math.floor((rates.length - 1) / 2)];
console.log(
  `serve --stateful: median ${median.toFixed(0)} requests/s (${rates.map((r) => r.toFixed(0)).join(', ')}); peak memory (VmHWM) ${(peakKb / 1024).toFixed(1)} MB; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
