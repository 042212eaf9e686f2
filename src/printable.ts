// Text from an agent, a cassette or a file, made safe to print on a terminal or in a Markdown report: a member name an
// agent sends may hold ESC or BEL (set the window title, clear the screen) or a bidi override (show text other than
// it is). Every control character but a newline and a tab (C0, DEL, C1) and every bidi control is written as its
// escape (\x1b, \u202e), so that what is printed is what was sent, visibly. Where the text stands in one line of
// synconf's (a check's message, a version, a file's name), a newline in it is escaped as well: an answer's member
// named "x\nsynconf: CONFORMS" would otherwise print a line synconf never wrote.

/** the characters written as escapes: C0 but \t and \n, DEL, C1, the line and paragraph separators, and the bidi
 * marks, embeddings and isolates */
const UNPRINTABLE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

const escapeOf = (c: string) => {
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** `text` with every control character but newline and tab escaped */
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, escapeOf);
}

/** `text` as (part of) one line: printable, and a newline in it escaped too, so that it cannot start a line */
export function printableLine(text: string): string {
  return printable(text).replace(/\n/g, '\\n');
}
