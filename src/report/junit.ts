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
import type { Report, ScenarioResult, UndocumentedMember } from '../schema/generated/types.js';
import { evidenceText } from './evidence-text.js';
import { cut, oneLine, platform, seconds, noteLine } from './text.js';
import { VERDICT_LABEL } from '../verdict/verdicts.js';
import { type CheckView, type RunView, viewOf } from './view.js';

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

/** attribute values by name (undefined: left out) */
type Attrs = Record<string, string | number | undefined>;
/** an element: its attributes, then child elements or text */
interface Element {
  name: string;
  attrs?: Attrs;
  children?: Element[];
  text?: string;
}

/**
 * An element and its children, two spaces per level, one per line; empty as `<name/>`, text on the line of its tags.
 * An attribute whose value is "true" is written as its name alone, as the builder that wrote earlier reports did.
 */
function element(e: Element, level = 0): string {
  const indent = '  '.repeat(level);
  const attrs = Object.entries(e.attrs ?? {})
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => (escaped(String(v)) === 'true' ? ` ${k}` : ` ${k}="${escaped(String(v))}"`))
    .join('');
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

function counts(checks: CheckView[]): Counts {
  return {
    tests: checks.length,
    failures: checks.filter((c) => c.fails).length,
    errors: 0,
    skipped: checks.filter((c) => !c.fails && c.check.verdict === 'skip').length,
  };
}

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
  if (v.fails) {
    // the hint goes in the message (what CI shows first), the evidence in the text
    const message = attr([check.message, v.hint].filter(Boolean).join(' — '));
    const type = check.flaky ? 'flaky' : check.verdict;
    return { name: 'failure', attrs: { message, type }, text: xml(evidenceText(check)) };
  }
  if (check.verdict === 'skip') return { name: 'skipped', attrs: { message: attr(check.skipReason ?? check.message) } };
  if (check.verdict === 'pass' && !v.hint) return undefined;
  const known =
    check.deviation && check.verdict === 'expected-fail' ? ` (known deviation: ${check.deviation.reason})` : '';
  const lines = [`${VERDICT_LABEL[check.verdict]}${known}`, v.hint, evidenceText(check)];
  return { name: 'system-out', text: xml(lines.filter(Boolean).join('\n')) };
}

function testcase(v: CheckView): Element {
  const check = v.check;
  const pairs = checkProperties(check);
  const result = outcome(v);
  return {
    name: 'testcase',
    attrs: {
      classname: xml(v.scenario.id),
      name: xml(check.id),
      time: seconds(check.durationMs),
      file: xml(v.scenario.file),
      line: check.line || undefined,
    },
    children: [...(pairs.length ? [properties(pairs)] : []), ...(result ? [result] : [])],
  };
}

function testsuite(
  s: ScenarioResult,
  checks: CheckView[],
  timestamp: string,
  agent: string,
  notes: UndocumentedMember[],
): Element {
  const pairs: [string, string][] = [
    ['title', attr(s.title)],
    ['file', attr(s.file)],
    ['spec', attr(s.spec.join(', '))],
    ['agent', attr(agent)],
    ['verdict', s.verdict],
    ...(s.skipReason ? [['skipReason', attr(s.skipReason)] as [string, string]] : []),
    // Undocumented members its responses had: notes (failing checks of their own under --strict).
    ...notes
      .filter((n) => n.scenarios.includes(s.id))
      .map((n): [string, string] => ['undocumented', attr(noteLine(n))]),
  ];
  return {
    name: 'testsuite',
    attrs: { name: xml(s.id), ...countAttrs(counts(checks)), time: seconds(s.durationMs), timestamp },
    children: [properties(pairs), ...checks.map(testcase)],
  };
}

/** the <testsuite> of the harness errors: one <error> test case each */
function harnessSuite(errors: Report['harnessErrors'], timestamp: string): Element {
  const n = errors.length;
  return {
    name: 'testsuite',
    attrs: { name: 'synconf harness', tests: n, failures: 0, errors: n, skipped: 0, time: '0.000', timestamp },
    children: errors.map((e, i) => ({
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
          text: xml([e.file && `file: ${e.file}`, e.message].filter(Boolean).join('\n')),
        },
      ],
    })),
  };
}

/** the XML; `view` is the run's view when the caller has it already */
export function toJUnit(report: Report, view: RunView = viewOf(report)): string {
  const agent = [`agent ${report.agent.version ?? 'unknown version'}`, platform(report.agent)]
    .filter(Boolean)
    .join(' ');
  const timestamp = report.run.startedAt;
  const suites = report.scenarios.map((s, si) =>
    testsuite(
      s,
      view.checks.filter((c) => c.si === si),
      timestamp,
      agent,
      view.undocumented.notes,
    ),
  );
  const total = counts(view.checks);
  if (report.harnessErrors.length) {
    suites.push(harnessSuite(report.harnessErrors, timestamp));
    total.tests += report.harnessErrors.length;
    total.errors += report.harnessErrors.length;
  }
  const root: Element = {
    name: 'testsuites',
    attrs: {
      name: xml(`synconf ${report.synconf.version}: ${agent}, ${report.run.mode} ${report.run.target}`),
      ...countAttrs(total),
      time: seconds(report.run.durationMs),
      timestamp,
    },
    children: suites,
  };
  return `<?xml version="1.0" encoding="UTF-8"?>\n${element(root)}`;
}
