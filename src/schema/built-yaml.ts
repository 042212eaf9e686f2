// The YAML files that ship with synconf (suites/, expectations/, spec/, bench/), parsed at build time, because js-yaml's
// parse of the bundled scenarios and expectations was a fifth of a replay (bench/README.md): scripts/bundle.mjs writes
// each text with its value beside the engine, one file per text, named by the text's CRC-32
// (dist/bin/parsed-yaml/<crc32 in hex>.json), so that a run reads only the entries of the texts it reads (one file of
// them all, 807 kB, was read and parsed at every start: ~5 ms of a replay). An entry is taken only when its text is
// exactly the text read: a file edited since the build (or any other file) is not found there and is parsed as ever.
// Under tsx there is no such folder beside the sources, and every text is parsed.
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';

/** what the build made of one shipped text */
export interface BuiltEntry {
  text: string;
  value: unknown;
  /**
   * for a scenario file that the scenario loader accepted at build time, with every check (src/scenario/load.ts):
   * the line of each step, the statements it cites (by pointer), and the scenario with its step tables expanded
   * (when it has tables; else it is `value`)
   */
  scenario?: { stepLines: Record<string, number>; cited: [string, string][]; expanded?: unknown };
}

/** the file name of the build's entry for `text` (scripts/bundle.mjs names them the same way) */
export const builtEntryName = (text: string): string => `${crc32(text).toString(16).padStart(8, '0')}.json`;

/** the build's entry for exactly this text (a fresh copy), or undefined */
export function builtEntry(text: string): BuiltEntry | undefined {
  let entry: BuiltEntry;
  try {
    // in the built engine, import.meta.url is dist/bin/engine.cjs
    entry = JSON.parse(readFileSync(new URL(`./parsed-yaml/${builtEntryName(text)}`, import.meta.url), 'utf8'));
  } catch {
    return undefined; // no entry for this text (or no build beside the sources)
  }
  return entry.text === text ? entry : undefined;
}

/** the value the build parsed from exactly this text (a fresh copy), or undefined */
export const parsedAtBuild = (text: string): unknown => builtEntry(text)?.value;
