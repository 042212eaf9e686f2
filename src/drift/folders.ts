// Output of `synconf drift DIR-A DIR-B`: per scenario the shape differences, one line each, then the count.
import { driftBetween } from './compare-dirs.js';
import { EXIT } from '../errors.js';
import { idPattern } from '../scenario/select.js';

/** prints the drift between two folders and returns the exit code: 0 none, 1 differences, 2 unreadable cassettes */
export async function printFolderDrift(a: string, b: string, only?: string[]): Promise<number> {
  const patterns = only?.map(idPattern);
  const drift = driftBetween(a, b, patterns && ((id) => patterns.some((r) => r.test(id))));
  console.log(
    `drift of ${drift.scenarios.length} scenario${drift.scenarios.length === 1 ? '' : 's'} from ${a} to ${b}:`,
  );
  for (const s of drift.scenarios)
    console.log(
      s.lines.length ? `${s.scenario}:\n${s.lines.map((l) => `  ${l}`).join('\n')}` : `${s.scenario}: no difference`,
    );
  for (const p of drift.problems) console.error(`synconf drift: ${p}`);
  const changed = drift.scenarios.filter((s) => s.lines.length).length;
  console.log(
    `${drift.differences} difference${drift.differences === 1 ? '' : 's'} in ${changed} scenario${changed === 1 ? '' : 's'}${drift.problems.length ? `, ${drift.problems.length} unreadable cassette(s)` : ''}`,
  );
  return drift.problems.length ? EXIT.usage : drift.differences ? EXIT.nonConforming : EXIT.ok;
}
