// `synconf drift`: record the scenarios afresh and compare with existing cassettes by shape; or, given two
// recordings folders, compare them offline.
import type { Command } from 'commander';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { commonRunOptions, targetOptions, liveTargetMaker, type CommonRunOptions, type TargetOptions } from './run.js';
import { DEFAULT_RECORDINGS } from './replay.js';
import { EXIT, UsageError } from './exit.js';

interface DriftOptions extends CommonRunOptions, TargetOptions { keep?: boolean; }

export function registerDrift(program: Command): void {
  const drift = program
    .command('drift')
    .description('Compare two recordings by shape (status, media type, fields and their types, values against the spec\'s patterns and formats, event types): two folders offline, or one folder against a fresh recording of a live agent; exit 0 no difference, 1 differences, 2 input error')
    .argument('[dirs...]', 'DIR-A DIR-B: two recordings folders, compared offline (A the older); or one folder to compare a fresh live recording with (default: the bundled recordings)');
  targetOptions(commonRunOptions(drift))
    .option('--keep', 'keep the fresh recording (its folder is printed)')
    .addHelpText('after', '\nExamples:\n  synconf drift recordings/syncthing-1.19.2 recordings/syncthing-1.29.5   offline: what changed between two versions\n  synconf drift --lab                         a fresh lab agent against the bundled 1.19.2 recordings\n  synconf drift --agent URL --api-key KEY DIR  what changed in the agent running here')
    .action(async (dirs: string[], opts: DriftOptions) => {
      if (dirs.length > 2) throw new UsageError(`drift compares two recordings folders; got ${dirs.length}: ${dirs.join(' ')}`);
      if (dirs.length === 2) {
        if (opts.lab || opts.agent) throw new UsageError('drift DIR-A DIR-B compares two recordings offline: --lab and --agent do not apply');
        const { printFolderDrift } = await import('./drift-print.js');
        process.exitCode = await printFolderDrift(dirs[0], dirs[1], opts.only);
        return;
      }
      const dirArg = dirs[0];
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
