// The size bound of a report file (the README states it): however large a run, each of report.json, junit.xml,
// report.html and summary.md stays under it. Repeated problems are folded first (fold.ts); what still does not fit
// is left out whole, item by item, and counted, so a file is never cut mid-structure and its counts stay exact.

/** bytes: the most a report file may take */
export const REPORT_FILE_BOUND = 10_000_000;

/** the bound as the README and the files say it */
export const BOUND_TEXT = `${REPORT_FILE_BOUND / 1_000_000} MB`;

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
  for (let share = 0.9; ; share *= 0.7) {
    const out = jsonText(shrunk(share));
    if (Buffer.byteLength(out) <= limit || share < 0.01) return out;
  }
}

/** a point in a budget's items, to ask later what was taken after it (Budget.takenSince) */
export interface Mark {
  at: number;
  units: number;
}

/**
 * What is left of a file's bytes for its lists; once an item does not fit, no later one does (a list stays a prefix).
 * Counting a text's UTF-8 bytes walks the whole text, and a report's texts add up to megabytes, so a text is counted
 * only once it might not fit: UTF-8 takes at most 3 bytes a UTF-16 code unit, and while the most the texts taken can
 * take is within the bound, each of them fits. The answers are those of counting each text as it comes.
 */
export class Budget {
  /** the bytes left after the counted items */
  private rest: number;
  /** every item taken, in order (one that did not fit: the bytes it left unused): its bytes, or how to count them */
  private readonly items: (number | (() => number))[] = [];
  /** how many of the items are counted in `rest` */
  private counted = 0;
  /** the most bytes the items not counted yet can take */
  private most = 0;
  /** the UTF-16 code units of the texts taken */
  private units = 0;

  constructor(left: number) {
    this.rest = left;
  }

  /** the bytes left */
  get left(): number {
    this.count();
    return this.rest;
  }

  /** takes `text`'s bytes when they fit */
  fits(text: string): boolean {
    const taken = this.fitsAtMost(3 * text.length, () => Buffer.byteLength(text));
    if (taken) this.units += text.length;
    return taken;
  }

  /** takes an item of `exact()` bytes, at most `most`, when it fits (`exact` is called once, when it must be) */
  fitsAtMost(most: number, exact: () => number): boolean {
    if (this.most + most > this.rest) return this.take(exact());
    this.items.push(exact);
    this.most += most;
    return true;
  }

  /** takes `bytes` when they fit */
  take(bytes: number): boolean {
    this.count();
    const fits = bytes <= this.rest;
    const spent = fits ? bytes : this.rest; // one that does not fit leaves nothing to later ones
    this.items.push(spent);
    this.rest -= spent;
    this.counted = this.items.length;
    return fits;
  }

  mark(): Mark {
    return { at: this.items.length, units: this.units };
  }

  /** what was taken from `from` to now: the UTF-16 code units of its texts, and its bytes (counted when asked) */
  takenSince(from: Mark): { units: number; bytes: () => number } {
    const to = this.items.length;
    const bytes = () => {
      let n = 0;
      for (let i = from.at; i < to; i++) n += this.bytesOf(i);
      return n;
    };
    return { units: this.units - from.units, bytes };
  }

  private bytesOf(i: number): number {
    const item = this.items[i];
    return typeof item === 'number' ? item : (this.items[i] = item());
  }

  private count(): void {
    for (; this.counted < this.items.length; this.counted++) this.rest -= this.bytesOf(this.counted);
    this.most = 0;
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
