// Agent versions as the agent reports them ("v1.19.2-ds1") compared as plain releases:
// Debian's "-ds1" suffix would otherwise make 1.19.2 a pre-release that sorts before 1.19.2.
import semver from 'semver';

export function releaseOf(version: string): string {
  const parsed = semver.coerce(version);
  if (!parsed) throw new Error(`not a version: "${version}"`);
  return parsed.version;
}

/** true when the agent version is at or after `since` */
export function atLeast(agentVersion: string, since: string): boolean {
  return semver.gte(releaseOf(agentVersion), releaseOf(since));
}

export function isVersion(text: string): boolean {
  return semver.coerce(text) !== null;
}
