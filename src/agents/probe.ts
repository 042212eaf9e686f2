// What a Syncthing binary says about itself: `syncthing --version` (every generation takes it).
import { tmpdir } from 'node:os';
import { runBounded } from '../bounded-exec.js';
import semver from 'semver';
import { InputError } from '../errors.js';

export interface BinaryVersion {
  /** the version as printed, e.g. v1.12.1-ds1 (Debian's build of 1.12.1) */
  printed: string;
  /** the whole first line of --version */
  long: string;
}

export async function binaryVersion(binary: string): Promise<BinaryVersion> {
  // no ST* variables; 1.12.1 refuses to run without a HOME (it only reads it for --version)
  const res = await runBounded(binary, ['--version'], { timeoutMs: 10_000, env: { TZ: 'UTC', HOME: tmpdir() } });
  const long = res.stdout.split('\n')[0]?.trim() ?? '';
  const printed = /^syncthing (v\S+)/.exec(long)?.[1];
  if (res.failed || !printed) {
    throw new InputError(
      `${binary} --version did not print a Syncthing version (${res.failed ?? JSON.stringify(long.slice(0, 200))})`,
    );
  }
  return { printed, long };
}

/** true when the printed version (v1.12.1-ds1) is the release `version` (1.12.1): Debian's -ds1 tag is not a pre-release here */
export function sameRelease(printed: string, version: string): boolean {
  const core = semver.coerce(printed);
  return core !== null && core.version === version;
}
