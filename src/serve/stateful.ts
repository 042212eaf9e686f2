// serve --stateful: the requests the state answers (state-rules.ts), as the agent would answer them, and which rule
// answered (the request log says so beside each answer).
import type { HarEntry } from '../schema/generated/types.js';
import type { IncomingResponse, OutgoingRequest } from '../transport/types.js';
import type { EventLog } from './events.js';
import { AgentState } from './state.js';
import { seedFrom, type Seed } from './state-seed.js';
import { STATE_RULES, type StateReply, type StateRule } from './state-rules.js';

export interface StateAnswer {
  response: IncomingResponse;
  /** "METHOD path-pattern (follows)": the rule that answered */
  rule: string;
  /** what the agent does once it answered (POST /rest/system/restart, /shutdown) */
  after?: StateReply['after'];
}

/** Go's JSON encoder escapes these in strings (an answer of the agent never holds them bare) */
const goEscape = (text: string) => text.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

export class StatefulAgent {
  readonly state: AgentState;
  private readonly rules: StateRule[];

  constructor(
    entries: HarEntry[],
    events: EventLog,
    private readonly agentVersion?: string,
  ) {
    const seed = seedFrom(entries);
    this.state = new AgentState(seed, events);
    this.rules = STATE_RULES.filter((r) => applies(r, seed));
  }

  /** the paths the state answers, by method (a row's pattern as a path: its one parameter a folder's or device's ID) */
  get routes(): { method: string; path: string }[] {
    return this.rules.map((r) => ({
      method: r.method,
      path: r.path.source
        .replace(/^\^|\$$/g, '')
        .replace('([^/]+)', 'ID')
        .replace(/\\\//g, '/'),
    }));
  }

  /** the state's answer to this request (`path`: decoded, as the agent routes it), or undefined when the recordings
   * answer it */
  answer(req: OutgoingRequest, path: string): StateAnswer | undefined {
    const url = new URL(req.url, 'http://agent');
    for (const rule of this.rules) {
      if (rule.method !== req.method) continue;
      const match = rule.path.exec(path);
      if (!match) continue;
      const reply = rule.handle(
        this.state,
        match[1] ?? '',
        { method: req.method, path, query: url.searchParams, body: req.body ?? '' },
        this.agentVersion,
      );
      if (!reply) return undefined;
      return {
        response: this.response(reply),
        rule: `${rule.method} ${rule.path.source} (${rule.follows})`,
        ...(reply.after ? { after: reply.after } : {}),
      };
    }
    return undefined;
  }

  private response(reply: StateReply): IncomingResponse {
    const { headers } = this.state.seed;
    if (reply.json !== undefined)
      return {
        status: reply.status,
        headers: headers.json,
        body: goEscape(JSON.stringify(reply.json, null, 2)) + '\n',
      };
    if (reply.text !== undefined) return { status: reply.status, headers: headers.text, body: reply.text };
    return { status: reply.status, headers: headers.empty, body: '' };
  }
}

/** whether the version the recordings are of has what the rule needs */
function applies(rule: StateRule, seed: Seed): boolean {
  if (!seed.config && rule.gate !== 'answered') return false;
  if (rule.gate === 'defaults') return seed.config !== undefined && 'defaults' in seed.config;
  if (rule.gate === 'answered') return seed.answered(rule.method, rule.path) || seed.answered('GET', rule.path);
  return true;
}
