// syncthingctl (Debian's syncthingtray 1.3.2), a client nobody here wrote, against `synconf serve --stateful` of the
// bundled 1.29.5 and 2.1.2 recordings (the built command, from a scratch folder): its `pause`, `resume` and config
// `edit` are each reflected by its next `status` (issue 38). Its status reads GET /rest/stats/folder and
// /rest/stats/device, which suites/client/syncthingctl.yaml records; its writes are one POST /rest/system/config of the
// whole configuration, which the state holds. Without --stateful the edit is a miss and nothing it writes is read back.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from '../src/paths.js';
import { startServe } from './support/serving.js';
import { tempFolder } from './support/temp.js';
import type { Listening } from './support/syncthing-cli.js';

const work = tempFolder('serve-syncthingctl');
const run = promisify(execFile);

/** syncthingctl with the stand-in's URL and key: its output (a non-zero exit rejects, with its output) */
async function ctl(s: Listening, ...args: string[]): Promise<string> {
  const { stdout } = await run('syncthingctl', ['-u', s.url, '-k', s.key, '--no-color', ...args], {
    timeout: 60_000,
    env: { ...process.env, XDG_RUNTIME_DIR: work(), QT_QPA_PLATFORM: 'offscreen' },
  });
  return stdout;
}

async function stop(s: Listening): Promise<number | null> {
  const exited = new Promise<number | null>((resolve) => s.child.on('exit', (code) => resolve(code)));
  s.child.kill('SIGTERM');
  return exited;
}

/** the lines syncthingctl prints of one folder: from its id to the next blank line */
const folderBlock = (out: string, id: string) => out.slice(out.indexOf(` - ${id}`)).split(/\n\s*\n/)[0];
const field = (block: string, name: string) => new RegExp(`^\\s+${name}\\s+(.*)$`, 'm').exec(block)?.[1]?.trim();

for (const version of ['1.29.5', '2.1.2'])
  describe(`syncthingctl against serve --stateful of the ${version} recordings`, () => {
    test('pause, resume and a config edit are each reflected by its next status', async () => {
      const s = await startServe(
        [join(ROOT, 'recordings', `syncthing-${version}`), '--stateful', '--log', join(work(), `${version}.har`)],
        work(),
      );
      try {
        const path = join(work(), `ctl-${version}`);
        mkdirSync(path, { recursive: true });
        const status = async () => folderBlock(await ctl(s, 'status', '--dir', 'ctl-new'), 'ctl-new');
        await ctl(
          s,
          'edit',
          '--js-lines',
          `config.folders.push({id: 'ctl-new', label: 'New', path: '${path}'}); config`,
        );
        const added = await status();
        assert.equal(field(added, 'Label'), 'New', added);
        assert.notEqual(field(added, 'Status'), 'paused', added);

        await ctl(s, 'pause', '--dir', 'ctl-new');
        assert.equal(field(await status(), 'Status'), 'paused');

        await ctl(s, 'resume', '--dir', 'ctl-new');
        const resumed = await status();
        assert.notEqual(field(resumed, 'Status'), 'paused', resumed);

        await ctl(s, 'edit', '--js-lines', "config.folders.find((f) => f.id === 'ctl-new').label = 'Edited'; config");
        assert.equal(field(await status(), 'Label'), 'Edited');
        // a status of everything: the folders and the agent's own device, every read answered
        assert.match(await ctl(s, 'status'), /ctl-new[\s\S]*Devices/);
      } finally {
        assert.equal(await stop(s), 0);
      }
    });
  });
