// What `synconf proxy` forwards to: a running agent (--agent URL, whose key --api-key gives), a lab of one agent
// version synconf starts (--lab VERSION), or recordings answering as the agent they recorded (--recordings DIR, the
// server of `synconf serve`). Each gives its URL, the key its clients use, the agent version to judge by, and a stop.
import { join } from 'node:path';
import { InputError, UsageError } from '../errors.js';
import { checkRecordingsFolder } from '../transport/cassette.js';
import { agentUrl } from '../transport/agent-url.js';
import { agentFetch, certificateFailure, tlsRedirect, untrustedAgent } from '../agent-https.js';
import { checkStandInKey, generateApiKey } from '../serve/stand-in.js';
import { usableTempDir } from '../output-dir.js';
import { parseFaultOption } from '../serve/faults.js';
import { agentRoute } from '../transport/agent-route.js';

export interface Upstream {
  url: string;
  apiKey: string;
  /** the version the agent reports, or the recordings were made with; null when unknown */
  version: string | null;
  /** as the report names it: the URL, "lab VERSION" or the recordings folder */
  description: string;
  /** recordings only: the request was answered with a connection dropped as recorded (where), taken once */
  recordedDrop?(method: string, url: string): string | undefined;
  /** recordings only: a fault touched the request (which), taken once */
  faulted?(method: string, url: string): string | undefined;
  /** recordings --stateful only: the state answered the request (its rule), not a recorded answer; taken once */
  fromState?(method: string, url: string): string | undefined;
  close(): Promise<void>;
}

export interface UpstreamOptions {
  agent?: string;
  lab?: string;
  recordings?: string;
  apiKey?: string;
  /** where a recordings server keeps its own request log */
  reportDir: string;
  /** the option that named the agent's URL, for its messages (default --agent; drift's is --against) */
  agentOption?: string;
  /** how long asking the agent its version may take (default 10 s; drift's --timeout) */
  timeoutMs?: number;
  /** recordings only, as serve takes them: writes change later reads; faults (the control endpoint, given ones) */
  stateful?: boolean;
  faults?: boolean;
  fault?: string[];
  faultSeed?: number;
}

/**
 * A request by its route, as the agent routes it (agent-route.ts: the method in capitals, the path decoded and
 * cleaned; its query aside): the stand-in names a request by the URL it parsed ("/rest/events?since=5"), the proxy by
 * the URL the client spelled ("/rest/./events?since=5"), and both must name it alike.
 */
function routeOf(method: string, url: string): string {
  const path = url.split(/[?#]/)[0];
  const route = agentRoute(method, path);
  return 'undecidable' in route ? `${method} ${path}` : `${route.method} ${route.path}`;
}

/** what each request was answered with beyond the recorded answer, by its route, each taken once */
class Marks {
  private readonly byRoute = new Map<string, string[]>();
  add = (method: string, url: string, what: string) => {
    const route = routeOf(method, url);
    this.byRoute.set(route, [...(this.byRoute.get(route) ?? []), what]);
  };
  take = (method: string, url: string) => this.byRoute.get(routeOf(method, url))?.shift();
}

/** the one upstream the options name; a usage error when they name none or several */
export async function startUpstream(opts: UpstreamOptions): Promise<Upstream> {
  const named = (['agent', 'lab', 'recordings'] as const).filter((k) => opts[k] !== undefined);
  if (named.length !== 1)
    throw new UsageError(
      named.length
        ? `--${named.join(' and --')}: name one agent to forward to, not ${named.length}`
        : 'name the agent to forward to: --agent URL (with --api-key), --lab VERSION or --recordings DIR',
    );
  const standIn = [opts.stateful && '--stateful', opts.faults && '--faults', opts.fault?.length && '--fault'];
  const given = standIn.filter((o): o is string => typeof o === 'string');
  if (opts.recordings === undefined && given.length)
    throw new UsageError(
      `${given.join(' and ')}: only with --recordings (the recordings stand in for the agent; a running agent keeps its own state)`,
    );
  if (opts.lab !== undefined) return labUpstream(opts.lab);
  if (opts.recordings !== undefined) return recordingsUpstream(opts.recordings, opts);
  return agentUpstream(opts.agent!, opts.apiKey, opts.agentOption ?? '--agent', opts.timeoutMs ?? 10_000);
}

async function labUpstream(version: string): Promise<Upstream> {
  usableTempDir(); // the lab's home goes there: a TMPDIR missing, unwritable or full is the user's (exit 2)
  const { startLab } = await import('../lab/lab.js');
  const lab = await startLab({ instances: 1, names: ['agent'], binary: version });
  const agent = lab.instances[0];
  return {
    url: agent.url,
    apiKey: agent.apiKey,
    version: agent.version,
    description: `lab ${version}`,
    close: () => lab.down(),
  };
}

async function recordingsUpstream(dir: string, opts: UpstreamOptions): Promise<Upstream> {
  const { apiKey, reportDir } = opts;
  checkRecordingsFolder(dir, true);
  checkStandInKey(apiKey); // the key of the stand-in, as serve takes it
  const faults = (opts.fault ?? []).map(parseFaultOption);
  const { startServer } = await import('../serve/server.js');
  const [drops, faulted, fromState] = [new Marks(), new Marks(), new Marks()];
  const server = await startServer({
    onRecordedDrop: drops.add,
    onFault: faulted.add,
    onState: fromState.add,
    stateful: opts.stateful ?? false,
    faultControl: opts.faults ?? false,
    faults,
    faultSeed: opts.faultSeed ?? 1,
    dir,
    host: '127.0.0.1',
    port: 0,
    apiKey: apiKey ?? generateApiKey(),
    // the stand-in agent's own log: which recorded answer each request got
    logFile: join(reportDir, 'upstream-requests.har'),
    logFailure: (cause) =>
      `--report-dir ${reportDir}: cannot write the stand-in agent's request log ${join(reportDir, 'upstream-requests.har')} (${cause})`,
  });
  return {
    url: server.url,
    apiKey: server.apiKey,
    version: server.agentVersion,
    description: dir,
    recordedDrop: drops.take,
    faulted: faulted.take,
    fromState: fromState.take,
    close: () => server.close(),
  };
}

async function agentUpstream(
  url: string,
  apiKey: string | undefined,
  option: string,
  timeoutMs: number,
): Promise<Upstream> {
  const base = agentUrl(url, option);
  if (!apiKey)
    throw new UsageError(`${option} needs --api-key (or SYNCONF_API_KEY): synconf asks the agent its version`);
  let version: string | null = null;
  try {
    const res = await agentFetch(new URL('/rest/system/version', base), {
      headers: { 'X-API-Key': apiKey },
      timeoutMs,
    });
    if (res.status === 401 || res.status === 403)
      throw new InputError(`${option} ${url}: the agent refuses --api-key (status ${res.status})`);
    const redirect = tlsRedirect(option, url, res.status, res.location);
    if (redirect) throw new UsageError(redirect);
    const body = (() => {
      try {
        return JSON.parse(res.body) as { version?: unknown };
      } catch {
        return {};
      }
    })();
    version = typeof body.version === 'string' ? body.version : null;
  } catch (e) {
    if (e instanceof InputError || e instanceof UsageError) throw e;
    const tls = certificateFailure(e as NodeJS.ErrnoException);
    if (tls) throw new InputError(untrustedAgent(option, url, tls));
    const why = (e as Error).name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : (e as Error).message;
    throw new InputError(`${option} ${url}: cannot reach the agent (${why})`);
  }
  return { url: base.origin, apiKey, version, description: base.origin, close: async () => {} };
}
