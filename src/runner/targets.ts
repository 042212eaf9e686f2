// Live targets: a lab synconf starts itself, or an agent someone else started on this machine.
// Both may add lab peers for scenarios that need a device dialing the agent.
import { sep } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Target } from './run.js';
import type { AgentWatch, Capability } from './context.js';
import { LiveTransport } from '../transport/live.js';
import { agentUrl } from '../transport/agent-url.js';
import { tlsRedirect, untrustedAgent } from '../agent-https.js';
import { wallClock } from './clock.js';
import { fileActions } from './local-actions.js';
import { parseBody } from './exchange-checks.js';
import type { Endpoint, Transport } from '../transport/types.js';
import type { Lab, LabInstance } from '../lab/lab.js';
import { UsageError } from '../errors.js';

export interface LiveOptions {
  /** some selected scenario needs a peer instance */
  needsPeer: boolean;
  allowDestructive: boolean;
  /** wraps the live transport, e.g. a recorder */
  wrap?: (t: LiveTransport) => Transport;
  /** the syncthing the lab starts: VERSION (agents cache) or PATH; default see LabOptions.binary */
  binary?: string;
  /** how long each request of the set-up may take (--timeout; default SETUP_TIMEOUT_MS) */
  timeoutMs?: number;
}

// home: the HOME the lab gives the instance's process; pathSeparator: its host's, which is this machine (loopback)
const instanceVars = (i: Pick<LabInstance, 'deviceId' | 'syncAddress' | 'dataDir' | 'home'>) => ({
  deviceId: i.deviceId,
  syncAddress: i.syncAddress,
  dataDir: i.dataDir,
  home: i.home,
  pathSeparator: sep,
});

async function startPeer(binary?: string): Promise<{ lab?: Lab; peer?: LabInstance; reason?: string }> {
  const { startLab, LabError } = await import('../lab/lab.js');
  try {
    const lab = await startLab({ instances: 1, names: ['peer'], binary });
    return { lab, peer: lab.instances[0] };
  } catch (e) {
    if (e instanceof LabError) return { reason: `no peer instance could be started: ${e.message}` };
    throw e;
  }
}

/** a live target from instance endpoints (tests use it directly against a local server) */
export function liveTarget(
  mode: 'live',
  description: string,
  endpoints: Record<string, Endpoint>,
  capabilities: Record<Capability, true | string>,
  vars: Record<string, unknown>,
  labs: Lab[],
  wrap?: LiveOptions['wrap'],
  /** watch the instances (a lab's restarts too): the targets of run, drift and matrix; a test's fake has no watch */
  watch?: { restarts: boolean },
): Target {
  const live = new LiveTransport(endpoints);
  const transport = wrap ? wrap(live) : live;
  const watched = new LiveTransport(endpoints);
  return {
    mode,
    description,
    transport,
    clock: wallClock,
    actions: fileActions(),
    capabilities,
    vars,
    apiKeys: Object.fromEntries(Object.entries(endpoints).map(([k, v]) => [k, v.apiKey])),
    watch: watch && agentWatch(watched, endpoints, watch.restarts),
    async close() {
      await watched.close();
      await transport.close();
      await Promise.all(labs.map((l) => l.down()));
    },
  };
}

/** how long the watch waits for an instance that may have stopped answering */
const SILENT_MS = 2000;
/** how long an instance that refuses connections may take to come back (a monitor restarts Syncthing within ~1 s) */
const GONE_MS = 10_000;

/** the watch on live instances: its own connections, past any recorder, so nothing it asks is recorded or judged */
function agentWatch(watched: LiveTransport, endpoints: Record<string, Endpoint>, restarts: boolean): AgentWatch {
  const get = (target: string, url: string, timeoutMs: number) =>
    watched.send({ target, method: 'GET', url, headers: { 'X-API-Key': endpoints[target].apiKey }, timeoutMs });
  return {
    async silent(target, code) {
      // Any HTTP answer (a 404 of an agent without the endpoint too) is an agent that answers. A request that timed out
      // gets one look; a refused one the time a restart takes (the restart watch judges that one).
      const until = Date.now() + (code === 'timeout' ? 0 : GONE_MS);
      let x;
      do {
        x = await get(target, '/rest/noauth/health', SILENT_MS);
        if (x.response) return undefined;
        if (Date.now() < until) await sleep(250);
      } while (Date.now() < until);
      const how =
        x.error?.code === 'timeout'
          ? `none within ${SILENT_MS} ms (is the process stopped, e.g. by SIGSTOP?)`
          : `none for ${GONE_MS / 1000} s (${x.error?.code}: the process is gone)`;
      return `the ${target} at ${endpoints[target].url} stopped answering: a request got no response (${code}), and GET /rest/noauth/health ${how}`;
    },
    async startTime(target) {
      // an agent someone else started may be restarted by them: only a lab's restarts are the run's business
      if (!restarts) return undefined;
      const x = await get(target, '/rest/system/status', SILENT_MS);
      const doc = x.response?.status === 200 ? parseBody(x.response.body).json : undefined;
      const value = (doc as { startTime?: unknown } | undefined)?.startTime;
      return typeof value === 'string' ? value : undefined;
    },
  };
}

/** start the agent (and a peer when needed) with the lab */
export async function labTarget(opts: LiveOptions): Promise<Target> {
  const { startLab } = await import('../lab/lab.js');
  const lab = await startLab({ instances: opts.needsPeer ? 2 : 1, names: ['agent', 'peer'], binary: opts.binary });
  const [agent, peer] = lab.instances;
  const endpoints: Record<string, Endpoint> = { agent: { url: agent.url, apiKey: agent.apiKey } };
  const vars: Record<string, unknown> = { agent: instanceVars(agent) };
  if (peer) {
    endpoints.peer = { url: peer.url, apiKey: peer.apiKey };
    vars.peer = instanceVars(peer);
  }
  const capabilities = {
    peer: peer ? true : 'no scenario asked for one',
    files: true,
    restart: true,
    shutdown: true,
  } as const;
  return liveTarget(
    'live',
    `lab (syncthing ${agent.version} at ${agent.url})`,
    endpoints,
    capabilities,
    vars,
    [lab],
    opts.wrap,
    { restarts: true },
  );
}

/** how long a request of the set-up may take without --timeout (its default) */
const SETUP_TIMEOUT_MS = 10_000;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * GET `path` of a given agent while setting up. The set-up only learns what the scenarios need (identity, sync
 * address); judging the answers is the scenarios' job. A wrong answer leaves a value unknown (`problem`); only no
 * answer at all, or a refused API key, stops the run.
 */
async function setupGet(probe: LiveTransport, url: string, apiKey: string, path: string, timeoutMs: number) {
  const x = await probe.send({
    target: 'agent',
    method: 'GET',
    url: path,
    headers: { 'X-API-Key': apiKey },
    timeoutMs,
  });
  if (x.error?.code === 'tls') throw new UsageError(untrustedAgent('--agent', url, x.error.message));
  if (!x.response) throw new UsageError(`the agent at ${url} does not answer (${x.error?.code}: ${x.error?.message})`);
  const redirect = tlsRedirect('--agent', url, x.response.status, x.response.headers.location);
  if (redirect) throw new UsageError(redirect);
  if (x.response.status === 403)
    throw new UsageError(`the agent at ${url} refuses the API key (403 ${x.response.body.trim()})`);
  const json = x.response.status === 200 ? parseBody(x.response.body).json : undefined;
  const doc = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  return {
    doc,
    headerId: x.response.headers['x-syncthing-id'],
    problem:
      json === undefined
        ? `GET ${path} answered ${x.response.status}${x.response.status === 200 ? ' without a JSON document' : ''}`
        : null,
  };
}

/**
 * A status that names no device may be a broken answer of a real agent (the scenarios judge it): Syncthing it is when
 * another answer names it, by its headers or its version document.
 */
async function namesItself(probe: LiveTransport, apiKey: string, timeoutMs: number): Promise<boolean> {
  const url = '/rest/system/version';
  const x = await probe.send({ target: 'agent', method: 'GET', url, headers: { 'X-API-Key': apiKey }, timeoutMs });
  const headers = x.response?.headers ?? {};
  if (headers['x-syncthing-id'] || headers['x-syncthing-version']) return true;
  const doc = x.response?.status === 200 ? parseBody(x.response.body).json : undefined;
  const long = (doc as { longVersion?: unknown } | undefined)?.longVersion;
  return typeof long === 'string' && long.startsWith('syncthing ');
}

/** the given agent's device ID and, when a peer is needed, its configured listen addresses, from its own API */
async function learnAgent(url: string, apiKey: string, needsPeer: boolean, timeoutMs: number) {
  const probe = new LiveTransport({ agent: { url, apiKey } });
  const status = await setupGet(probe, url, apiKey, '/rest/system/status', timeoutMs);
  const deviceId = typeof status.doc.myID === 'string' ? status.doc.myID : (status.headerId ?? null);
  // Every answer of Syncthing's API names its device (X-Syncthing-Id); a server that names none is something else, and
  // running the suite against it would blame "the agent" for hundreds of checks (or minutes of waits on 404s).
  if (!deviceId && !(await namesItself(probe, apiKey, timeoutMs))) {
    await probe.close();
    throw new UsageError(
      `the server at ${url} is not Syncthing: GET /rest/system/status answered without an X-Syncthing-Id header or a device ID (${status.problem ?? 'a document without myID'})`,
    );
  }
  // The sync address only matters to a peer; a run without one saves the request.
  const config = needsPeer ? await setupGet(probe, url, apiKey, '/rest/config', timeoutMs) : undefined;
  const configured = (config?.doc.options as { listenAddresses?: unknown } | undefined)?.listenAddresses;
  const listenAddresses = Array.isArray(configured) ? configured.filter((a): a is string => typeof a === 'string') : [];
  await probe.close();
  return { deviceId, configProblem: config?.problem, listenAddresses };
}

/** an agent someone else started; its URL and API key are given */
export async function agentTarget(url: string, apiKey: string, opts: LiveOptions): Promise<Target> {
  const local = LOOPBACK.has(agentUrl(url).hostname);
  const timeoutMs = opts.timeoutMs ?? SETUP_TIMEOUT_MS;
  const { deviceId, configProblem, listenAddresses } = await learnAgent(url, apiKey, opts.needsPeer, timeoutMs);
  const listen = listenAddresses.find((a) => /^tcp4?:\/\/(127\.0\.0\.1|localhost):\d+$/.test(a));
  const capabilities: Record<Capability, true | string> = {
    files: local ? true : `the agent at ${url} is not on this machine, so synconf cannot create files in its folders`,
    restart: true,
    shutdown: opts.allowDestructive
      ? true
      : 'the agent was not started by synconf; give --allow-destructive to let it be shut down',
    peer: 'no scenario asked for one',
  };
  const endpoints: Record<string, Endpoint> = { agent: { url, apiKey } };
  // an agent synconf did not start: its home is not known (no agent.home: a step that needs it is a skip), and its
  // host is this one only on loopback
  const vars: Record<string, unknown> = {
    agent: { deviceId, syncAddress: listen ?? null, dataDir: null, ...(local ? { pathSeparator: sep } : {}) },
  };
  const labs: Lab[] = [];
  if (opts.needsPeer) {
    if (configProblem) capabilities.peer = `the agent's sync address is unknown (${configProblem})`;
    else if (!local || !listen)
      capabilities.peer = `a peer must reach the agent's sync port on loopback; the agent listens on ${JSON.stringify(listenAddresses)}`;
    else {
      const { lab, peer, reason } = await startPeer(opts.binary);
      if (lab && peer) {
        labs.push(lab);
        endpoints.peer = { url: peer.url, apiKey: peer.apiKey };
        vars.peer = instanceVars(peer);
        capabilities.peer = true;
      } else capabilities.peer = reason!;
    }
  }
  return liveTarget('live', url, endpoints, capabilities, vars, labs, opts.wrap, { restarts: false });
}
