// Where the items of a top-level YAML list start, read from the text: a valid file needs no second parse
// for it. The items of `key:` are the lines that start with "- " at the list's indentation, up to the
// next top-level key. Scenario reports point at steps with it, expectations errors at their entry.
// Both functions take the file's lines (`text.split('\n')`), split once per file: a scenario with step tables asks
// for the rows of each table step, and splitting the text for each of them was most of its step lines' time.

/** the 1-based line of each item of the top-level list `key` (empty when there is no such block list) */
export function listItemLines(lines: string[], key: string): number[] {
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

/** the indentation of a line, or undefined for a blank line or a comment (they end no block) */
function indentOf(line: string): number | undefined {
  const body = line.trimStart();
  return body === '' || body.startsWith('#') ? undefined : line.length - body.length;
}

/**
 * The 1-based line of each row of the block list `each:` of the list item that starts at line `itemLine` (a step
 * table, as listItemLines finds the step), or undefined when the item has no `each:` followed by a block list.
 */
export function rowLines(lines: string[], itemLine: number): number[] | undefined {
  const item = /^(\s*)- /.exec(lines[itemLine - 1] ?? '');
  if (!item) return undefined;
  const members = item[1].length + 2; // the item's members stand where its first one does, after "- "
  let n = itemLine - 1;
  const member = (i: number) => (i === itemLine - 1 ? ' '.repeat(members) + lines[i].slice(members) : lines[i]);
  for (; n < lines.length; n++) {
    const indent = indentOf(member(n));
    if (indent === undefined) continue;
    if (n > itemLine - 1 && indent <= item[1].length) return undefined; // the item ended without `each:`
    if (indent === members && /^each:\s*(#.*)?$/.test(member(n).trim())) break;
  }
  const out: number[] = [];
  let rows: number | undefined; // the rows' indentation: the first "- " after `each:`
  for (n++; n < lines.length; n++) {
    const indent = indentOf(lines[n]);
    if (indent === undefined || (rows !== undefined && indent > rows)) continue; // a blank line, a row's members
    const row = /^\s*- /.test(lines[n]);
    if (rows === undefined && row && indent >= members) rows = indent;
    if (rows === undefined || indent < rows || !row) break;
    out.push(n + 1);
  }
  return out.length ? out : undefined;
}
