// The version matrix a release engineer reads in one minute (issue 20): `synconf matrix --replay` of the bundled
// recordings, matrix.html opened in Chromium at 1280×800 — the per-pair answer and the top causes on the first
// screen without scrolling, the whole page under 10,000 px with passing checks and compatible causes collapsed —
// and matrix.md within a GitHub job summary (≤ 64 KiB) with nothing cut mid-sentence. A screenshot of the first
// screen is left in test-artifacts/.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser } from '@playwright/test';
import { launchChromium } from './support/chromium.js';
import { ROOT } from '../src/paths.js';
import type { Matrix } from '../src/schema/generated/types.js';
import { cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';

const ARTIFACTS = join(ROOT, 'test-artifacts');
const VIEWPORT = { width: 1280, height: 800 };

describe('matrix --replay: the first screen answers "can it ship?"', () => {
  const work = tempFolder('matrix-screen');
  let browser: Browser;
  let html = '';
  let md = '';
  let m: Matrix;

  before(async () => {
    const r = await cliAsync(['matrix', '--replay', '--report-dir', join(work(), 'm')]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    html = await readFile(join(work(), 'm', 'matrix.html'), 'utf8');
    md = await readFile(join(work(), 'm', 'matrix.md'), 'utf8');
    m = JSON.parse(await readFile(join(work(), 'm', 'matrix.json'), 'utf8')) as Matrix;
    browser = await launchChromium();
    await mkdir(ARTIFACTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
  });

  test('matrix.html at 1280×800: each pair, its counts and its top causes above the fold; the page < 10,000 px', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT, javaScriptEnabled: true });
    const page = await context.newPage();
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: join(ARTIFACTS, 'matrix-first-screen-1280x800.png') });
    const rows = page.locator('table.ship tbody tr');
    assert.equal(await rows.count(), m.pairs!.length);
    for (const [i, p] of m.pairs!.entries()) {
      const row = rows.nth(i);
      const name = `${m.columns[p.from].label} → ${m.columns[p.to].label}`;
      assert.equal((await row.locator('th').innerText()).trim(), name);
      const cells = await row.locator('td').allInnerTexts();
      assert.deepEqual(cells.slice(1, 5).map(Number), [p.counts.breaking, p.counts.risky, p.counts.compatible, 0]);
      const box = (await row.boundingBox())!;
      assert.ok(box.y + box.height <= VIEWPORT.height, `${name}: its row ends at ${box.y + box.height} px`);
      const tops = row.locator('.top');
      assert.ok((await tops.count()) >= 1, `${name}: top causes shown`);
      for (const t of await tops.all()) assert.ok(await t.isVisible());
    }
    // the browse change of 1.29.5 is the top cause of 1.19.2 → 1.29.5 that explains checks, and it says they are listed
    const newer = rows.filter({ hasText: '1.19.2 → 1.29.5' });
    assert.match(await newer.innerText(), /response-value-format-changed — GET \/rest\/system\/browse/);
    assert.match(await newer.innerText(), /11 listed regression/);
    // the per-version answer: verdict, failures, deviations, also above the fold
    const versions = (await page.locator('table.versions').boundingBox())!;
    assert.ok(
      versions.y + versions.height <= VIEWPORT.height,
      `versions table ends at ${versions.y + versions.height}`,
    );
    // passing checks and compatible causes collapsed; the page short
    assert.equal(await page.locator('details#checks').getAttribute('open'), null);
    assert.ok((await page.locator('details.compatible').count()) >= 1);
    for (const d of await page.locator('details.compatible').all()) assert.equal(await d.getAttribute('open'), null);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(height < 10_000, `page height ${height} px`);
    console.log(`matrix.html: ${height} px tall at 1280×800, ${html.length} characters`);
    await context.close();
  });

  test('the check catches a page whose answer is pushed below the fold', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.setContent(html.replace('<main>', `<main>${'<p>an intro nobody reads</p>'.repeat(30)}`), {
      waitUntil: 'load',
    });
    const box = (await page.locator('table.ship tbody tr').first().boundingBox())!;
    assert.ok(box.y + box.height > VIEWPORT.height, 'a pushed-down answer is caught by the same measure');
    await context.close();
  });

  test('matrix.md: under 64 KiB, the ship table first, nothing cut mid-sentence', () => {
    const size = Buffer.byteLength(md);
    assert.ok(size <= 64 * 1024, `matrix.md is ${size} bytes`);
    console.log(`matrix.md: ${size} bytes`);
    assert.doesNotMatch(md, /more characters\)/, 'no text cut by length');
    const lines = md.split('\n');
    const ship = lines.findIndex((l) => l.startsWith('| versions |'));
    assert.ok(ship >= 0 && ship < 12, 'the ship table is near the top');
    for (const p of m.pairs!)
      assert.ok(
        lines.some((l) => l.startsWith(`| ${m.columns[p.from].label} → ${m.columns[p.to].label} |`)),
        'a row per pair',
      );
    // every prose line ends a sentence; tables, headings, lists and HTML tags are whole lines of their own
    const prose = lines.filter((l) => l && !/^(\||#|- |<|…and|\s)/.test(l));
    for (const l of prose) assert.match(l, /[.:)_]$/, `a line that ends mid-sentence: ${l}`);
    assert.match(md, /listed regression/);
  });
});
