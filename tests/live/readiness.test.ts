// Readiness does not depend on the answer under test: the lab waits for the API to answer at all,
// and the set-up of `--agent` survives wrong answers; a broken ping is a failing ping check (exit 1),
// never a harness error (exit 2). Faults: the fake agent and a proxy in front of a real agent.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../../src/schema/generated/types.js';
import { waitReady } from '../../src/lab/instance.js';
import { startFakeAgent, json, type FakeAgent } from '../support/fake-agent.js';
import { startBreakingProxy, type Broken } from '../support/breaking-proxy.js';
import { useLab } from '../support/lab.js';
import { freePorts } from '../../src/lab/ports.js';
import { cliAsync } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';

describe('the lab waits for the API to answer, not for a right answer', () => {
  let fake: FakeAgent;
  before(async () => {
    fake = await startFakeAgent();
  });
  after(async () => {
    await fake.close();
  });
  const inst = () => ({
    name: 'agent',
    url: fake.url,
    apiKey: fake.apiKey,
    logFile: '/nonexistent',
    home: '/nonexistent',
  });

  test('a ping that answers 500 is an answer: ready', async () => {
    fake.route('GET /rest/system/ping', json({ error: 'broken' }, { status: 500 }));
    await waitReady(inst(), 2000);
    assert.ok(fake.requests.some((r) => r.path === '/rest/system/ping'));
  });

  test('no answer at all is not ready: a lab error naming the URL', async () => {
    const url = `http://127.0.0.1:${(await freePorts(1))[0]}`;
    await assert.rejects(
      waitReady({ ...inst(), url }, 300),
      (e: Error) => e.name === 'LabError' && e.message.includes(`the API at ${url} did not answer within 300 ms`),
    );
  });
});

describe('a run against an agent whose ping is broken', () => {
  const shared = useLab(1);
  const work = tempFolder('ready');

  /** `synconf run --agent PROXY --only system-ping` with the built command, through a proxy breaking `broken` */
  async function runThrough(
    broken: Broken,
    name: string,
  ): Promise<{ code: number | null; out: string; report: Report }> {
    const agent = shared.lab.instances[0];
    const proxy = await startBreakingProxy(agent.url, broken);
    try {
      const dir = join(work(), name);
      const { code, out } = await cliAsync([
        'run',
        '--agent',
        proxy.url,
        '--api-key',
        agent.apiKey,
        '--only',
        'system-ping',
        '--report-dir',
        dir,
      ]);
      return { code, out, report: JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as Report };
    } finally {
      await proxy.close();
    }
  }
  const verdictOf = (r: Report, id: string) => r.scenarios.flatMap((s) => s.checks).find((c) => c.id === id)?.verdict;

  test('control: through the proxy with nothing broken, the real agent conforms (exit 0)', async () => {
    const { code, out, report } = await runThrough({}, 'control');
    assert.equal(code, 0, out);
    assert.equal(verdictOf(report, 'system-ping/get-ping/status'), 'pass');
  });

  test('GET /rest/system/ping (and the status the set-up reads) broken: failing ping checks, exit 1, no harness error', async () => {
    const { code, out, report } = await runThrough(
      {
        'GET /rest/system/ping': { status: 500, body: '{"ping":"broken"}' },
        'GET /rest/system/status': { status: 500, body: 'internal error', contentType: 'text/plain' },
      },
      'broken',
    );
    assert.equal(code, 1, out);
    assert.deepEqual(report.harnessErrors, []);
    assert.equal(verdictOf(report, 'system-ping/get-ping/status'), 'fail');
    assert.equal(verdictOf(report, 'system-ping/post-ping/status'), 'pass', 'only the broken endpoint fails');
    assert.match(out, /DOES NOT CONFORM/);
  });
});
