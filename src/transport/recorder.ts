// Recording: the live transport, with every exchange written (redacted) into one HAR cassette
// per scenario when the scenario ends. Record modes as in established cassette tools:
//   all   re-record every scenario
//   once  replay scenarios that have a cassette, record the others
//   new   replay what a cassette has, send the rest live and add it to the cassette
import { writeFileSync } from 'node:fs';
import type { HarEntry } from '../schema/generated/types.js';
import type { Exchange, ExchangeContext, OutgoingRequest, ScenarioMeta, Transport } from './types.js';
import type { LiveTransport } from './live.js';
import { Redactor, type RedactionRules } from './redact.js';
import { toEntry, newCassette, cassettePath, harRef, RUN_CASSETTE, readCassette } from './cassette.js';
import { ReplayTransport, REPLAY_MISS, RECORDING_ENDS } from './replay.js';
import { SYNCONF_VERSION } from '../paths.js';
import { UsageError } from '../errors.js';
import { patternProblem } from '../regex-safety.js';
import { makeOutputDir } from '../output-dir.js';

export type RecordMode = 'all' | 'once' | 'new';

export interface RecorderOptions {
  /** the recordings folder: its cassettes are replayed (once, new) and, when the run completes, replaced */
  dir: string;
  mode: RecordMode;
  redact: string[];
  /** where the cassettes are written as the run goes (default `dir`): --record stages them in the report folder */
  stage?: string;
}

/** parse --redact rules: header:<name>, json:<pointer>, re:<regexp> */
export function redactionRules(specs: string[]): RedactionRules {
  const rules: Required<RedactionRules> = { headers: [], jsonPointers: [], patterns: [] };
  for (const spec of specs) {
    const [kind, ...rest] = spec.split(':');
    const value = rest.join(':');
    if (kind === 'header' && value) rules.headers.push(value);
    else if (kind === 'json' && value.startsWith('/')) rules.jsonPointers.push(value);
    else if (kind === 're' && value) {
      // it runs over every recorded body: one that backtracks for ever would hang the run at its first exchange
      const problem = patternProblem(value);
      if (problem) throw new UsageError(`--redact ${spec}: ${problem}`);
      rules.patterns.push(value);
    } else throw new UsageError(`--redact "${spec}": use header:<name>, json:<pointer> or re:<regexp>`);
  }
  return rules;
}

export class RecordingTransport implements Transport {
  private readonly entries = new Map<string, HarEntry[]>();
  private readonly meta = new Map<string, ScenarioMeta>();
  private readonly plans = new Map<string, 'replay' | 'extend' | 'record'>();
  private readonly replay: ReplayTransport;

  constructor(
    private readonly live: LiveTransport,
    private readonly opts: RecorderOptions,
    private readonly redactor: Redactor,
  ) {
    makeOutputDir(opts.dir, '--record');
    if (opts.stage) makeOutputDir(opts.stage, 'the report folder');
    for (const key of Object.values(live.endpointKeys())) redactor.addApiKey(key);
    this.replay = new ReplayTransport(opts.dir, redactor);
  }

  /** per scenario, decided when it is first seen: replay its cassette (once), extend it (new), or record it */
  private plan(scenario: string): 'replay' | 'extend' | 'record' {
    let plan = this.plans.get(scenario);
    if (!plan) {
      const existing = scenario === RUN_CASSETTE ? undefined : readCassette(this.opts.dir, scenario);
      plan = !existing || this.opts.mode === 'all' ? 'record' : this.opts.mode === 'once' ? 'replay' : 'extend';
      // mode new keeps what the cassette has and appends what was missing
      this.entries.set(scenario, plan === 'extend' ? [...existing!.log.entries] : []);
      this.plans.set(scenario, plan);
    }
    return plan;
  }

  async send(req: OutgoingRequest, ctx: ExchangeContext): Promise<Exchange> {
    const plan = this.plan(ctx.scenario);
    if (plan === 'replay') return this.replay.send(req, ctx);
    if (plan === 'extend') {
      const x = await this.replay.send(req, ctx);
      if (x.error?.code !== REPLAY_MISS && x.error?.code !== RECORDING_ENDS) return x;
    }
    const x = await this.live.send(req);
    const entries = this.entries.get(ctx.scenario)!;
    entries.push(toEntry(x, ctx.step, this.redactor));
    return { ...x, har: harRef(this.opts.stage ?? this.opts.dir, ctx.scenario, entries.length - 1) };
  }

  annotate(scenario: string, meta: ScenarioMeta): void {
    this.meta.set(scenario, { ...this.meta.get(scenario), ...meta });
  }

  async endScenario(scenario: string): Promise<void> {
    if (this.plan(scenario) === 'replay') return this.replay.endScenario(scenario);
    this.write(scenario);
  }

  private write(scenario: string): void {
    const run = this.meta.get(RUN_CASSETTE) ?? {};
    const own = this.meta.get(scenario) ?? {};
    const agent = run.agent ?? { version: null, longVersion: null, deviceId: null };
    const meta = {
      scenario,
      recordedAt: new Date().toISOString(),
      synconfVersion: SYNCONF_VERSION,
      agent,
      ...(own.tmp ? { tmp: own.tmp } : {}),
      ...(scenario === RUN_CASSETTE
        ? { vars: JSON.parse(this.redactor.text(JSON.stringify(run.vars ?? {}))), capabilities: run.capabilities ?? {} }
        : {}),
    };
    const cassette = newCassette(meta, SYNCONF_VERSION, this.entries.get(scenario) ?? []);
    writeFileSync(
      cassettePath(this.opts.stage ?? this.opts.dir, scenario),
      this.redactor.text(JSON.stringify(cassette, null, 1)) + '\n',
    );
  }

  async close(): Promise<void> {
    if (this.entries.has(RUN_CASSETTE)) this.write(RUN_CASSETTE);
    await this.live.close();
  }
}

/** a wrapper for the live transport of a run that records into opts.dir */
export function recorderFor(opts: RecorderOptions) {
  const rules = redactionRules(opts.redact);
  return (live: LiveTransport): Transport => new RecordingTransport(live, opts, new Redactor([], rules));
}
