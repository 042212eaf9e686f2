// One rule for option values, for every command and every option, those added later included: an option that
// takes a value (a string, a list, a choice) given without one, or with "" or only blanks, is a usage error naming
// it. The CI shape is `--report-dir "$OUT"` with OUT unset. Left to yargs, a valueless option at the end of the line
// takes its default (`replay --report-dir` wrote to reports/latest), `--only ""` became no pattern (every
// scenario), `--expectations ""` none. Checked on the words of the command line, as typed, against the options
// the running command declares: after parsing, "" and a default can no longer be told apart.
// And one rule for an option given twice: a list (its --help says "repeat or comma-separate") takes every value;
// any other option given twice is a usage error naming it, never the two joined (`--fail-on breaking --fail-on any`
// became "breaking,any", which matched no level: a green gate) nor "the last one wins".
import type { Argv, MiddlewareFunction } from 'yargs';
import { UsageError } from '../errors.js';

/** what yargs says a command declares (also read by the test that walks every option) */
export interface Declared {
  string: string[];
  array: string[];
  boolean: string[];
  choices: Record<string, unknown>;
  alias: Record<string, string[]>;
}

interface Introspect {
  getOptions(): Declared;
  getInternalMethods(): {
    getContext(): { fullCommands: string[] };
    getUsageInstance(): { getDescriptions(): Record<string, string | undefined> };
  };
}

/** what a list option's --help says: it may be repeated */
export const REPEATABLE = /repeat or comma-separate/i;

/** why an option given twice is refused, where more than "give it once" helps */
const TWICE_HINTS: Record<string, string> = {
  syncthing: 'one lab runs one Syncthing; `synconf matrix --syncthing A --syncthing B` runs several',
  shard: 'a run is one shard',
};

/** every spelling of each option that takes a value (name, aliases, camelCase twin) → the name to print; with
 * `flags`, the boolean options too */
function valueOptions(declared: Declared, flags = false): Map<string, string> {
  const names = new Map<string, string>();
  const takesValue = [...declared.string, ...declared.array, ...Object.keys(declared.choices)];
  for (const key of flags ? [...takesValue, ...declared.boolean] : takesValue) {
    if (!flags && declared.boolean.includes(key)) continue;
    const spellings = [
      key,
      ...Object.entries(declared.alias).flatMap(([k, a]) => (k === key || a.includes(key) ? [k, ...a] : [])),
    ];
    // the long dashed name: -p is --port, --reportDir is --report-dir
    const canonical = spellings.sort((a, b) => b.length - a.length)[0];
    // yargs takes the camelCase twin too (--reportDir)
    for (const spelling of spellings.flatMap((n) => [n, n.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())]))
      names.set(spelling, canonical);
  }
  return names;
}

const flag = (name: string) => `${name.length === 1 ? '-' : '--'}${name}`;
/** yargs-parser takes a word as an option's value unless it looks like an option (a negative number does not) */
const isOption = (word: string) => /^-/.test(word) && !/^-+(\d+|\d*\.\d+)(e[-+]?\d+)?$/.test(word);
const optionName = (word: string) => word.replace(/^-+(no-)?/, '').split('=')[0];
const blank = (value: string) => value.trim() === '';
const shown = (value: string | undefined) => (value === undefined ? 'none' : JSON.stringify(value));

function needsValue(name: string, got: string | undefined, next?: string, nextIsOption = true): UsageError {
  // a value that starts with "-" (a key, say) can still be given: joined to its option by "="
  const joined = nextIsOption ? '' : `; a value that starts with "-" is written ${flag(name)}=${next}`;
  const follows = got === undefined && next !== undefined ? `: ${next} follows it${joined}` : '';
  return new UsageError(`${flag(name)}: needs a value (got ${shown(got)}${follows})`);
}

/** the positional names of the running command, in order: "replay [dir]" → ["dir"] */
function positionalNames(yi: Introspect): string[] {
  const usage = yi.getInternalMethods().getContext().fullCommands.at(-1) ?? '';
  return [...usage.matchAll(/[<[]([^\]>.]+)(?:\.\.)?[\]>]/g)].map((m) => m[1]);
}

/** the option of `words` given twice (a --no-x counts as an x) that is not a list, as a UsageError */
function givenTwice(words: string[], argv: Record<string, unknown>, yi: Introspect): UsageError | undefined {
  const declared = yi.getOptions();
  const names = valueOptions(declared, true);
  const descriptions = yi.getInternalMethods().getUsageInstance().getDescriptions();
  const seen = new Set<string>();
  for (const word of words) {
    if (word === '--') break;
    if (!isOption(word)) continue;
    const written = word.replace(/^-+/, '').split('=', 1)[0];
    const name =
      names.get(written) ?? names.get(written.replace(/^no-?/, '').replace(/^[A-Z]/, (c) => c.toLowerCase()));
    if (name === undefined || name === 'help' || name === 'version') continue;
    if (!seen.has(name)) {
      seen.add(name);
      continue;
    }
    if (REPEATABLE.test(descriptions[name] ?? '')) continue;
    const values = [argv[name]].flat().filter((v) => typeof v === 'string');
    const why = TWICE_HINTS[name] ?? 'give it once';
    return new UsageError(`${flag(name)} given twice${values.length > 1 ? ` (${values.join(', ')})` : ''}: ${why}`);
  }
  return undefined;
}

/**
 * Throws a UsageError for the first option of `words` (the command line) that takes a value and has none, or a
 * blank one; then for a blank positional argument; then for an option given twice that is not a list.
 */
export function checkValues(words: string[], argv: Record<string, unknown>, yargs: Argv): void {
  const yi = yargs as unknown as Introspect;
  checkBlanks(words, argv, yi);
  const twice = givenTwice(words, argv, yi);
  if (twice) throw twice;
  const empty = emptyList(words, argv, yi);
  if (empty) throw empty;
}

/** a list option given only commas and spaces (`--only ",,"`): no value, though not blank (it ran every scenario) */
function emptyList(words: string[], argv: Record<string, unknown>, yi: Introspect): UsageError | undefined {
  const names = valueOptions(yi.getOptions());
  const descriptions = yi.getInternalMethods().getUsageInstance().getDescriptions();
  for (const word of words) {
    if (word === '--') break;
    const name = isOption(word) ? names.get(optionName(word)) : undefined;
    // the raw values: this runs before the coerce that splits them
    const values = [argv[name ?? '']].flat().filter((v) => typeof v === 'string');
    if (name && REPEATABLE.test(descriptions[name] ?? '') && values.length && values.every((v) => /^[\s,]*$/.test(v)))
      return new UsageError(`${flag(name)}: needs a value (got ${shown(values.join(','))}: only commas and spaces)`);
  }
  return undefined;
}

function checkBlanks(words: string[], argv: Record<string, unknown>, yi: Introspect): void {
  const declared = yi.getOptions();
  const options = valueOptions(declared);
  const known = valueOptions(declared, true);
  const isKnown = (word: string) => ['help', 'version'].includes(optionName(word)) || known.has(optionName(word));
  let blankPositional = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i];
    if (word === '--') {
      blankPositional ||= words.slice(i + 1).some(blank);
      break;
    }
    if (!isOption(word)) {
      blankPositional ||= blank(word);
      continue;
    }
    const [written, inline] = word.replace(/^-+/, '').split(/=(.*)/s, 2) as [string, string | undefined];
    const name = options.get(written);
    if (name === undefined) continue;
    if (inline !== undefined) {
      if (blank(inline)) throw needsValue(name, inline);
      continue;
    }
    const next = words[i + 1];
    if (next === undefined || isOption(next))
      throw needsValue(name, undefined, next, next === undefined || isKnown(next));
    // a list option (array: true) takes every word up to the next option
    const many = declared.array.includes(name) || (declared.alias[name] ?? []).some((a) => declared.array.includes(a));
    do {
      if (blank(words[i + 1])) throw needsValue(name, words[i + 1]);
      i++;
    } while (many && words[i + 1] !== undefined && !isOption(words[i + 1]));
  }
  if (blankPositional) {
    const name = positionalNames(yi).find((p) => [argv[p]].flat().some((v) => typeof v === 'string' && blank(v)));
    throw new UsageError(`${name ? `<${name}>` : 'an argument'}: needs a value (got "")`);
  }
}

/** the yargs middleware of the rule: run before validation and before any coerce, for every command */
export function requireValues(words: string[]): MiddlewareFunction {
  // yargs passes the instance of the running command as the second argument (@types/yargs leaves it out)
  const middleware = (argv: Record<string, unknown>, yargs: Argv) => checkValues(words, argv, yargs);
  return middleware as unknown as MiddlewareFunction;
}
