// A scenario file parsed again with source positions (the `yaml` package), only when it is wrong: the
// line of the offending node goes into the error. Its own module, imported lazily: a static named import
// of `yaml` here is what the bundle resolves; `await import('yaml')` of that CommonJS package gave a
// chunk without its named exports (`n is not a constructor` in the built command).
import { parseDocument, LineCounter, type Document } from 'yaml';

export function located(text: string): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: lines }), lines };
}
