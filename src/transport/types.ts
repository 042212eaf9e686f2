// What the runner sends and gets back, whatever the transport (live, recording, replay).
import type { CassetteMeta } from '../schema/generated/types.js';

export interface OutgoingRequest {
  /** which instance: "agent" or "peer" */
  target: string;
  method: string;
  /** path and query, e.g. /rest/db/status?folder=abc */
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

export interface IncomingResponse {
  status: number;
  /** lower-case names; repeated headers joined with ", " */
  headers: Record<string, string>;
  body: string;
}

/** A request and its outcome: a response, or the reason there was none. */
export interface Exchange {
  request: OutgoingRequest;
  response?: IncomingResponse;
  /** refused, reset, timeout, … when the agent gave no HTTP response */
  error?: { code: string; message: string };
  startedAt: string;
  durationMs: number;
  /** where the exchange is kept when a cassette holds it (replayed or recorded): file and index in log.entries */
  har?: { file: string; entry: number };
}

/** Context of an exchange: which scenario and step asked for it (recorded in cassettes). */
export interface ExchangeContext {
  scenario: string;
  step: string;
  /** 2, 3, … when a wait or an event poll repeats the request; a replay then may run out of recorded answers */
  attempt?: number;
}

/** What a run tells a transport about a scenario, for recordings. */
export type ScenarioMeta = Partial<Pick<CassetteMeta, 'tmp' | 'vars' | 'capabilities' | 'agent'>>;

/** A problem of the recordings found while replaying (exit 2: the input, not the agent, is wrong). */
export interface ReplayProblem {
  scenario: string;
  message: string;
}

export interface Transport {
  send(request: OutgoingRequest, context: ExchangeContext): Promise<Exchange>;
  /** called once a scenario is finished (recorders write its cassette, replayers note leftovers) */
  endScenario?(scenario: string): Promise<void>;
  /** facts a recording keeps with a scenario ("_run" for the run itself) */
  annotate?(scenario: string, meta: ScenarioMeta): void;
  /** replay: stale or broken recordings found so far */
  problems?(): ReplayProblem[];
  /** replay: recorded exchanges no step asked for */
  unused?(): { scenario: string; request: string }[];
  close(): Promise<void>;
}

/** the largest request body synconf reads (serve, and the proxy in front of an agent): a whole configuration of a
 * large agent is well under it; a larger one is refused with 413 as it arrives, never buffered */
export const MAX_REQUEST_BODY = 8 * 1024 * 1024;

/** error code of a replay whose recording holds no further answer (a wait or poll ends there) */
export const RECORDING_ENDS = 'recording-ends';
/** error code of a request the recording lacks */
export const REPLAY_MISS = 'replay-miss';

/** refused or reset: the agent was not there (down, restarting, shut down); which of the two is timing */
export function agentGone(error: Exchange['error']): boolean {
  return error?.code === 'refused' || error?.code === 'reset';
}

/** Where each instance is reached; only the live transport uses url and apiKey. */
export interface Endpoint {
  url: string;
  apiKey: string;
}
