// `synconf drift`: record the scenarios afresh and compare with existing cassettes by shape.
import type { CommandModule } from 'yargs';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { commonRunOptions, targetOptions, liveTargetMaker, type CommonRunArgs, type TargetArgs } from './run.js';
import { DEFAULT_RECORDINGS } from './replay.js';
import { EXIT } from './exit.js';

interface DriftArgs extends CommonRunArgs, TargetArgs { dir?: string; keep: boolean; }

export const driftCommand: CommandModule<object, DriftArgs> = {
  command: 'drift [dir]',
  describe: 'Record the scenarios afresh from a live agent and compare with existing cassettes by shape (status, media type, fields and their types, event types); exit 1 when anything differs',
  builder: (y) =>
    targetOptions(commonRunOptions(y))
      .positional('dir', { type: 'string', describe: 'the cassettes to compare with (default: the bundled recordings)' })
      .option('keep', { type: 'boolean', default: false, describe: 'keep the fresh recording (its folder is printed)' })
      .example('$0 drift --lab', 'compare a fresh lab agent with the bundled 1.19.2 recordings')
      .example('$0 drift --agent http://127.0.0.1:8384 --api-key $KEY recordings/syncthing-1.19.2', 'what changed in the agent running here'),
  handler: async (args) => {
    const { executeRun } = await import('./execute-run.js');
    const { readCassette, CassetteError } = await import('../transport/cassette.js');
    const { driftOf } = await import('../transport/drift.js');
    const dir = args.dir ?? DEFAULT_RECORDINGS;
    const fresh = mkdtempSync(join(tmpdir(), 'synconf-drift-'));
    try {
      const code = await executeRun({ ...args, 'report-dir': join(fresh, 'report'), 'fail-on': ['fail'] }, liveTargetMaker(args), { dir: join(fresh, 'cassettes'), mode: 'all', redact: [] });
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
      if (args.keep) console.log(`fresh recording kept in ${fresh}`);
      else rmSync(fresh, { recursive: true, force: true });
    }
  },
};
