// A proxy session: every exchange a client made, judged as it passed (its request, then the agent's answer), kept as
// checks of a report like a run's: one scenario per endpoint, one step per exchange ("#12": the 12th of the session).
// Memory stays bounded over a long session: every kind of check keeps its first few verbatim and counts the rest
// (`more`), the footprint keeps counts and member names, and the exchanges themselves go to the HAR sink, not here.
import type {
  CheckResult,
  ClientContract,
  Evidence,
  HarEntry,
  Report,
  ScenarioResult,
} from '../schema/generated/types.js';
import type { Check } from '../runner/exchange-checks.js';
import { bodyOf } from '../runner/exchange-checks.js';
import { evidenceOf } from '../runner/evidence.js';
import type { Exchange } from '../transport/types.js';
import { withoutCredentialParams, withoutCredentials, type Redactor } from '../transport/redact.js';
import { toEntry } from '../transport/cassette.js';
import { endpointName } from '../changes/compare.js';
import { scenarioVerdict, VERDICT_LABEL, worst } from '../verdict/verdicts.js';
import { checkRequest, type Scope } from './request-checks.js';
import { checkAnswer } from './answer-checks.js';
import { Footprint } from './footprint.js';
import { EventWatch, type EventCheck } from './event-watch.js';
import { applyResourceDeviations, type ResourceDeviations } from './deviations.js';
import type { ExchangeNote } from './forward.js';
import { applyQuirks, quirkOf } from './contract.js';

/** checks of one kind (endpoint, check, verdict) kept verbatim; the rest are counted into the last kept one */
const KEEP_PASSING = 1;
const KEEP_FAILING = 20;

/** the report's count of exchanges of each kind of note (present only when there was one) */
const NOTE_COUNTS: Partial<Record<ExchangeNote['kind'], 'tooLarge' | 'cutByStop' | 'answersNotJudged'>> = {
  'too-large': 'tooLarge',
  stopped: 'cutByStop',
  cut: 'answersNotJudged',
  'recorded-drop': 'answersNotJudged',
  fault: 'answersNotJudged',
};

/** how one exchange was judged */
export interface Judged {
  /** 1-based place in the session */
  n: number;
  scope: Scope;
  /** the failing checks (none: it conforms, or was not judged) with whose fault each is */
  violations: CheckResult[];
  /** the exchange's verdict in a word, for the console: fail, known deviation, pass, or why it was not judged */
  word: string;
  /** its URL as the HAR keeps it (credentials in the query redacted) */
  url: string;
}

/** why an exchange was not judged, in a word or two, by its scope */
const UNJUDGED: Record<Scope, string> = {
  spec: 'not judged',
  'beyond-spec': 'beyond spec',
  'outside-spec': 'outside spec',
  'not-rest': 'not REST',
};

/** the verdict in a word of an exchange judged by these checks: the worst of those that told something (a skipped
 * one tells nothing), in the proxy's words for a listed deviation; none told anything: cannot tell */
export function wordOf(checks: Pick<CheckResult, 'verdict'>[]): string {
  const told = checks.filter((c) => c.verdict !== 'skip');
  if (!told.length) return 'cannot tell';
  const verdict = worst(told.map((c) => c.verdict));
  return verdict === 'expected-fail' ? 'known deviation' : VERDICT_LABEL[verdict];
}

export interface SessionOptions {
  agentVersion: string | null;
  deviations: ResourceDeviations;
  redactor: Redactor;
  /** the agent's API key: kept for the redactor to write <API_KEY>; any other credential is <REDACTED> */
  apiKey: string | undefined;
  /** the HAR file the exchanges are kept in, as the report names it */
  harFile: string;
  /** receives each exchange's HAR entry (redacted), in order */
  onEntry: (entry: HarEntry) => void;
  /** the client's contract (proxy --contract) and its file: its quirks are the client's known deviations */
  contract?: { doc: ClientContract; file: string };
  /** receives every check as made (none folded), known deviations applied: `synconf mutate --proxy-session` */
  onChecks?: (checks: CheckResult[]) => void;
}

/** a scenario id from an endpoint: "GET /rest/db/status" → "get-rest-db-status" */
const scenarioId = (endpoint: string) =>
  endpoint
    .toLowerCase()
    .replace(/[<>]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export class ProxySession {
  private n = 0;
  private readonly scenarios = new Map<string, ScenarioResult & { kept: Map<string, CheckResult[]> }>();
  readonly footprint = new Footprint();
  private readonly events = new EventWatch();
  readonly counts: NonNullable<Report['proxy']>['exchanges'] = {
    total: 0,
    judged: 0,
    beyondSpec: 0,
    outsideSpec: 0,
    notRest: 0,
    clientViolations: 0,
    agentViolations: 0,
  };

  constructor(private readonly opts: SessionOptions) {}

  /** judges the request alone, before it is forwarded (--errors refuse answers a request against the spec itself) */
  requestViolations(method: string, url: string, body: string | undefined): Check[] {
    // a known quirk of the client is not refused either (--errors refuse): it is accepted, with its reason
    const endpoint = endpointName(method, url);
    return checkRequest({ method, url, body }).checks.filter(
      (c) => c.verdict === 'fail' && !quirkOf(this.opts.contract?.doc, endpoint, c.name),
    );
  }

  /**
   * judges one finished exchange, keeps its checks and footprint, and hands its HAR entry on. A `note` says what
   * happened to it beyond forwarding (forward.ts): the answer is then not judged (not the agent's: the proxy's own
   * refusal under --errors refuse or of a body over the bound, an answer kept cut, an exchange the stop cut, a drop
   * the stand-in replayed); the entry says so (_refused: the proxy answered itself; comment: what happened), and a
   * request refused for its size is not judged either (its body was not read). `fromState`: the recordings' state
   * answered (proxy --recordings --stateful, the rule that did), kept in the entry (_fromState): the answer is synconf's
   * model of the agent, not a recorded one, and drift --against cannot tell the version by it.
   */
  judge(x: Exchange, note?: ExchangeNote, fromState?: string): Judged {
    const n = ++this.n;
    this.counts.total++;
    const count = note && NOTE_COUNTS[note.kind];
    if (count) this.counts[count] = (this.counts[count] ?? 0) + 1;
    const req = checkRequest({ method: x.request.method, url: x.request.url, body: x.request.body });
    // the proxy's own answer (a refusal) says nothing of the agent; an answer kept cut, or none, is not walked
    const own = note?.kind === 'spec-refused' || note?.kind === 'too-large';
    const answered = own ? undefined : x.response;
    const json = answered && !note && Footprint.walks(answered.body.length) ? bodyOf(answered).json : undefined;
    this.footprint.add(req.scope, x.request.method, x.request.url, answered?.status, json);
    const kept = withoutCredentials(x, this.opts.apiKey);
    const entry = toEntry(kept, `#${n}`, this.opts.redactor);
    if (own) entry._refused = note.text;
    if (note && note.kind !== 'spec-refused') entry.comment = note.text;
    if (note) entry._note = note.kind; // a session judged again reads it: the answer was not the agent's to judge
    if (fromState) entry._fromState = fromState;
    this.opts.onEntry(entry);
    const url = withoutCredentialParams(x.request.url);
    // its body was not read
    if (note?.kind === 'too-large') return { n, scope: req.scope, violations: [], word: 'too large', url };
    if (req.scope !== 'spec' || !req.endpoint) {
      this.counts[
        req.scope === 'beyond-spec' ? 'beyondSpec' : req.scope === 'outside-spec' ? 'outsideSpec' : 'notRest'
      ]++;
      // a poll of /rest/events is not judged (the spec never names the path) but judges the calls before it
      if (req.scope === 'outside-spec' && req.endpoint?.id === 'GET /rest/events' && !note)
        this.keepEvents(this.events.polled(kept));
      return { n, scope: req.scope, violations: [], word: UNJUDGED[req.scope], url };
    }
    this.counts.judged++;
    // an answer to a request of another method than the endpoint's says nothing of the endpoint
    const wrongMethod = req.checks.some((c) => c.name === 'request:method' && c.verdict === 'fail');
    const judgeAnswer = !wrongMethod && !note;
    const answer = judgeAnswer ? checkAnswer(x, req.endpoint, this.opts.agentVersion) : [];
    const checks = this.keep(endpointName(x.request.method, x.request.url), n, kept, [...req.checks, ...answer]);
    if (judgeAnswer) this.events.called(n, kept, req.endpoint);
    const violations = checks.filter((c) => c.verdict === 'fail');
    if (violations.some((c) => c.blame === 'client')) this.counts.clientViolations++;
    if (violations.some((c) => c.blame === 'agent')) this.counts.agentViolations++;
    const word = note?.kind === 'spec-refused' ? 'refused' : note && !violations.length ? 'not judged' : wordOf(checks);
    return { n, scope: 'spec', violations, word, url };
  }

  private keepEvents(found: EventCheck[]): void {
    for (const e of found) {
      this.keep(endpointName(e.x.request.method, e.x.request.url), e.n, e.x, [e.check]);
      if (e.check.verdict === 'fail') this.counts.agentViolations++;
    }
  }

  /** the end of the session: the awaited events a later poll should have shown and did not */
  finish(): void {
    this.keepEvents(this.events.finish());
  }

  /** the checks of one exchange as results, known deviations applied; each kept or counted into its kind */
  private keep(endpoint: string, n: number, x: Exchange, checks: Check[]): CheckResult[] {
    const id = scenarioId(endpoint);
    let s = this.scenarios.get(id);
    if (!s) {
      s = {
        id,
        title: endpoint,
        file: this.opts.harFile,
        spec: [endpoint.split(' ').slice(0, 2).join(' ')],
        mode: 'normal',
        verdict: 'pass',
        durationMs: 0,
        checks: [],
        kept: new Map(),
      };
      this.scenarios.set(id, s);
    }
    const step = `#${n}`;
    const results: CheckResult[] = checks.map(({ name, ...rest }) => ({
      id: `${id}/${step}/${name}`,
      step,
      phase: 'steps',
      ...rest,
      durationMs: Math.round(x.durationMs),
      ...(rest.verdict === 'pass' ? {} : { evidence: this.evidence(x, n) }),
    }));
    const own: ScenarioResult = { ...s, checks: results };
    applyResourceDeviations(own, this.opts.deviations);
    if (this.opts.contract) applyQuirks(own, this.opts.contract.doc, this.opts.contract.file);
    this.opts.onChecks?.(results);
    s.durationMs += Math.round(x.durationMs);
    for (const c of results) {
      const kind = `${c.id.split('/').pop()} ${c.verdict}`;
      const kept = s.kept.get(kind) ?? [];
      s.kept.set(kind, kept);
      if (kept.length < (c.verdict === 'pass' ? KEEP_PASSING : KEEP_FAILING)) {
        kept.push(c);
        s.checks.push(c);
      } else kept[kept.length - 1].more = (kept[kept.length - 1].more ?? 0) + 1;
    }
    return results;
  }

  /** the runner's evidence, pointing at the exchange's entry in the session's HAR */
  private evidence(x: Exchange, n: number): Evidence {
    const ev = evidenceOf(x, this.opts.redactor);
    return { ...ev, har: { file: this.opts.harFile, entry: n - 1 }, elapsedMs: Math.round(x.durationMs) };
  }

  /** the scenarios so far (one per endpoint of the spec the client used), their verdicts up to date */
  results(): ScenarioResult[] {
    return [...this.scenarios.values()]
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ kept: _kept, ...s }) => ({ ...s, verdict: scenarioVerdict(s.checks) }));
  }

  /** the report's `proxy` section */
  section(upstream: string, errors: NonNullable<Report['proxy']>['errors']): NonNullable<Report['proxy']> {
    return { upstream, errors, exchanges: { ...this.counts }, footprint: this.footprint.entries() };
  }
}
