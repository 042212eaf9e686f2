// A client's session as `synconf drift --against` reads it: the report folder of `synconf proxy` (its footprint, and
// its HAR in recordings/), or a HAR file alone (the proxy's, or one a browser saved), whose footprint is then made
// from its own exchanges. Every problem is an InputError naming the file.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { HarEntry, Report } from '../schema/generated/types.js';
import { InputError } from '../errors.js';
import { parseJson, readTextFile } from '../text-file.js';
import { readReport } from '../report/load.js';
import { cassettePath, RUN_CASSETTE } from '../transport/cassette.js';
import { Footprint, type FootprintEntry } from './footprint.js';
import { checkRequest } from './request-checks.js';
import type { StartState } from './start-state.js';

export interface ClientSession {
  entries: HarEntry[];
  footprint: FootprintEntry[];
  /** the agent the session was made with, when known */
  agentVersion: string | null;
  /** the HAR file read */
  har: string;
  /** what the agent held when the session began (a proxy session of a live agent), when known */
  startState?: StartState;
}

/** a HAR's entries, each with the step and target synconf's comparison names exchanges by (`#n`, agent) */
function harEntries(file: string): { entries: HarEntry[]; agentVersion: string | null } {
  const doc = parseJson(readTextFile(file, file), file) as {
    log?: { entries?: unknown; _synconf?: { agent?: { version?: unknown } } };
  };
  const entries = doc?.log?.entries;
  if (!Array.isArray(entries))
    throw new InputError(`${file}: not a HAR file (no log.entries); give a report folder of synconf proxy or its HAR`);
  // the proxy's HAR says which agent answered (a browser's does not)
  const version = doc.log?._synconf?.agent?.version;
  return {
    agentVersion: typeof version === 'string' ? version : null,
    entries: entries.map((e: HarEntry, i) => {
      if (!e?.request?.url || !e.request.method || !e.response)
        throw new InputError(`${file}: entry ${i} has no request method and URL, or no response`);
      return { ...e, _step: e._step ?? `#${i + 1}`, _target: e._target ?? 'agent' };
    }),
  };
}

/** the footprint of a session from its exchanges (a HAR without the proxy's report) */
function footprintOf(entries: HarEntry[]): FootprintEntry[] {
  const f = new Footprint();
  for (const e of entries) {
    const url = new URL(e.request.url);
    const scope = checkRequest({ method: e.request.method, url: url.pathname + url.search }).scope;
    // a request the proxy refused (--errors refuse) had no answer of the agent's
    const text = e._refused === undefined ? e.response.content.text : '';
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    const status = e._refused === undefined ? e.response.status || undefined : undefined;
    f.add(scope, e.request.method, url.pathname + url.search, status, json);
  }
  return f.entries();
}

/** the session in `source`: a proxy report folder, or a HAR file */
export async function readClientSession(source: string): Promise<ClientSession> {
  const session = await sessionIn(source);
  // a session of no exchange the spec describes gave "0 causes" and a score of n/a, exit 0: no answer read as one
  if (!session.footprint.some((e) => e.scope === 'spec'))
    throw new InputError(
      `${source}: the session holds no exchange the spec describes (${session.entries.length} in all): nothing to compare or score`,
    );
  return session;
}

async function sessionIn(source: string): Promise<ClientSession> {
  if (!existsSync(source))
    throw new InputError(`${source} does not exist: give a report folder of synconf proxy or a HAR file`);
  if (statSync(source).isFile()) {
    const { entries, agentVersion } = harEntries(source);
    return { entries, footprint: footprintOf(entries), agentVersion, har: source };
  }
  const reportFile = join(source, 'report.json');
  if (!existsSync(reportFile))
    throw new InputError(`${source}: no report.json; give a report folder of synconf proxy or a HAR file`);
  const report: Report = await readReport(reportFile);
  if (!report.proxy)
    throw new InputError(
      `${reportFile}: a report of synconf ${report.run.mode}, not of synconf proxy: it has no client footprint`,
    );
  const har = cassettePath(join(source, report.run.exchanges ?? 'recordings'), RUN_CASSETTE);
  if (!existsSync(har)) throw new InputError(`${source}: the session's HAR ${har} is gone`);
  return {
    entries: harEntries(har).entries,
    footprint: report.proxy.footprint,
    agentVersion: report.agent.version,
    har,
    ...(report.proxy.startState ? { startState: report.proxy.startState } : {}),
  };
}
