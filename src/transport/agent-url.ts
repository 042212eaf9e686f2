// The URL of an agent synconf did not start (http://, or https:// when its GUI speaks TLS), as --agent (run, drift, proxy) or `drift --against` names it: checked
// here only, before anything is asked of it, each mistake one line naming the option. Left to `new URL`, an empty
// port (http://127.0.0.1:) and port 0 became port 80, a path and query were dropped without a word (requests go to
// /rest/... of the root), and "localhost:8384" read as the scheme "localhost:".
import { UsageError } from '../errors.js';

const EXAMPLE = 'e.g. http://127.0.0.1:8384';
/** scheme://[user@]host[:port] as typed: the port as written ('' when a ":" has none after it) */
const AUTHORITY = /^[a-z][a-z\d+.-]*:\/\/(?:[^/?#@]*@)?(?:\[[^\]]*\]|[^/?#:]*)(?::([^/?#]*))?([^]*)$/i;
/** host[:port] without a scheme, as Syncthing's --gui-address writes it */
const HOST_PORT = /^(\[[\da-f:.]+\]|[^\s/?#@:[\]]+)(:\d+)?\/?$/i;

/** the agent's URL of `option` ("--agent"), or a UsageError saying what is wrong with it */
export function agentUrl(text: string, option = '--agent'): URL {
  const written = AUTHORITY.exec(text);
  if (!written) {
    const fixed = HOST_PORT.test(text) && URL.canParse(`http://${text}`);
    throw new UsageError(
      fixed
        ? `${option} "${text}" has no scheme: write it http://${text}`
        : `${option} "${text}" is not a URL (expected ${EXAMPLE})`,
    );
  }
  const [, port, rest] = written;
  if (port !== undefined && /^\d+$/.test(port) && Number(port) > 65535)
    throw new UsageError(`${option} "${text}": port ${port} is out of range (1 to 65535)`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${option} "${text}" is not a URL (expected ${EXAMPLE})`);
  }
  // credentials in the URL would be written in clear wherever the URL is (every report names the agent)
  if (url.username || url.password)
    throw new UsageError(
      `${option}: a URL holding a user name or password (${url.protocol}//…@${url.host}) would be written in every report: give the API key with --api-key and the URL without credentials`,
    );
  // an agent whose GUI speaks TLS is https://, its certificate verified (agent-https.ts: --agent-ca to trust its own)
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(
      `${option} "${text}": synconf speaks http:// and https://, not ${url.protocol}// (${EXAMPLE})`,
    );
  if (port === '') throw new UsageError(`${option} "${text}": the port after ":" is empty (${EXAMPLE})`);
  if (url.port === '0') throw new UsageError(`${option} "${text}": port 0 is no agent's port (${EXAMPLE})`);
  if (rest !== '' && rest !== '/')
    throw new UsageError(
      `${option} "${text}": synconf asks the API at /rest/ of the agent's root, so a path, query or fragment would be dropped: give ${url.origin}`,
    );
  return url;
}
