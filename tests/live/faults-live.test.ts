// Issue 30, faults of real agents (labs of the agents cache, tests/support/agents.ts), against the built command from
// a scratch folder: the agent stopped (SIGSTOP) or its serving process killed mid-run, synconf itself killed (the next
// run reaps what it left), Ctrl-C during `run --record` into existing recordings, a proxy that truncates and resets
// answers. Each ends in bounded time (the test's own timeout, no timing assertion) with the documented code, the old
// recordings intact where the new could not be completed, no process or key-holding folder left behind, and no key,
// password or hash in any file written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, readFile, readdir, stat } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../src/paths.js';
import { runningProcesses } from '../../src/lab/procs.js';
import { spawnCli, cliAsync, type CliResult } from '../support/cli.js';
import { withTemp } from '../support/temp.js';
import { agentBinary } from '../support/agents.js';
import { withLab } from '../support/lab.js';

const VERSION = '1.29.5';
const QUICK = 'system-ping,system-status,system-config,system-debug,db-status';

/** the lab folders the synconf process `pid` owns (owner.json), and the processes running in each */
function labsOf(pid: number): { dir: string; pids: number[] }[] {
  const dirs = existsSync(tmpdir())
    ? readdirSyncSafe(tmpdir())
        .filter((e) => e.startsWith('synconf-lab-'))
        .map((e) => join(tmpdir(), e))
    : [];
  return dirs
    .filter((d) => {
      try {
        return (JSON.parse(readFileSync(join(d, 'owner.json'), 'utf8')) as { pid: number }).pid === pid;
      } catch {
        return false;
      }
    })
    .map((dir) => ({ dir, pids: processesIn(dir) }));
}

function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** the processes of a lab folder: its instances run with --home=<dir>/<name> */
const processesIn = (dir: string) =>
  runningProcesses()
    .filter((p) => p.args.some((a) => a.startsWith(`--home=${dir}/`)))
    .map((p) => p.pid);

/** synconf started, `act` called with it and its output so far whenever the output grows; its result */
function runWith(
  args: string[],
  cwd: string,
  act: (child: ReturnType<typeof spawnCli>, out: string) => void,
  timeoutMs = 240_000,
): Promise<CliResult> {
  const child = spawnCli(args, { cwd, env: { SYNCONF_SYNCTHING: agentBinary(VERSION) } });
  let stdout = '';
  let stderr = '';
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  child.stdout!.on('data', (d: Buffer) => {
    stdout += d;
    act(child, stdout + stderr);
  });
  child.stderr!.on('data', (d: Buffer) => {
    stderr += d;
    act(child, stdout + stderr);
  });
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, out: stdout + stderr });
    }),
  );
}

/** every file below `dir`, with its text */
async function filesBelow(dir: string): Promise<[string, string][]> {
  const out: [string, string][] = [];
  for (const name of await readdir(dir, { recursive: true })) {
    const path = join(dir, name);
    if ((await stat(path)).isFile()) out.push([path, await readFile(path, 'utf8')]);
  }
  return out;
}

/** no API key, password or bcrypt hash in any file below `dir` */
async function assertNoSecrets(dir: string, keys: string[]): Promise<void> {
  for (const [path, text] of await filesBelow(dir)) {
    for (const key of keys) assert.ok(!text.includes(key), `${path} holds an API key`);
    assert.doesNotMatch(text, /\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{10}/, `${path} holds a bcrypt hash`);
  }
}

const report = (dir: string) =>
  JSON.parse(readFileSync(join(dir, 'r', 'report.json'), 'utf8')) as {
    harnessErrors: { message: string }[];
    scenarios: { id: string; verdict: string; checks: { id: string; verdict: string }[] }[];
  };

test(
  'an agent stopped with SIGSTOP mid-run: a harness error naming it, exit 2, nothing left behind',
  { timeout: 240_000 },
  () =>
    withTemp('faults-live', async (dir) => {
      let labs: ReturnType<typeof labsOf> = [];
      let stopped = false;
      const r = await runWith(['run', '--only', QUICK, '--timeout', '3', '--report-dir', 'r'], dir, (child, out) => {
        if (stopped || !/\[1\/5\]/.test(out)) return;
        labs = labsOf(child.pid!);
        for (const pid of labs.flatMap((l) => l.pids)) process.kill(pid, 'SIGSTOP');
        stopped = labs.length > 0;
      });
      assert.ok(stopped, `the agent was stopped\n${r.out}`);
      assert.equal(r.code, 2, r.out);
      assert.match(r.stderr, /the agent at http:\/\/127\.0\.0\.1:\d+ stopped answering/);
      assert.ok(report(dir).harnessErrors.some((h) => /stopped answering/.test(h.message)));
      // the scenario it stopped in is no pass: what it did not reach stands as one skipped check (a stopped
      // `serve` once showed PASS with 3 of its 36 checks)
      const cut = report(dir).scenarios.filter((s) => s.checks.some((c) => c.id === `${s.id}/scenario/stopped`));
      assert.deepEqual(
        cut.map((s) => s.verdict),
        ['skip'],
        r.out,
      );
      for (const l of labs) {
        assert.deepEqual(processesIn(l.dir), [], 'no process of the lab left');
        assert.ok(!existsSync(l.dir), `the lab folder ${l.dir} is removed`);
      }
    }),
);

test(
  'the serving process killed mid-run (its monitor restarts it): a failing check says the agent restarted',
  { timeout: 240_000 },
  () =>
    withTemp('faults-live', async (dir) => {
      let killed = false;
      const r = await runWith(['run', '--only', QUICK, '--report-dir', 'r'], dir, (child, out) => {
        if (killed || !/\[1\/5\]/.test(out)) return;
        // the monitor is the lab's pid (its group leader); the serving process is its child
        for (const l of labsOf(child.pid!)) {
          const procs = runningProcesses().filter((p) => l.pids.includes(p.pid));
          const serving = procs.filter((p) => p.pgid !== p.pid);
          for (const p of serving) process.kill(p.pid, 'SIGKILL');
          killed = serving.length > 0;
        }
      });
      assert.ok(killed, `the serving process was killed\n${r.out}`);
      assert.notEqual(r.code, 0, r.out);
      assert.notEqual(r.code, 3, r.out);
      const checks = report(dir).scenarios.flatMap((s) => s.checks);
      assert.ok(
        checks.some((c) => c.id.endsWith('/agent/restarted') && c.verdict === 'fail') ||
          report(dir).harnessErrors.some((h) => /stopped answering/.test(h.message)),
        `the restart is a failing check (or, never back, a harness error)\n${r.out}`,
      );
    }),
);

test(
  'synconf killed with SIGKILL mid-run: the next run stops its agents and removes its lab folder',
  { timeout: 240_000 },
  () =>
    withTemp('faults-live', async (dir) => {
      let labs: ReturnType<typeof labsOf> = [];
      const first = await runWith(['run', '--only', QUICK, '--report-dir', 'r'], dir, (child, out) => {
        if (labs.length || !/\[1\/5\]/.test(out)) return;
        labs = labsOf(child.pid!);
        child.kill('SIGKILL');
      });
      assert.equal(first.signal, 'SIGKILL');
      assert.ok(labs.length && labs[0].pids.length, 'the killed run had a lab running');
      assert.ok(processesIn(labs[0].dir).length > 0, 'its agent is orphaned');
      const next = await cliAsync(['run', '--only', 'system-ping', '--report-dir', 'r2'], {
        cwd: dir,
        env: { SYNCONF_SYNCTHING: agentBinary(VERSION) },
        timeout: 120_000,
      });
      assert.equal(next.code, 0, next.out);
      assert.match(
        next.stderr,
        /^synconf: stopped \d+ agent process\(es\) and removed \d+ lab folder\(s\) left by a synconf process that was killed/m,
      );
      assert.deepEqual(processesIn(labs[0].dir), [], 'no orphan left');
      assert.ok(!existsSync(labs[0].dir), 'its folder, holding keys, is removed');
    }),
);

test(
  'Ctrl-C during run --record into existing recordings: the old recordings stay as they were',
  { timeout: 240_000 },
  () =>
    withTemp('faults-live', async (dir) => {
      const rec = join(dir, 'rec');
      await cp(join(ROOT, 'recordings', `syncthing-${VERSION}`), rec, { recursive: true });
      const before = await filesBelow(rec);
      let labs: ReturnType<typeof labsOf> = [];
      let sent = false;
      const r = await runWith(['run', '--only', QUICK, '--record', 'rec', '--report-dir', 'r'], dir, (child, out) => {
        if (sent || !/\[2\/5\]/.test(out)) return;
        labs = labsOf(child.pid!);
        sent = true;
        child.kill('SIGINT');
      });
      assert.equal(r.code, 130, r.out);
      assert.match(r.stderr, /holds \d+ cassette\(s\): those this run records replace them only if the run completes/);
      assert.match(r.stderr, /the recording did not complete \(it was interrupted\): rec is left as it was/);
      assert.deepEqual(await filesBelow(rec), before, 'every old cassette as it was, none added');
      for (const l of labs) {
        assert.deepEqual(processesIn(l.dir), []);
        assert.ok(!existsSync(l.dir), `the lab folder ${l.dir} is removed`);
      }
    }),
);

test('a completed run --record replaces the recordings it recorded and says so', { timeout: 240_000 }, () =>
  withTemp('faults-live', async (dir) => {
    const rec = join(dir, 'rec');
    await cp(join(ROOT, 'recordings', `syncthing-${VERSION}`), rec, { recursive: true });
    const old = await readFile(join(rec, 'system-ping.har'), 'utf8');
    const r = await runWith(['run', '--only', 'system-ping', '--record', 'rec', '--report-dir', 'r'], dir, () => {});
    assert.equal(r.code, 0, r.out);
    assert.match(r.stderr, /recorded 2 cassette\(s\) into rec \(2 replaced\)/);
    assert.notEqual(await readFile(join(rec, 'system-ping.har'), 'utf8'), old);
  }),
);

/** a proxy in front of `target` that cuts /rest/config answers in half and resets every fifth ping */
async function breakingProxy(target: string): Promise<{ url: string; close(): void }> {
  let pings = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url?.startsWith('/rest/system/ping') && ++pings % 5 === 0) return void req.socket.destroy();
      const up = http.request(new URL(req.url ?? '/', target), { method: req.method, headers: req.headers }, (ans) => {
        const body: Buffer[] = [];
        ans.on('data', (c: Buffer) => body.push(c));
        ans.on('end', () => {
          let text = Buffer.concat(body);
          if (req.url?.startsWith('/rest/config')) text = text.subarray(0, Math.floor(text.length / 2));
          const headers = { ...ans.headers, 'content-length': String(text.length) };
          res.writeHead(ans.statusCode ?? 502, headers);
          res.end(text);
        });
      });
      up.on('error', () => req.socket.destroy());
      up.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

test(
  'a proxy that truncates /rest/config and resets pings: no key, password or hash in any file written',
  { timeout: 240_000 },
  () =>
    withTemp('faults-live', (dir) =>
      withLab(
        1,
        async (lab) => {
          const agent = lab.instances[0];
          // a GUI password, so that /rest/config holds a bcrypt hash to leak
          const gui = await fetch(`${agent.url}/rest/config/gui`, { headers: { 'X-API-Key': agent.apiKey } });
          const patched = { ...((await gui.json()) as object), user: 'admin', password: 'a-secret-password' };
          await fetch(`${agent.url}/rest/config/gui`, {
            method: 'PUT',
            headers: { 'X-API-Key': agent.apiKey, 'Content-Type': 'application/json' },
            body: JSON.stringify(patched),
          });
          const proxy = await breakingProxy(agent.url);
          try {
            const r = await cliAsync(
              [
                'run',
                '--agent',
                proxy.url,
                '--api-key',
                agent.apiKey,
                '--only',
                'system-config,system-ping,system-gui-password',
                '--record',
                'rec',
                '--report-dir',
                'r',
              ],
              { cwd: dir, timeout: 180_000 },
            );
            assert.notEqual(r.code, 3, r.out);
            assert.notEqual(r.code, null, r.out);
            await assertNoSecrets(dir, [agent.apiKey, 'a-secret-password']);
          } finally {
            proxy.close();
          }
        },
        { binary: agentBinary(VERSION) },
      ),
    ),
);

// matrix bounds each version's run and each scenario as run bounds its own (issue 39: matrix had neither option).
// auth-control sleeps 1.5 s between two requests: past a bound of 1 s on any machine, however fast.
for (const [option, message] of [
  ['--scenario-timeout', /auth-control passed its time bound of 1 s \(--scenario-timeout\)/],
  ['--run-timeout', /the run passed its time bound of 1 s \(--run-timeout\)/],
] as const)
  test(
    `matrix ${option} 1 on a lab whose scenario sleeps 1.5 s: a harness error naming it, exit 2, as run`,
    { timeout: 240_000 },
    () =>
      withTemp('faults-live', async (dir) => {
        agentBinary(VERSION); // installed, or this test fails saying how to install it
        const r = await cliAsync(
          ['matrix', '--syncthing', VERSION, '--only', 'auth-control', option, '1', '--report-dir', 'm'],
          { cwd: dir, timeout: 180_000 },
        );
        assert.equal(r.code, 2, r.out);
        assert.match(r.stderr, message);
        const version = JSON.parse(readFileSync(join(dir, 'm', VERSION, 'report.json'), 'utf8')) as {
          harnessErrors: { message: string }[];
        };
        assert.ok(
          version.harnessErrors.some((h) => message.test(h.message)),
          JSON.stringify(version.harnessErrors),
        );
      }),
  );
