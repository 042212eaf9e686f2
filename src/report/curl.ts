// A check's request as a curl command a reader can paste into a shell to repeat it by hand.
// The API key is never in it: reports only hold the placeholder <API_KEY>, which becomes the
// shell variable $SYNCTHING_API_KEY; the agent's address is $SYNCTHING_URL (default: the run's).
import type { CheckResult } from '../schema/generated/types.js';

const API_KEY_PLACEHOLDER = '<API_KEY>';

/** single-quoted for a POSIX shell: nothing inside is expanded */
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** the agent's address to fall back on: the target of a run against a given agent, else Syncthing's default */
function defaultBase(target: string): string {
  return /^https?:\/\/[^\s"'`$\\]+$/.test(target) ? target.replace(/\/$/, '') : 'http://127.0.0.1:8384';
}

/** `curl …` for the check's request, or null when the check sent none */
export function curlOf(check: CheckResult, runTarget: string): string | null {
  const req = check.evidence?.request;
  if (!req) return null;
  const parts = ['curl -sS -i'];
  if (req.method !== 'GET' || req.body !== undefined) parts.push(`-X ${quote(req.method)}`);
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    // The placeholder (or any leftover trace of it) becomes the variable, expanded by the shell.
    if (value.includes(API_KEY_PLACEHOLDER)) parts.push(`-H "${name.replace(/["$`\\]/g, '')}: $SYNCTHING_API_KEY"`);
    else parts.push(`-H ${quote(`${name}: ${value}`)}`);
  }
  if (req.body !== undefined) parts.push(`--data-binary ${quote(req.body)}`);
  parts.push(`"\${SYNCTHING_URL:-${defaultBase(runTarget)}}"${quote(req.url)}`);
  return parts.join(' ');
}
