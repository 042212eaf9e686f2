// The spec as the statement index sees it: its lines, the heading path of each line, and its units (each table
// row, and each sentence of a paragraph or list item). `disagreements` holds the index to that text both ways:
// every statement's quote stands on its line under its section, and every clause of every unit of the covered
// sections is claimed by a statement, so an edit of the spec that moves, removes or adds a statement is named,
// down to one more item in a list ("Facility names: …, versioner (file versioning), …").
import type { Statement } from './generated/types.js';

export interface SpecUnit {
  /** 1-based line */
  line: number;
  /** where the unit lies on its line: [start, end) */
  start: number;
  end: number;
  text: string;
  section: string[];
  /** the parts a statement must claim, each [start, end) on the line: its clauses (see clausesOf) */
  clauses: [number, number][];
}

export interface SpecText {
  lines: string[];
  /** the heading path of each line (index = line - 1), from its ## heading down */
  sections: string[][];
  /** the table rows and sentences whose clauses statements must claim: all but "…: not shown." and "…:" introductions */
  units: SpecUnit[];
}

/** ## sections whose text states nothing to check: the overview (the preamble has no heading and is left out too) */
export const UNCOVERED_SECTIONS = ['What the service does'];

const isTableRow = (line: string) => line.startsWith('|');
const isTableRule = (line: string) => /^\|[\s:|-]+\|$/.test(line);

/** the sentences of one paragraph or list item: a sentence ends with ". " before a capital letter, or at the end */
function sentences(line: string, offset: number): { start: number; end: number; text: string }[] {
  const out: { start: number; end: number; text: string }[] = [];
  let start = offset;
  for (const m of line.matchAll(/\. (?=[A-Z])/g)) {
    const end = m.index + 1;
    if (end > start) out.push({ start, end, text: line.slice(start, end) });
    start = end + 1;
  }
  const rest = line.slice(start).trimEnd();
  if (rest) out.push({ start, end: start + rest.length, text: rest });
  return out;
}

// A sentence that only says something is not shown states nothing to check; one ending in ":" introduces a table.
const claimable = (sentence: string) => !/not shown\.$/.test(sentence) && !sentence.endsWith(':');

/**
 * The clauses of line[start, end): split at ", ", "; " and ". " outside brackets and at table cell borders; a clause that
 * only says something is not shown is left out. Of a table row, the first cell (the field or item it is about) is
 * no clause: the cells after it say what is stated of it.
 */
function clausesOf(line: string, start: number, end: number, row: boolean): [number, number][] {
  const out: [number, number][] = [];
  let depth = 0;
  let from = row ? line.indexOf(' | ') + 3 : start;
  const last = row ? line.lastIndexOf(' |') : end;
  // a cell may hold sentences: ". " before a capital letter ends a clause too (which keeps its full stop)
  const sentenceEnd = (i: number) => line[i] === '.' && /[A-Z]/.test(line[i + 2] ?? '');
  const push = (to: number) => {
    if (to > from && !/not shown\.$/.test(line.slice(from, to))) out.push([from, to]);
  };
  for (let i = from; i < last; i++) {
    const c = line[i];
    if ('({['.includes(c)) depth++;
    else if (')}]'.includes(c)) depth = Math.max(0, depth - 1);
    else if (
      line[i + 1] === ' ' &&
      ((depth === 0 && (c === ',' || c === ';' || sentenceEnd(i))) || (row && c === '|'))
    ) {
      push(c === '|' ? i - 1 : c === '.' ? i + 1 : i);
      from = i + 2;
      if (c === '|') depth = 0;
    }
  }
  push(last);
  return out;
}

export function parseSpec(text: string): SpecText {
  const lines = text.split('\n');
  const sections: string[][] = [];
  const units: SpecUnit[] = [];
  let path: string[] = [];
  let fenced = false;
  lines.forEach((line, i) => {
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (line.startsWith('```')) fenced = !fenced;
    // the document title (#) heads no section; a ## heading starts a path, deeper ones extend it
    else if (!fenced && heading)
      path = heading[1].length === 1 ? [] : [...path.slice(0, heading[1].length - 2), heading[2]];
    sections.push(path);
    if (fenced || heading || !line.trim() || path.length === 0 || UNCOVERED_SECTIONS.includes(path[0])) return;
    if (isTableRow(line)) {
      const header = isTableRule(lines[i + 1] ?? '');
      if (!header && !isTableRule(line))
        units.push({
          line: i + 1,
          start: 0,
          end: line.length,
          text: line,
          section: path,
          clauses: clausesOf(line, 0, line.length, true),
        });
      return;
    }
    const offset = /^\s*(?:[-*+]|\d+\.)\s+/.exec(line)?.[0].length ?? 0;
    for (const s of sentences(line, offset))
      if (claimable(s.text))
        units.push({ line: i + 1, ...s, section: path, clauses: clausesOf(line, s.start, s.end, false) });
  });
  return { lines, sections, units };
}

const where = (section: string[]) => section.join(' › ');

/** every way the index and the spec text disagree, one line each naming the statement or the spec line */
export function disagreements(statements: Statement[], spec: SpecText): string[] {
  const out: string[] = [];
  for (const s of statements) {
    const text = spec.lines[s.line - 1];
    if (text === undefined || !text.includes(s.quote)) {
      const found = spec.lines.flatMap((l, i) => (l.includes(s.quote) ? [i + 1] : []));
      out.push(
        `${s.id}: quote ${JSON.stringify(s.quote)} is not on line ${s.line}` +
          (found.length ? ` (found on line ${found.join(', ')})` : ' (no longer in the spec)'),
      );
    } else if (where(spec.sections[s.line - 1]) !== where(s.section))
      out.push(
        `${s.id}: section is "${where(s.section)}", but line ${s.line} is under "${where(spec.sections[s.line - 1])}"`,
      );
  }
  for (const u of spec.units) {
    const line = spec.lines[u.line - 1];
    const open = u.clauses.filter((c) => !claimed(c, u.line, statements, line));
    if (open.length > 0 && open.length === u.clauses.length)
      out.push(`line ${u.line} (${where(u.section)}): no statement claims ${JSON.stringify(u.text)}`);
    else
      for (const [from, to] of open)
        out.push(
          `line ${u.line} (${where(u.section)}): no statement claims ${JSON.stringify(line.slice(from, to))} (in ${JSON.stringify(u.text)})`,
        );
  }
  return out;
}

/** a clause is claimed by a statement on its line whose quote overlaps it */
function claimed([from, to]: [number, number], lineNo: number, statements: Statement[], line: string): boolean {
  return statements.some((s) => {
    const at = s.line === lineNo ? line.indexOf(s.quote) : -1;
    return at >= 0 && at < to && at + s.quote.length > from;
  });
}
