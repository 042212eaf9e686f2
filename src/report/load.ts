// Reads a report.json given on the command line. Any problem is an InputError naming the file,
// because it is the user's input that is wrong, not synconf.
import type { FailOn, Report } from '../schema/generated/types.js';
import { InputError } from '../errors.js';
import { kindOfYaml, kindProblem, KIND_NAMES } from '../schema/file-kind.js';
import { parseJson, readTextFile } from '../text-file.js';
import { failingUnder, totalsOf } from '../verdict/totals.js';
import { DEFAULT_FAIL_ON, failsRun } from '../verdict/verdicts.js';
import { formatError, loadDocumentValidators, validate } from '../schema/registry.js';

export interface ReadOptions {
  /**
   * refuse a report whose scenarios disagree with its own totals (emptied, cut or edited by hand): what merges,
   * renders, validates or compares with a report (--baseline) judges the run by it.
   */
  whole?: boolean;
}

export async function readReport(file: string, opts: ReadOptions = {}): Promise<Report> {
  const text = readTextFile(file, file);
  let doc: unknown;
  try {
    doc = parseJson(text, file);
  } catch (e) {
    const yaml = kindOfYaml(text);
    throw yaml && yaml !== 'report'
      ? new InputError(`${file}: this is ${KIND_NAMES[yaml]} (YAML), not ${KIND_NAMES.report}`)
      : e;
  }
  const wrongKind = kindProblem(doc, 'report');
  if (wrongKind) throw new InputError(`${file}: ${wrongKind}`);
  await loadDocumentValidators();
  const errors = validate('report', doc);
  if (errors.length) {
    // one line: the file and its first problem (a report edited by hand, or cut); not a dump of the schema's errors
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
    throw new InputError(`"${file}" is not a valid synconf report: ${formatError(errors[0])}${more}`);
  }
  const disagrees = opts.whole ? totalsDisagreement(doc as Report) : undefined;
  if (disagrees) throw new InputError(`${file}: cannot tell what this run found: ${disagrees}`);
  return doc as Report;
}

// the order the totals are written in
const COUNTED = ['scenarios', 'checks', 'pass', 'fail', 'expected-fail', 'unexpected-pass', 'skip'] as const;

/** why its exit code (0 or 1: what the checks make of it) is not what its checks make under its own --fail-on */
function exitDisagreement(report: Report): string | undefined {
  const failOn = (report.run.failOn ?? DEFAULT_FAIL_ON) as FailOn[];
  const failing = failingUnder(report.scenarios, failOn);
  const errors = report.harnessErrors.length;
  const on = `(failing on: ${failOn.join(', ')})`;
  const hand = 'the file was edited by hand; use the report.json the run wrote';
  if (report.exitCode === 0 && (failing || errors)) {
    const first = report.scenarios.flatMap((s) => s.checks).find((c) => failsRun(c, failOn));
    const why = first
      ? `check ${first.id} is ${first.verdict} ${on}`
      : failing
        ? `a check it left out fails ${on}`
        : `it holds ${errors} harness error(s)`;
    return `its exit code 0 says it conforms, yet ${why}; ${hand}`;
  }
  if (report.exitCode === 1 && !failing)
    return `its exit code 1 says it does not conform, yet no check fails ${on}; ${hand}`;
  return undefined;
}

/**
 * Why the report disagrees with itself, or undefined. A run writes its totals from the very scenarios it lists, so a
 * list that holds fewer (or more) is a file emptied, cut or edited by hand: merged or gated as it is, it would read as
 * a green run of part of the suite.
 */
export function totalsDisagreement(report: Report): string | undefined {
  // the totals its scenarios hold, folded and omitted checks included
  const listed = totalsOf(report.scenarios);
  const off = COUNTED.filter((k) => listed[k] !== report.totals[k]);
  if (!off.length) return exitDisagreement(report);
  // a shard names the scenarios it ran: those its list lacks can be named
  const listedIds = new Set(report.scenarios.map((s) => s.id));
  const lost = (report.shard?.scenarios ?? []).filter((id) => !listedIds.has(id));
  const named = lost.length > 4 ? `${lost.slice(0, 3).join(', ')} and ${lost.length - 3} more` : lost.join(', ');
  const missing = off
    .filter((k) => listed[k] < report.totals[k])
    .map((k) => `${report.totals[k] - listed[k]} ${k}${k === 'scenarios' && named ? ` (of its shard: ${named})` : ''}`);
  const extra = off.filter((k) => listed[k] > report.totals[k]).map((k) => `${listed[k] - report.totals[k]} ${k}`);
  return [
    `its totals count ${report.totals.scenarios} scenarios and ${report.totals.checks} checks, its scenarios list ${listed.scenarios} and ${listed.checks}`,
    missing.length ? `missing: ${missing.join(', ')}` : undefined,
    extra.length ? `not in its totals: ${extra.join(', ')}` : undefined,
    'the file was cut or edited by hand; use the report.json the run wrote',
  ]
    .filter(Boolean)
    .join('; ');
}
