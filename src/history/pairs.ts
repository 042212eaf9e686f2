// The causes `synconf history` keeps per pair of neighbouring releases. Comparing two releases' recorded exchanges
// (src/changes/) was half the work of a history whose releases all came from its cache, and its answer depends only
// on the two report folders compared, the scenarios the matrix ran and synconf's build: all named by the two
// releases' cache keys (cache.ts: a key covers the scenario files, the options that change a verdict and the
// build, change rules included) when both folders are the cache's own runs. So the causes are kept under a hash of
// both releases and their keys, as a drift causes document (schemas/drift-causes.schema.json, checked when read
// back: a file that is not one is compared again and replaced), and read back instead of compared again.
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { ChangeCause, DriftCauses } from '../schema/generated/types.js';
import { countsOf } from '../report/causes-text.js';
import { validate } from '../schema/registry.js';
import { makeOutputDir } from '../output-dir.js';

/** a release whose report folder is the cache's, under its key; undefined for one whose run was not kept */
export type KeptRun = { name: string; key: string } | undefined;

/** how many pairs the cache keeps (other suites, other builds, other neighbours): the least recently used beyond go */
const PAIRS_KEPT = 64;

const pairFile = (dir: string, a: NonNullable<KeptRun>, b: NonNullable<KeptRun>) =>
  join(
    dir,
    `${createHash('sha256')
      .update(JSON.stringify([a, b]))
      .digest('hex')
      .slice(0, 24)}.json`,
  );

/** the kept causes of a pair, when the file is a drift causes document */
function readPair(file: string): ChangeCause[] | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const doc: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (validate('drift-causes', doc).length) return undefined;
    const now = new Date();
    utimesSync(file, now, now); // used: the last to go
    return (doc as DriftCauses).causes;
  } catch {
    return undefined;
  }
}

/** the causes of a pair kept: written beside and renamed into place whole; the least recently used beyond go */
function keepPair(dir: string, file: string, doc: DriftCauses): void {
  const staged = `${file}.${process.pid}.partial`;
  writeFileSync(staged, JSON.stringify(doc) + '\n');
  renameSync(staged, file);
  const kept = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => ({ f, at: statSync(join(dir, f)).mtimeMs }))
    .sort((x, y) => y.at - x.at);
  for (const { f } of kept.slice(PAIRS_KEPT)) rmSync(join(dir, f), { force: true });
}

/**
 * The matrix's `recordedCauses` (src/matrix/causes.ts) for a history: the causes of two columns whose runs are both kept (`kept[i]`, in
 * column order) are read from the cache, or compared and kept; any other pair is compared as always. The schema
 * validators must be loaded (loadDocumentValidators).
 */
export function pairCauses(
  cache: string,
  kept: KeptRun[],
): (from: number, to: number, compare: () => ChangeCause[]) => ChangeCause[] {
  const dir = join(cache, 'pairs');
  return (from, to, compare) => {
    const [a, b] = [kept[from], kept[to]];
    if (!a || !b) return compare();
    const file = pairFile(dir, a, b);
    const known = readPair(file);
    if (known) return known;
    const causes = compare();
    makeOutputDir(dir, '--cache-dir');
    keepPair(dir, file, { from: `${a.name} ${a.key}`, to: `${b.name} ${b.key}`, causes, counts: countsOf(causes) });
    return causes;
  };
}
