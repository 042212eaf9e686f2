// What a Syncthing binary says about itself: `syncthing --version` (every generation takes it).
import { tmpdir } from 'node:os';
import { runBounded } from '../bounded-exec.js';
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

/**
 * true when the printed version is the release `version` (1.12.1): its tag (v1.12.1) or Debian's build of it
 * (v1.12.1-ds1, the -dsN of a repacked source). Any other suffix is another release: a pre-release (v2.1.2-rc.1) or a
 * fourth number (v1.19.2.9) read as the release it starts with was listed and kept as that release without a word.
 */
export function sameRelease(printed: string, version: string): boolean {
  const tail = printed.startsWith(`v${version}`) ? printed.slice(version.length + 1) : undefined;
  return tail !== undefined && /^(-ds\d*)?$/.test(tail);
}
