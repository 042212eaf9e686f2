// Console progress of a run: a live line per scenario on a terminal, plain lines otherwise.
// Colour on a terminal, or wherever FORCE_COLOR asks for it (CI logs that show colour); never with NO_COLOR
// (or FORCE_COLOR=0). NO_COLOR and TERM=dumb (an editor's shell, a screen reader, a log that keeps every byte) get
// no escape sequence at all: no colour and no live line redrawn in place, one plain line per scenario.
import type { CheckResult, ScenarioResult } from '../../schema/generated/types.js';
import { checkKind, kindsAhead, moreLine, streamFold } from '../../report/fold.js';
import { pacer } from '../../turns.js';
import type { LoadedScenario } from '../../scenario/load.js';
import { printableLine } from '../../printable.js';
import { relative, resolve } from 'node:path';
import { shardLine } from '../../scenario/shard.js';
import { stabilityLine } from '../../verdict/repeat.js';
import { reportsLine } from '../../session/write-reports.js';
import type { RunListener } from '../../session/run-session.js';
import { harnessLines } from './harness-lines.js';

/** the terminal takes escape sequences: a terminal, not TERM=dumb, and NO_COLOR not set */
const redrawable = (tty: boolean, env: NodeJS.ProcessEnv) => tty && env.TERM !== 'dumb' && !env.NO_COLOR;
const colourOn = (tty: boolean, env: NodeJS.ProcessEnv) => {
  const force = env.FORCE_COLOR;
  return (
    !env.NO_COLOR && (force === undefined || force === '' ? redrawable(tty, env) : force !== '0' && force !== 'false')
  );
};
const VERDICT_COLOUR: Record<string, number> = {
  pass: 32,
  fail: 31,
  'expected-fail': 33,
  'unexpected-pass': 35,
  skip: 90,
};

/** the failing checks a scenario prints at most: one step of 20,000 failing assertions printed 20,000 lines */
const MAX_FAILURES_SHOWN = 20;

/** the progress lines on `stream`: stdout, or stderr where stdout holds a document (drift --json) */
export function progress(stream: NodeJS.WriteStream = process.stdout, env: NodeJS.ProcessEnv = process.env) {
  const live = redrawable(stream.isTTY === true, env);
  const colour = colourOn(stream.isTTY === true, env);
  const paint = (code: number, text: string) => (colour ? `\x1b[${code}m${text}\x1b[0m` : text);
  let timer: NodeJS.Timeout | undefined;
  let started = 0;
  // repeated identical problems: the first few printed, the rest counted (fold.ts), across the scenarios
  const problems = streamFold<{ check: CheckResult; scenario: string }>((p) => checkKind(p.check, p.scenario));
  const width = (n: number) => String(n).length;
  return {
    onStart(s: LoadedScenario, i: number, total: number) {
      if (!live) return;
      started = performance.now();
      const draw = () =>
        stream.write(
          `\r\x1b[K[${String(i + 1).padStart(width(total))}/${total}] ${printableLine(s.scenario.id)} … ${((performance.now() - started) / 1000).toFixed(1)}s`,
        );
      draw();
      timer = setInterval(draw, 200);
    },
    async onScenario(r: ScenarioResult, i: number, total: number) {
      if (timer) clearInterval(timer);
      const failing = r.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'unexpected-pass');
      await kindsAhead(failing, (c) => checkKind(c, r.id), pacer()); // a signal lands meanwhile
      const counts = r.checks.reduce<Record<string, number>>(
        (m, c) => ((m[c.verdict] = (m[c.verdict] ?? 0) + 1), m),
        {},
      );
      // A scenario that could not run (a corrupt cassette, a defect) is an error, not a skip.
      const error = r.mode === 'skipped' && r.skipReason?.startsWith('harness error');
      const detail = error
        ? r.skipReason
        : r.mode === 'skipped'
          ? `skipped: ${r.skipReason}`
          : Object.entries(counts)
              .map(([v, n]) => `${n} ${v}`)
              .join(', ');
      const label = error
        ? paint(31, 'ERROR'.padEnd(15))
        : paint(VERDICT_COLOUR[r.verdict] ?? 0, r.verdict.toUpperCase().padEnd(15));
      const line = `[${String(i + 1).padStart(width(total))}/${total}] ${label} ${printableLine(r.id)}${r.mode === 'absent' ? ' (absent)' : ''} (${(r.durationMs / 1000).toFixed(1)}s) ${printableLine(detail ?? '')}`;
      stream.write(live ? `\r\x1b[K${line}\n` : `${line}\n`);
      const shown = [...problems.next(failing.map((check) => ({ check, scenario: r.id })))];
      for (const { item, more } of shown.slice(0, MAX_FAILURES_SHOWN)) {
        stream.write(`      ${paint(31, '✗')} ${printableLine(`${item.check.id}: ${item.check.message}`)}\n`);
        if (more) stream.write(`      ${moreLine(more)}\n`);
      }
      const hidden = shown.slice(MAX_FAILURES_SHOWN).reduce((n, { more }) => n + 1 + (more ?? 0), 0);
      if (hidden)
        stream.write(`      … and ${hidden} more failing checks of ${printableLine(r.id)} (the report lists them)\n`);
    },
    verdict(line: string, exitCode: number) {
      for (const { first, more } of problems.rest())
        stream.write(`      ${moreLine(more, `${first.check.id} (in later scenarios)`)}\n`);
      stream.write(`${paint(exitCode === 0 ? 32 : 31, line)}\n`);
    },
  };
}

/** the path of a replayed folder as it reads well: relative inside the working folder, absolute outside it */
const shortPath = (p: string) => {
  const r = relative(process.cwd(), p);
  return r.startsWith('..') ? resolve(p) : r || '.';
};

/**
 * What a run session (run, replay, drift) prints as it goes, on stdout or (`linesToStderr`: drift --json, whose
 * stdout holds the JSON document alone) stderr: a line per scenario, the run n of m, the shard, and at its end the
 * stale known deviations, the harness errors, the verdict, where the reports are and the stability of a --repeat.
 */
export function runListener(linesToStderr = false): RunListener {
  const out = progress(linesToStderr ? process.stderr : process.stdout);
  const say = (line: string) => console.error(line);
  const tell = linesToStderr ? say : (line: string) => console.log(line);
  return {
    say,
    shard: (shard) => console.log(shardLine(shard)),
    targetStart: ({ run, of }) => (of > 1 ? tell(`run ${run} of ${of}`) : undefined),
    scenarioStart: (_, s, i, total) => out.onStart(s, i, total),
    scenario: (_, r, i, total) => out.onScenario(r, i, total),
    end({ report, paths, verdict, exitCode, replayed, removed }) {
      for (const id of report.staleExpectations ?? [])
        say(
          printableLine(
            `synconf: known deviation "${id}" matched no check of this run: update ${report.run.expectations}`,
          ),
        );
      // repeated identical harness errors (a step missing from a recording, many times over): the first few, then a count
      for (const line of harnessLines(report.harnessErrors)) say(line);
      out.verdict(verdict, exitCode);
      if (!removed) tell(`${reportsLine(paths)}${replayed ? `; replayed from ${shortPath(replayed)}` : ''}`);
      if (report.repeat) tell(stabilityLine(report)); // the last line: what a CI log shows first
    },
  };
}
