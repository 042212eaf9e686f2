// `synconf proxy`, the built command, as a CI script runs it: started in a scratch folder, its URL and key read from
// what it prints, stopped by a signal (or by its own --count / --until-idle), its report folder read back.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CheckResult, Report } from '../../src/schema/generated/types.js';
import { spawnCli } from './cli.js';
import { listeningFrom, type Listening } from './syncthing-cli.js';

export interface Proxying extends Listening {
  /** the report folder */
  dir: string;
  /** resolves with the exit code once the proxy ended */
  exited: Promise<number | null>;
}

/** start `synconf proxy ARGS` in `cwd` (report folder `<cwd>/<name>`) and wait for the URL it prints */
export function startProxy(cwd: string, name: string, args: string[], timeoutMs = 120_000): Promise<Proxying> {
  const dir = join(cwd, name);
  const child = spawnCli(['proxy', '--port', '0', '--report-dir', dir, ...args], { cwd });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`proxy did not listen within ${timeoutMs} ms: ${out}${err}`));
    }, timeoutMs);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`proxy ended (${code}) before it listened: ${out}${err}`));
    });
    child.stdout!.on('data', () => {
      const listening = listeningFrom(
        child,
        () => out,
        () => err,
        /^Stops on /m,
      );
      if (!listening) return;
      clearTimeout(timer);
      resolve({ ...listening, dir, exited });
    });
  });
}

/** stop it with a signal (SIGTERM: the orderly stop) and give the exit code */
export async function stopProxy(p: Proxying, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  p.child.kill(signal);
  return p.exited;
}

export const readReport = (dir: string): Report => JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8'));

/** every check of a report, as kept (folded ones are counted in `more`) */
export const checksOf = (r: Report): CheckResult[] => r.scenarios.flatMap((s) => s.checks);

/** the failing checks, each as "<blame> <check name> <statement ids>" (the ids a check breaks, else those it cites) */
export const violationsOf = (r: Report): string[] =>
  checksOf(r)
    .filter((c) => c.verdict === 'fail')
    .map((c) => `${c.blame} ${c.id.split('/').pop()} ${(c.breaks ?? c.statements ?? []).join(' ')}`);

/** a request with the key */
export const call = (p: Proxying, path: string, init: RequestInit = {}) =>
  fetch(p.url + path, {
    ...init,
    headers: { 'X-API-Key': p.key, ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(30_000),
  });
