// Where the items of a top-level YAML list start, read from the text: a valid file needs no second parse
// for it. The items of `key:` are the lines that start with "- " at the list's indentation, up to the
// next top-level key. Scenario reports point at steps with it, expectations errors at their entry.

/** the 1-based line of each item of the top-level list `key` (empty when there is no such block list) */
export function listItemLines(text: string, key: string): number[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${key}:`));
  const out: number[] = [];
  let indent: string | undefined;
  for (let n = start + 1; start >= 0 && n < lines.length; n++) {
    if (/^\S/.test(lines[n]) && !lines[n].startsWith('-') && !lines[n].startsWith('#')) break; // the next top-level key
    const m = /^(\s*)- /.exec(lines[n]);
    if (!m) continue;
    indent ??= m[1];
    if (m[1] === indent) out.push(n + 1);
  }
  return out;
}
