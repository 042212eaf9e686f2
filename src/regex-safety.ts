// The regular expressions a user gives (a scenario's `matches:`, `--redact re:`), judged before any is run. JavaScript's engine
// backtracks: a repeated group that itself repeats or holds alternatives — `(a+)+$`, `(\w+\s?)*$`, `(a|a)*$` — can take
// exponential time on a short answer that does not match (a run went past 120 s, deaf to SIGTERM, and `validate`
// called the file valid). Such a pattern is refused at load, with the part to rewrite. Why a check of the pattern's
// shape and not another engine: V8's linear-time engine is behind V8 flags (set at run time they change the hash the
// code cache is checked against, and it cannot run the lookaheads the suites use), and a non-backtracking package
// (re2js) would be one more dependency for a rule this small. docs/scenario-format.md states it.

/** the longest pattern a scenario (or --redact) may hold */
export const MAX_PATTERN = 1000;

/** how often a group that itself repeats may be repeated: a cost of degree 4 in the answer's length at most */
const MAX_NESTED_REPEAT = 4;

interface Group {
  /** the group holds a repetition or alternatives, at any depth */
  risky: boolean;
  start: number;
}

/**
 * A quantifier at `i` ("*", "+", "?", "{n}", "{n,}", "{n,m}"): its length, whether it repeats (may match more than
 * once) and whether it repeats many times. An unbounded repetition of a risky group is exponential, one of at most
 * k a polynomial of degree k: `(\d+\.){3}` (an IPv4 address) is allowed, `(a+){10}` is not.
 */
function quantifier(source: string, i: number): { length: number; repeats: boolean; many: boolean } | undefined {
  const c = source[i];
  if (c === '*' || c === '+') return { length: 1, repeats: true, many: true };
  if (c === '?') return { length: 1, repeats: false, many: false };
  const m = c === '{' ? /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i)) : null;
  if (!m) return undefined;
  const max = m[2] === undefined ? Number(m[1]) : m[3] === '' ? Infinity : Number(m[3]);
  return { length: m[0].length, repeats: max > 1, many: max > MAX_NESTED_REPEAT };
}

/** the index after a character class opened at `i` */
function classEnd(source: string, i: number): number {
  let j = i + 1;
  if (source[j] === '^') j++;
  if (source[j] === ']') j++;
  for (; j < source.length && source[j] !== ']'; j++) if (source[j] === '\\') j++;
  return j + 1;
}

/** the index after the opening of a group at `i`: "(", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<name>" */
function groupBodyStart(source: string, i: number): number {
  if (source[i + 1] !== '?') return i + 1;
  const m = /^\(\?(:|=|!|<=|<!|<[^>]*>)/.exec(source.slice(i));
  return i + (m ? m[0].length : 2);
}

/** the group of `source` that a repetition makes backtrack for ever, as it is written; undefined when there is none */
function catastrophicGroup(source: string): string | undefined {
  const open: Group[] = [{ risky: false, start: 0 }];
  let last: Group | 'atom' | undefined; // what a quantifier here would repeat
  for (let i = 0; i < source.length;) {
    const c = source[i];
    const q = last ? quantifier(source, i) : undefined;
    if (q) {
      if (q.many && last !== 'atom' && last!.risky) return source.slice(last!.start, i + q.length);
      if (q.repeats) open.at(-1)!.risky = true;
      i += q.length;
      if (source[i] === '?') i++; // lazy
      last = undefined;
      continue;
    }
    if (c === '(') {
      open.push({ risky: false, start: i });
      i = groupBodyStart(source, i);
      last = undefined;
    } else if (c === ')' && open.length > 1) {
      const group = open.pop()!;
      if (group.risky) open.at(-1)!.risky = true;
      last = group;
      i++;
    } else if (c === '|') {
      open.at(-1)!.risky = true;
      last = undefined;
      i++;
    } else {
      i = c === '[' ? classEnd(source, i) : c === '\\' ? i + 2 : i + 1;
      last = c === '^' || c === '$' ? undefined : 'atom';
    }
  }
  return undefined;
}

/** why `source` may not be a pattern of a scenario or --redact (undefined: it may), in the words load and validate print */
export function patternProblem(source: string): string | undefined {
  if (source.length > MAX_PATTERN)
    return `a pattern of ${source.length} characters is too long (at most ${MAX_PATTERN})`;
  try {
    new RegExp(source);
  } catch (e) {
    return `not a regular expression: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`;
  }
  const group = catastrophicGroup(source);
  return group
    ? `pattern ${JSON.stringify(source)} can take exponential time: ${JSON.stringify(group)} repeats a group that repeats or holds alternatives (use a character class, e.g. [\\w ]*, or repeat one atom)`
    : undefined;
}
