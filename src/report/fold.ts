// Folding repeated identical problems: of a kind that occurs more than FOLD_OVER times, the first SHOWN are kept
// verbatim and the rest counted ("… and 96,298 more like it"); a kind that occurs less often is kept whole. Two checks are alike when they are the same check (kind and name) with the same verdict and the
// same message once the scenario, the step and the step's request are taken out of it; two harness errors when their
// messages are the same with those taken out. Folding is presentation: verdicts, totals and exit codes count every one.
import type { CheckResult, Report } from '../schema/generated/types.js';
import type { Pace } from '../turns.js';

/** a kind that occurs more often than this is folded */
export const FOLD_OVER = 10;
/** how many of a folded kind are kept verbatim; the rest are folded into the last of them */
export const SHOWN = 3;

type HarnessError = Report['harnessErrors'][number];

/** a kept item, and how many like it follow it folded (0: none) */
export interface Kept<T> {
  item: T;
  more: number;
}

/** the line that stands for folded ones: "… and 96,298 more like it" (or like something named) */
export const moreLine = (n: number, like = 'it') => `… and ${n.toLocaleString('en-US')} more like ${like}`;

// the request target of a request line ("GET /rest/x?y"), and a step a message names ('step "get-ping"')
const REQUEST_TARGET = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) (\/[^\s;,"')]*)/g;
const STEP_NAMED = /\bstep "([^"]+)"/g;

/** the query of a request target as a miss names it, pair by pair ("x=1"; a value alone, "1", would be taken out of
 * other text too, the "19" of "syncthing-1.19.2") */
const queryParts = (target: string) => (target.split('?')[1] ?? '').split('&');

/**
 * `message` with the names that tell alike problems apart (scenario, step, request) taken out: a kind of problem, so
 * 50,000 misses that differ only in a query value ("differs in: query x=7") fold into one, as the same miss does.
 */
function masked(message: string, names: (string | undefined)[]): string {
  const found = [...message.matchAll(REQUEST_TARGET), ...message.matchAll(STEP_NAMED)].map((m) => m[1]);
  const targets = [...found, ...names].filter((n): n is string => !!n && n.includes('?'));
  const pairs = targets.flatMap(queryParts).filter((pair) => pair.includes('='));
  // each name once (the request's path is often named four times: the step's, the message's, each without a query)
  const all = new Set([...names, ...found, ...found.map((t) => t.split('?')[0]), ...pairs].filter((n) => !!n));
  // longest first, so that a name inside a longer one does not split it
  return [...(all as Set<string>)]
    .sort((a, b) => b.length - a.length)
    .reduce((text, name) => (text.includes(name) ? text.split(name).join('\u0000') : text), message);
}

// a check's kind is asked for by every list that folds it (console, each report format): computed once
const kinds = new WeakMap<CheckResult, string>();

/** the kind of a check that is a problem (any verdict but pass); undefined for a pass, which is never folded */
export function checkKind(c: CheckResult, scenario: string): string | undefined {
  if (c.verdict === 'pass') return undefined;
  let kind = kinds.get(c);
  if (kind === undefined) kinds.set(c, (kind = kindOfCheck(c, scenario)));
  return kind;
}

function kindOfCheck(c: CheckResult, scenario: string): string {
  const prefix = `${scenario}/${c.step}/`;
  const name = c.id.startsWith(prefix) ? c.id.slice(prefix.length) : c.id;
  const url = c.evidence?.request?.url;
  return [c.kind, c.verdict, name, masked(c.message, [scenario, c.step, url, url?.split('?')[0]])].join('\u0001');
}

// and a harness error's by each list that folds it: 50,000 of them took seconds a list, deaf to signals (issue 41)
const harnessKinds = new WeakMap<HarnessError, string>();

/** the kind of a harness error */
export function harnessKind(e: HarnessError): string {
  let kind = harnessKinds.get(e);
  if (kind === undefined) harnessKinds.set(e, (kind = masked(e.message, [e.file, e.scenario, e.step])));
  return kind;
}

/**
 * The kinds of `items` worked out ahead, a turn now and then: a kind is cached by item, so the folds that follow only
 * look them up (those of 50,000 checks took seconds in one piece, deaf to signals: issue 41)
 */
export async function kindsAhead<T>(items: readonly T[], kindOf: (item: T) => unknown, pace: Pace): Promise<void> {
  for (const item of items) {
    await pace();
    kindOf(item);
  }
}

/** the kind of a schema error: the same rule and message at the same member, whichever array item it is in */
export function validationKind(e: { pointer: string; rule: string; message: string }): string {
  return [e.rule, e.pointer.replace(/\/\d+(?=\/|$)/g, '/*'), e.message].join('\u0001');
}

interface FoldOptions<T> {
  /** how many items one stands for (a check of a bounded report.json stands for itself and its `more`) */
  weight?: (item: T) => number;
  /** how many of a kind may still be kept, given how many the list has (default: all, or SHOWN over FOLD_OVER) */
  budget?: (kind: string, count: number) => number;
}

/** `items` in order, all but the first few of each kind left out; kinds with no budget left are in `unplaced` */
export function foldWith<T>(
  items: readonly T[],
  kindOf: (item: T) => string | undefined,
  opts: FoldOptions<T> = {},
): { kept: Kept<T>[]; unplaced: Map<string, { first: T; more: number }> } {
  const weight = opts.weight ?? (() => 1);
  const budget = opts.budget ?? ((_, count) => (count > FOLD_OVER ? SHOWN : count));
  const counts = new Map<string, number>();
  const kindsOf = items.map(kindOf); // once an item: a kind can take a while to compute
  items.forEach((item, i) => {
    const kind = kindsOf[i];
    if (kind !== undefined) counts.set(kind, (counts.get(kind) ?? 0) + weight(item));
  });
  const kept: Kept<T>[] = [];
  const last = new Map<string, Kept<T>>();
  const unplaced = new Map<string, { first: T; more: number }>();
  const taken = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const kind = kindsOf[i];
    const k = kind === undefined ? 0 : (taken.get(kind) ?? 0);
    if (kind === undefined || k < budget(kind, counts.get(kind)!)) {
      const entry = { item, more: weight(item) - 1 };
      kept.push(entry);
      if (kind !== undefined) {
        taken.set(kind, k + 1);
        last.set(kind, entry);
      }
      continue;
    }
    const at = last.get(kind);
    if (at) at.more += weight(item);
    else
      unplaced.set(kind, {
        first: unplaced.get(kind)?.first ?? item,
        more: (unplaced.get(kind)?.more ?? 0) + weight(item),
      });
  }
  return { kept, unplaced };
}

/** `items` with the repeats of each kind folded into the last kept one */
export function fold<T>(items: readonly T[], kindOf: (item: T) => string | undefined, weight?: (item: T) => number) {
  return foldWith(items, kindOf, { weight }).kept;
}

/**
 * Folding across lists that come one after the other (the scenarios of a run, printed as each ends): a kind is kept
 * whole while it has occurred at most FOLD_OVER times in all; beyond, SHOWN are kept in all, and a kind kept SHOWN
 * times in earlier lists is folded whole in later ones, counted for the end (`rest`).
 */
export function streamFold<T>(kindOf: (item: T) => string | undefined) {
  const shown = new Map<string, { first: T; count: number }>();
  const occurred = new Map<string, number>();
  const later = new Map<string, number>();
  return {
    next(items: readonly T[]): Kept<T>[] {
      const seen = (kind: string) => shown.get(kind)?.count ?? 0;
      const budget = (kind: string, count: number) =>
        (occurred.get(kind) ?? 0) + count > FOLD_OVER ? Math.max(0, SHOWN - seen(kind)) : count;
      const { kept, unplaced } = foldWith(items, kindOf, { budget });
      for (const item of items) {
        const kind = kindOf(item);
        if (kind !== undefined) occurred.set(kind, (occurred.get(kind) ?? 0) + 1);
      }
      for (const { item } of kept) {
        const kind = kindOf(item);
        if (kind === undefined) continue;
        const before = shown.get(kind);
        shown.set(kind, { first: before?.first ?? item, count: (before?.count ?? 0) + 1 });
      }
      for (const [kind, u] of unplaced) later.set(kind, (later.get(kind) ?? 0) + u.more);
      return kept;
    },
    /** the kinds folded whole in later lists: the first one shown (in an earlier list), and how many were folded */
    rest: () => [...later].map(([kind, more]) => ({ first: shown.get(kind)!.first, more })),
  };
}

/** how many items a folded list stands for: each kept one and those folded into it */
export const foldedCount = (list: readonly { more: number }[]) => list.reduce((n, x) => n + 1 + x.more, 0);
