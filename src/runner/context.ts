// Everything a scenario run needs from the outside, injected so that live, recording and replay
// runs share one runner.
import type { Transport } from '../transport/types.js';
import type { Clock } from './clock.js';
import type { Vars } from '../scenario/template.js';
import type { Redactor } from '../transport/redact.js';
import type { Step, StepExpectations } from '../schema/generated/types.js';
import type { Exchange } from '../transport/types.js';
import type { UndocumentedNotes } from './undocumented.js';

export type FileAction = NonNullable<Step['file']>;

export type Capability = 'peer' | 'files' | 'restart' | 'shutdown';

/** Local file actions of `file:` steps; a replay's actions do nothing (the cassette already holds their effect). */
export interface LocalActions {
  /** a fresh folder synconf owns for one scenario */
  makeTempDir(scenario: string): Promise<string>;
  apply(action: FileAction, allowedRoots: string[]): Promise<void>;
  removeTempDir(path: string): Promise<void>;
}

export interface RunContext {
  transport: Transport;
  clock: Clock;
  actions: LocalActions;
  redactor: Redactor;
  /** null when unknown: the spec applies */
  agentVersion: string | null;
  /** API key per instance name (placeholders in a replay) */
  apiKeys: Record<string, string>;
  /** per capability: true, or the reason it cannot be had */
  capabilities: Record<Capability, true | string>;
  /** run variables: agent.*, peer.* */
  vars: Vars;
  requestTimeoutMs: number;
  /** minimum time between two calls of an expensive endpoint on one instance */
  expensiveIntervalMs: number;
  expensiveCalls: Record<string, number>;
  /** per instance and expensive endpoint: when it was last called (clock time), across scenarios */
  lastExpensiveAt: Record<string, number>;
  /** per instance: bumped whenever it did not answer (it may have restarted: event ids start again) */
  generations: Record<string, number>;
  /** undocumented members seen so far, and whether they fail (--strict) */
  undocumented: UndocumentedNotes;
  /** per endpoint, the version statements its version-gate checks prove (the index's boundaries) */
  gateStatements?: Record<string, string[]>;
  /** aborted when the scenario must stop (Ctrl-C, a time bound, an agent that stopped answering), with the reason */
  signal?: AbortSignal;
  /** a live target's look at an instance past the recorder: why it does not answer, and when it last started */
  watch?: AgentWatch;
  /** sees what each step checked, with templates filled in (mutation testing derives its mutants from it) */
  observe?(seen: ObservedStep): void;
}

/** A step as checked: a request step's expectations and the exchange they held on, or an event expectation. */
export type ObservedStep =
  | {
      scenario: string;
      step: string;
      kind: 'request';
      expect?: StepExpectations;
      capture?: Record<string, string>;
      exchange: Exchange;
    }
  | { scenario: string; step: string; kind: 'event'; expectEvent: NonNullable<Step['expectEvent']>; target: string };

/** The spec calls these expensive: never polled in a tight loop, and counted. */
export const EXPENSIVE = ['GET /rest/db/status', 'GET /rest/db/localchanged'];

/**
 * What a live target can tell about its instances without a request of the run (nothing recorded, nothing checked):
 * whether one still answers at all, and the startTime it says (a restart changes it).
 */
export interface AgentWatch {
  /** after a request got no response (`code`: timeout, refused, reset): undefined when the instance answers again; else why not, naming it */
  silent(target: string, code: string): Promise<string | undefined>;
  /** GET /rest/system/status startTime, undefined when it did not say */
  startTime(target: string): Promise<string | undefined>;
}
