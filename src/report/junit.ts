// report.json as JUnit XML, the format CI systems show as test results: one <testsuite> per
// scenario, one <testcase> per check, with `file` and `line` at the scenario step so that CI
// annotations land on the YAML line. A check that fails the run (view.ts: the gate's one rule)
// is a <failure>, skip is <skipped>, any other verdict passes and says what it is in
// <system-out>. Harness errors become <error> test cases of an extra suite, so a broken run is
// never shown green.
import { XMLBuilder } from 'fast-xml-parser';
import type { Report, ScenarioResult, UndocumentedMember } from '../schema/generated/types.js';
import { evidenceText } from './evidence-text.js';
import { cut, oneLine, platform, seconds, noteLine } from './text.js';
import { VERDICT_LABEL } from '../verdict/verdicts.js';
import { type CheckView, type RunView, viewOf } from './view.js';

/** XML 1.0 cannot carry control characters or lone surrogates, which response bodies may hold */
function xml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** attribute text: one line, bounded (CI viewers show it as a title) */
const attr = (s: string) => xml(cut(oneLine(s), 1000));

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

const countAttrs = (c: Counts) => ({
  '@_tests': c.tests,
  '@_failures': c.failures,
  '@_errors': c.errors,
  '@_skipped': c.skipped,
});

function testcase(v: CheckView): object {
  const check = v.check;
  const tc: Record<string, unknown> = {
    '@_classname': xml(v.scenario.id),
    '@_name': xml(check.id),
    '@_time': seconds(check.durationMs),
    '@_file': xml(v.scenario.file),
    ...(check.line ? { '@_line': check.line } : {}),
  };
  if (check.baseline && check.baseline.class !== 'unchanged') {
    tc.properties = {
      property: [
        { '@_name': 'baseline', '@_value': check.baseline.class },
        ...(check.baseline.verdict ? [{ '@_name': 'baseline-verdict', '@_value': check.baseline.verdict }] : []),
      ],
    };
  }
  if (check.runs && check.flaky)
    tc.properties = {
      property: [
        ...((tc.properties as { property: object[] } | undefined)?.property ?? []),
        { '@_name': 'runs', '@_value': check.runs.join(' ') },
      ],
    };
  // the statements of the spec the check proves (and, for a failing schema check, those it breaks)
  const cited = [
    ...(check.statements?.length ? [{ '@_name': 'statements', '@_value': check.statements.join(' ') }] : []),
    ...(check.breaks?.length ? [{ '@_name': 'breaks', '@_value': check.breaks.join(' ') }] : []),
  ];
  if (cited.length)
    tc.properties = {
      property: [...((tc.properties as { property: object[] } | undefined)?.property ?? []), ...cited],
    };
  if (v.fails) {
    // the hint goes in the message (what CI shows first), the evidence in the text
    tc.failure = {
      '@_message': attr([check.message, v.hint].filter(Boolean).join(' — ')),
      '@_type': check.flaky ? 'flaky' : check.verdict,
      '#text': xml(evidenceText(check)),
    };
  } else if (check.verdict === 'skip') {
    tc.skipped = { '@_message': attr(check.skipReason ?? check.message) };
  } else if (check.verdict !== 'pass' || v.hint) {
    const known =
      check.deviation && check.verdict === 'expected-fail' ? ` (known deviation: ${check.deviation.reason})` : '';
    tc['system-out'] = xml(
      [`${VERDICT_LABEL[check.verdict]}${known}`, v.hint, evidenceText(check)].filter(Boolean).join('\n'),
    );
  }
  return tc;
}

function testsuite(
  s: ScenarioResult,
  checks: CheckView[],
  timestamp: string,
  agent: string,
  notes: UndocumentedMember[],
): object {
  const props = [
    { '@_name': 'title', '@_value': attr(s.title) },
    { '@_name': 'file', '@_value': attr(s.file) },
    { '@_name': 'spec', '@_value': attr(s.spec.join(', ')) },
    { '@_name': 'agent', '@_value': attr(agent) },
    { '@_name': 'verdict', '@_value': s.verdict },
    ...(s.skipReason ? [{ '@_name': 'skipReason', '@_value': attr(s.skipReason) }] : []),
    // Undocumented members its responses had: notes (failing checks of their own under --strict).
    ...notes
      .filter((n) => n.scenarios.includes(s.id))
      .map((n) => ({ '@_name': 'undocumented', '@_value': attr(noteLine(n)) })),
  ];
  return {
    '@_name': xml(s.id),
    ...countAttrs(counts(checks)),
    '@_time': seconds(s.durationMs),
    '@_timestamp': timestamp,
    properties: { property: props },
    testcase: checks.map(testcase),
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
    suites.push({
      '@_name': 'synconf harness',
      '@_tests': report.harnessErrors.length,
      '@_failures': 0,
      '@_errors': report.harnessErrors.length,
      '@_skipped': 0,
      '@_time': '0.000',
      '@_timestamp': timestamp,
      testcase: report.harnessErrors.map((e, i) => ({
        '@_classname': 'synconf harness',
        '@_name': xml([e.scenario, e.step].filter(Boolean).join('/') || e.file || `harness error ${i + 1}`),
        '@_time': '0.000',
        error: {
          '@_message': attr(e.message),
          '@_type': 'harness',
          '#text': xml([e.file && `file: ${e.file}`, e.message].filter(Boolean).join('\n')),
        },
      })),
    });
    total.tests += report.harnessErrors.length;
    total.errors += report.harnessErrors.length;
  }
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    format: true,
    suppressEmptyNode: true,
  });
  return builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': xml(`synconf ${report.synconf.version}: ${agent}, ${report.run.mode} ${report.run.target}`),
      ...countAttrs(total),
      '@_time': seconds(report.run.durationMs),
      '@_timestamp': timestamp,
      testsuite: suites,
    },
  }) as string;
}
