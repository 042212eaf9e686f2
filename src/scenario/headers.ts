// The request headers of a scenario as Node's http sends them (validateHeaderName, validateHeaderValue): a name is an
// HTTP token, a value Latin-1 text without control characters (tab allowed). Anything else throws when the request is
// made live, but a replay never makes one: so a written name or value is judged when the file loads (its literal
// parts, where it holds {{templates}}), and a rendered one when its step runs, as the scenario's fault either way.
import type { Step } from '../schema/generated/types.js';
import { escapePointer } from '../json.js';
import { short } from '../schema/registry.js';
import { ANY_TEMPLATE } from './template.js';

const TOKEN_CHARS = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]*$/;
const NOT_IN_VALUE = /[^\t\x20-\x7e\x80-\xff]/u;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** why no HTTP client sends this header (its name, or its value); `templated`: only the literal parts are known */
export function headerProblem(name: string, value: string, templated = false): string | undefined {
  const [nameText, valueText] = templated
    ? [name.replace(ANY_TEMPLATE, ''), value.replace(ANY_TEMPLATE, '')]
    : [name, value];
  // TOKEN_CHARS allows no characters at all: a name that is only templates is known when its step runs
  if (name === '' || !TOKEN_CHARS.test(nameText))
    return `header name ${short(name)} is not an HTTP token (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  const bad = NOT_IN_VALUE.exec(valueText)?.[0];
  if (bad)
    return `header ${name}: ${short(value)} holds ${codePoint(bad)}: a header value is Latin-1 text without control characters`;
  return undefined;
}

/** throws `fail(pointer, message)` for the first header of a request step that no run could send */
export function checkHeaders(step: Step, at: string, fail: (pointer: string, message: string) => Error): void {
  for (const [name, value] of Object.entries(step.request?.headers ?? {})) {
    const problem = headerProblem(name, value, true);
    if (problem) throw fail(`${at}/request/headers/${escapePointer(name)}`, problem);
  }
}
