// What a session tells its command as it goes: one kind of listener for every command that runs scenarios (run,
// replay, drift; matrix, history, bisect), which the terminal printers (commands/terminal/) implement. The session
// prints nothing itself: each line it has for the user goes up through one of these.
import type { Report, ScenarioResult } from '../schema/generated/types.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Shard } from '../scenario/shard.js';

/** `T` names a target of the session (a matrix's version, a run's n-th of --repeat); `End` what its end gives */
export interface SessionListener<T, End> {
  /** the session begins: its signals are heard from now on (a line before could race the guard) */
  begin?(): void;
  /** which shard of which plan every report of the session is (--shard), once, before any target runs */
  shard?(shard: Shard): void;
  /** a target's run begins */
  targetStart?(target: T): void;
  /** a scenario of a target begins */
  scenarioStart?(target: T, s: LoadedScenario, index: number, total: number): void;
  /** a scenario of a target ended (awaited: its lines may take a while, paced) */
  scenario?(target: T, result: ScenarioResult, index: number, total: number): void | Promise<void>;
  /** a target's report is written in `dir` */
  targetEnd?(target: T, report: Report, dir: string): void;
  /** the session ended: what it wrote */
  end?(ending: End): void;
  /** a line for the user beside the progress (on stderr) */
  say(line: string): void;
}
