// `synconf drift SESSION --against VERSION|URL|RECORDINGS`: does another agent version break this client? The
// client's own requests (a proxy session: its report folder or HAR) are asked again of the other agent (a lab of that
// version, a running agent, or recordings), and the two agents' answers compared with the change rules, restricted to
// the client's footprint: a member the client never received, or an endpoint it never called, is no change for it.
import { trustAgentCa } from '../session/targets.js';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CassetteMeta, ChangeCause, ClientContract, HarEntry } from '../schema/generated/types.js';
import { SYNCONF_VERSION } from '../paths.js';
import { cassettePath, newCassette, RUN_CASSETTE } from '../transport/cassette.js';
import { Redactor } from '../transport/redact.js';
import { compareRecordings } from '../changes/compare-recordings.js';
import { touchesContract, touchesFootprint, type Footprint } from '../changes/footprint.js';
import type { Difference } from '../changes/compare.js';
import { loadContract } from '../proxy/contract.js';
import type { Acceptance } from '../changes/accept.js';
import { makeOutputDir, usableTempDir } from '../output-dir.js';
import { readClientSession } from '../proxy/client-session.js';
import { replaySession, requestLabel } from '../proxy/replay-client.js';
import { agentRoute, changesAgent } from '../transport/agent-route.js';
import { startUpstream, type Upstream, type UpstreamOptions } from '../session/proxy-upstream.js';
import { dependsOnStart, holdsAnything, seedStartState, stateSize, type StartState } from '../proxy/start-state.js';
import { printCauses, type CauseOptions } from './terminal/drift-causes.js';
import { MISS_PREFIX } from '../serve/miss.js';
import { InputError, UsageError } from '../errors.js';
import { printableLine } from '../printable.js';
import { plural } from '../plural.js';

export interface AgainstOptions extends CauseOptions {
  against: string;
  apiKey?: string;
  /** --timeout: seconds each request to the agent may take */
  timeout?: number;
  /** --contract: the client's contract; only what it names is judged */
  contract?: string;
  /** --agent-ca: the certificate(s) trusted for an https:// agent --against names */
  agentCa?: string;
  /** --allow-writes: the client's writes are asked of the agent at --against URL too */
  allowWrites?: boolean;
}

/** --against: a recordings folder, an agent's URL (host:port too, which agent-url.ts refuses for its missing scheme),
 * or else a version for a lab */
function upstreamOf(against: string, apiKey: string | undefined, scratch: string, timeoutMs?: number): UpstreamOptions {
  const agent = { agent: against, apiKey, reportDir: scratch, agentOption: '--against', timeoutMs };
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(against)) return agent;
  if (existsSync(against) && statSync(against).isDirectory())
    return { recordings: against, apiKey, reportDir: scratch };
  if (/^[^/\\:]+:\d*\/?$/.test(against)) return agent;
  return { lab: against, reportDir: scratch };
}

/** one side of the comparison: a folder holding the session's exchanges as a cassette */
function writeSide(dir: string, entries: HarEntry[], version: string | null): string {
  makeOutputDir(dir, 'a scratch folder');
  const meta: CassetteMeta = {
    scenario: RUN_CASSETTE,
    recordedAt: new Date().toISOString(),
    synconfVersion: SYNCONF_VERSION,
    agent: { version },
  };
  writeFileSync(cassettePath(dir, RUN_CASSETTE), JSON.stringify(newCassette(meta, SYNCONF_VERSION, entries)) + '\n');
  return dir;
}

/** the exchanges a recordings stand-in answered from its recordings, and a line for each it had no answer to */
function splitUnrecorded(entries: HarEntry[]): { answered: HarEntry[]; unrecorded: string[] } {
  const missed = (e: HarEntry) => e.response.status === 404 && e.response.content.text.startsWith(MISS_PREFIX);
  return {
    answered: entries.filter((e) => !missed(e)),
    unrecorded: entries.filter(missed).map((e) => `${requestLabel(e)}: no recorded answer in the recordings`),
  };
}

/** a request that changes the agent's state (asked or not, what it leaves behind is there for the next answers); one
 * whose route cannot be told may */
function changesState(e: HarEntry): boolean {
  const route = agentRoute(e.request.method, new URL(e.request.url).pathname);
  if ('undecidable' in route) return true;
  return /^\/rest\//i.test(route.path) && changesAgent(route);
}

/**
 * Where the two agents' states part: the first request of the session that changes the agent's state and was not
 * asked again (PUT /rest/config would replace the other agent's configuration). An answer after it may differ
 * because of what that request left on the older agent alone, not because of the version.
 */
function partingOf(entries: HarEntry[], asked: Map<string, string>): { index: number; label: string } | undefined {
  const index = entries.findIndex((e) => changesState(e) && !asked.has(e._step));
  if (index < 0) return undefined;
  const e = entries[index];
  return { index, label: `${requestLabel(e)} (${e._step})` };
}

/** the session's starting state the other agent does not hold: the calls depending on it cannot tell */
interface Unheld {
  state: StartState;
  label: string;
  why: string;
}

/**
 * The session's starting state set up on the other agent when synconf started it (a lab); on any other (a running
 * agent synconf must not change, recordings) it is not, and what depends on it cannot tell.
 */
async function setUpStart(
  state: StartState | undefined,
  isLab: boolean,
  upstream: Upstream,
  dir: string,
): Promise<Unheld | undefined> {
  if (!holdsAnything(state)) return undefined;
  const why = isLab
    ? await seedStartState(upstream.url, upstream.apiKey, state, dir).then(() => undefined)
    : `${upstream.description} is not a lab synconf started, and is not changed`;
  if (why === undefined) return undefined;
  return { state, label: `the session's starting state (${stateSize(state)}), not set up`, why };
}

/** what the answers left out of the comparison are (uncertain.after in the JSON) and why each cannot tell */
function untoldWhy(
  unheld: Unheld | undefined,
  parting: { label: string } | undefined,
  modelled: number,
): { after: string; why: string } | undefined {
  const parts = [
    unheld && {
      after: unheld.label,
      why: `found in calls that depend on ${unheld.label} on the other agent: each may follow from that state's absence, not from the version`,
    },
    parting && {
      after: parting.label,
      why: `found only after ${parting.label}, which was not asked again: each may follow from the state that request left on the older agent alone, not from the version`,
    },
    modelled > 0 && {
      after: `${plural(modelled, 'answer')} of the recordings' state (proxy --recordings --stateful)`,
      why: `found in answers the recordings' state gave in the session (${modelled}), synconf's model of the older agent and not its recorded answers: each may follow from the model, not from the version`,
    },
  ].filter((p) => !!p);
  if (!parts.length) return undefined;
  return { after: parts.map((p) => p.after).join(' and '), why: parts.map((p) => p.why).join('; or ') };
}

/** the call depends on the session's starting state the other agent does not hold */
const dependsOn = (unheld: Unheld | undefined, e: HarEntry) => !!unheld && dependsOnStart(e, unheld.state);

/** the session's exchanges asked again, each with its URL as it was asked (by step); the others left out */
function sentAsAsked(entries: HarEntry[], asked: Map<string, string>): HarEntry[] {
  return entries.flatMap((e) => {
    const url = asked.get(e._step);
    return url === undefined ? [] : [{ ...e, request: { ...e.request, url } }];
  });
}

/** what the causes are kept to: the client's footprint, or its contract */
function keptTo(footprint: Footprint, contract: ClientContract | undefined, file: string | undefined): string {
  const count = (list: { members: string[] }[]) => list.reduce((n, f) => n + f.members.length, 0);
  return contract
    ? `contract ${file}: ${contract.endpoints.length} endpoint(s), ${count(contract.endpoints)} member(s) the client reads`
    : `footprint: ${footprint.length} endpoint(s), ${count(footprint)} member(s)`;
}

/** the agent --against names, checked before it is started, and whether the client's writes are asked of it: of an
 * agent synconf starts (a lab, the recordings' stand-in) always; of one the user runs (a URL) only with --allow-writes */
function checkedUpstream(
  opts: AgainstOptions,
  scratch: string,
  timeoutMs: number | undefined,
): { options: UpstreamOptions; writes: boolean } {
  const options = upstreamOf(opts.against, opts.apiKey, scratch, timeoutMs);
  if (opts.allowWrites && options.agent === undefined)
    throw new UsageError(
      `--allow-writes is for --against URL, an agent synconf did not start: ${opts.against} is started by synconf and takes every write the session holds`,
    );
  trustAgentCa(opts.agentCa, options.agent, '--against');
  return { options, writes: options.agent === undefined || opts.allowWrites === true };
}

export async function driftAgainst(source: string, opts: AgainstOptions, accepted: Acceptance[]): Promise<number> {
  const session = await readClientSession(source);
  const contract = opts.contract === undefined ? undefined : loadContract(opts.contract, '--contract');
  const touches = (d: Difference) =>
    contract ? touchesContract(session.footprint, contract.endpoints, d) : touchesFootprint(session.footprint, d);
  const scratch = mkdtempSync(join(usableTempDir(), 'synconf-drift-against-'));
  try {
    const timeoutMs = opts.timeout === undefined ? undefined : opts.timeout * 1000;
    const { options, writes } = checkedUpstream(opts, scratch, timeoutMs);
    const upstream = await startUpstream(options);
    let replayed;
    let unheld: Unheld | undefined;
    try {
      unheld = await setUpStart(session.startState, options.lab !== undefined, upstream, join(scratch, 'state'));
      replayed = await replaySession(session.entries, upstream, new Redactor([upstream.apiKey]), { timeoutMs, writes });
    } finally {
      await upstream.close();
    }
    // recordings holding no answer to a request tell nothing of the version: not compared (not endpoint-removed)
    const { answered, unrecorded } = splitUnrecorded(replayed.entries);
    replayed.skipped.push(...unrecorded);
    if (!answered.length)
      throw new InputError(
        `cannot tell: ${opts.against} holds no recorded answer to any of the client's ${replayed.entries.length} exchange(s); record that version with the client's calls, or give --against a version or URL`,
      );
    // the exchanges asked of both agents, by their steps, each as asked again (a long poll's timeout shortened)
    const asked = new Map(answered.map((e) => [e._step, e.request.url]));
    const sent = sentAsAsked(session.entries, asked);
    const order = new Map(session.entries.map((e, i) => [e._step, i]));
    const parting = partingOf(session.entries, asked);
    const early = (e: HarEntry) =>
      (order.get(e._step) ?? Infinity) < (parting?.index ?? Infinity) && !dependsOn(unheld, e) && !e._fromState;
    const compare = (name: string, keep: (e: HarEntry) => boolean) =>
      compareRecordings(
        writeSide(join(scratch, `${name}-before`), sent.filter(keep), session.agentVersion),
        writeSide(join(scratch, `${name}-after`), answered.filter(keep), upstream.version),
        undefined,
        touches,
      );
    const comparison = compare('early', early);
    const why = untoldWhy(unheld, parting, sent.filter((e) => e._fromState !== undefined).length);
    const later = why && { ...why, comparison: compare('later', (e) => !early(e)) };
    if (!opts.json) {
      console.log(
        `drift of the client's ${asked.size} exchange(s) (${keptTo(session.footprint, contract, opts.contract)}) from ${session.har} (Syncthing ${session.agentVersion ?? 'version unknown'}) to ${upstream.description} (Syncthing ${upstream.version ?? 'version unknown'}):`,
      );
      const skipped = new Map<string, number>();
      for (const s of replayed.skipped) skipped.set(s, (skipped.get(s) ?? 0) + 1);
      for (const [s, n] of skipped) console.log(`  not asked again${n > 1 ? ` (×${n})` : ''}: ${printableLine(s)}`);
      if (unheld) console.log(`  ${unheld.label}: ${printableLine(unheld.why)}`);
      else if (holdsAnything(session.startState))
        console.log(`  the session's starting state (${stateSize(session.startState)}) set up first`);
    }
    // without a contract every member the client received counts: say how many causes no contract has confirmed
    const unconfirmed = contract
      ? undefined
      : (causes: ChangeCause[]) => causes.filter((c) => c.pointer || c.members).length;
    return printCauses(comparison, session.har, upstream.description, opts, accepted, later, unconfirmed);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
