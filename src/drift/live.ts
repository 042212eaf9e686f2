// `synconf drift`: record the scenarios afresh from a live agent and compare with existing cassettes by shape.
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { EXIT } from '../errors.js';
import { executeRun, type CommonRunOptions } from '../runner/execute.js';
import { liveTargetMaker, type TargetOptions } from '../runner/live-target.js';
import { readCassette, CassetteError } from '../transport/cassette.js';
import { driftOf } from './compare.js';

export interface DriftOptions extends Omit<CommonRunOptions, 'reportDir' | 'failOn'>, TargetOptions {
  keep?: boolean;
}

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
    console.log(`\ndrift of ${recorded.length} scenario${recorded.length === 1 ? '' : 's'} against ${dir}:`);
    for (const scenario of recorded) {
      try {
        const before = readCassette(dir, scenario);
        const after = readCassette(join(fresh, 'cassettes'), scenario)!;
        const lines = before ? driftOf(before, after) : ['no cassette in the old recording'];
        differences += lines.length;
        console.log(
          lines.length ? `${scenario}:\n${lines.map((l) => `  ${l}`).join('\n')}` : `${scenario}: no difference`,
        );
      } catch (e) {
        if (!(e instanceof CassetteError)) throw e;
        problems++;
        console.error(`${scenario}: ${e.message}`);
      }
    }
    console.log(
      `${differences} difference${differences === 1 ? '' : 's'}${problems ? `, ${problems} unreadable cassette${problems === 1 ? '' : 's'}` : ''}`,
    );
    return problems ? EXIT.usage : differences ? EXIT.nonConforming : EXIT.ok;
  } finally {
    if (opts.keep) console.log(`fresh recording kept in ${fresh}`);
    else rmSync(fresh, { recursive: true, force: true });
  }
}
