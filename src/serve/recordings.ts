// A recordings folder as the agent it recorded: each cassette's agent exchanges in recorded order,
// the cassettes in the order the recording run made them.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import valid from 'semver/functions/valid.js';
import rcompare from 'semver/functions/rcompare.js';
import type { HarEntry } from '../schema/generated/types.js';
import { checkRecordingsFolder, readCassette, RUN_CASSETTE } from '../transport/cassette.js';
import { InputError } from '../errors.js';

export interface RecordedScenario {
  name: string;
  entries: HarEntry[];
}

export interface Recordings {
  dir: string;
  /** cassettes with agent exchanges, oldest first */
  scenarios: RecordedScenario[];
  /** the recorded agent version, when the run recorded it */
  agentVersion: string | null;
}

export function loadRecordings(dir: string): Recordings {
  checkRecordingsFolder(dir);
  const names = readdirSync(dir)
    .filter((f) => f.endsWith('.har'))
    .map((f) => f.slice(0, -4))
    .sort();
  if (!names.length)
    throw new InputError(
      `recordings ${dir}: no cassettes (*.har) in it (record some with \`synconf run --record ${dir}\`)`,
    );
  let agentVersion: string | null = null;
  const scenarios: RecordedScenario[] = [];
  for (const name of names) {
    const cassette = readCassette(dir, name)!;
    if (name === RUN_CASSETTE || !agentVersion) agentVersion = cassette.log._synconf.agent.version ?? agentVersion;
    const entries = cassette.log.entries.filter((e) => e._target === 'agent');
    if (entries.length) scenarios.push({ name, entries });
  }
  const start = (s: RecordedScenario) => Date.parse(s.entries[0].startedDateTime);
  scenarios.sort((a, b) => start(a) - start(b));
  return { dir, scenarios, agentVersion };
}

/** the bundled recordings of the newest agent version (folders named syncthing-<version>) */
export function newestRecordings(root: string): string {
  const versions = (existsSync(root) ? readdirSync(root) : [])
    .map((name) => ({ name, version: valid(name.replace(/^syncthing-/, '')) }))
    .filter(
      (v): v is { name: string; version: string } =>
        v.version !== null && existsSync(join(root, v.name, `${RUN_CASSETTE}.har`)),
    );
  if (!versions.length) throw new InputError(`no recordings in ${root} (folders syncthing-<version> holding _run.har)`);
  return join(root, versions.sort((a, b) => rcompare(a.version, b.version))[0].name);
}
