// report.json as JUnit XML, the format CI systems show as test results: one <testsuite> per
// scenario, one <testcase> per check, with `file` and `line` at the scenario step so that CI
// annotations land on the YAML line. A check that fails the run (view.ts: the gate's one rule)
// is a <failure>, skip is <skipped>, any other verdict passes and says what it is in
// <system-out>. Harness errors become <error> test cases of an extra suite, so a broken run is
// never shown green.
//
// Written as text by the few lines below (element(), escaped()), not by fast-xml-parser's XMLBuilder, which wrote the
// same bytes for these four kinds of element but took ~70% of the JUnit time of a replay in its generic machinery
// (name checks, path matchers: bench/README.md).
import type { Report, ScenarioResult } from '../schema/generated/types.js';
import { evidenceText } from './evidence-text.js';
import { cut, oneLine, platform, seconds, noteLine } from './text.js';
import { VERDICT_LABEL } from '../verdict/verdicts.js';
import { type CheckView, type RunView, viewOf } from './view.js';
import { foldedCount, moreLine, type Kept } from './fold.js';
import { Budget, leftOut } from './bound.js';

/** a character xml() may replace: most strings have none and are kept as they are */
const SUSPECT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uD800-\uDFFF\uFFFE\uFFFF]/;

/** XML 1.0 cannot carry control characters or lone surrogates, which response bodies may hold */
function xml(s: string): string {
  if (!SUSPECT.test(s)) return s;
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** attribute text: one line, bounded (CI viewers show it as a title) */
const attr = (s: string) => xml(cut(oneLine(s), 1000));

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', "'": '&apos;', '"': '&quot;' };
/** text and attribute values with the five XML entities */
const escaped = (s: string) => s.replace(/[&<>'"]/g, (c) => ENTITY[c]);

/** an attribute with its escaped value; one whose value is "true" is written as its name alone */
const attribute = (name: string, value: string) => (value === 'true' ? ` ${name}` : ` ${name}="${value}"`);

/** attribute values by name (undefined: left out) */
type Attrs = Record<string, string | number | undefined>;
/** an element: its attributes, then child elements or text */
interface Element {
  name: string;
  attrs?: Attrs;
  children?: Element[];
  text?: string;
  /** the element already written, at its level (a test case measured against the size bound) */
  written?: string;
}

/**
 * An element and its children, two spaces per level, one per line; empty as `<name/>`, text on the line of its tags.
 * An attribute whose value is "true" is written as its name alone (attribute()), as the builder that wrote earlier
 * reports did.
 */
function element(e: Element, level = 0): string {
  if (e.written !== undefined) return e.written;
  const indent = '  '.repeat(level);
  let attrs = '';
  for (const k in e.attrs) if (e.attrs[k] !== undefined) attrs += attribute(k, escaped(String(e.attrs[k])));
  if (e.children?.length)
    return `${indent}<${e.name}${attrs}>\n${e.children.map((c) => element(c, level + 1)).join('')}${indent}</${e.name}>\n`;
  const text = escaped(e.text ?? '');
  return text ? `${indent}<${e.name}${attrs}>${text}</${e.name}>\n` : `${indent}<${e.name}${attrs}/>\n`;
}

/** <properties> of name/value pairs */
const properties = (pairs: [name: string, value: string][]): Element => ({
  name: 'properties',
  children: pairs.map(([name, value]) => ({ name: 'property', attrs: { name, value } })),
});

interface Counts {
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
}

/** the counts of `checks`, each with those folded into it (the attributes count every check of the run) */
function counts(checks: CheckView[]): Counts {
  return {
    tests: foldedCount(checks),
    failures: foldedCount(checks.filter((c) => c.fails)),
    errors: 0,
    skipped: foldedCount(checks.filter((c) => !c.fails && c.check.verdict === 'skip')),
  };
}

/** the checks a bounded report.json left out of a scenario, counted as the attributes count them */
function omittedCounts(s: ScenarioResult, failOn: readonly string[]): Counts {
  const o = Object.entries(s.omitted ?? {});
  const sum = (keep: (verdict: string) => boolean) => o.reduce((n, [v, k]) => n + (keep(v) ? (k ?? 0) : 0), 0);
  return {
    tests: sum(() => true),
    failures: sum((v) => failOn.includes(v)),
    errors: 0,
    skipped: sum((v) => v === 'skip' && !failOn.includes(v)),
  };
}

const add = (a: Counts, b: Counts): Counts => ({
  tests: a.tests + b.tests,
  failures: a.failures + b.failures,
  errors: a.errors + b.errors,
  skipped: a.skipped + b.skipped,
});

const countAttrs = (c: Counts): Attrs => ({
  tests: c.tests,
  failures: c.failures,
  errors: c.errors,
  skipped: c.skipped,
});

/** the <properties> of a check: how it compares with the baseline, its runs when flaky, the statements it cites */
function checkProperties(check: CheckView['check']): [string, string][] {
  const pairs: [string, string][] = [];
  if (check.baseline && check.baseline.class !== 'unchanged') {
    pairs.push(['baseline', check.baseline.class]);
    if (check.baseline.verdict) pairs.push(['baseline-verdict', check.baseline.verdict]);
  }
  if (check.runs && check.flaky) pairs.push(['runs', check.runs.join(' ')]);
  // the statements of the spec the check proves (and, for a failing schema check, those it breaks)
  if (check.statements?.length) pairs.push(['statements', check.statements.join(' ')]);
  if (check.breaks?.length) pairs.push(['breaks', check.breaks.join(' ')]);
  return pairs;
}

/** what a check's <testcase> holds besides its properties: its failure, why it was skipped, or what it was */
function outcome(v: CheckView): Element | undefined {
  const check = v.check;
  const folded = v.more ? `\n${moreLine(v.more)}` : '';
  if (v.fails) {
    // the hint goes in the message (what CI shows first), the evidence in the text
    const message = attr([check.message, v.hint].filter(Boolean).join(' — '));
    const type = check.flaky ? 'flaky' : check.verdict;
    return { name: 'failure', attrs: { message, type }, text: xml(evidenceText(check) + folded) };
  }
  if (check.verdict === 'skip') return { name: 'skipped', attrs: { message: attr(check.skipReason ?? check.message) } };
  if (check.verdict === 'pass' && !v.hint) return undefined;
  const known =
    check.deviation && check.verdict === 'expected-fail' ? ` (known deviation: ${check.deviation.reason})` : '';
  const lines = [`${VERDICT_LABEL[check.verdict]}${known}`, v.hint, evidenceText(check)];
  return { name: 'system-out', text: xml(lines.filter(Boolean).join('\n') + folded) };
}

function testcase(v: CheckView): Element {
  const check = v.check;
  const pairs = checkProperties(check);
  // folded repeats of this check: counted in the suite's attributes, a property and a line here
  if (v.more) pairs.push(['more', String(v.more)]);
  const children: Element[] = pairs.length ? [properties(pairs)] : [];
  const result = outcome(v);
  if (result) children.push(result);
  return {
    name: 'testcase',
    attrs: {
      classname: xml(v.scenario.id),
      name: xml(check.id),
      time: seconds(check.durationMs),
      file: xml(v.scenario.file),
      line: check.line || undefined,
    },
    children,
  };
}

/** the test cases of `shown` while they fit in `budget`, and the property that says how many were left out */
function testcases(shown: CheckView[], budget: Budget): { cases: Element[]; leftOut: [string, string][] } {
  const cases: Element[] = [];
  for (const v of shown) {
    const written = element(testcase(v), 2);
    if (!budget.fits(written)) break;
    cases.push({ name: 'testcase', written });
  }
  const rest = shown.length - cases.length;
  return { cases, leftOut: rest ? [['left-out', attr(leftOut(rest, 'test cases'))]] : [] };
}

interface SuiteContext {
  view: RunView;
  timestamp: string;
  agent: string;
  /** what the test cases may take of the file */
  budget: Budget;
}

/** a suite and what its attributes count */
interface Suite {
  total: Counts;
  suite: Element;
}

/** one scenario's suite: every check counted in its attributes, the folded ones as cases while they fit */
function testsuite(s: ScenarioResult, checks: CheckView[], shown: CheckView[], ctx: SuiteContext): Suite {
  const { cases, leftOut: rest } = testcases(shown, ctx.budget);
  const pairs: [string, string][] = [
    ['title', attr(s.title)],
    ['file', attr(s.file)],
    ['spec', attr(s.spec.join(', '))],
    ['agent', attr(ctx.agent)],
    ['verdict', s.verdict],
    ...(s.skipReason ? [['skipReason', attr(s.skipReason)] as [string, string]] : []),
    // Undocumented members its responses had: notes (failing checks of their own under --strict).
    ...ctx.view.undocumented.notes
      .filter((n) => n.scenarios.includes(s.id))
      .map((n): [string, string] => ['undocumented', attr(noteLine(n))]),
    ...rest,
  ];
  const total = add(counts(checks), omittedCounts(s, ctx.view.failOn));
  const { timestamp } = ctx;
  return {
    total,
    suite: {
      name: 'testsuite',
      attrs: { name: xml(s.id), ...countAttrs(total), time: seconds(s.durationMs), timestamp },
      children: [properties(pairs), ...cases],
    },
  };
}

/** the harness error as a test case of <error> (folded ones: a line in its text) */
const harnessCase = ({ item: e, more }: Kept<Report['harnessErrors'][number]>, i: number): Element => ({
  name: 'testcase',
  attrs: {
    classname: 'synconf harness',
    name: xml([e.scenario, e.step].filter(Boolean).join('/') || e.file || `harness error ${i + 1}`),
    time: '0.000',
  },
  children: [
    {
      name: 'error',
      attrs: { message: attr(e.message), type: 'harness' },
      text: xml([e.file && `file: ${e.file}`, e.message, more && moreLine(more)].filter(Boolean).join('\n')),
    },
  ],
});

/** the <testsuite> of the harness errors: one <error> test case each, repeats folded, while they fit */
function harnessSuite(errors: RunView['harnessErrors'], timestamp: string): Suite {
  const n = foldedCount(errors);
  const budget = new Budget(1e6);
  const cases: Element[] = [];
  for (const [i, e] of errors.entries()) {
    const written = element(harnessCase(e, i), 2);
    if (!budget.fits(written)) break;
    cases.push({ name: 'testcase', written });
  }
  const rest = errors.length - cases.length;
  return {
    total: { tests: n, failures: 0, errors: n, skipped: 0 },
    suite: {
      name: 'testsuite',
      attrs: { name: 'synconf harness', tests: n, failures: 0, errors: n, skipped: 0, time: '0.000', timestamp },
      children: [...(rest ? [properties([['left-out', attr(leftOut(rest, 'harness errors'))]])] : []), ...cases],
    },
  };
}

/** the XML; `view` is the run's view when the caller has it already */
export function toJUnit(report: Report, view: RunView = viewOf(report)): string {
  const agent = [`agent ${report.agent.version ?? 'unknown version'}`, platform(report.agent)]
    .filter(Boolean)
    .join(' ');
  const timestamp = report.run.startedAt;
  // test cases take most of the bound; the suites' own elements and the harness errors the rest
  const ctx: SuiteContext = { view, timestamp, agent, budget: new Budget(7e6) };
  const all = new Map<number, CheckView[]>();
  for (const c of view.checks) {
    if (!all.has(c.si)) all.set(c.si, []);
    all.get(c.si)!.push(c);
  }
  const shown = new Map(view.scenarios.map((sv) => [sv.si, sv.checks]));
  const parts = report.scenarios.map((s, si) => testsuite(s, all.get(si) ?? [], shown.get(si) ?? [], ctx));
  if (view.harnessErrors.length) parts.push(harnessSuite(view.harnessErrors, timestamp));
  const total = parts.reduce((t, p) => add(t, p.total), { tests: 0, failures: 0, errors: 0, skipped: 0 });
  const root: Element = {
    name: 'testsuites',
    attrs: {
      name: xml(`synconf ${report.synconf.version}: ${agent}, ${report.run.mode} ${report.run.target}`),
      ...countAttrs(total),
      time: seconds(report.run.durationMs),
      timestamp,
    },
    children: parts.map((p) => p.suite),
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root)}`;
}
