// What `synconf proxy` costs a client (`node bench/proxy.mjs [N]`, default 10,000 exchanges): the proxy in front of
// `synconf serve` of the 1.19.2 recordings (the stand-in agent answers from memory, so the time measured is the
// proxy's, not an agent's), N requests of GET /rest/system/version sent one after another straight to the stand-in agent and as many
// through the proxy, interleaved in rounds of 100 so that the shared machine's load hits both alike. Prints the
// median and 95th percentile of each, the added latency per exchange, and the proxy process's peak memory (VmHWM).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { printedUrl, startBuilt as start } from './built.mjs';

const N = Number(process.argv[2] ?? 10_000);
const ROOT = new URL('..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'synconf-bench-proxy-'));
const KEY = 'bench-key-123456';

// the stand-in agent in a process of its own, so that the proxy's memory is the proxy's alone (serve keeps its
// request log in memory)
const serve = await start(
  [
    'serve',
    join(ROOT, 'recordings/syncthing-1.19.2'),
    '--api-key',
    KEY,
    '--port',
    '0',
    '--log',
    join(dir, 'serve.har'),
  ],
  printedUrl(/Stop with Ctrl-C/),
);
const proxy = await start(
  ['proxy', '--agent', serve.url, '--api-key', KEY, '--port', '0', '--report-dir', join(dir, 'report')],
  printedUrl(/^Stops on /m),
);
const child = proxy.child;
const urls = { upstream: serve.url, proxy: proxy.url };

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
/** one exchange's time, ms */
const once = (base) =>
  new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = request(`${base}/rest/system/version`, { agent, headers: { 'X-API-Key': KEY } }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - t0));
    });
    req.on('error', reject);
    req.end();
  });

const times = { direct: [], proxy: [] };
for (let done = 0; done < N; done += 100)
  for (const [name, base] of [
    ['direct', urls.upstream],
    ['proxy', urls.proxy],
  ])
    for (let i = 0; i < Math.min(100, N - done); i++) times[name].push(await once(base));

const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
for (const c of [child, serve.child]) {
  c.kill('SIGTERM');
  await new Promise((r) => c.on('exit', r));
}
agent.destroy();
rmSync(dir, { recursive: true, force: true });

const q = (xs, p) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const ms = (x) => `${x.toFixed(2)} ms`;
for (const name of ['direct', 'proxy'])
  console.log(
    `${name.padEnd(6)} median ${ms(q(times[name], 0.5))}, p95 ${ms(q(times[name], 0.95))} (${times[name].length} exchanges)`,
  );
console.log(
  `added per exchange: median ${ms(q(times.proxy, 0.5) - q(times.direct, 0.5))}, p95 ${ms(q(times.proxy, 0.95) - q(times.direct, 0.95))}`,
);
console.log(
  `proxy peak memory (VmHWM) over ${N} exchanges: ${(peakKb / 1024).toFixed(1)} MB; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
);
