// The version matrix a release engineer reads in one minute (issue 20): `synconf matrix --replay` of the bundled
// recordings (six versions, five pairs), matrix.html opened in Chromium at 1280×800 — every pair's answer, counts and
// most urgent cause, the next top causes one click away, and the versions table on the first screen without
// scrolling, the whole page under 10,000 px with passing checks and compatible causes collapsed — and matrix.md
// within a GitHub job summary (≤ 64 KiB), its ship table on the same line whatever the number of pairs, with nothing
// cut mid-sentence. A screenshot of the first screen is left in test-artifacts/.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Locator } from '@playwright/test';
import { launchChromium } from './support/chromium.js';
import { ROOT } from '../src/paths.js';
import { topCauses } from '../src/report/matrix-causes-text.js';
import { TOP_CAUSES, WHOLE_CAUSES } from '../src/report/matrix-ship.js';
import { matrixToHtml } from '../src/report/matrix-html.js';
import type { Matrix } from '../src/schema/generated/types.js';
import { cliAsync } from './support/cli.js';
import { tempFolder } from './support/temp.js';

const ARTIFACTS = join(ROOT, 'test-artifacts');
const VIEWPORT = { width: 1280, height: 800 };

/** `m` and `extra` more versions, copies of its newest ones with their pairs, checks and boundaries (labels 3.k.0) */
function widened(m: Matrix, extra: number): Matrix {
  const wide = structuredClone(m);
  const n = m.columns.length;
  for (let k = 0; k < extra; k++) {
    const from = n - extra + k;
    wide.columns.push({ ...m.columns[from], label: `3.${k}.0` });
    wide.order.push(n + k);
    for (const r of wide.rows) r.cells.push(r.cells[from]);
    for (const b of wide.boundaries ?? []) b.cells.push(b.cells[from]);
    const pair = m.pairs!.find((p) => p.to === from)!;
    wide.pairs!.push({ ...structuredClone(pair), from: n + k - 1, to: n + k });
  }
  return wide;
}

/** where the element's box ends, down the page */
async function ends(locator: Locator): Promise<number> {
  const box = (await locator.boundingBox())!;
  return Math.round(box.y + box.height);
}

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

  test('matrix.html at 1280×800: each pair, its counts and its most urgent cause above the fold; the page < 10,000 px', async () => {
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
      // the most urgent cause shown; the next top ones folded behind a toggle on its line
      const [first, ...next] = topCauses(p, TOP_CAUSES);
      const top = row.locator('.top');
      assert.equal(await top.count(), first ? 1 : 0, `${name}: its most urgent cause shown`);
      if (first) {
        assert.ok(await top.isVisible());
        assert.ok((await top.innerText()).includes(`${first.cause.rule} — ${first.cause.endpoints[0]}`));
      }
      const more = row.locator('details.tops');
      assert.equal(await more.count(), first ? 1 : 0, `${name}: a toggle on the line of the most urgent cause`);
      if (first) assert.equal(await more.getAttribute('open'), null, `${name}: the next top causes folded`);
      if (next.length) assert.match(await more.locator('summary').innerText(), new RegExp(`\\+${next.length} more$`));
    }
    // the browse change of 1.29.5 is the top cause of 1.19.2 → 1.29.5 that explains checks, and it says they are listed
    const newer = rows.filter({ hasText: '1.19.2 → 1.29.5' });
    assert.match(await newer.innerText(), /response-value-format-changed — GET \/rest\/system\/browse/);
    assert.match(await newer.innerText(), /11 listed regression/);
    // every most urgent cause whole with this many pairs
    assert.equal(await page.locator('table.ship.cut').count(), m.pairs!.length > WHOLE_CAUSES ? 1 : 0);
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
    console.log(
      `matrix.html: ${height} px tall at 1280×800, ${html.length} characters; the last pair row ends at ${await ends(rows.last())} px, the versions table at ${await ends(page.locator('table.versions'))} px`,
    );
    // one click on a pair's toggle shows its next top causes, and where all of its causes are
    for (const [i, p] of m.pairs!.entries()) {
      const [first, ...next] = topCauses(p, TOP_CAUSES);
      if (!first) continue;
      const row = rows.nth(i);
      await row.locator('details.tops summary').click();
      const also = row.locator('details.tops .also');
      assert.equal(await also.count(), next.length + 1);
      for (const [k, c] of next.entries()) {
        assert.ok(await also.nth(k).isVisible());
        assert.ok((await also.nth(k).innerText()).includes(`${c.cause.rule} — ${c.cause.endpoints[0]}`));
      }
      assert.equal(await also.last().locator('a').getAttribute('href'), `#causes-${p.from}-${p.to}`);
    }
    await context.close();
  });

  test(`matrix.html with eight pairs: every row and the versions table above the fold, each most urgent cause on one line, whole once opened`, async () => {
    const wide = widened(m, 9 - m.columns.length);
    assert.equal(wide.pairs!.length, 8);
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.setContent(matrixToHtml(wide), { waitUntil: 'load' });
    await page.screenshot({ path: join(ARTIFACTS, 'matrix-first-screen-8-pairs-1280x800.png') });
    const rows = page.locator('table.ship tbody tr');
    assert.equal(await rows.count(), 8);
    for (const [i, p] of wide.pairs!.entries()) {
      const name = `${wide.columns[p.from].label} → ${wide.columns[p.to].label}`;
      assert.ok((await ends(rows.nth(i))) <= VIEWPORT.height, `${name}: its row ends at ${await ends(rows.nth(i))} px`);
      const [line, height] = await rows
        .nth(i)
        .locator('.top')
        .evaluate((el) => [parseFloat(getComputedStyle(el).lineHeight), el.getBoundingClientRect().height]);
      assert.ok(height < 1.5 * line, `${name}: its most urgent cause on one line (${height} px)`);
    }
    const versions = await ends(page.locator('table.versions'));
    assert.ok(versions <= VIEWPORT.height, `versions table ends at ${versions} px`);
    console.log(
      `matrix.html, 8 pairs: the last pair row ends at ${await ends(rows.last())} px, the versions table at ${versions} px`,
    );
    // the browse cause is cut before its listed note, which its title says; opened, the note is within its cell
    const browse = rows.filter({ hasText: '1.19.2 → 1.29.5' });
    const [top, listed, cell] = ['.top', '.top .listed', 'td.cause'].map((s) => browse.locator(s).first());
    assert.match(
      (await top.getAttribute('title'))!,
      /\(listed known deviation of 1\.29\.5\) \(explains 11 listed regression\)$/,
    );
    const cutAt = (await top.boundingBox())!;
    assert.ok((await listed.boundingBox())!.x >= cutAt.x + cutAt.width, 'the note beyond the cut');
    await browse.locator('summary').click();
    const [note, within] = [(await listed.boundingBox())!, (await cell.boundingBox())!];
    assert.ok(note.x + note.width <= within.x + within.width && note.y + note.height <= within.y + within.height);
    await context.close();
  });

  test('the check catches a page whose answer is pushed below the fold', async () => {
    const context = await browser.newContext({ viewport: VIEWPORT });
    const page = await context.newPage();
    await page.setContent(
      html.replace(/<main[^>]*>/, (main) => `${main}${'<p>an intro nobody reads</p>'.repeat(30)}`),
      {
        waitUntil: 'load',
      },
    );
    const box = (await page.locator('table.ship tbody tr').first().boundingBox())!;
    assert.ok(box.y + box.height > VIEWPORT.height, 'a pushed-down answer is caught by the same measure');
    await context.close();
  });

  test('matrix.md: under 64 KiB, the ship table first whatever the number of pairs, nothing cut mid-sentence', () => {
    const size = Buffer.byteLength(md);
    assert.ok(size <= 64 * 1024, `matrix.md is ${size} bytes`);
    console.log(`matrix.md: ${size} bytes`);
    assert.doesNotMatch(md, /more characters\)/, 'no text cut by length');
    const lines = md.split('\n');
    // the heading, the conformance, the ship table: each pair's answer is its row, so the table starts on the same
    // line for two versions or for nine
    const ship = lines.findIndex((l) => l.startsWith('| versions |'));
    assert.ok(ship >= 0 && ship < 6, `the ship table is near the top (line ${ship})`);
    console.log(`matrix.md: the ship table starts on line ${ship + 1}`);
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
