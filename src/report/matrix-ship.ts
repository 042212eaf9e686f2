// The first screen of the version matrix: "can version N ship?". Per adjacent pair of versions one compact row: its
// answer, the breaking, risky, compatible and accepted causes counted, and its most urgent cause, whose toggle opens
// the other top causes; per version its verdict, failures and listed deviations. A row a pair keeps eight pairs and
// nine versions within 800 px. Then each pair's causes, every one expandable to the checks and differences it
// explains, the compatible ones collapsed. Pure: a matrix in, HTML out (src/report/matrix-html.ts places it).
import type { ChangeLevel, Matrix, MatrixCause, MatrixPair } from '../schema/generated/types.js';
import { escapeHtml, cut } from './text.js';
import { runStatus } from '../verdict/verdicts.js';
import { CHANGE_LABEL } from '../verdict/change-class.js';
import {
  checksLine,
  checksShort,
  listedNote,
  pairChecksLine,
  pairName,
  topCauses,
  urgent,
} from './matrix-causes-text.js';
import { plural } from '../plural.js';

const e = (s: string, max = 500) => escapeHtml(cut(s, max));

/** top causes per pair on the first screen: the most urgent shown, the others behind its toggle */
export const TOP_CAUSES = 3;
/**
 * Pairs whose most urgent causes the first screen shows whole (a few lines each). Past them each takes one line, cut
 * with an ellipsis, whole in its title and once its toggle is opened: so nine versions still fit in 800 px.
 */
export const WHOLE_CAUSES = 5;
/** checks and differences listed inside one cause; the rest counted (matrix.json has every check) */
const LISTED = 25;

/** the level's colour: the verdict badges' (breaking red, risky amber, compatible green) */
const BADGE: Record<ChangeLevel, string> = { breaking: 'v-fail', risky: 'v-expected-fail', compatible: 'v-pass' };

const levelBadge = (c: MatrixCause) =>
  c.cause.accepted
    ? '<span class="badge v-skip">accepted</span>'
    : `<span class="badge ${BADGE[c.cause.level]}">${e(c.cause.level, 20)}</span>`;

/** a cause's rule, where (its first endpoint, how many more, the pointer) and what changed, as plain text */
function causeParts(c: MatrixCause): { rule: string; where: string; change: string } {
  const k = c.cause;
  const more = k.endpoints.length > 1 ? ` (+${k.endpoints.length - 1})` : '';
  const at = k.at?.[0] ?? k.pointer;
  const change = k.members
    ? `${k.change}: ${k.members.slice(0, 4).join(', ')}${k.members.length > 4 ? ', …' : ''}`
    : k.change;
  return { rule: cut(k.rule, 60), where: `${cut(k.endpoints[0], 120)}${more}${at ? ` ${cut(at, 120)}` : ''}`, change };
}

/** rule — endpoints pointer: change */
function causeText(c: MatrixCause): string {
  const { rule, where, change } = causeParts(c);
  return `<code>${e(rule)}</code> — <code>${e(where)}</code>: ${e(change, 160)}`;
}

/** beside a cause that is also a listed known deviation of the newer version: its report.html lists it as accepted */
function listed(m: Matrix, p: MatrixPair, c: MatrixCause): string {
  const note = listedNote(m, p, c);
  return note ? ` <span class="listed">(${e(note)})</span>` : '';
}

/** the answer's colour: the banner's (red breaks, blue cannot tell, amber may affect, green compatible) */
const ANSWER_BADGE: Record<MatrixPair['answer'], string> = {
  breaks: 'v-fail',
  'cannot-tell': 'a-cannot-tell',
  'may-affect': 'v-expected-fail',
  compatible: 'v-pass',
};
const ANSWER_WORD: Record<MatrixPair['answer'], string> = {
  breaks: 'breaks',
  'cannot-tell': 'cannot tell',
  'may-affect': 'may affect',
  compatible: 'compatible',
};

/** what a pair means for shipping the newer version, in a word (the banner says it in a sentence), and why not */
function answer(p: MatrixPair): string {
  const badge = `<span class="badge ${ANSWER_BADGE[p.answer]}">${ANSWER_WORD[p.answer]}</span>`;
  return p.answer === 'cannot-tell' ? `${badge} ${e(p.reason ?? '', 300)}` : badge;
}

/** a top cause on one line: its level, rule, where, what changed, listed or not, the checks it explains */
const topCause = (m: Matrix, p: MatrixPair, c: MatrixCause) =>
  `${levelBadge(c)} ${causeText(c)}${listed(m, p, c)} <span class="muted">(${e(checksShort(c))})</span>`;

/** the same as plain text, for the title of a line the page may cut (more pairs than WHOLE_CAUSES) */
function topCauseTitle(m: Matrix, p: MatrixPair, c: MatrixCause): string {
  const { rule, where, change } = causeParts(c);
  const note = listedNote(m, p, c);
  return `${c.cause.accepted ? 'accepted' : c.cause.level} ${rule} — ${where}: ${change}${note ? ` (${note})` : ''} (${checksShort(c)})`;
}

/**
 * The pair's most urgent cause, always shown; its toggle, on its line (a toggle on a line of its own would cost every
 * pair a line), opens the other top causes and where all of them are.
 */
function topCell(m: Matrix, p: MatrixPair): string {
  const [first, ...others] = topCauses(p, TOP_CAUSES);
  if (!first) return '<span class="muted">no breaking or risky cause</span>';
  const shown = `<span class="top" title="${e(topCauseTitle(m, p, first), 800)}">${topCause(m, p, first)}</span>`;
  const more = others.length ? ` <span class="more">+${others.length} more</span>` : '';
  const all = p.causes.filter(urgent).length;
  const also = others.map((c) => `<div class="also">${topCause(m, p, c)}</div>`).join('');
  return `<details class="tops"><summary>${shown}${more}</summary>${also}<div class="also"><a href="#causes-${p.from}-${p.to}">all ${plural(all, 'breaking or risky cause')} of ${e(pairName(m, p))}</a></div></details>`;
}

function pairRow(m: Matrix, p: MatrixPair): string {
  const c = p.counts;
  return `<tr><th scope="row" class="nowrap">${e(pairName(m, p))}</th><td>${answer(p)}</td><td class="num">${c.breaking}</td><td class="num">${c.risky}</td><td class="num">${c.compatible}</td><td class="num">${c.accepted}</td><td class="cause">${topCell(m, p)}</td></tr>`;
}

function versionRow(m: Matrix, i: number): string {
  const c = m.columns[i];
  const t = c.totals;
  return `<tr><th scope="row">${e(c.label)}</th><td>${e(runStatus(c.exitCode))} (exit ${c.exitCode})</td><td class="num">${t.fail}</td><td class="num">${t['expected-fail']}</td><td class="num">${t['unexpected-pass']}</td><td class="num">${t.skip}</td><td class="num">${t.pass}</td><td class="muted">${e(c.mode, 20)}</td></tr>`;
}

/** the answer: per pair and per version, both small tables */
export function shipSection(m: Matrix): string {
  const pairs = (m.pairs ?? []).map((p) => pairRow(m, p)).join('\n');
  return `<h2 id="ship">Can it ship?</h2>
<table class="ship${(m.pairs?.length ?? 0) > WHOLE_CAUSES ? ' cut' : ''}"><thead><tr><th scope="col">Versions</th><th scope="col">Answer</th><th scope="col" class="nowrap">breaking</th><th scope="col" class="nowrap">risky</th><th scope="col" class="nowrap">compatible</th><th scope="col" class="nowrap">accepted</th><th scope="col">Most urgent cause <span class="muted">(▸ the next ones)</span></th></tr></thead>
<tbody>
${pairs || '<tr><td colspan="7" class="muted">one version only: no pair to compare</td></tr>'}
</tbody></table>
<table class="versions"><thead><tr><th scope="col">Version</th><th scope="col">Verdict</th><th scope="col">failures</th><th scope="col">listed deviations</th><th scope="col">unexpected passes</th><th scope="col">skipped</th><th scope="col">passing</th><th scope="col">run</th></tr></thead>
<tbody>
${m.order.map((i) => versionRow(m, i)).join('\n')}
</tbody></table>`;
}

/** one cause, expandable: the checks it explains (class and why), then the differences it folds */
function causeDetails(m: Matrix, p: MatrixPair, c: MatrixCause): string {
  const k = c.cause;
  const checks = c.checks
    .slice(0, LISTED)
    .map((x) => `<li><code>${e(x.id, 200)}</code> — ${e(CHANGE_LABEL[x.class])}: ${e(x.note, 300)}</li>`)
    .join('');
  const evidence = k.evidence
    .slice(0, LISTED)
    .map((x) => `<li>${e(x.scenario, 100)}: ${e(x.difference, 300)}</li>`)
    .join('');
  const rest = (have: number, n: number, where: string) =>
    n > Math.min(have, LISTED) ? `<li class="muted">…and ${n - Math.min(have, LISTED)} more (${where})</li>` : '';
  const moreChecks = rest(c.checks.length, c.checks.length, 'matrix.json');
  // matrix.json keeps the first few differences of a cause and counts the rest (keptOf): drift lists them all
  const total = k.evidence.length + (k.moreEvidence ?? 0);
  const differences = rest(k.evidence.length, total, '<code>synconf drift --differences</code>');
  return `<details class="cause"><summary>${levelBadge(c)} ${causeText(c)} <span class="muted">— ${plural(k.occurrences, 'difference')} in ${plural(k.scenarios.length, 'scenario')}; ${e(checksLine(c))}</span>${listed(m, p, c)}</summary>
<p class="muted">${e(k.summary)}${k.endpoints.length > 1 ? `. Endpoints: ${e(k.endpoints.join(', '))}` : ''}${k.accepted ? `. Accepted by ${e(k.accepted.by)}: ${e(k.accepted.reason)}` : ''}</p>
${checks ? `<p>Checks it explains:</p><ul>${checks}${moreChecks}</ul>` : ''}<p>Differences:</p><ul>${evidence}${differences}</ul></details>`;
}

/** each pair's causes: breaking and risky listed (each expandable), compatible and accepted collapsed */
export function causesSection(m: Matrix): string {
  return (m.pairs ?? [])
    .map((p) => {
      const shown = p.causes.filter(urgent);
      const rest = p.causes.filter((c) => !urgent(c));
      return `<h2 id="causes-${p.from}-${p.to}">Causes ${e(pairName(m, p))} <span class="muted">(${p.causes.length}; checks changed: ${e(pairChecksLine(p))})</span></h2>
${p.answer === 'cannot-tell' ? `<p><strong>Cannot tell</strong>: ${e(p.reason ?? '', 300)}. No cause is made up from the changed checks alone.</p>` : ''}
${shown.map((c) => causeDetails(m, p, c)).join('\n')}
${rest.length ? `<details class="compatible"><summary>${plural(rest.length, 'compatible or accepted cause')}</summary>\n${rest.map((c) => causeDetails(m, p, c)).join('\n')}\n</details>` : ''}`;
    })
    .join('\n');
}
