// The real agent versions synconf knows how to get: a Debian package from the suite that ships it, or, for the
// releases Debian lacks (its archive stops at 1.29.5), a build of the release's commit from the Go module proxy.
// This table is the one place that names the default set (install, list, setup, the matrix and the tests read it);
// every other release comes from the release table (releases.ts), built as it says.
import { findRelease, releaseTable, type Release } from './releases.js';

/** a Debian package of `syncthing` */
export interface DebianSource {
  from: 'debian';
  /** the Debian suite whose archive holds the package */
  suite: string;
  /** the exact Debian package version of `syncthing` to download */
  debianVersion: string;
}

/** a change to the release's go.mod before it builds, with why it is needed */
export interface GoModEdit {
  /** `go mod edit -dropreplace=<this>`: the module@version of a replace line whose replacement the proxy refuses */
  dropReplace: string;
  why: string;
}

/**
 * A release built from the Go module proxy. Syncthing's module path has no /v2, so a 2.x tag is refused by the
 * proxy: the release is reached by its commit, as a pseudo-version of github.com/syncthing/syncthing.
 */
export interface GoModuleSource {
  from: 'go';
  /** the release tag, stamped into the binary (lib/build.Version) */
  tag: string;
  /** the tag's commit (40 hex) */
  commit: string;
  /** the commit's committer time, UTC: lib/build.Stamp, as Syncthing's build.go stamps it */
  commitTime: string;
  /** the module version the proxy serves the commit as: the tag itself (1.x) or a pseudo-version naming the commit */
  moduleVersion: string;
  /**
   * the h1: hash of the module's zip (go.sum's), checked after the download: the content of that commit; null
   * where the release table has none (a 1.x tag is then checked by the Go checksum database)
   */
  moduleSum: string | null;
  /** go.mod edits the build needs, as data */
  goModEdits: readonly GoModEdit[];
  /** Syncthing's own build tags for go build (the release table's recipe) */
  buildTags: readonly string[];
  /** run Syncthing's own go:generate of lib/api/auto first (no noassets tag before 1.15.0) */
  generateAssets: boolean;
}

export type KnownAgent = {
  /** the Syncthing release, as synconf names it (cache folder, --syncthing VERSION) */
  version: string;
  /**
   * in the default set: what `synconf agents install` without versions and `npm run setup` install, and what every
   * live test runs (tests/support/agents.ts). The others install when named (`synconf agents install 2.1.2`).
   */
  inSetup: boolean;
} & (DebianSource | GoModuleSource);

export { SYNCTHING_MODULE } from './releases.js';

export const KNOWN_AGENTS: readonly KnownAgent[] = [
  { version: '1.12.1', inSetup: true, from: 'debian', suite: 'bullseye', debianVersion: '1.12.1~ds1-4' },
  { version: '1.19.2', inSetup: true, from: 'debian', suite: 'bookworm', debianVersion: '1.19.2~ds1-1+b4' },
  { version: '1.29.5', inSetup: true, from: 'debian', suite: 'trixie', debianVersion: '1.29.5~ds1-2' },
  {
    version: '1.30.0',
    inSetup: true,
    from: 'go',
    tag: 'v1.30.0',
    commit: '0945304a79d6bbaeac7fc2cc1b06f57d3cf66622',
    commitTime: '2025-06-20T09:17:23Z',
    moduleVersion: 'v1.30.0',
    moduleSum: 'h1:gFeuxkbM/iNR8hHpB7WB/vs3DTyxeaTXeZPn2lK2olk=',
    goModEdits: [],
    buildTags: ['noassets'],
    generateAssets: false,
  },
  {
    version: '2.1.0',
    inSetup: true,
    from: 'go',
    tag: 'v2.1.0',
    commit: 'c0c401efebf27af58b91309b381d7d3eae870a64',
    commitTime: '2026-05-12T05:59:47Z',
    moduleVersion: 'v1.30.0-rc.1.0.20260512055947-c0c401efebf2',
    moduleSum: 'h1:073kqXiqHDi+QMpF1fhZ5cq8acAi9xKkkhbzjH7fP/0=',
    goModEdits: [
      {
        dropReplace: 'github.com/mattn/go-sqlite3@v1.14.44',
        why:
          'its replacement, the fork github.com/calmh/go-sqlite3 v1.14.35-0.20260509063420-822b4765116d, is refused by ' +
          "the proxy; the fork only adds SQLite's dbstat table for `syncthing debug database-statistics` " +
          '(syncthing#10117), which no REST endpoint uses, and 2.1.2 dropped it for upstream v1.14.45',
      },
    ],
    buildTags: ['noassets'],
    generateAssets: false,
  },
  {
    version: '2.1.2',
    inSetup: true,
    from: 'go',
    tag: 'v2.1.2',
    commit: '44cbfcad56db30ccccdbbab40124fc498ee354db',
    commitTime: '2026-06-26T05:22:40Z',
    moduleVersion: 'v1.30.0-rc.1.0.20260626052240-44cbfcad56db',
    moduleSum: 'h1:crh/m2O/9f0PwDHXffnuiq4G5sGlDuQ5/mViASH3iDA=',
    goModEdits: [],
    buildTags: ['noassets'],
    generateAssets: false,
  },
];

/** the versions of the default set, which synconf fetches or builds as above, oldest first */
export const KNOWN_VERSIONS: readonly string[] = KNOWN_AGENTS.map((a) => a.version);

/** the default set (see inSetup), oldest first */
export const DEFAULT_VERSIONS: readonly string[] = KNOWN_AGENTS.filter((a) => a.inSetup).map((a) => a.version);

/** a release of the release table as a build from the Go module proxy, with its recipe */
export function releaseAgent(r: Release, table = releaseTable()): KnownAgent {
  const recipe = table.recipes[r.recipe];
  return {
    version: r.version,
    inSetup: false,
    from: 'go',
    tag: r.tag,
    commit: r.commit,
    commitTime: r.commitTime,
    moduleVersion: r.moduleVersion,
    moduleSum: r.moduleSum,
    goModEdits: r.goModEdits ?? [],
    buildTags: recipe.tags,
    generateAssets: recipe.generateAssets,
  };
}

/**
 * How synconf gets a version: the default set above, else the release table's build (which may still be refused:
 * see unobtainable in releases.ts).
 */
export function knownAgent(version: string): KnownAgent | undefined {
  const known = KNOWN_AGENTS.find((a) => a.version === version);
  if (known) return known;
  const release = findRelease(version);
  return release ? releaseAgent(release) : undefined;
}
