// The agent's own web GUI, a client nobody here wrote, through `synconf proxy --lab VERSION` in Chromium: it loads
// (GET / with its CSRF cookie, the AngularJS page and its REST calls), polls, adds a folder, removes it, opens the
// settings; the proxy judges every REST call. The report must judge dozens of exchanges, blame none on the client,
// list every violation of the agent with its statement (or as a known deviation), and give the GUI's footprint.
// The two versions run side by side, each its own proxy, lab and page in one shared browser; once a session is
// stopped, its drift against the next version (a lab of it) and its mutation score (offline) run side by side too.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriftCauses } from '../../src/schema/generated/types.js';
import { cliAsync } from '../support/cli.js';
import type { Browser, Locator, Page } from '@playwright/test';
import { launchChromium } from '../support/chromium.js';
import { tempFolder } from '../support/temp.js';
import { checksOf, readReport, startProxy, stopProxy } from '../support/proxy.js';

const work = tempFolder('proxy-gui');

/** what a GUI session's report says, as the test's closing note prints it (and the issue's answer quotes) */
function summary(version: string, dir: string): string {
  const r = readReport(dir);
  const x = r.proxy!.exchanges;
  const failing = checksOf(r).filter((c) => c.verdict === 'fail');
  const known = checksOf(r).filter((c) => c.verdict === 'expected-fail');
  const lines = [
    `GUI of ${version} through synconf proxy: ${x.total} exchanges, ${x.judged} judged (${x.outsideSpec} outside the spec, ${x.beyondSpec} beyond it, ${x.notRest} pages and assets); client violations ${x.clientViolations}, agent violations ${x.agentViolations}; checks ${r.totals.checks}: ${r.totals.pass} pass, ${r.totals.fail} fail, ${r.totals['expected-fail']} known deviations`,
    `footprint: ${r.proxy!.footprint.length} endpoints, ${r.proxy!.footprint.reduce((n, f) => n + f.members.length, 0)} members: ${r.proxy!.footprint.map((f) => `${f.endpoint} ×${f.count}`).join(', ')}`,
    ...failing.map((c) => `violation: ${c.id}: ${c.message} [${(c.breaks ?? c.statements ?? []).join(' ')}]`),
    ...[...new Set(known.map((c) => `known deviation: ${c.id.split('/')[0]}/${c.id.split('/').pop()}`))],
  ];
  return lines.join('\n');
}

/**
 * Opens the folder's edit dialog. The folder's panel opens on a click of its heading (a newer GUI may show it open
 * already); on a loaded machine a click can land while the panel still slides and open nothing, so the dialog is
 * awaited and the panel tried again, a few times, before the test gives up.
 */
async function openFolderEditor(page: Page, panel: Locator): Promise<void> {
  const edit = panel.locator('button[ng-click="editFolderExisting(folder)"]');
  const dialog = page.locator('#editFolder');
  for (let attempt = 1; ; attempt++) {
    if (!(await edit.isVisible())) await panel.locator('.panel-heading').first().click();
    await edit.click();
    try {
      await dialog.waitFor({ state: 'visible', timeout: 15_000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
      await page.keyboard.press('Escape');
    }
  }
}

/**
 * Resolves once the page has had answers to each of these REST paths: the GUI is running and polling, whatever the
 * load (listening starts before the page loads, so an answer that came early counts)
 */
function answered(page: Page, paths: string[]): Promise<void> {
  const waiting = new Set(paths);
  return new Promise((resolve) => {
    const seen = (response: { url(): string }) => {
      waiting.delete(new URL(response.url()).pathname);
      if (waiting.size) return;
      page.off('response', seen);
      resolve();
    };
    page.on('response', seen);
  });
}

/** the GUI's session: loads and polls, adds the folder, removes it, opens the settings */
async function useGui(page: Page, url: string, folder: string): Promise<void> {
  const polled = answered(page, ['/rest/system/status', '/rest/events']);
  await page.goto(`${url}/`, { waitUntil: 'load' });
  const add = page.locator('button[ng-click="addFolder()"]');
  await add.waitFor({ state: 'visible', timeout: 60_000 });
  await polled; // it polls (status, connections, events …)
  await add.click();
  await page.locator('#folderLabel').fill('synconf-gui');
  await page.locator('#folderPath').fill(folder);
  await page.locator('button[ng-click="saveFolder()"]').click();
  const panel = page.locator('.panel', { hasText: 'synconf-gui' }).first();
  await panel.waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForTimeout(3_000);
  await openFolderEditor(page, panel);
  await page.locator('#editFolder [data-target="#remove-folder-confirmation"]').click();
  await page.locator('#remove-folder-confirmation button[ng-click="deleteFolder(currentFolder.id)"]').click();
  await page.locator('.panel', { hasText: 'synconf-gui' }).first().waitFor({ state: 'detached', timeout: 30_000 });
  await page
    .locator('a[ng-click="showSettings()"]')
    .first()
    .evaluate((a: HTMLElement) => a.click());
  await page.locator('#settings').waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForTimeout(5_000);
}

describe('the web GUI of 1.19.2 and 1.29.5 through synconf proxy --lab, side by side', { concurrency: true }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  for (const version of ['1.19.2', '1.29.5'])
    test(`${version}: loads, polls, adds and removes a folder, opens the settings; every REST call judged`, async (t) => {
      const p = await startProxy(work(), `gui-${version}`, ['--lab', version]);
      t.after(() => p.child.kill('SIGTERM')); // the orderly stop: the proxy stops its lab (a SIGKILL would leave it running)
      const folder = join(work(), `folder-${version}`);
      mkdirSync(folder);
      writeFileSync(join(folder, 'a.txt'), 'a');
      const context = await browser.newContext();
      try {
        await useGui(await context.newPage(), p.url, folder);
      } finally {
        await context.close();
      }
      const code = await stopProxy(p);
      const report = readReport(p.dir);
      const note = summary(version, p.dir);
      t.diagnostic(note);
      const x = report.proxy!.exchanges;
      // its polls of /rest/events and its GET /rest/system/version are outside the spec, not judged (issue 37): 17
      // and 21 judged of 139 and 145 exchanges, measured
      assert.ok(x.judged >= 15 && x.outsideSpec >= 20, note);
      assert.equal(x.clientViolations, 0, note);
      const endpoints = report.proxy!.footprint.map((f) => f.endpoint);
      for (const e of ['GET /rest/system/status', 'GET /rest/events', 'GET (outside /rest/)'])
        assert.ok(endpoints.includes(e), `${e} in the footprint: ${endpoints.join(', ')}`);
      assert.ok(
        endpoints.some((e) => /^(PUT|POST|DELETE) \/rest\/config/.test(e)),
        `the folder was added and removed: ${endpoints.join(', ')}`,
      );
      // a healthy agent and its own GUI: every exchange conforms or is a known deviation of that version, with its
      // reason (a violation would be the agent's, named with its statement, and exit 1)
      const failing = checksOf(report).filter((c) => c.verdict === 'fail');
      for (const c of failing) assert.ok(c.blame === 'agent' && (c.breaks ?? c.statements)?.length, c.message);
      assert.deepEqual(
        failing.map((c) => `${c.id}: ${c.message}`),
        [],
        note,
      );
      assert.equal(code, 0, note);

      // does the next version break this GUI? Its own requests asked again of a lab of the next version. And how
      // much of the spec the proxy's checks would catch in this GUI's traffic: each statement broken in the
      // session's answers, judged again; the session as recorded conforms, so nothing is reported of it
      const next = version === '1.29.5' ? '2.1.2' : '1.29.5';
      const [drift, mutation] = await Promise.all([
        cliAsync(['drift', p.dir, '--against', next, '--json'], { cwd: work() }),
        cliAsync(['mutate', '--proxy-session', p.dir, '--report-dir', `mutation-${version}`], { cwd: work() }),
      ]);
      assert.ok(drift.code === 0 || drift.code === 1, drift.out);
      const causes = (JSON.parse(drift.stdout) as DriftCauses).causes;
      const listed = causes.map((c) => `${c.level} ${c.rule} ${c.endpoints.join(', ')} ${c.pointer}: ${c.summary}`);
      t.diagnostic(`drift of the GUI of ${version} against ${next}: ${causes.length} causes\n${listed.join('\n')}`);
      for (const c of causes)
        for (const e of c.endpoints) assert.ok(endpoints.includes(e), `${c.rule} on ${e}, not in the GUI's footprint`);

      assert.equal(mutation.code, 0, mutation.out);
      const scored = JSON.parse(readFileSync(join(work(), `mutation-${version}`, 'mutation.json'), 'utf8'));
      t.diagnostic(`the proxy's checks on the GUI of ${version}: ${scored.verdict}`);
      assert.equal(scored.sessionViolations, undefined, mutation.out);
      assert.ok(scored.statements.totals.caught > 0, mutation.out);
    });
});
