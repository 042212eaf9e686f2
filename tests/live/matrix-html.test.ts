// The answer first, consistently, everywhere (issue 27), seen in Chromium at 1280×800:
// * a live `synconf matrix` of 1.19.2 and 1.29.5 (system-browse, system-ping; --fail-on breaking): matrix.html opens
//   on a red banner that says 1.29.5 breaks clients of 1.19.2, and apart from it that both conform, all within the
//   first 800 px; the browse cause says it is a listed known deviation of 1.29.5; a screenshot in the test's folder;
// * the banner's colour follows the worst pair answer (a table): never the same for a break and for none, and cannot
//   tell as loud as a break, in a colour of its own;
// * every toggle of matrix.html and of each version's report.html sits on the line of what it opens;
// * each bundled version's report.html is within the height docs/reports.md promises, and its first screen names
//   its listed known deviations with their count; matrix.md and summary.md say the same as the pages.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Page } from '@playwright/test';
import { launchChromium } from '../support/chromium.js';
import type { Matrix, PairAnswer } from '../../src/schema/generated/types.js';
import { matrixToHtml } from '../../src/report/matrix-html.js';
import { pairAnswer, pairGrounds } from '../../src/report/matrix-verdict.js';
import { pairName } from '../../src/report/matrix-causes-text.js';
import { cliAsync } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { agentBinary } from '../support/agents.js';

const VIEWPORT = { width: 1280, height: 800 };
/** what docs/reports.md promises: report.html of a full run within this height at 1280 px wide */
const REPORT_HEIGHT = 14_000;

let browser: Browser;
before(async () => {
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
});

/** a page of `file` (or of `html`) at 1280×800; the caller closes its context */
async function open(source: { file: string } | { html: string }): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  if ('file' in source) await page.goto(`file://${source.file}`, { waitUntil: 'load' });
  else await page.setContent(source.html, { waitUntil: 'load' });
  return page;
}

/** the element's box ends within the first screen */
async function onFirstScreen(page: Page, selector: string, what: string): Promise<void> {
  const box = await page.locator(selector).first().boundingBox();
  assert.ok(box, `${what}: ${selector} is shown`);
  assert.ok(box.y >= 0 && box.y + box.height <= VIEWPORT.height, `${what} ends at ${box.y + box.height} px`);
}

const background = (page: Page) => page.locator('header.banner').evaluate((el) => getComputedStyle(el).backgroundColor);

/**
 * Each <summary> (every <details> opened, so that nested ones are laid out too) whose toggle is not on the line of
 * its own label. The toggle (the ::marker) is drawn on the summary's first line; a heading inside that is a block
 * starts a line below it, and the toggle then sits under the section above, where it reads as that one's.
 */
async function misplacedToggles(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    document.querySelectorAll('details').forEach((d) => (d.open = true));
    return [...document.querySelectorAll('summary')].flatMap((s) => {
      const box = s.getBoundingClientRect();
      if (!box.height) return []; // not shown (a hidden form, a filtered row)
      const style = getComputedStyle(s);
      const line = parseFloat(style.lineHeight) || 1.2 * parseFloat(style.fontSize);
      const toggle = box.top + line / 2;
      const range = document.createRange();
      range.selectNodeContents(s);
      const label = [...range.getClientRects()].find((r) => r.width > 0 && r.height > 0);
      const text = (s.textContent ?? '').trim().slice(0, 60);
      return label && label.top <= toggle && toggle <= label.bottom
        ? []
        : [
            `"${text}": toggle at ${Math.round(toggle)} px, its label ${Math.round(label?.top ?? -1)}–${Math.round(label?.bottom ?? -1)} px`,
          ];
    });
  });
}

describe('a live matrix of 1.19.2 and 1.29.5 (system-browse, system-ping), --fail-on breaking', () => {
  const work = tempFolder('matrix-html-live');
  let page: Page;

  before(async () => {
    for (const v of ['1.19.2', '1.29.5']) agentBinary(v); // a missing agent fails here, saying how to install it
    const r = await cliAsync(
      [
        'matrix',
        '--syncthing',
        '1.19.2',
        '--syncthing',
        '1.29.5',
        '--only',
        'system-browse,system-ping',
        '--fail-on',
        'breaking',
        '--report-dir',
        'm',
      ],
      { cwd: work() },
    );
    assert.equal(r.code, 1, `the gate trips: 1.29.5 breaks clients of 1.19.2\n${r.out}`);
    page = await open({ file: join(work(), 'm', 'matrix.html') });
  });
  after(async () => {
    await page?.context().close();
  });

  test('matrix.html at 1280×800: a red banner with the breaking answer, the conformance apart, on the first screen', async () => {
    await page.screenshot({ path: join(work(), 'matrix-live-1280x800.png') });
    assert.equal(await background(page), 'rgb(198, 40, 40)', 'red: a newer version breaks clients');
    await onFirstScreen(page, 'header.banner', 'the banner');
    const answer = page.locator('header.banner .answers li').first();
    assert.equal((await answer.innerText()).trim(), '1.29.5 breaks clients of 1.19.2: 1 breaking cause');
    await onFirstScreen(page, 'header.banner .answers li', 'the answer');
    assert.match(
      await page.locator('#conformance').innerText(),
      /^Against the spec: every version conforms \(0 failures; listed known deviations: 1\.19\.2 \d+, 1\.29\.5 \d+\)\. Conformance is about the spec; the answer, about clients of the older version/,
    );
    await onFirstScreen(page, '#conformance', 'the conformance');
    // the breaking cause is a listed known deviation of 1.29.5: said beside it, also on the first screen
    const browse = page.locator('table.ship .top').filter({ hasText: 'GET /rest/system/browse' });
    assert.match(await browse.innerText(), /\(listed known deviation of 1\.29\.5\)/);
    await onFirstScreen(page, 'table.ship .top .listed', 'the listed deviation note');
  });

  test('every toggle sits on the line of what it opens', async () => {
    assert.deepEqual(await misplacedToggles(page), []);
  });
});

describe('matrix --replay of the bundled recordings', () => {
  const work = tempFolder('matrix-html-replay');
  let m: Matrix;
  let html = '';
  let md = '';
  /** the bundled versions, oldest first */
  let versions: string[] = [];

  before(async () => {
    const r = await cliAsync(['matrix', '--replay', '--report-dir', 'm'], { cwd: work() });
    assert.equal(r.code, 0, r.out);
    m = JSON.parse(await readFile(join(work(), 'm', 'matrix.json'), 'utf8')) as Matrix;
    versions = m.order.map((i) => m.columns[i].label);
    html = await readFile(join(work(), 'm', 'matrix.html'), 'utf8');
    md = await readFile(join(work(), 'm', 'matrix.md'), 'utf8');
  });

  /** the bundled matrix with every pair's answer set (the counts follow: what the answer rests on) */
  const answering = (answers: PairAnswer[]): Matrix => {
    const copy = structuredClone(m);
    copy.pairs = copy.pairs!.map((p, i) => {
      const answer = answers[i];
      const counts = {
        breaking: answer === 'breaks' ? 15 : 0,
        risky: answer === 'may-affect' ? 2 : 0,
        compatible: 9,
        accepted: 0,
      };
      return { ...p, answer, counts, ...(answer === 'cannot-tell' ? { reason: 'no exchanges to compare' } : {}) };
    });
    return copy;
  };
  const COLOURS: [string, PairAnswer[], string][] = [
    ['a pair breaks: red', ['compatible', 'breaks'], 'rgb(198, 40, 40)'],
    ['cannot tell: a loud blue of its own', ['compatible', 'cannot-tell'], 'rgb(26, 71, 184)'],
    ['may affect: amber', ['may-affect', 'compatible'], 'rgb(138, 83, 0)'],
    ['every pair compatible: green', ['compatible', 'compatible'], 'rgb(26, 127, 55)'],
    ['the worst answer wins: breaks over cannot tell', ['cannot-tell', 'breaks'], 'rgb(198, 40, 40)'],
    ['cannot tell over may affect', ['may-affect', 'cannot-tell'], 'rgb(26, 71, 184)'],
  ];
  for (const [name, answers, colour] of COLOURS)
    test(`the banner's colour: ${name}`, async () => {
      const page = await open({ html: matrixToHtml(answering(answers)) });
      assert.equal(await background(page), colour);
      await page.context().close();
    });

  test('the banner: 15 breaking causes and 0 never share a colour; each answer colour is strong (not grey)', async () => {
    const colours = new Map<PairAnswer, string>();
    for (const answer of ['breaks', 'cannot-tell', 'may-affect', 'compatible'] as const) {
      const page = await open({ html: matrixToHtml(answering([answer, answer])) });
      colours.set(answer, await background(page));
      await page.context().close();
    }
    assert.equal(new Set(colours.values()).size, 4, JSON.stringify([...colours]));
    for (const [answer, rgb] of colours) {
      const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
      const saturation = (Math.max(r, g, b) - Math.min(r, g, b)) / (Math.max(r, g, b) + Math.min(r, g, b));
      assert.ok(saturation >= 0.5, `${answer}: ${rgb} is a strong colour (saturation ${saturation.toFixed(2)})`);
    }
    // the bundled matrix: 15 breaking causes, red
    const page = await open({ html });
    assert.equal(await background(page), colours.get('breaks'));
    await page.context().close();
  });

  test('matrix.md and matrix.html say the same answer, first; the listed deviation beside its cause in both', async () => {
    const page = await open({ html });
    const banner = (await page.locator('header.banner .answers li').allInnerTexts()).map((t) => t.trim());
    await page.context().close();
    const lines = md.split('\n');
    // matrix.md: each pair's answer is its row of the ship table, which starts on the same line whatever the pairs
    const ship = lines.findIndex((l) => l.startsWith('| versions | answer |'));
    assert.ok(ship > 0 && ship < 6, `the ship table at the top (line ${ship})`);
    for (const p of m.pairs!) {
      const words = `${pairAnswer(m, p)}: ${pairGrounds(p)}`;
      assert.ok(banner.includes(words), `the banner says "${words}"`);
      const at = lines.findIndex((l) =>
        l.startsWith(`| ${pairName(m, p)} | **${pairAnswer(m, p)}**: ${pairGrounds(p)} |`),
      );
      assert.ok(
        at > ship + 1 && at <= ship + 1 + m.pairs!.length,
        `matrix.md says "${words}" in the ship table (line ${at})`,
      );
    }
    assert.equal(banner.length, m.pairs!.length, 'the banner says every pair, and nothing else');
    assert.match(lines[0], /^## synconf version matrix: a newer version breaks clients of an older one$/);
    assert.ok(lines.slice(0, 8).some((l) => l.startsWith('**Against the spec**: every version conforms')));
    // the browse change: a listed known deviation of 1.29.5, said beside it; a cause that is not, says nothing
    const browse = lines.filter(
      (l) => l.includes('response-value-format-changed') && l.includes('/rest/system/browse'),
    );
    assert.ok(browse.length >= 2, 'in the ship table and in the causes');
    for (const l of browse) assert.match(l, /\*\*\(listed known deviation of 1\.29\.5\)\*\*/);
    const wake = lines.filter((l) => l.startsWith('- **') && l.includes('restartOnWakeup')); // a cause's own line
    assert.ok(wake.length >= 1);
    for (const l of wake) assert.doesNotMatch(l, /listed known deviation/);
    assert.match(
      html,
      /response-value-format-changed<\/code> — <code>GET \/rest\/system\/browse \/\*<\/code>[^\n]*\(listed known deviation of 1\.29\.5\)/,
    );
  });

  test('every toggle of matrix.html and of each report.html sits on the line of what it opens', async () => {
    for (const file of [
      join(work(), 'm', 'matrix.html'),
      ...versions.map((v) => join(work(), 'm', v, 'report.html')),
    ]) {
      const page = await open({ file });
      assert.deepEqual(await misplacedToggles(page), [], file);
      await page.context().close();
    }
  });

  test(`report.html of each version: within ${REPORT_HEIGHT.toLocaleString('en-US')} px at 1280 px wide; its first screen counts and names the listed known deviations`, async () => {
    for (const v of versions) {
      const page = await open({ file: join(work(), 'm', v, 'report.html') });
      const height = await page.evaluate(() => document.body.scrollHeight);
      console.log(`${v}: report.html ${height} px tall at 1280×800`);
      assert.ok(height <= REPORT_HEIGHT, `${v}: report.html is ${height} px tall`);
      const listed = m.columns.find((c) => c.label === v)!.totals['expected-fail'];
      assert.match(
        await page.locator('header.banner').innerText(),
        new RegExp(`${listed} listed known deviations on \\d+ endpoints: accepted for this version`),
      );
      await onFirstScreen(page, 'header.banner', `${v}: the banner`);
      assert.equal(await page.locator('#known h2').innerText(), `Known deviations (${listed})`);
      await onFirstScreen(page, '#known h2', `${v}: the known deviations' heading`);
      await onFirstScreen(page, '#known .known-index a', `${v}: the endpoint with the most deviations`);
      if (v === '1.29.5') {
        // the browse change (breaking for clients of 1.19.2) is the endpoint with the most listed deviations
        assert.match(await page.locator('#known .known-index a').first().innerText(), /^GET \/rest\/system\/browse$/);
        await page.screenshot({ path: join(work(), 'report-1.29.5-1280x800.png') });
      }
      await page.context().close();
    }
  });

  test('summary.md of each version names the listed known deviations at the top, most first', async () => {
    for (const v of versions) {
      const summary = await readFile(join(work(), 'm', v, 'summary.md'), 'utf8');
      const listed = m.columns.find((c) => c.label === v)!.totals['expected-fail'];
      const at = summary.split('\n').findIndex((l) => l.startsWith(`**${listed} listed known deviations** on `));
      assert.ok(at > 0 && at < 14, `${v}: the line on known deviations is at the top (line ${at})`);
    }
    const newest = await readFile(join(work(), 'm', '1.29.5', 'summary.md'), 'utf8');
    assert.match(newest, /Most first: GET \/rest\/system\/browse \d+, /);
  });
});
