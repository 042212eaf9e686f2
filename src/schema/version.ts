// Agent versions as the agent reports them ("v1.19.2-ds1") compared as plain releases:
// Debian's "-ds1" suffix would otherwise make 1.19.2 a pre-release that sorts before 1.19.2.
// The semver functions one by one: the package index loads every module (a few ms of start-up).
import coerce from 'semver/functions/coerce.js';
import gte from 'semver/functions/gte.js';

export function releaseOf(version: string): string {
  const parsed = coerce(version);
  if (!parsed) throw new Error(`not a version: "${version}"`);
  return parsed.version;
}

/**
 * The version as synconf names it: the plain release, but a release candidate keeps its -rc.N (2.1.3-rc.1, as
 * `agents install --source --as` names one), which sorts before its release; Debian's -ds1 is dropped.
 */
export function versionLabel(version: string): string {
  const release = releaseOf(version);
  const rc = /^v?\d+\.\d+\.\d+-(rc\.\d+)$/.exec(version.trim())?.[1];
  return rc ? `${release}-${rc}` : release;
}

// A run compares its one agent version with the same few gates at every step: each pair is compared once.
const compared = new Map<string, boolean>();

/** true when the agent version is at or after `since` */
export function atLeast(agentVersion: string, since: string): boolean {
  const key = `${agentVersion}\0${since}`;
  let result = compared.get(key);
  if (result === undefined) {
    result = gte(releaseOf(agentVersion), releaseOf(since));
    compared.set(key, result);
  }
  return result;
}

export function isVersion(text: string): boolean {
  return coerce(text) !== null;
}
