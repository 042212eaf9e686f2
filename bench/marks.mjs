// Preload for profiling (node --import ./bench/marks.mjs …): prints when the process reached its
// first HTTP request, its last response and its exit, relative to the process start (performance.timeOrigin),
// without changing synconf. Used by bench/profile.sh.
import http from 'node:http';
import { performance } from 'node:perf_hooks';
const marks = { preload: performance.now() };
let n = 0;
const orig = http.request;
http.request = function (...args) {
  n++;
  marks.firstRequest ??= performance.now();
  const req = orig.apply(this, args);
  req.on('response', (res) =>
    res.on('end', () => {
      marks.lastResponse = performance.now();
    }),
  );
  return req;
};
globalThis.fetch &&
  (globalThis.fetch = (
    (f) =>
    async (...a) => {
      n++;
      marks.firstRequest ??= performance.now();
      const r = await f(...a);
      marks.lastResponse = performance.now();
      return r;
    }
  )(globalThis.fetch));
process.on('exit', () => {
  marks.exit = performance.now();
  const f = (v) => (v === undefined ? '-' : v.toFixed(1).padStart(7));
  process.stderr.write(
    `marks(ms since process start): preload ${f(marks.preload)}  first request ${f(marks.firstRequest)}  last response ${f(marks.lastResponse)}  exit ${f(marks.exit)}  requests ${n}\n`,
  );
});
