// `synconf proxy`: stands between a client and an agent, forwards every exchange unchanged and judges it as it passes
// (the request against the spec, blamed on the client; the answer against the resource's schema for the agent's
// version and the statements of the endpoint, blamed on the agent). Runs until Ctrl-C, SIGTERM, SIGHUP, --count
// exchanges or --until-idle seconds with no request open and none begun or ended, then writes a report folder like `run`'s: report.json (with
// the session and the client's footprint), junit.xml, report.html, summary.md and the redacted HAR (recordings/).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Report } from '../schema/generated/types.js';
import { EXIT, UsageError } from '../errors.js';
import { makeOutputDir } from '../output-dir.js';
import { SYNCONF_VERSION } from '../paths.js';
import { Redactor } from '../transport/redact.js';
import { RUN_CASSETTE } from '../transport/cassette.js';
import { EXCHANGES_DIR } from '../changes/exchanges.js';
import { ProxySession, type SessionOptions } from '../proxy/session.js';
import { loadContract } from '../proxy/contract.js';
import { deviationsFor } from '../proxy/deviations.js';
import { startForwarder, type ErrorsMode, type ExchangeNote, type ForwardOptions } from '../proxy/forward.js';
import { trustAgentCa } from '../session/targets.js';
import { readTextFile } from '../text-file.js';
import type { Exchange } from '../transport/types.js';
import { finalize, totalsOf, verdictLine } from '../verdict/totals.js';
import { DEFAULT_FAIL_ON } from '../verdict/verdicts.js';
import { onInterrupt, serverInterruptCode } from './terminal/interrupt.js';
import { beyondLoopbackLine } from '../serve/stand-in.js';
import { settled, writeReports } from '../session/write-reports.js';
import { startUpstream, type Upstream } from '../session/proxy-upstream.js';
import { HarSink } from '../proxy/har-sink.js';
import { lockReportDir } from '../session/report-lock.js';
import { exchangeConsole, exchangeLine, proxyLines } from './terminal/proxy-lines.js';
import { readStartState, type StartState } from '../proxy/start-state.js';
import { printableLine } from '../printable.js';

export interface ProxyOptions {
  agent?: string;
  lab?: string;
  recordings?: string;
  apiKey?: string;
  host: string;
  port: number;
  reportDir: string;
  errors: ErrorsMode;
  count?: number;
  untilIdle?: number;
  /** --agent-ca: the certificate(s) trusted for an https:// --agent */
  agentCa?: string;
  /** --tls-cert, --tls-key: the proxy listens with TLS */
  tlsCert?: string;
  tlsKey?: string;
  /** --quiet: no line per exchange on the terminal */
  quiet?: boolean;
  /** --contract: a client contract whose quirks are accepted with their reasons */
  contract?: string;
  /** --recordings only, as serve takes them */
  stateful?: boolean;
  faults?: boolean;
  fault?: string[];
  faultSeed?: number;
}

/** how the session ended: a signal, or a limit of the options (an orderly stop) */
type Ended = NodeJS.Signals | 'count' | 'idle';

export async function proxy(opts: ProxyOptions): Promise<void> {
  process.exitCode = await runProxy(opts);
}

export async function runProxy(opts: ProxyOptions): Promise<number> {
  if (opts.port > 65535) throw new UsageError(`--port ${opts.port}: a TCP port is at most 65535`);
  // a bad contract stops the session before any work: its quirks would have been judged as violations
  const contract = opts.contract === undefined ? undefined : loadContract(opts.contract, '--contract');
  trustAgentCa(opts.agentCa, opts.agent);
  const tls = listenTls(opts);
  makeOutputDir(opts.reportDir, '--report-dir');
  const release = lockReportDir(opts.reportDir, '--report-dir');
  try {
    const startedAt = new Date();
    const upstream = await startUpstream({ ...opts, reportDir: opts.reportDir });
    const stopUpstream = stopOnce(upstream);
    try {
      return await session(
        { ...opts, tls },
        upstream,
        stopUpstream,
        startedAt,
        contract && { doc: contract, file: opts.contract! },
      );
    } finally {
      // a session that failed before it stopped its upstream: the session's failure is the one given, this one beside it
      const problem = await stopUpstream();
      if (problem) console.error(`synconf: ${printableLine(problem)}`);
    }
  } finally {
    release();
  }
}

type Contracted = SessionOptions['contract'];

/** the upstream stopped once, by whoever comes first; what kept it from stopping cleanly (the stand-in agent's
 * request log unwritable) is given to that one only, undefined to the other */
function stopOnce(upstream: Upstream): () => Promise<string | undefined> {
  let stopped = false;
  return async () => {
    if (stopped) return undefined;
    stopped = true;
    try {
      await upstream.close();
      return undefined;
    } catch (e) {
      return (e as Error).message;
    }
  };
}

/** --tls-cert and --tls-key, both or neither: the PEM texts the proxy listens with */
function listenTls(opts: ProxyOptions): ForwardOptions['tls'] {
  const { tlsCert, tlsKey } = opts;
  if (tlsCert === undefined && tlsKey === undefined) return undefined;
  if (tlsCert === undefined || tlsKey === undefined)
    throw new UsageError(
      `${tlsCert === undefined ? '--tls-key' : '--tls-cert'} needs ${tlsCert === undefined ? '--tls-cert' : '--tls-key'}: the proxy listens with TLS given its certificate and its private key, both PEM files`,
    );
  return { cert: readTextFile(tlsCert, `--tls-cert ${tlsCert}`), key: readTextFile(tlsKey, `--tls-key ${tlsKey}`) };
}

/** the options of a session: the command's, with the TLS it listens with read */
type SessionOpts = ProxyOptions & { tls: ForwardOptions['tls'] };

async function session(
  opts: SessionOpts,
  upstream: Upstream,
  stopUpstream: () => Promise<string | undefined>,
  startedAt: Date,
  contract: Contracted,
): Promise<number> {
  const deviations = await deviationsFor(upstream.version);
  const redactor = new Redactor([upstream.apiKey]);
  const har = sessionHar(opts, upstream, startedAt);
  const s = new ProxySession({
    agentVersion: upstream.version,
    deviations: deviations.byResource,
    redactor,
    apiKey: upstream.apiKey,
    harFile: join(EXCHANGES_DIR, `${RUN_CASSETTE}.har`),
    onEntry: (e) => har.add(e),
    contract,
  });
  const state = await startStateOf(opts, upstream);
  let stop: (why: Ended) => void = () => {};
  const ended = new Promise<Ended>((resolve) => (stop = resolve));
  let lastActivity = Date.now();
  const forwarder = await startForwarder({
    upstream: upstream.url,
    host: opts.host,
    port: opts.port,
    errors: opts.errors,
    tls: opts.tls,
    requestViolations: (method, url, body) => s.requestViolations(method, url, body),
    onRequest: () => (lastActivity = Date.now()),
    onRequestEnd: () => (lastActivity = Date.now()),
    onExchange: judging(s, upstream, exchangeConsole(opts.quiet), () => {
      if (opts.count !== undefined && s.counts.total >= opts.count) stop('count');
    }),
  });
  const beyond = beyondLoopbackLine('synconf proxy', opts.host);
  if (beyond) console.error(beyond);
  for (const line of proxyLines(forwarder.url, upstream, opts)) console.log(line);
  const interrupt = onInterrupt();
  void interrupt.stopped.then(stop);
  const idle = idleWatch(opts.untilIdle, () => forwarder.inFlight() === 0 && lastActivity, stop);
  const why = await ended;
  clearInterval(idle);
  await forwarder.close();
  interrupt.off();
  // stopped before the report is made: a stand-in agent's log that could not be kept is one of its problems
  const upstreamProblem = await stopUpstream();
  if (upstreamProblem) console.error(`synconf: ${printableLine(upstreamProblem)}`);
  const kept = har.end();
  s.finish();
  // the report must not name the exchanges of an earlier session as this one's
  if (!kept) rmSync(join(opts.reportDir, EXCHANGES_DIR), { recursive: true, force: true });
  const problems = [...(kept ? [] : [har.failure!]), ...(upstreamProblem ? [upstreamProblem] : [])];
  const report = proxyReport(s, upstream, opts, startedAt, problems, state);
  report.run.expectations = deviations.files.join(', ') || null;
  return keep(report, why, opts, kept ? har.file : undefined);
}

/** the session's report written and its last lines: how it ended, its verdict and where it is kept; the exit code */
async function keep(report: Report, why: Ended, opts: ProxyOptions, harFile: string | undefined): Promise<number> {
  // Ctrl-C and a closed terminal interrupt it (130, 129), as every command; SIGTERM (what `kill` and CI send), a count
  // reached or the idle time are the orderly stop: the verdict's exit code. report.json holds the code the process
  // exits with, as a run's does.
  const interrupted = why === 'count' || why === 'idle' ? undefined : serverInterruptCode(why);
  const { unwritable } = await settled(writeReports(exitingWith(report, interrupted), opts.reportDir));
  // a report that cannot be written (a full disk): said, then the session's last lines say so, exit 2
  if (unwritable) console.error(`synconf: ${printableLine(unwritable.message)}`);
  console.error(printableLine(stopLine(why, interrupted !== undefined, opts, report, unwritable !== undefined)));
  const reportLine = unwritable ? 'none written' : join(opts.reportDir, 'report.json');
  console.error(`report: ${reportLine}; exchanges: ${harFile ?? 'none kept'}`);
  return unwritable ? EXIT.usage : (interrupted ?? report.exitCode);
}

/**
 * Each finished exchange judged: its notes and violations said on stderr as they happen, one line on the terminal's
 * console (`show`, when on), then `counted` (the --count limit)
 */
function judging(s: ProxySession, upstream: Upstream, show: ((line: string) => void) | undefined, counted: () => void) {
  return (x: Exchange, forwarded: ExchangeNote | undefined) => {
    const note = forwarded ?? recordedDrop(upstream, x) ?? faulted(upstream, x);
    if (note && note.kind !== 'spec-refused') say(s.counts.total + 1, note.text);
    const judged = s.judge(x, note, upstream.fromState?.(x.request.method, x.request.url));
    for (const v of judged.violations) say(judged.n, `${v.blame === 'client' ? 'CLIENT' : 'AGENT'} ${v.message}`);
    show?.(exchangeLine(judged, x));
    counted();
    return { violations: judged.violations };
  };
}

/** a line of the session about exchange #n: its text may hold what the client or the agent sent */
const say = (n: number, text: string) => console.error(`synconf proxy: #${n} ${printableLine(text)}`);

/** --until-idle: stops once no request is open (a long poll is an exchange in flight, never cut) and none was begun
 * or ended for that many seconds; `quietSince` gives when the last began or ended, false while one is open */
function idleWatch(seconds: number | undefined, quietSince: () => number | false, stop: (why: Ended) => void) {
  if (seconds === undefined) return undefined;
  return setInterval(() => {
    const since = quietSince();
    if (since !== false && Date.now() - since >= seconds * 1000) stop('idle');
  }, 100);
}

/** the session's HAR, staged beside the report folder's recordings/; a write that fails is said at once */
function sessionHar(opts: ProxyOptions, upstream: Upstream, startedAt: Date): HarSink {
  const meta = {
    scenario: RUN_CASSETTE,
    recordedAt: startedAt.toISOString(),
    synconfVersion: SYNCONF_VERSION,
    agent: { version: upstream.version },
  };
  return new HarSink(opts.reportDir, meta, (line) =>
    console.error(`synconf proxy: ${printableLine(line)}; the proxy goes on forwarding`),
  );
}

/** a connection the recordings standing in for the agent dropped as recorded (a restart's): not the agent's fault */
function recordedDrop(upstream: Upstream, x: Exchange): ExchangeNote | undefined {
  const origin = x.error ? upstream.recordedDrop?.(x.request.method, x.request.url) : undefined;
  return origin
    ? { kind: 'recorded-drop', text: `connection dropped as the recordings hold it (${origin}): not judged` }
    : undefined;
}

/** an exchange a fault of the recordings standing in for the agent touched: synconf's doing, not the agent's */
function faulted(upstream: Upstream, x: Exchange): ExchangeNote | undefined {
  const fault = upstream.faulted?.(x.request.method, x.request.url);
  return fault ? { kind: 'fault', text: `a fault of the recordings (${fault}): not judged` } : undefined;
}

/** what a live agent already holds: drift --against sets it up on the other version (recordings hold what they hold) */
async function startStateOf(opts: ProxyOptions, upstream: Upstream): Promise<StartState | undefined> {
  if (opts.recordings !== undefined) return undefined;
  const state = await readStartState(upstream.url, upstream.apiKey);
  if (typeof state === 'object') return state;
  console.error(
    `synconf proxy: the agent's starting state cannot be read (${state}): drift --against cannot set it up elsewhere`,
  );
  return undefined;
}

/** the report as the process exits: an interrupted session's code is the signal's (128 + n) */
function exitingWith(report: Report, interrupted: number | undefined): Report {
  if (interrupted === undefined) return report;
  report.exitCode = interrupted as Report['exitCode'];
  report.verdict = verdictLine(report, DEFAULT_FAIL_ON);
  return report;
}

/** how the session ended and its verdict, or what kept it from one (its report unwritable: exit 2) */
function stopLine(why: string, interrupted: boolean, opts: ProxyOptions, report: Report, unwritable: boolean): string {
  const how = why === 'count' ? `--count ${opts.count}` : why === 'idle' ? `--until-idle ${opts.untilIdle}` : why;
  const [problem] = report.harnessErrors;
  const said = unwritable
    ? `the session could not be kept: its report cannot be written in --report-dir ${opts.reportDir} (see above) (exit ${EXIT.usage})`
    : problem
      ? `${problem.message} (exit ${report.exitCode})`
      : report.verdict.replace(/^synconf: /, '');
  return `synconf proxy: ${interrupted ? 'interrupted' : 'stopped'} (${how}); ${said}`;
}

/** the session as a report like a run's, its totals counting the checks folded into their kind (`more`) */
function proxyReport(
  s: ProxySession,
  upstream: Upstream,
  opts: ProxyOptions,
  startedAt: Date,
  problems: string[],
  startState: StartState | undefined,
): Report {
  const report: Report = {
    format: 'synconf-report/1',
    synconf: { version: SYNCONF_VERSION },
    run: {
      mode: 'proxy',
      startedAt: startedAt.toISOString(),
      durationMs: Date.now() - startedAt.getTime(),
      target: upstream.description,
      expectations: null,
    },
    agent: {
      version: upstream.version,
      versionSource: !upstream.version ? 'unknown' : opts.recordings !== undefined ? 'recording' : 'agent',
      longVersion: null,
      os: null,
      arch: null,
      deviceId: null,
    },
    totals: totalsOf([]),
    exitCode: 0,
    verdict: '',
    expensiveCalls: {},
    harnessErrors: problems.map((message) => ({ message })),
    scenarios: s.results(),
    proxy: { ...s.section(upstream.description, opts.errors), ...(startState ? { startState } : {}) },
  };
  // a session that judged nothing has no verdict to give: green would read as "the client keeps the spec"
  const x = report.proxy!.exchanges;
  if (x.judged === 0)
    report.harnessErrors.push({
      message: `no exchange the spec describes passed through the proxy (${x.total} forwarded, none judged): nothing to give a verdict on`,
    });
  // finalize's totals count each kept check with those folded into it (`more`) already: counted once more, the
  // report disagreed with its own totals and was refused by validate and report merge as cut or edited by hand
  return finalize(report, DEFAULT_FAIL_ON);
}
