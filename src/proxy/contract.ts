// A client's contract (schemas/contract.schema.json): the endpoints a client calls, each with the members of the
// answers it reads, and its known quirks. `synconf contract` writes one from a session with every member the client
// received; its author prunes it to what the client reads, as a Pact consumer's. drift keeps to what it names, and
// the proxy accepts its quirks as expected failures with their reasons, as the agent's known deviations are.
import type { CheckResult, ClientContract, ScenarioResult } from '../schema/generated/types.js';
import { InputError } from '../errors.js';
import { parseJson, readTextFile } from '../text-file.js';
import { kindProblem } from '../schema/file-kind.js';
import { validate } from '../schema/registry.js';
import { applyDeviations, type DeviationIndex } from '../runner/expectations.js';
import type { ClientSession } from './client-session.js';

export const CONTRACT_FORMAT = 'synconf-contract/1';

/** the contract of everything the session's client received: each REST endpoint it called, with every member */
export function contractOf(session: ClientSession, source: string, client?: string): ClientContract {
  return {
    format: CONTRACT_FORMAT,
    ...(client ? { client } : {}),
    madeFrom: { session: source, agentVersion: session.agentVersion },
    endpoints: session.footprint
      .filter((f) => f.scope !== 'not-rest')
      .map((f) => ({ endpoint: f.endpoint, members: f.members })),
    quirks: [],
  };
}

/** a contract file; one that cannot be read, is not JSON, is another kind of file or breaks its schema: one line */
export function loadContract(file: string, option: string): ClientContract {
  const label = `${option} ${file}`;
  const doc = parseJson(readTextFile(file, label), label);
  const wrongKind = kindProblem(doc, 'contract');
  if (wrongKind) throw new InputError(`${label}: ${wrongKind}`);
  const [error] = validate('contract', doc);
  if (error) throw new InputError(`${label}: ${error.pointer || '/'}: ${error.message}`);
  const contract = doc as ClientContract;
  const seen = new Set<string>();
  for (const e of contract.endpoints) {
    if (seen.has(e.endpoint))
      throw new InputError(`${label}: ${e.endpoint} is listed twice: give each endpoint once, with all its members`);
    seen.add(e.endpoint);
  }
  return contract;
}

/** the name of a proxy check as a quirk names it: "<scenario>/#12/request:body" → "request:body" */
const checkName = (c: CheckResult) => c.id.split('/').slice(2).join('/');

/** the quirk of the contract that accepts this check of a request to `endpoint` ("METHOD /path"), if one does */
export function quirkOf(contract: ClientContract | undefined, endpoint: string, check: string) {
  return contract?.quirks?.find((q) => q.check === check && (q.endpoint === undefined || q.endpoint === endpoint));
}

/** marks the client's failing checks of a scenario (one endpoint) that the contract lists as quirks: expected-fail */
export function applyQuirks(s: ScenarioResult, contract: ClientContract | undefined, file: string): void {
  if (!contract?.quirks?.length) return;
  const index: DeviationIndex = new Map();
  for (const c of s.checks) {
    if (c.verdict !== 'fail' || c.blame !== 'client') continue;
    const q = quirkOf(contract, s.title, checkName(c));
    if (q) index.set(c.id, { check: q.check, observed: c.message, reason: q.reason, file });
  }
  if (index.size) applyDeviations(s, index);
}
