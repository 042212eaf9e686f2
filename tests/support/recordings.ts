// Recordings made for tests from the bundled 1.19.2 ones: real recorded exchanges, edited the way a newer agent
// differs, so matrix and drift can be shown to catch each difference offline.
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Cassette, HarEntry } from '../../src/schema/generated/types.js';
import { RECORDINGS_DIR } from '../../src/paths.js';

export const BUNDLED_1_19 = join(RECORDINGS_DIR, 'syncthing-1.19.2');

/** a copy of the bundled 1.19.2 recordings in `dir/name` */
export async function copyRecording(dir: string, name: string): Promise<string> {
  const to = join(dir, name);
  await cp(BUNDLED_1_19, to, { recursive: true });
  return to;
}

/** rewrite the entries of one cassette (the parsed JSON body is given when there is one) */
export async function editCassette(
  dir: string,
  scenario: string,
  edit: (e: HarEntry, body: unknown) => unknown,
): Promise<void> {
  const file = join(dir, `${scenario}.har`);
  const cassette = JSON.parse(await readFile(file, 'utf8')) as Cassette;
  for (const e of cassette.log.entries) {
    let body: unknown;
    try {
      body = JSON.parse(e.response.content.text ?? '');
    } catch {
      body = undefined;
    }
    const out = edit(e, body);
    if (out !== undefined) e.response.content.text = JSON.stringify(out, null, 2);
  }
  await writeFile(file, JSON.stringify(cassette, null, 2));
}

/**
 * The 1.19.2 recordings as a "1.29.5" would answer: it says version v1.29.5, and browse lists directories without
 * the trailing separator (what 1.29.5 really does: filepath.Join since 1.23.5).
 */
export async function simulatedNewerRecording(dir: string): Promise<string> {
  const to = await copyRecording(dir, 'syncthing-1.29.5');
  const run = join(to, '_run.har');
  await writeFile(run, (await readFile(run, 'utf8')).replaceAll('v1.19.2-ds1', 'v1.29.5'));
  await editCassette(to, 'system-browse', (e, body) =>
    new URL(e.request.url).searchParams.has('current') && Array.isArray(body)
      ? body.map((p: string) => p.replace(/\/$/, ''))
      : undefined,
  );
  return to;
}
