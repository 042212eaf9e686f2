// What kind of file a parsed document is, read from its top level alone: so that a file of the wrong kind (a HAR
// given as a report, a report given as a scenario) gets one line saying what it is, not a screen of schema errors.
import { load, CORE_SCHEMA } from 'js-yaml';
import { jsonType } from '../json.js';
import { SYNCONF_VERSION } from '../paths.js';

export type FileKind =
  | 'scenario'
  | 'expectations'
  | 'cassette'
  | 'foreign-har'
  | 'report'
  | 'matrix'
  | 'mutation-report'
  | 'drift-causes'
  | 'drift-ignore'
  | 'change-rules'
  | 'statement-index'
  | 'lab-state'
  | 'contract'
  | 'history';

/** each kind as a message names it */
export const KIND_NAMES: Record<FileKind, string> = {
  scenario: 'a scenario',
  expectations: 'an expectations file (known deviations)',
  cassette: 'a HAR cassette',
  'foreign-har': 'a HAR file not recorded by synconf',
  report: 'a report',
  matrix: 'a matrix (report merge)',
  'mutation-report': 'a mutation report',
  'drift-causes': 'a drift causes file (drift --json)',
  'drift-ignore': 'a drift ignore file',
  'change-rules': 'a change rules file',
  'statement-index': 'a statement index',
  'lab-state': 'a lab state file (lab.json)',
  contract: 'a client contract (synconf contract)',
  history: 'a history page (synconf history)',
};

const FORMATS: Record<string, FileKind> = {
  'synconf-report/1': 'report',
  'synconf-matrix/1': 'matrix',
  'synconf-mutation/1': 'mutation-report',
  'synconf-contract/1': 'contract',
  'synconf-history/1': 'history',
};

/** the kind of a parsed document by its top-level members; undefined when it looks like none of them */
export function sniffKind(doc: unknown): FileKind | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const has = (key: string) => Object.hasOwn(doc, key);
  const top = doc as Record<string, unknown>;
  if (typeof top.format === 'string') return FORMATS[top.format];
  if (has('log')) return (top.log as Record<string, unknown> | null)?._synconf ? 'cassette' : 'foreign-har';
  if (has('deviations')) return 'expectations';
  if (has('steps') || (has('id') && has('spec'))) return 'scenario';
  if (has('causes') && has('counts')) return 'drift-causes';
  if (has('accepted')) return 'drift-ignore';
  if (has('rules')) return 'change-rules';
  if (has('statements')) return 'statement-index';
  if (has('instances') && has('ownsDir')) return 'lab-state';
  return undefined;
}

/** why `doc` is not a `want` in one line (empty, not a mapping, or recognisably another kind); undefined if it may be */
export function kindProblem(doc: unknown, want: FileKind): string | undefined {
  if (doc === null || doc === undefined) return 'holds no document (blank, comments only, or null)';
  if (typeof doc !== 'object' || Array.isArray(doc))
    return `this is ${article(jsonType(doc))} ${jsonType(doc)}, not ${KIND_NAMES[want]}`;
  const format = (doc as { format?: unknown }).format;
  if (typeof format === 'string' && /^synconf-/.test(format) && !FORMATS[format]) {
    const reads = Object.keys(FORMATS).filter((f) => FORMATS[f] === want);
    return `this is a ${format} document, a format synconf ${SYNCONF_VERSION} does not read (${reads.length ? `it reads ${reads.join(', ')}` : `it reads ${KIND_NAMES[want]}`}; made by another synconf?)`;
  }
  const got = sniffKind(doc);
  if (got === undefined || got === want) return undefined;
  return `this is ${KIND_NAMES[got]}, not ${KIND_NAMES[want]}`;
}

/** the kind of a text that is not JSON, if it is YAML of a known kind (a scenario given where a report goes) */
export function kindOfYaml(text: string): FileKind | undefined {
  try {
    return sniffKind(load(text, { schema: CORE_SCHEMA }));
  } catch {
    return undefined;
  }
}

const article = (word: string) => (/^[aeiou]/.test(word) ? 'an' : 'a');
