// Replay: answers requests from cassettes. Identical requests get their recorded answers in
// recorded order; a request the cassette lacks is a loud miss naming the closest recorded one.
import type { Cassette, HarEntry } from '../schema/generated/types.js';
import {
  RECORDING_ENDS,
  REPLAY_MISS,
  type Exchange,
  type ExchangeContext,
  type OutgoingRequest,
  type ReplayProblem,
  type Transport,
} from './types.js';
import {
  readCassette,
  requestKey,
  fromEntry,
  describeEntry,
  cassettePath,
  harFile,
  CassetteError,
} from './cassette.js';
import { Matcher } from './matcher.js';
import { Redactor } from './redact.js';

export { RECORDING_ENDS, REPLAY_MISS };

interface Tape {
  cassette: Cassette;
  matcher: Matcher;
  /** the cassette file as reports name it (harRef) */
  file: string;
}

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

export class ReplayTransport implements Transport {
  private readonly tapes = new Map<string, Tape>();
  private readonly found: ReplayProblem[] = [];
  private readonly leftovers: { scenario: string; request: string }[] = [];
  /** the redactor of a recording run that replays part of it (its live keys become <API_KEY>) */
  constructor(
    readonly dir: string,
    private readonly redactor = new Redactor(),
    private readonly hooks: ReplayHooks = {},
  ) {}

  /** the scenario's tape; throws CassetteError when it is missing or broken */
  tape(scenario: string): Tape {
    let tape = this.tapes.get(scenario);
    if (tape) return tape;
    const cassette = this.hooks.cassettes?.get(scenario) ?? readCassette(this.dir, scenario);
    if (!cassette)
      throw new CassetteError(
        cassettePath(this.dir, scenario),
        `missing: scenario "${scenario}" was never recorded here (record it with \`synconf run --record ${this.dir} --record-mode once\`)`,
      );
    tape = { cassette, matcher: new Matcher(cassette.log.entries), file: harFile(this.dir, scenario) };
    this.tapes.set(scenario, tape);
    return tape;
  }

  async send(req: OutgoingRequest, ctx: ExchangeContext): Promise<Exchange> {
    const tape = this.tape(ctx.scenario);
    const key = requestKey(req, this.redactor);
    const played = tape.matcher.played(key);
    const next = tape.matcher.peek(key);
    // A repeated poll never takes the answer recorded for a later step that asks the same.
    const repeatOfOther = (ctx.attempt ?? 1) > 1 && next !== undefined && next._step !== ctx.step;
    const index = repeatOfOther ? undefined : tape.matcher.takeIndex(key);
    if (index !== undefined) {
      const entry = tape.cassette.log.entries[index];
      const answer = this.hooks.answer ? this.hooks.answer(ctx.scenario, index, entry) : entry;
      return { ...fromEntry(answer, req), har: { file: tape.file, entry: index } };
    }
    const miss = (code: string, message: string): Exchange => ({
      request: req,
      error: { code, message },
      startedAt: new Date().toISOString(),
      durationMs: 0,
    });
    if (played || repeatOfOther) {
      // A repeated poll past the recorded ones: the live run stopped polling here.
      if ((ctx.attempt ?? 1) > 1)
        return miss(RECORDING_ENDS, `the recording holds no further answer to ${describe(req)}`);
      const message = `step "${ctx.step}": ${describe(req)} was asked for more often than recorded in ${cassettePath(this.dir, ctx.scenario)}`;
      this.found.push({ scenario: ctx.scenario, message });
      return miss(REPLAY_MISS, message);
    }
    const candidates = tape.cassette.log.entries.filter((e) => e._step === ctx.step);
    const pool = candidates.length ? candidates : tape.cassette.log.entries;
    const closest = tape.matcher.closest(req, this.redactor, pool);
    const message =
      `step "${ctx.step}": ${describe(req)} is not in ${cassettePath(this.dir, ctx.scenario)}` +
      (closest
        ? `; closest recorded: ${describeEntry(closest.entry)} (step "${closest.entry._step}"); differs in: ${closest.differs}`
        : '; the cassette is empty');
    this.found.push({ scenario: ctx.scenario, message });
    return miss(REPLAY_MISS, message);
  }

  async endScenario(scenario: string): Promise<void> {
    const tape = this.tapes.get(scenario);
    if (!tape) return;
    for (const e of tape.matcher.untaken())
      this.leftovers.push({ scenario, request: `${describeEntry(e)} (step "${e._step}")` });
  }

  /** the recorded temporary folder of a scenario: requests name paths inside it */
  tmpOf(scenario: string): string {
    return this.tape(scenario).cassette.log._synconf.tmp ?? '';
  }

  problems(): ReplayProblem[] {
    return this.found;
  }
  unused() {
    return this.leftovers;
  }
  async close(): Promise<void> {}
}
