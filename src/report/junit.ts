// report.json as JUnit XML, the format CI systems show as test results: one <testsuite> per
// scenario, one <testcase> per check. fail and unexpected-pass are <failure>s (both break the
// gate), skip is <skipped>, expected-fail passes but says so in <system-out>. Harness errors
// become <error> test cases of an extra suite, so a broken run is never shown green.
import { XMLBuilder } from 'fast-xml-parser';
import type { CheckResult, Report, ScenarioResult, UndocumentedMember } from '../schema/generated/types.js';
import { evidenceText } from './evidence-text.js';
import { cut, oneLine, platform, seconds, noteLine } from './text.js';

/** XML 1.0 cannot carry control characters or lone surrogates, which response bodies may hold */
function xml(s: string): string {
  return s
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** attribute text: one line, bounded (CI viewers show it as a title) */
const attr = (s: string) => xml(cut(oneLine(s), 1000));

interface Counts { tests: number; failures: number; errors: number; skipped: number; }

function counts(checks: CheckResult[]): Counts {
  return {
    tests: checks.length,
    failures: checks.filter((c) => c.verdict === 'fail' || c.verdict === 'unexpected-pass').length,
    errors: 0,
    skipped: checks.filter((c) => c.verdict === 'skip').length,
  };
}

const countAttrs = (c: Counts) => ({ '@_tests': c.tests, '@_failures': c.failures, '@_errors': c.errors, '@_skipped': c.skipped });

function testcase(scenario: ScenarioResult, check: CheckResult): object {
  const tc: Record<string, unknown> = { '@_classname': xml(scenario.id), '@_name': xml(check.id), '@_time': seconds(check.durationMs) };
  switch (check.verdict) {
    case 'fail':
    case 'unexpected-pass': {
      const why = check.verdict === 'unexpected-pass'
        ? `unexpected pass: listed as a known deviation (${check.deviation?.reason ?? 'no reason given'}) but the agent conforms; remove the entry. ${check.message}`
        : check.message;
      tc.failure = { '@_message': attr(why), '@_type': check.verdict, '#text': xml(evidenceText(check)) };
      break;
    }
    case 'skip':
      tc.skipped = { '@_message': attr(check.skipReason ?? check.message) };
      break;
    case 'expected-fail':
      tc['system-out'] = xml(`expected fail (known deviation: ${check.deviation?.reason ?? 'no reason given'})\n${evidenceText(check)}`);
      break;
    case 'pass':
      break;
  }
  return tc;
}

function testsuite(s: ScenarioResult, timestamp: string, agent: string, notes: UndocumentedMember[]): object {
  const props = [
    { '@_name': 'title', '@_value': attr(s.title) },
    { '@_name': 'file', '@_value': attr(s.file) },
    { '@_name': 'spec', '@_value': attr(s.spec.join(', ')) },
    { '@_name': 'agent', '@_value': attr(agent) },
    { '@_name': 'verdict', '@_value': s.verdict },
    ...(s.skipReason ? [{ '@_name': 'skipReason', '@_value': attr(s.skipReason) }] : []),
    // Undocumented members its responses had: notes (failing checks of their own under --strict).
    ...notes.filter((n) => n.scenarios.includes(s.id)).map((n) => ({ '@_name': 'undocumented', '@_value': attr(noteLine(n)) })),
  ];
  return {
    '@_name': xml(s.id),
    ...countAttrs(counts(s.checks)),
    '@_time': seconds(s.durationMs),
    '@_timestamp': timestamp,
    properties: { property: props },
    testcase: s.checks.map((c) => testcase(s, c)),
  };
}

export function toJUnit(report: Report): string {
  const agent = [`agent ${report.agent.version ?? 'unknown version'}`, platform(report.agent)].filter(Boolean).join(' ');
  const timestamp = report.run.startedAt;
  const suites = report.scenarios.map((s) => testsuite(s, timestamp, agent, report.undocumented ?? []));
  const total = counts(report.scenarios.flatMap((s) => s.checks));
  if (report.harnessErrors.length) {
    suites.push({
      '@_name': 'synconf harness', '@_tests': report.harnessErrors.length, '@_failures': 0,
      '@_errors': report.harnessErrors.length, '@_skipped': 0, '@_time': '0.000', '@_timestamp': timestamp,
      testcase: report.harnessErrors.map((e, i) => ({
        '@_classname': 'synconf harness',
        '@_name': xml([e.scenario, e.step].filter(Boolean).join('/') || e.file || `harness error ${i + 1}`),
        '@_time': '0.000',
        error: { '@_message': attr(e.message), '@_type': 'harness', '#text': xml([e.file && `file: ${e.file}`, e.message].filter(Boolean).join('\n')) },
      })),
    });
    total.tests += report.harnessErrors.length;
    total.errors += report.harnessErrors.length;
  }
  const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });
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
