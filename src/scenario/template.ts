// {{name}} templates in scenario values. A string that is exactly one template keeps the
// variable's type (a captured object stays an object in a JSON body); otherwise text is spliced.
import { escapePointer } from '../json.js';

export class MissingVariableError extends Error {
  override name = 'MissingVariableError';
  constructor(readonly variable: string) {
    super(`{{${variable}}} has no value (not captured by an earlier step, and not a run variable)`);
  }
}

export type Vars = Record<string, unknown>;

function lookup(vars: Vars, name: string): unknown {
  let node: unknown = vars;
  for (const part of name.split('.')) {
    if (node === null || typeof node !== 'object' || !(part in node)) throw new MissingVariableError(name);
    node = (node as Record<string, unknown>)[part];
  }
  if (node === undefined) throw new MissingVariableError(name);
  return node;
}

const WHOLE = /^\{\{\s*([\w.-]+)\s*\}\}$/;
const ANY = /\{\{\s*([\w.-]+)\s*\}\}/g;
/** every {{template}} of a string */
export const ANY_TEMPLATE = ANY;

/** the variable names of the {{templates}} in a string */
export const templateNames = (text: string): string[] => [...text.matchAll(ANY)].map((m) => m[1]);

/** the literal texts of a string around its {{templates}} (split keeps each template's name: every other item) */
export const literalParts = (text: string): string[] => text.split(ANY).filter((_, i) => i % 2 === 0);

export function render<T>(value: T, vars: Vars): T {
  if (typeof value === 'string') {
    if (!value.includes('{{')) return value; // no template (most strings of a step)
    const whole = WHOLE.exec(value);
    if (whole) return lookup(vars, whole[1]) as T;
    return value.replace(ANY, (_, name: string) => {
      const v = lookup(vars, name);
      return typeof v === 'string' ? v : JSON.stringify(v);
    }) as T;
  }
  if (Array.isArray(value)) return value.map((v) => render(v, vars)) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [render(k, vars), render(v, vars)])) as T;
  }
  return value;
}

/** a JSON pointer whose {{templates}} are whole or partial segments: their values are escaped (~0, ~1) */
export function renderPointer(pointer: string, vars: Vars): string {
  return pointer.replace(ANY, (_, name: string) => {
    const v = lookup(vars, name);
    return escapePointer(typeof v === 'string' ? v : JSON.stringify(v));
  });
}
