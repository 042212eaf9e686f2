// `synconf drift DIR-A DIR-B`: two recordings folders compared offline by shape. Each kind of difference is made
// in a copy of the bundled 1.19.2 recordings and must be caught; a folder against itself has none.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { driftBetween } from '../../src/changes/compare-dirs.js';
import { cliAsync } from '../support/cli.js';
import { BUNDLED_1_19, copyRecording, editCassette, simulatedNewerRecording } from '../support/recordings.js';
import { tempFolder } from '../support/temp.js';

const linesOf = (d: ReturnType<typeof driftBetween>, scenario: string) =>
  d.scenarios.find((s) => s.scenario === scenario)?.lines ?? [];

describe('drift between two recordings folders', () => {
  const work = tempFolder('drift-dirs');

  test('a folder against itself: 0 differences, exit 0', async () => {
    const d = driftBetween(BUNDLED_1_19, BUNDLED_1_19);
    assert.equal(d.differences, 0);
    assert.ok(d.scenarios.length >= 19);
    const r = await cliAsync(['drift', BUNDLED_1_19, BUNDLED_1_19]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^0 differences in 0 scenarios$/m);
  });

  test('each kind of difference is caught: field added, removed, type changed, status, media type, value form, scenario missing', async () => {
    const b = await copyRecording(work(), 'kinds');
    await editCassette(b, 'system-status', (e, body) => {
      if (e._step !== 'get-status') return undefined;
      const s = { ...(body as Record<string, unknown>) };
      s.themes = ['default']; // added
      delete s.tilde; // removed
      s.uptime = String(s.uptime); // number → string
      return s;
    });
    await editCassette(b, 'system-ping', (e) => {
      if (e._step === 'get-ping') {
        e.response.status = 404;
      }
      return undefined;
    });
    await editCassette(b, 'system-ping', (e) => {
      if (e._step === 'post-ping')
        e.response.headers = e.response.headers.map((h) =>
          h.name.toLowerCase() === 'content-type' ? { ...h, value: 'text/plain; charset=utf-8' } : h,
        );
      return undefined;
    });
    await unlink(join(b, 'auth-no-key.har'));
    const d = driftBetween(BUNDLED_1_19, b);
    const status = linesOf(d, 'system-status');
    assert.ok(status.includes('agent get-status: GET /rest/system/status: field /themes added'), status.join('\n'));
    assert.ok(status.includes('agent get-status: GET /rest/system/status: field /tilde removed'), status.join('\n'));
    assert.ok(
      status.includes('agent get-status: GET /rest/system/status: field /uptime type number → string'),
      status.join('\n'),
    );
    assert.ok(!status.some((l) => l.includes('get-status-again')), 'the step not edited shows nothing');
    const ping = linesOf(d, 'system-ping');
    assert.ok(
      ping.some((l) => /get-ping: GET \/rest\/system\/ping: status 200 → 404/.test(l)),
      ping.join('\n'),
    );
    assert.ok(
      ping.some((l) => /post-ping: POST \/rest\/system\/ping: media type application\/json → text\/plain/.test(l)),
      ping.join('\n'),
    );
    assert.deepEqual(linesOf(d, 'auth-no-key'), [`recorded only in ${BUNDLED_1_19}`]);
    assert.equal(d.differences, status.length + ping.length + 1, 'nothing else differs');

    const r = await cliAsync(['drift', BUNDLED_1_19, b]);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stdout, new RegExp(`^${d.differences} differences in 3 scenarios$`, 'm'));
  });

  test('the browse change of 1.29.5 (directories without the trailing separator) shows as a value that no longer matches the schema', async () => {
    const newer = await simulatedNewerRecording(work());
    const r = await cliAsync(['drift', BUNDLED_1_19, newer, '--differences']);
    assert.equal(r.code, 1, r.stdout + r.stderr);
    // the three differences are one cause, breaking
    assert.match(
      r.stdout,
      /^breaking +response-value-format-changed +GET \/rest\/system\/browse \/\*: .* \(3 occurrences in 1 scenario\)$/m,
    );
    assert.match(
      r.stdout,
      /^system-browse:\n {2}agent subdirectories: GET \/rest\/system\/browse\?current=<tmp>\/browse\/: values at \/\[\] no longer match the spec's schema \(pattern \[\/\\\\\]\$\)$/m,
    );
    assert.match(
      r.stdout,
      /agent partial-name: GET \/rest\/system\/browse\?current=<tmp>\/browse\/al: values at \/\[\] no longer match/,
    );
    assert.match(r.stdout, /^system-ping: no difference$/m);
    // and back: the older folder matches the schema where the newer did not
    const back = driftBetween(newer, BUNDLED_1_19);
    assert.ok(
      linesOf(back, 'system-browse').every((l) => /match the spec's schema now/.test(l)) &&
        linesOf(back, 'system-browse').length === 3,
      linesOf(back, 'system-browse').join('\n'),
    );
  });

  test('input errors exit 2 naming the folder or cassette; three folders or --lab with two is a usage error', async () => {
    const missing = await cliAsync(['drift', BUNDLED_1_19, join(work(), 'nope')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /recordings folder .*nope does not exist/);
    const broken = await copyRecording(work(), 'broken');
    await writeFile(join(broken, 'system-ping.har'), '{ not json');
    const bad = await cliAsync(['drift', BUNDLED_1_19, broken]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /system-ping\.har/);
    const three = await cliAsync(['drift', BUNDLED_1_19, BUNDLED_1_19, BUNDLED_1_19]);
    assert.equal(three.code, 2);
    const lab = await cliAsync(['drift', '--lab', BUNDLED_1_19, BUNDLED_1_19]);
    assert.equal(lab.code, 2);
    assert.match(lab.stderr, /--lab does not apply/);
  });
});
