// The size bounds of report files (the README and docs/reports.md state them): however large a run, each of
// report.json, junit.xml, report.html and summary.md stays under REPORT_FILE_BOUND, and the Markdown summaries
// (summary.md, matrix.md) under SUMMARY_BOUND. Repeated problems are folded first (fold.ts); what still does not fit
// is left out whole, item by item, and counted, so a file is never cut mid-structure and its counts stay exact.

/** bytes: the most a report file may take */
export const REPORT_FILE_BOUND = 10_000_000;

/** the bound as the README and the files say it */
export const BOUND_TEXT = `${REPORT_FILE_BOUND / 1_000_000} MB`;

/**
 * Bytes: the most a Markdown summary (summary.md, matrix.md) may take, whatever the run or the number of versions.
 * GitHub takes up to 1 MiB per step summary, but a summary is read at a glance: past this, detail is left out (the
 * least urgent first) and the summary says what and where it is (report.html, matrix.json).
 */
export const SUMMARY_BOUND = 64 * 1024;

/** the summaries' bound as they say it */
export const SUMMARY_BOUND_TEXT = '64 KiB';

/** the bytes of lines joined by newlines, with the final newline */
export const linesBytes = (lines: readonly string[]) => lines.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);

/** a document as the files hold it: indented JSON and a final newline */
export const jsonText = (doc: unknown) => JSON.stringify(doc, null, 2) + '\n';

/**
 * A JSON file's text within `limit` bytes: the document as it is when it fits (the common case); otherwise
 * `shrunk(share)`, the document cut down for a share of the bound, the share shrinking until the text fits.
 */
export function boundedJson(doc: unknown, limit: number, shrunk: (share: number) => unknown): string {
  try {
    const whole = jsonText(doc);
    // at most 3 bytes a UTF-16 code unit: most documents are surely within the bound without counting their bytes
    if (3 * whole.length <= limit || Buffer.byteLength(whole) <= limit) return whole;
  } catch (e) {
    if (!(e instanceof RangeError)) throw e; // longer than a string can be
  }
  return shrunkJson(limit, shrunk);
}

/** the text of `shrunk(share)`, the share shrinking until it fits in `limit` bytes: a document known not to fit */
export function shrunkJson(limit: number, shrunk: (share: number) => unknown): string {
  for (let share = 0.9; ; share *= 0.7) {
    const out = jsonText(shrunk(share));
    if (Buffer.byteLength(out) <= limit || share < 0.01) return out;
  }
}

/**
 * What is left of a file's bytes for its lists; once an item does not fit, no later one does (a list stays a prefix).
 * Each text is counted as it comes. Counting costs little: it copies a text built of many pieces into one string, which
 * the writers then join several times faster (counting only texts that might not fit, at most 3 bytes a UTF-16 unit,
 * made junit.xml slower to write).
 */
export class Budget {
  /** the UTF-16 code units of the texts taken */
  units = 0;

  constructor(public left: number) {}

  /** takes `text`'s bytes when they fit */
  fits(text: string): boolean {
    const taken = this.take(Buffer.byteLength(text));
    if (taken) this.units += text.length;
    return taken;
  }

  /** takes `bytes` when they fit */
  take(bytes: number): boolean {
    if (bytes > this.left) {
      this.left = 0;
      return false;
    }
    this.left -= bytes;
    return true;
  }
}

/** the items rendered while they fit in `budget` (rendered one by one: the rest never are), then `rest(n)` */
export function within<T>(
  items: readonly T[],
  render: (item: T) => string,
  budget: Budget,
  rest: (n: number) => string,
): string[] {
  const out: string[] = [];
  for (const item of items) {
    const text = render(item);
    if (!budget.fits(text)) break;
    out.push(text);
  }
  return out.length < items.length ? [...out, rest(items.length - out.length)] : out;
}

/** the line that says items were left out for the bound */
export const leftOut = (n: number, what: string) =>
  `… and ${n.toLocaleString('en-US')} more ${what} left out to keep this file under ${BOUND_TEXT} (the counts above include them)`;
