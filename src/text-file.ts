// Reading a file the user gave: its bytes decoded as strict UTF-8 (a bad byte is an input error naming the file,
// line and column, never a silent U+FFFD that a check would then blame on the agent), and JSON parsed with an error
// that names line and column without quoting the file's text back (V8's messages embed it).
import { lstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { InputError } from './errors.js';

/** 1-based line and column of a character offset in `text` */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1))
    [line, lineStart] = [line + 1, i + 1];
  return { line, column: offset - lineStart + 1 };
}

/** a file that cannot be read or decoded: `label:line:column: reason`, the parts kept for loaders that collect */
export class TextFileError extends InputError {
  override name = 'TextFileError';
  constructor(
    readonly label: string,
    readonly reason: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    // "cannot read X: ENOENT" reads better than "X: cannot read: ENOENT"
    const unreadable = /^cannot read: (.*)$/.exec(reason);
    super(
      unreadable ? `cannot read ${label}: ${unreadable[1]}` : `${label}${line ? `:${line}:${column}` : ''}: ${reason}`,
    );
  }
}

const strict = () => new TextDecoder('utf-8', { fatal: true });

/** the offset of the first byte of the first invalid sequence (bytes known to be invalid) */
function firstBadByte(bytes: Uint8Array): number {
  // A streaming decode of a prefix throws as soon as the prefix holds an invalid sequence: the shortest such prefix
  // ends at (or just past) the bad sequence, found by bisection.
  let [lo, hi] = [0, bytes.length];
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    try {
      strict().decode(bytes.subarray(0, mid + 1), { stream: true });
      lo = mid + 1;
    } catch {
      hi = mid;
    }
  }
  // the sequence starts where the longest complete prefix before it ends
  for (let start = lo; start > Math.max(0, lo - 4); start--) {
    try {
      strict().decode(bytes.subarray(0, start));
      return start;
    } catch {
      /* an incomplete sequence: it starts earlier */
    }
  }
  return Math.max(0, lo - 4);
}

/** `bytes` as strict UTF-8 (a byte order mark is dropped); `label` names the file in the error */
export function decodeUtf8(bytes: Uint8Array, label: string): string {
  try {
    return strict().decode(bytes);
  } catch {
    const at = firstBadByte(bytes);
    const before = new TextDecoder().decode(bytes.subarray(0, at));
    const { line, column } = lineColumn(before, before.length);
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const byte = `0x${bytes[at].toString(16).padStart(2, '0')}`;
    const reason = `invalid UTF-8 (byte ${byte})${utf16 ? '; the file is UTF-16, synconf reads UTF-8' : ''}`;
    throw new TextFileError(label, reason, line, column);
  }
}

/** a regular file or folder (the read says what a folder is), or a path that is not there (the read says so too) */
function isReadableKind(path: string): boolean {
  const stat = statSync(path, { throwIfNoEntry: false });
  return !stat || stat.isFile() || stat.isDirectory();
}

/** why `path` cannot be read when it is a symbolic link to nothing or a loop (ENOENT, ELOOP), else undefined */
function brokenLink(path: string, code: string | undefined): string | undefined {
  const isLink = (p: string) => lstatSync(p, { throwIfNoEntry: false })?.isSymbolicLink();
  try {
    if ((code !== 'ENOENT' && code !== 'ELOOP') || !isLink(path)) return undefined;
    if (code === 'ELOOP') return 'a symbolic link loop';
    // "ENOENT" alone would say the link itself is not there: what is missing is at the end of its chain
    const to = readlinkSync(path);
    let [link, end] = [path, to];
    for (let hops = 0; hops < 40 && isLink(resolve(dirname(link), end)); hops++) {
      link = resolve(dirname(link), end);
      end = readlinkSync(link);
    }
    return `a symbolic link to ${to}${link === path ? '' : `, which leads to ${end}`}, which does not exist`;
  } catch {
    return undefined; // changed while looked at: the read's own error says enough
  }
}

/** the text of a file the user gave (or standard input, `-`); unreadable or empty is an InputError naming it */
export function readTextFile(path: string | 0, label: string): string {
  let bytes: Buffer;
  try {
    // a FIFO with no writer (or a device) blocks the read for ever, and a blocked read hears no Ctrl-C
    if (typeof path === 'string' && !isReadableKind(path))
      throw new TextFileError(label, 'cannot read: not a regular file (a FIFO, device or socket)');
    bytes = readFileSync(path);
  } catch (e) {
    if (e instanceof TextFileError) throw e;
    const err = e as NodeJS.ErrnoException;
    const why = typeof path === 'string' ? brokenLink(path, err.code) : undefined;
    throw new TextFileError(
      label,
      `cannot read: ${why ?? (err.code === 'EISDIR' ? 'a folder, not a file' : (err.code ?? err.message))}`,
    );
  }
  if (bytes.length === 0) throw new TextFileError(label, 'the file is empty (0 bytes)');
  return decodeUtf8(bytes, label);
}

/** JSON.parse with an error naming line and column, not the text */
export function parseJson(text: string, label: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const { offset, reason } = jsonError(text);
    const { line, column } = lineColumn(text, offset);
    const truncated = offset >= text.trimEnd().length || reason === 'unterminated string' ? ', truncated?' : '';
    throw new TextFileError(label, `not JSON (${reason}${truncated})`, line, column);
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;
const STRING = /"(?:[^"\\\u0000-\u001f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;

/** why the string opening at `i` is not one: it runs to the end of the text, or holds a bad escape or control */
function badString(text: string, i: number): string {
  for (let j = i + 1; j < text.length; j++)
    if (text[j] === '\\') j++;
    else if (text[j] === '"') return 'a bad escape or control character in a string';
  return 'unterminated string';
}

/** where JSON.parse stops in `text` and why: a scanner of RFC 8259's grammar, iterative (deep nesting is input) */
export function jsonError(text: string): { offset: number; reason: string } {
  let i = 0;
  const closers: string[] = []; // the brackets open, innermost last
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i])) i++;
  };
  const at = (pattern: RegExp) => {
    pattern.lastIndex = i;
    if (!pattern.test(text)) return false;
    i = pattern.lastIndex;
    return true;
  };
  const problem = (reason?: string) => ({
    offset: i,
    reason: reason ?? (i >= text.length ? 'unexpected end of file' : `unexpected ${JSON.stringify(text[i])}`),
  });
  for (;;) {
    // a value
    ws();
    if (text[i] === '{' || text[i] === '[') {
      closers.push(text[i] === '{' ? '}' : ']');
      i++;
      ws();
      if (text[i] === closers.at(-1)) (i++, closers.pop());
      else if (closers.at(-1) === '}') {
        if (!at(STRING)) return problem(text[i] === '"' ? badString(text, i) : undefined);
        ws();
        if (text[i++] !== ':') return (i--, problem());
        continue;
      } else continue;
    } else if (text[i] === '"') {
      if (!at(STRING)) return problem(badString(text, i));
    } else if (!at(NUMBER)) return problem();
    // after a value: a comma, a closer, or the end
    for (;;) {
      ws();
      if (closers.length === 0) return problem(i < text.length ? `more after the JSON value` : 'no error found');
      if (text[i] === closers.at(-1)) {
        i++;
        closers.pop();
        continue;
      }
      if (text[i] !== ',') return problem();
      i++;
      if (closers.at(-1) === '}') {
        ws();
        if (!at(STRING)) return problem(text[i] === '"' ? badString(text, i) : undefined);
        ws();
        if (text[i++] !== ':') return (i--, problem());
      }
      break;
    }
  }
}
