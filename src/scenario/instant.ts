// RFC 3339 timestamps as `notBefore:` compares them: read when a scenario loads (a bound that is no timestamp is an
// input error) and when the assertion runs (the agent's value).

/** an RFC 3339 timestamp as [epoch milliseconds, the nanoseconds below them as 6 digits]; undefined for any other value */
export function instant(v: unknown): [number, string] | undefined {
  const m = typeof v === 'string' ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i.exec(v) : null;
  if (!m) return undefined;
  // Date.parse keeps milliseconds only: the digits below them are compared as text of one length
  const digits = (m[2] ?? '').padEnd(9, '0').slice(0, 9);
  const ms = Date.parse(`${m[1]}.${digits.slice(0, 3)}${m[3].toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : [ms, digits.slice(3)];
}

// The form `instant` reads, one state per character read: the date and time (states 0..19), a fraction (20, 21), the
// zone's offset (22..26), the end (END). Each edge is the characters it reads and the state it leads to.
const END = 27;
const digitsAnd = (form: string, from: number): [RegExp, number][][] =>
  [...form].map((c, i) => [[c === 'd' ? /\d/ : new RegExp(c, 'i'), from + i + 1]]);
const ZONE: [RegExp, number][] = [
  [/z/i, END],
  [/[+-]/, 22],
];
const EDGES: [RegExp, number][][] = [
  ...digitsAnd('dddd-dd-ddTdd:dd:dd', 0),
  [[/\./, 20], ...ZONE],
  [[/\d/, 21]],
  [[/\d/, 21], ...ZONE],
  ...digitsAnd('dd:dd', 22),
  [],
];

/** the states `c` leads to from `states` (each edge reads one character: its pattern is tested on that alone) */
const next = (states: Set<number>, c: string) =>
  new Set([...states].flatMap((s) => EDGES[s].filter(([r]) => r.test(c)).map(([, to]) => to)));

/** every state some text leads to from `from` (none included): where a {{template}} may end */
function afterAnyText(from: Set<number>): Set<number> {
  const all = new Set(from);
  for (const s of all) for (const [, to] of EDGES[s]) all.add(to);
  return all;
}

/**
 * can text of this shape be an instant: `parts` are its literal texts, with a {{template}} (any text) between each two.
 * Only the form is judged, not the date ("2024-13-01T{{time}}" passes): a template can mend a date, not the form.
 */
export function canBeInstant(parts: string[]): boolean {
  let states = new Set([0]);
  parts.forEach((part, i) => {
    if (i > 0) states = afterAnyText(states);
    for (const c of part) states = next(states, c);
  });
  return states.has(END);
}
