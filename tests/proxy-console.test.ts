// The proxy's console (issue 37): on a terminal (a pseudo-terminal that script(1) gives it, as tests/cli.test.ts does)
// one line per finished exchange, its method, URL (credentials redacted, control characters escaped), status, verdict
// word and duration; none in CI (CI set), with --quiet, or when stdout is no terminal. The closing line speaks of the
// endpoints the client called, not of scenarios.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { join } from 'node:path';
import { ROOT } from '../src/paths.js';
import { BIN, cliEnv } from './support/cli.js';
import { tempFolder } from './support/temp.js';
import { wordOf } from '../src/proxy/session.js';

const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const KEY = 'console-test-key-0123456789';
const work = tempFolder('proxy-console');

/** GET path of the proxy with the key; its status */
const get = (url: string, path: string) =>
  new Promise<number>((resolve, reject) =>
    http
      .get(new URL(path, url), { headers: { 'X-API-Key': KEY } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      })
      .on('error', reject),
  );

/**
 * `synconf proxy --recordings … --count 4` with its stdout a terminal (script -qfec) or a pipe; the client's four
 * requests once it printed its URL; all it printed, once it stopped
 */
function session(opts: { terminal: boolean; env?: NodeJS.ProcessEnv; args?: string[] }): Promise<string> {
  const argv = [BIN, 'proxy', '--recordings', REC, '--api-key', KEY, '--count', '4', '--report-dir', 'r'];
  const all = [process.execPath, ...argv, ...(opts.args ?? [])];
  const child = opts.terminal
    ? spawn('script', ['-qfec', all.map((a) => `'${a}'`).join(' '), '/dev/null'], {
        cwd: work(),
        env: cliEnv({ CI: undefined, TERM: 'dumb', ...opts.env }),
      })
    : spawn(all[0], all.slice(1), { cwd: work(), env: cliEnv({ CI: undefined, ...opts.env }) });
  let out = '';
  let asked = false;
  const ask = async (url: string) => {
    assert.equal(await get(url, '/rest/system/ping'), 200);
    assert.equal(await get(url, '/rest/system/version'), 200);
    await get(url, `/rest/system/status?apikey=${KEY}`);
    // Node's HTTP parser refuses raw control bytes in a request line; escaped ones stay as the client wrote them
    await get(url, '/rest/db/status?folder=%1b%5B2J%E2%80%AE');
  };
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer) => {
      out += d.toString();
      const url = /^URL\s+(\S+)/m.exec(out)?.[1];
      if (url && !asked) {
        asked = true;
        ask(url).catch(reject);
      }
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('close', () => resolve(out));
  });
}

const EXCHANGE = /^#\d+ /m;

describe('synconf proxy: a line per exchange on a terminal', () => {
  test('on a terminal: one line each, redacted and escaped, with status, verdict and duration', async () => {
    const out = await session({ terminal: true });
    assert.match(out, /^#1 GET \/rest\/system\/ping → 200 pass \(\d+ ms\)\r?$/m, out);
    assert.match(out, /^#2 GET \/rest\/system\/version → 200 outside spec \(\d+ ms\)\r?$/m, out);
    assert.match(out, /^#3 GET \/rest\/system\/status\?apikey=<REDACTED> → \d+ \S.* \(\d+ ms\)\r?$/m, out);
    assert.match(out, /^#4 GET \/rest\/db\/status\?folder=%1b%5B2J%E2%80%AE → \d+ \S.* \(\d+ ms\)\r?$/m, out);
    const lines = out.split('\n').filter((l) => EXCHANGE.test(l));
    assert.equal(lines.length, 4, out);
    assert.ok(!lines.some((l) => l.includes(KEY)), `the API key reaches an exchange's line: ${out}`);
    assert.doesNotMatch(out, /[\x80-\x9f\u202a-\u202e]/, JSON.stringify(out));
    // the closing line counts the endpoints of the spec the client called, not scenarios
    assert.match(out, /stopped \(--count 4\); (DOES NOT CONFORM|CONFORMS): \d+ endpoints?, /, out);
    assert.doesNotMatch(out, /scenario/, out);
  });

  const OFF: [string, { terminal: boolean; env?: NodeJS.ProcessEnv; args?: string[] }][] = [
    ['in CI (CI=true)', { terminal: true, env: { CI: 'true' } }],
    ['with --quiet', { terminal: true, args: ['--quiet'] }],
    ['when stdout is no terminal', { terminal: false }],
  ];
  for (const [when, opts] of OFF)
    test(`none ${when}`, async () => {
      const out = await session(opts);
      assert.match(out, /stopped \(--count 4\)/, out);
      assert.doesNotMatch(out, EXCHANGE, out);
    });
});

// the word is the worst verdict of the checks that told something: an unexpected pass (a listed deviation the agent
// no longer shows) read "pass" beside a passing check, when the word was picked by hand from three verdicts
describe("an exchange's verdict word", () => {
  const rows: [verdicts: ('pass' | 'fail' | 'skip' | 'expected-fail' | 'unexpected-pass')[], word: string][] = [
    [['pass', 'skip'], 'pass'],
    [['pass', 'unexpected-pass'], 'unexpected pass'],
    [['expected-fail', 'pass'], 'known deviation'],
    [['expected-fail', 'fail'], 'fail'],
    [['skip'], 'cannot tell'],
    [[], 'cannot tell'],
  ];
  for (const [verdicts, word] of rows)
    test(`${verdicts.join(', ') || 'no check'}: ${word}`, () => {
      assert.equal(wordOf(verdicts.map((verdict) => ({ verdict }))), word);
    });
});
