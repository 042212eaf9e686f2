// The YAML files that ship with synconf (suites/, expectations/, spec/, bench/), parsed at build time:
// scripts/bundle.mjs writes each text with its value as JSON beside the engine (dist/bin/parsed-yaml.json), because
// js-yaml's parse of the bundled scenarios and expectations was a fifth of a replay (bench/README.md). A text is looked up whole, so a
// file edited since the build (or any other file) is not found there and is parsed as ever. Under tsx there is
// no such file beside the sources, and every text is parsed.
import { readFileSync } from 'node:fs';

let built: Map<string, string> | undefined;

/** the value the build parsed from exactly this text (a fresh copy), or undefined */
export function parsedAtBuild(text: string): unknown {
  built ??= readBuilt();
  const json = built.get(text);
  return json === undefined ? undefined : JSON.parse(json);
}

function readBuilt(): Map<string, string> {
  try {
    // in the built engine, import.meta.url is dist/bin/engine.cjs
    const file = new URL('./parsed-yaml.json', import.meta.url);
    return new Map(JSON.parse(readFileSync(file, 'utf8')) as [string, string][]);
  } catch {
    return new Map();
  }
}
