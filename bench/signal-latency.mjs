// How soon a signal ends synconf, wherever it lands (issue 41): `node --import tsx bench/signal-latency.mjs [N]`
// (after `npm run build`; SYNCONF_TEST_BIN names another build). For three commands (a replay of one scenario of
// 50 steps × 1,000 `each:` rows from the bundled 1.19.2 recordings, a replay of a 200,000-step scenario, `mutate`
// of the bundled recordings) each is timed once unsignalled, then SIGINT, SIGTERM and SIGHUP are each sent at N
// instants (default 10) spread over that timeline (tests/support/signal-shots.ts). Prints, per shot, the exit code,
// the latency from the signal to the process's exit, the "interrupted" lines and what became of the report files;
// then per command the median and the largest latency. A shot whose process had ended before its signal is "—".
// ONLY=WORD times only the commands whose name holds WORD ("each", "200,000", "mutate").
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtures, instants, shoot, SIGNAL_CODES, timeline } from '../tests/support/signal-shots.ts';

const N = Number(process.argv[2] ?? 10);
const ROOT = new URL('..', import.meta.url).pathname;
const REC = join(ROOT, 'recordings', 'syncthing-1.19.2');
const dir = mkdtempSync(join(tmpdir(), 'synconf-bench-signals-'));
fixtures.eachRows(dir);
fixtures.longScenario(dir, 200_000, REC);
const RUN_FILES = ['report.json', 'junit.xml', 'report.html', 'summary.md'];
const commands = {
  'replay 50 × 1,000 each: rows': {
    argv: ['replay', REC, '--suite', 'big.yaml', '--report-dir', 'r'],
    cwd: dir,
    reportDir: 'r',
    files: RUN_FILES,
  },
  'replay of a 200,000-step scenario': {
    argv: ['replay', 'rec', '--suite', 'suite', '--report-dir', 'r'],
    cwd: dir,
    reportDir: 'r',
    files: RUN_FILES,
  },
  'mutate of the bundled recordings': {
    argv: ['mutate', '--report-dir', 'm'],
    cwd: dir,
    reportDir: 'm',
    files: ['mutation.json', 'mutation.html', 'mutation.md'],
    interruptedMark: (doc) => /INTERRUPTED/.test(doc.verdict),
  },
};

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
try {
  for (const [name, cmd] of Object.entries(commands).filter(([n]) => n.includes(process.env.ONLY ?? ''))) {
    const whole = await timeline(cmd);
    console.log(`\n## ${name}: ${Math.round(whole.ms)} ms unsignalled (exit ${whole.code})\n`);
    console.log('| signal | sent at ms | exit | latency ms | interrupted lines | report files |');
    console.log('|---|---|---|---|---|---|');
    const latencies = [];
    for (const signal of Object.keys(SIGNAL_CODES))
      for (const at of instants(whole.ms, N)) {
        const shot = await shoot(cmd, signal, at);
        if (shot.landed) latencies.push(shot.latencyMs);
        const cells = shot.landed
          ? [shot.code, shot.latencyMs, shot.interruptedLines, shot.reportFault ?? 'whole']
          : ['—', '—', '—', 'ended before the signal'];
        console.log(`| ${signal} | ${shot.atMs} | ${cells.join(' | ')} |`);
      }
    const wrong = latencies.length ? `median ${median(latencies)} ms, largest ${Math.max(...latencies)} ms` : 'none';
    console.log(`\n${name}: latency signal → exit over ${latencies.length} shots: ${wrong}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
