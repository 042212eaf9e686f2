// Where a run's exchanges are, for comparing versions: every report folder keeps its run's exchanges as redacted HAR
// cassettes (report.json run.exchanges, a folder beside report.json). A report without them (an older synconf, a
// run that never reached its agent) gives the reason instead, so a comparison says "cannot tell" and why.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../schema/generated/types.js';
import { cassettePath, RUN_CASSETTE } from '../transport/cassette.js';
import { isAlive } from '../lab/procs.js';

/** the folder a report's cassettes are kept in, under its report folder */
export const EXCHANGES_DIR = 'recordings';

/** where this process's live run records the exchanges of the report folder `reportDir`, until its report is written */
export const liveExchangesDir = (reportDir: string, pid = process.pid) =>
  `${join(reportDir, EXCHANGES_DIR)}.${pid}.live`;

/** the exchanges a synconf process that died was recording into `reportDir`: never swapped in, removed */
export function removeDeadStages(reportDir: string): void {
  let names: string[] = [];
  try {
    names = readdirSync(reportDir);
  } catch {
    return; // no folder yet
  }
  for (const name of names) {
    const pid = Number(new RegExp(`^${EXCHANGES_DIR}\\.(\\d+)\\.(live|partial)$`).exec(name)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) rmSync(join(reportDir, name), { recursive: true, force: true });
  }
}

/** the exchanges of a run: its recordings folder, or why it has none */
export type RunExchanges = { dir: string } | { missing: string };

/** the exchanges of the report kept in `reportDir` (the folder of its report.json) */
export function exchangesOf(report: Report, reportDir: string): RunExchanges {
  const name = report.run.exchanges;
  if (!name)
    return { missing: 'its report keeps no exchanges: an older synconf, or a run that never reached its agent' };
  const dir = join(reportDir, name);
  if (!existsSync(cassettePath(dir, RUN_CASSETTE)))
    return { missing: `its exchanges folder ${dir} is gone or holds no ${RUN_CASSETTE}.har` };
  return { dir };
}
