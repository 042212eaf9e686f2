// report.json as a short Markdown summary (summary.md, and the GitHub job summary): the
// verdict, the totals, what failed with its one-line message, and one line per scenario.
import type { Report } from '../schema/generated/types.js';
import { escapeMarkdown as md, cut, platform, noteLine } from './text.js';
import { VERDICTS, VERDICT_LABEL, countVerdicts, isProblem, runStatus } from './verdicts.js';

/** GitHub caps a job summary at 1 MiB; a long failure list belongs in report.html */
const MAX_LISTED = 100;

/** the undocumented members of the run's responses, one line each (the agent version is the run's) */
function undocumentedNotes(report: Report): string[] {
  const notes = report.undocumented ?? [];
  if (!notes.length) return [];
  const how = report.run.strict ? 'failures under --strict' : 'notes; --strict makes them failures';
  const lines = notes.slice(0, MAX_LISTED).map((n) => `- ${md(noteLine(n))} (${md(n.scenarios.join(', '))})`);
  if (notes.length > MAX_LISTED) lines.push(`- … and ${notes.length - MAX_LISTED} more (see report.json)`);
  return ['', `### Undocumented members (${notes.length}, agent ${md(report.agent.version ?? 'of unknown version')}; ${how})`, '', ...lines];
}

export function toMarkdown(report: Report): string {
  const t = report.totals;
  const agent = `${report.agent.version ?? 'unknown version'}${platform(report.agent) ? ` (${platform(report.agent)})` : ''}`;
  const out: string[] = [
    `## synconf: ${runStatus(report.exitCode)}`,
    '',
    md(report.verdict),
    '',
    `Agent **${md(agent)}** · ${md(report.run.mode)} · target ${md(report.run.target)} · started ${md(report.run.startedAt)} · ${(report.run.durationMs / 1000).toFixed(1)} s · synconf ${md(report.synconf.version)}`,
    '',
    `| scenarios | checks | ${VERDICTS.map((v) => VERDICT_LABEL[v]).join(' | ')} |`,
    `|${' ---: |'.repeat(2 + VERDICTS.length)}`,
    `| ${t.scenarios} | ${t.checks} | ${VERDICTS.map((v) => t[v]).join(' | ')} |`,
  ];

  const problems = report.scenarios.flatMap((s) => s.checks).filter((c) => isProblem(c.verdict));
  if (problems.length) {
    out.push('', `### Failures (${problems.length})`, '');
    for (const c of problems.slice(0, MAX_LISTED)) {
      const extra = c.verdict === 'unexpected-pass' ? ` (listed as known deviation: ${c.deviation?.reason ?? '?'}; remove the entry)` : '';
      out.push(`- **${VERDICT_LABEL[c.verdict]}** ${md(c.id)}: ${md(cut(c.message, 300) + extra)}`);
    }
    if (problems.length > MAX_LISTED) out.push(`- … and ${problems.length - MAX_LISTED} more (see report.html)`);
  }

  if (report.harnessErrors.length) {
    out.push('', `### Harness errors (${report.harnessErrors.length})`, '');
    for (const e of report.harnessErrors.slice(0, MAX_LISTED)) {
      const where = [e.file, e.scenario, e.step].filter(Boolean).join(' ');
      out.push(`- ${where ? `${md(where)}: ` : ''}${md(cut(e.message, 300))}`);
    }
  }

  const stale = report.staleExpectations ?? [];
  if (stale.length) out.push('', `Stale known deviations (their check did not occur): ${stale.slice(0, MAX_LISTED).map(md).join(', ')}`);
  if (report.unusedExchanges?.length) out.push('', `Unused recorded exchanges: ${report.unusedExchanges.length} (the recording is stale)`);
  out.push(...undocumentedNotes(report));

  // Scenarios in need of attention first; the table stays in suite order otherwise.
  const scenarios = [...report.scenarios].sort((a, b) => VERDICTS.indexOf(a.verdict) - VERDICTS.indexOf(b.verdict));
  if (scenarios.length) {
    out.push('', '### Scenarios', '', `| scenario | verdict | ${VERDICTS.map((v) => VERDICT_LABEL[v]).join(' | ')} | endpoints |`, `|---|---|${'---:|'.repeat(VERDICTS.length)}---|`);
    for (const s of scenarios) {
      const n = countVerdicts(s.checks.map((c) => c.verdict));
      out.push(`| ${md(s.id)} | **${VERDICT_LABEL[s.verdict]}** | ${VERDICTS.map((v) => n[v]).join(' | ')} | ${md(cut(s.spec.join(', '), 200))} |`);
    }
  }
  return out.join('\n') + '\n';
}
