// `synconf contract SESSION`: a client's contract from a proxy session (its report folder or HAR): each REST endpoint
// the client called with every member of the answers it received, for its author to prune to what the client reads.
// The checks its requests broke are printed as quirks it may accept, each with a reason of the author's.
import { writeFileSync } from 'node:fs';
import { readClientSession } from '../proxy/client-session.js';
import { contractOf } from '../proxy/contract.js';
import { checkRequest } from '../proxy/request-checks.js';
import { endpointName } from '../changes/compare.js';
import { InputError } from '../errors.js';
import { printable } from '../printable.js';

export interface ContractOptions {
  session: string;
  out: string;
  client?: string;
}

/** the checks the session's requests broke, as "<check>\t<endpoint>", with how often */
function brokenChecks(entries: { request: { method: string; url: string; postData?: { text: string } } }[]) {
  const broken = new Map<string, number>();
  for (const e of entries) {
    const url = new URL(e.request.url);
    const path = url.pathname + url.search;
    const endpoint = endpointName(e.request.method, path);
    for (const c of checkRequest({ method: e.request.method, url: path, body: e.request.postData?.text }).checks)
      if (c.verdict === 'fail') broken.set(`${c.name}\t${endpoint}`, (broken.get(`${c.name}\t${endpoint}`) ?? 0) + 1);
  }
  return broken;
}

export async function contract(opts: ContractOptions): Promise<void> {
  const session = await readClientSession(opts.session);
  const doc = contractOf(session, session.har, opts.client);
  try {
    // never over a file synconf did not make: the author's pruned contract is theirs
    writeFileSync(opts.out, JSON.stringify(doc, null, 2) + '\n', { flag: 'wx' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'EEXIST'
        ? `--out ${opts.out}: the file exists; synconf does not write over it (give another --out, or remove it)`
        : `--out ${opts.out}: cannot write: ${code ?? (e as Error).message}`,
    );
  }
  const members = doc.endpoints.reduce((n, e) => n + e.members.length, 0);
  console.log(
    `contract: ${opts.out}: ${doc.endpoints.length} endpoint(s), ${members} member(s) the client received; prune each endpoint's members to those the client reads (drift --contract judges only what it names)`,
  );
  for (const [key, n] of brokenChecks(session.entries)) {
    const [check, endpoint] = key.split('\t');
    console.log(
      printable(
        `the client's requests break ${check} on ${endpoint}${n > 1 ? ` (×${n})` : ''}: if that is a known, harmless quirk, add {"check": "${check}", "endpoint": "${endpoint}", "reason": "…"} to quirks (proxy --contract accepts it)`,
      ),
    );
  }
}
