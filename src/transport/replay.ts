// Replay: answers requests from cassettes. Identical requests get their recorded answers in
// recorded order; a request the cassette lacks is a loud miss naming the closest recorded one.
import type { Cassette, HarEntry } from '../schema/generated/types.js';
import { RECORDING_ENDS, REPLAY_MISS, type Exchange, type ExchangeContext, type OutgoingRequest, type ReplayProblem, type Transport } from './types.js';
import { readCassette, entryKey, requestKey, fromEntry, describeEntry, cassettePath, harRef, CassetteError } from './cassette.js';
import { Redactor } from './redact.js';

export { RECORDING_ENDS, REPLAY_MISS };

interface Tape { cassette: Cassette; remaining: Map<string, HarEntry[]>; played: Set<string>; }

/** Ways to replay recordings other than as they are (mutation testing, `synconf mutate`). */
export interface ReplayHooks {
  /** cassettes already read, by scenario: a cassette missing here is read from the folder */
  cassettes?: Map<string, Cassette>;
  /** the entry that answers in place of the recorded one, `index` being its place in the scenario's cassette */
  answer?(scenario: string, index: number, entry: HarEntry): HarEntry;
}

function describe(req: OutgoingRequest): string {
  return `${req.method} ${req.url} on ${req.target}${req.body !== undefined ? ` with body ${req.body.slice(0, 80)}` : ''}`;
}

/** what differs between a request and a recorded entry, in words */
function difference(req: OutgoingRequest, e: HarEntry, r: Redactor): string {
  const [target, method, path, query, key, body] = JSON.parse(requestKey(req, r)) as [string, string, string, [string, string][], string | null, string];
  const [rt, rm, rp, rq, rk, rb] = JSON.parse(entryKey(e)) as [string, string, string, [string, string][], string | null, string];
  const out: string[] = [];
  if (target !== rt) out.push(`instance ${target} vs recorded ${rt}`);
  if (method !== rm) out.push(`method ${method} vs recorded ${rm}`);
  if (path !== rp) out.push(`path ${path} vs recorded ${rp}`);
  const q = (list: [string, string][]) => list.map(([k, v]) => `${k}=${v}`).join('&') || '(none)';
  if (q(query) !== q(rq)) out.push(`query ${q(query)} vs recorded ${q(rq)}`);
  if (key !== rk) out.push(`API key ${key ?? '(none)'} vs recorded ${rk ?? '(none)'}`);
  if (body !== rb) out.push(`body ${body.slice(0, 80) || '(none)'} vs recorded ${rb.slice(0, 80) || '(none)'}`);
  return out.join('; ');
}

export class ReplayTransport implements Transport {
  private readonly tapes = new Map<string, Tape>();
  private readonly found: ReplayProblem[] = [];
  private readonly leftovers: { scenario: string; request: string }[] = [];
  /** the redactor of a recording run that replays part of it (its live keys become <API_KEY>) */
  constructor(readonly dir: string, private readonly redactor = new Redactor(), private readonly hooks: ReplayHooks = {}) {}

  /** the scenario's tape; throws CassetteError when it is missing or broken */
  tape(scenario: string): Tape {
    let tape = this.tapes.get(scenario);
    if (tape) return tape;
    const cassette = this.hooks.cassettes?.get(scenario) ?? readCassette(this.dir, scenario);
    if (!cassette) throw new CassetteError(cassettePath(this.dir, scenario), `missing: scenario "${scenario}" was never recorded here (record it with \`synconf run --record ${this.dir} --record-mode once\`)`);
    const remaining = new Map<string, HarEntry[]>();
    for (const e of cassette.log.entries) {
      const key = entryKey(e);
      remaining.set(key, [...(remaining.get(key) ?? []), e]);
    }
    tape = { cassette, remaining, played: new Set() };
    this.tapes.set(scenario, tape);
    return tape;
  }

  async send(req: OutgoingRequest, ctx: ExchangeContext): Promise<Exchange> {
    const tape = this.tape(ctx.scenario);
    const key = requestKey(req, this.redactor);
    const queue = tape.remaining.get(key);
    // A repeated poll never takes the answer recorded for a later step that asks the same.
    const repeatOfOther = (ctx.attempt ?? 1) > 1 && queue?.[0] !== undefined && queue[0]._step !== ctx.step;
    const entry = repeatOfOther ? undefined : queue?.shift();
    if (entry) {
      tape.played.add(key);
      const index = tape.cassette.log.entries.indexOf(entry);
      const answer = this.hooks.answer ? this.hooks.answer(ctx.scenario, index, entry) : entry;
      return { ...fromEntry(answer, req), har: harRef(this.dir, ctx.scenario, index) };
    }
    const miss = (code: string, message: string): Exchange => ({ request: req, error: { code, message }, startedAt: new Date().toISOString(), durationMs: 0 });
    if (tape.played.has(key) || repeatOfOther) {
      // A repeated poll past the recorded ones: the live run stopped polling here.
      if ((ctx.attempt ?? 1) > 1) return miss(RECORDING_ENDS, `the recording holds no further answer to ${describe(req)}`);
      const message = `step "${ctx.step}": ${describe(req)} was asked for more often than recorded in ${cassettePath(this.dir, ctx.scenario)}`;
      this.found.push({ scenario: ctx.scenario, message });
      return miss(REPLAY_MISS, message);
    }
    const candidates = tape.cassette.log.entries.filter((e) => e._step === ctx.step);
    const pool = candidates.length ? candidates : tape.cassette.log.entries;
    const closest = pool
      .map((e) => ({ e, d: difference(req, e, this.redactor) }))
      .sort((a, b) => a.d.split(';').length - b.d.split(';').length || a.d.length - b.d.length)[0];
    const message = `step "${ctx.step}": ${describe(req)} is not in ${cassettePath(this.dir, ctx.scenario)}` +
      (closest ? `; closest recorded: ${describeEntry(closest.e)} (step "${closest.e._step}"); differs in: ${closest.d}` : '; the cassette is empty');
    this.found.push({ scenario: ctx.scenario, message });
    return miss(REPLAY_MISS, message);
  }

  async endScenario(scenario: string): Promise<void> {
    const tape = this.tapes.get(scenario);
    if (!tape) return;
    for (const entries of tape.remaining.values()) for (const e of entries) this.leftovers.push({ scenario, request: `${describeEntry(e)} (step "${e._step}")` });
  }

  /** the recorded temporary folder of a scenario: requests name paths inside it */
  tmpOf(scenario: string): string {
    return this.tape(scenario).cassette.log._synconf.tmp ?? '';
  }

  problems(): ReplayProblem[] { return this.found; }
  unused() { return this.leftovers; }
  async close(): Promise<void> {}
}
