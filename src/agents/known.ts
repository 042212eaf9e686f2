// The real agent versions synconf knows how to fetch: one Debian package each, from the suite that ships it.
// This table is the one place that names them (install, list, setup, the matrix and the tests read it).

export interface KnownAgent {
  /** the Syncthing release, as synconf names it (cache folder, --syncthing VERSION) */
  version: string;
  /** the Debian suite whose archive holds the package */
  suite: string;
  /** the exact Debian package version of `syncthing` to download */
  debianVersion: string;
}

export const KNOWN_AGENTS: readonly KnownAgent[] = [
  { version: '1.12.1', suite: 'bullseye', debianVersion: '1.12.1~ds1-4' },
  { version: '1.19.2', suite: 'bookworm', debianVersion: '1.19.2~ds1-1+b4' },
  { version: '1.29.5', suite: 'trixie', debianVersion: '1.29.5~ds1-2' },
];

export const KNOWN_VERSIONS: readonly string[] = KNOWN_AGENTS.map((a) => a.version);

export function knownAgent(version: string): KnownAgent | undefined {
  return KNOWN_AGENTS.find((a) => a.version === version);
}
