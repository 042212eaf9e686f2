// `synconf drift`: compare recordings by shape — two folders offline (DIR-A DIR-B), or a folder with a fresh
// recording of a live agent (the scenarios recorded into a temp folder first). The comparison is src/drift/; this
// prints it: per scenario its differences, one line each, then the count.
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { EXIT } from '../errors.js';
import { DEFAULT_RECORDINGS } from '../paths.js';
import { executeRun, type CommonRunOptions } from './run.js';
import { liveTargetMaker, type TargetOptions } from './targets.js';
import { readCassette, CassetteError } from '../transport/cassette.js';
import { driftOf } from '../drift/compare.js';
import { driftBetween } from '../drift/compare-dirs.js';
import { idPattern } from '../scenario/select.js';

export interface DriftOptions extends Omit<CommonRunOptions, 'reportDir' | 'failOn'>, TargetOptions {
  keep?: boolean;
}

/** `synconf drift [DIR]` or `synconf drift DIR-A DIR-B` */
export async function drift(opts: DriftOptions & { dirs?: string[] }): Promise<void> {
  const dirs = opts.dirs ?? [];
  process.exitCode =
    dirs.length === 2
      ? await printFolderDrift(dirs[0], dirs[1], opts.only)
      : await driftRun(dirs[0] ?? DEFAULT_RECORDINGS, opts);
}

/** the differences of one scenario, as printed */
const scenarioDrift = (scenario: string, lines: string[]) =>
  lines.length ? `${scenario}:\n${lines.map((l) => `  ${l}`).join('\n')}` : `${scenario}: no difference`;

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** records into a temp folder, prints the differences with `dir`, and returns the exit code */
export async function driftRun(dir: string, opts: DriftOptions): Promise<number> {
  const fresh = mkdtempSync(join(tmpdir(), 'synconf-drift-'));
  try {
    const code = await executeRun(
      { ...opts, reportDir: join(fresh, 'report'), failOn: ['fail'] },
      liveTargetMaker(opts),
      { dir: join(fresh, 'cassettes'), mode: 'all', redact: [] },
    );
    if (code === EXIT.usage) return EXIT.usage;
    let differences = 0;
    let problems = 0;
    const recorded = readdirSync(join(fresh, 'cassettes'))
      .filter((f) => f.endsWith('.har') && f !== '_run.har')
      .map((f) => f.slice(0, -4))
      .sort();
    console.log(`\ndrift of ${plural(recorded.length, 'scenario')} against ${dir}:`);
    for (const scenario of recorded) {
      try {
        const before = readCassette(dir, scenario);
        const after = readCassette(join(fresh, 'cassettes'), scenario)!;
        const lines = before ? driftOf(before, after) : ['no cassette in the old recording'];
        differences += lines.length;
        console.log(scenarioDrift(scenario, lines));
      } catch (e) {
        if (!(e instanceof CassetteError)) throw e;
        problems++;
        console.error(`${scenario}: ${e.message}`);
      }
    }
    console.log(
      `${plural(differences, 'difference')}${problems ? `, ${plural(problems, 'unreadable cassette')}` : ''}`,
    );
    return problems ? EXIT.usage : differences ? EXIT.nonConforming : EXIT.ok;
  } finally {
    if (opts.keep) console.log(`fresh recording kept in ${fresh}`);
    else rmSync(fresh, { recursive: true, force: true });
  }
}

/** prints the drift between two folders and returns the exit code: 0 none, 1 differences, 2 unreadable cassettes */
export async function printFolderDrift(a: string, b: string, only?: string[]): Promise<number> {
  const patterns = only?.map(idPattern);
  const found = driftBetween(a, b, patterns && ((id) => patterns.some((r) => r.test(id))));
  console.log(`drift of ${plural(found.scenarios.length, 'scenario')} from ${a} to ${b}:`);
  for (const s of found.scenarios) console.log(scenarioDrift(s.scenario, s.lines));
  for (const p of found.problems) console.error(`synconf drift: ${p}`);
  const changed = found.scenarios.filter((s) => s.lines.length).length;
  console.log(
    `${plural(found.differences, 'difference')} in ${plural(changed, 'scenario')}${found.problems.length ? `, ${found.problems.length} unreadable cassette(s)` : ''}`,
  );
  return found.problems.length ? EXIT.usage : found.differences ? EXIT.nonConforming : EXIT.ok;
}
