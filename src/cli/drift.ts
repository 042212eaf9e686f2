// `synconf drift`: record the scenarios afresh and compare with existing cassettes by shape.
import type { Command } from 'commander';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { commonRunOptions, targetOptions, liveTargetMaker, type CommonRunOptions, type TargetOptions } from './run.js';
import { DEFAULT_RECORDINGS } from './replay.js';
import { EXIT } from './exit.js';

interface DriftOptions extends CommonRunOptions, TargetOptions { keep?: boolean; }

export function registerDrift(program: Command): void {
  const drift = program
    .command('drift')
    .description('Record the scenarios afresh from a live agent and compare with existing cassettes by shape (status, media type, fields and their types, event types); exit 1 when anything differs')
    .argument('[dir]', 'the cassettes to compare with (default: the bundled recordings)');
  targetOptions(commonRunOptions(drift))
    .option('--keep', 'keep the fresh recording (its folder is printed)')
    .addHelpText('after', '\nExamples:\n  synconf drift --lab                         a fresh lab agent against the bundled 1.19.2 recordings\n  synconf drift --agent URL --api-key KEY DIR  what changed in the agent running here')
    .action(async (dirArg: string | undefined, opts: DriftOptions) => {
      const { executeRun } = await import('./execute-run.js');
      const { readCassette, CassetteError } = await import('../transport/cassette.js');
      const { driftOf } = await import('../transport/drift.js');
      const dir = dirArg ?? DEFAULT_RECORDINGS;
      const fresh = mkdtempSync(join(tmpdir(), 'synconf-drift-'));
      try {
        const code = await executeRun({ ...opts, reportDir: join(fresh, 'report'), failOn: ['fail'] }, liveTargetMaker(opts), { dir: join(fresh, 'cassettes'), mode: 'all', redact: [] });
        if (code === EXIT.usage) { process.exitCode = EXIT.usage; return; }
        let differences = 0;
        let problems = 0;
        const recorded = readdirSync(join(fresh, 'cassettes')).filter((f) => f.endsWith('.har') && f !== '_run.har').map((f) => f.slice(0, -4)).sort();
        console.log(`\ndrift of ${recorded.length} scenarios against ${dir}:`);
        for (const scenario of recorded) {
          try {
            const before = readCassette(dir, scenario);
            const after = readCassette(join(fresh, 'cassettes'), scenario)!;
            const lines = before ? driftOf(before, after) : ['no cassette in the old recording'];
            differences += lines.length;
            console.log(lines.length ? `${scenario}:\n${lines.map((l) => `  ${l}`).join('\n')}` : `${scenario}: no difference`);
          } catch (e) {
            if (!(e instanceof CassetteError)) throw e;
            problems++;
            console.error(`${scenario}: ${e.message}`);
          }
        }
        console.log(`${differences} difference${differences === 1 ? '' : 's'}${problems ? `, ${problems} unreadable cassette(s)` : ''}`);
        process.exitCode = problems ? EXIT.usage : differences ? EXIT.nonConforming : EXIT.ok;
      } finally {
        if (opts.keep) console.log(`fresh recording kept in ${fresh}`);
        else rmSync(fresh, { recursive: true, force: true });
      }
    });
}
