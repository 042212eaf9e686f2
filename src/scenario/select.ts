// Which scenarios a run runs: the files of --suite (folders, files or globs), loaded and checked, and the ids
// --only picks. Every malformed file and every pattern that matches nothing is reported; none is run.
import { resolve } from 'node:path';
import { existsSync, lstat, lstatSync, realpath, realpathSync, stat, type Stats } from 'node:fs';
import type { FileSystemAdapter } from 'tinyglobby';
import { ScenarioError, type LoadedScenario } from './load.js';
import { loadScenarioAbortably } from './load-off-thread.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { SUITES_DIR } from '../paths.js';
import { UsageError } from '../errors.js';
import { didYouMean } from '../did-you-mean.js';
import { wordFor } from '../plural.js';

export interface Selection {
  scenarios: LoadedScenario[];
  errors: { file: string; step?: string; message: string }[];
  /** scenarios of the suite that --only left out */
  notSelected?: LoadedScenario[];
}

const MAX_PATTERN = 200;

/** a scenario id pattern of --only (`*` any run of characters, `?` one) as a regular expression */
export function idPattern(glob: string): RegExp {
  // A scenario id is a short name: a pattern far longer is a mistake (a file pasted, a variable gone wrong), and
  // would become a regular expression too large to build. Said without echoing it.
  if (glob.length > MAX_PATTERN)
    throw new UsageError(`--only: a pattern of ${glob.length} characters is too long (at most ${MAX_PATTERN})`);
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );
}

/**
 * The scenario files of the --suite paths (default suites/), sorted. Each path on its own, so that one matching
 * nothing is named rather than lost among the others.
 */
async function suiteFiles(suites: string[] | undefined, errors: Selection['errors']): Promise<string[]> {
  const given = suites?.length ? suites : [SUITES_DIR];
  const found = new Set<string>();
  for (const p of given) {
    const abs = resolve(p);
    const folder = !/\.(ya?ml)$/.test(abs) && !/[*?{]/.test(p);
    // Plain file names need no globbing (and a run of one file should not pay for it: tinyglobby's
    // fdir loads picomatch from node_modules when its module is evaluated). A folder is globbed from inside it: as
    // an absolute pattern outside the working folder, tinyglobby crawled far more than the folder (a replay of the
    // bundled suites run from /tmp spent ~25 ms more on it).
    let files: string[];
    if (/\.ya?ml$/.test(abs) && !/[*?{[]/.test(abs) && existsSync(abs)) files = [abs];
    else {
      const { glob } = await import('tinyglobby');
      const options = { absolute: true, fs: keepBrokenLinks };
      files = folder ? await glob('**/*.yaml', { cwd: abs, ...options }) : await glob(abs, options);
    }
    if (files.length === 0)
      errors.push({
        file: '--suite',
        message: `"${p}" matches no scenario file${existsSync(abs) ? '' : ' (no such file or folder)'}`,
      });
    for (const f of files) found.add(f);
  }
  return oncePerFile(found);
}

/**
 * The file system as the glob sees it, but for a link it cannot follow (to nothing, or a loop): the glob would drop it
 * without a word, and the suite would run as if the file were not there. Such a link is given back as itself, not a
 * folder, so that the glob's own pattern decides whether it is a scenario file, and its load says why it is unreadable.
 */
const keepBrokenLinks: FileSystemAdapter = {
  realpath: ((path: string, done: (e: null, real: string) => void) =>
    realpath(path, (e, real) => done(null, e ? path : real))) as FileSystemAdapter['realpath'],
  stat: ((path: string, done: (e: NodeJS.ErrnoException | null, s: Stats) => void) =>
    stat(path, (e, s) => (e ? lstat(path, done) : done(null, s)))) as unknown as FileSystemAdapter['stat'],
};

/**
 * Each real file once. A folder reached again through a link (a linked folder, or a link back up that makes a
 * loop, which the walk follows once) gives the same files under other paths: they are the same scenarios, not
 * two with one id. The path kept is the one through the fewest links: not itself a link, then the shortest.
 */
function oncePerFile(paths: Iterable<string>): string[] {
  const isLink = (p: string) => (lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink() ? 1 : 0);
  const before = (a: string, b: string) => isLink(a) - isLink(b) || a.length - b.length || (a < b ? -1 : 1);
  const byReal = new Map<string, string>();
  for (const p of paths) {
    let real = p;
    try {
      real = realpathSync(p);
    } catch {
      // a link that leads nowhere: kept as it is, its load says why it cannot be read
    }
    const kept = byReal.get(real);
    if (kept === undefined || before(p, kept) < 0) byReal.set(real, p);
  }
  return [...byReal.values()].sort();
}

/** the ids --only picks (every pattern must match some id); the rest is not selected */
function pickIds(scenarios: LoadedScenario[], only: string[], errors: Selection['errors']) {
  const re = only.map(idPattern);
  const selected = scenarios.filter((s) => re.some((r) => r.test(s.scenario.id)));
  const notSelected = scenarios.filter((s) => !selected.includes(s));
  // Every pattern must match: one that matches nothing is a typo, even when another one matches.
  const unmatched = only.filter((_, i) => !scenarios.some((s) => re[i].test(s.scenario.id)));
  if (unmatched.length && scenarios.length) {
    const ids = scenarios.map((s) => s.scenario.id).sort();
    const hints = unmatched.map((p) => didYouMean(p, ids));
    // the closest id of each typo; the whole list only when one of them has none
    errors.push({
      file: '--only',
      message: `${unmatched.map((p, i) => `"${p}"${hints[i]}`).join(', ')} ${wordFor(unmatched.length, 'matches', 'match')} no scenario id${hints.every(Boolean) ? '' : ` (known: ${ids.join(', ')})`}`,
    });
  }
  return { selected, notSelected };
}

/** a turn of the event loop: loading reads files synchronously, and a signal must land between two of them */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * find and load scenario files; every malformed file is reported, none is run. `signal` (Ctrl-C while loading) ends
 * the loading at the next file: the caller says it was interrupted.
 */
export async function selectScenarios(
  suites: string[] | undefined,
  only: string[] | undefined,
  signal?: AbortSignal,
): Promise<Selection> {
  const errors: Selection['errors'] = [];
  const files = await suiteFiles(suites, errors);
  const endpointIds = new Set(loadEndpoints().map((e) => e.id));
  const scenarios: LoadedScenario[] = [];
  for (const f of files) {
    await nextTurn();
    if (signal?.aborted) break;
    try {
      const loaded = await loadScenarioAbortably(f, endpointIds, signal);
      if (!loaded) break; // aborted while a large file loaded
      scenarios.push(loaded);
    } catch (e) {
      if (!(e instanceof ScenarioError)) throw e;
      errors.push({
        file: e.line ? `${e.file}:${e.line}${e.column ? `:${e.column}` : ''}` : e.file,
        ...(e.step ? { step: e.step } : {}),
        message: e.cause_,
      });
    }
  }
  const ids = new Map<string, string>();
  for (const s of scenarios) {
    const other = ids.get(s.scenario.id);
    if (other) errors.push({ file: s.file, message: `scenario id "${s.scenario.id}" is also used by ${other}` });
    ids.set(s.scenario.id, s.file);
  }
  const { selected, notSelected } = only?.length
    ? pickIds(scenarios, only, errors)
    : { selected: scenarios, notSelected: [] };
  // Destructive scenarios go last: after a shutdown there is no agent left to check.
  const ordered = [...selected].sort(
    (a, b) =>
      Number(a.scenario.needs?.includes('shutdown') ?? false) - Number(b.scenario.needs?.includes('shutdown') ?? false),
  );
  return { scenarios: ordered, errors, notSelected };
}
