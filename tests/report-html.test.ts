// report.html and matrix.html in a real Chromium: what a release engineer sees, that the filters
// work, that evidence expands, that hostile report text stays text, and that the page makes no
// request at all besides itself (every other request is aborted and fails the test).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type Browser, type Page } from '@playwright/test';
import { launchChromium } from './support/chromium.js';
import { toHtml } from '../src/report/html.js';
import { loadEndpoints } from '../src/report/coverage.js';
import { mergeReports } from '../src/matrix/merge.js';
import { matrixToHtml } from '../src/report/matrix-html.js';
import { ROOT } from '../src/paths.js';
import { FakeAgent, json } from './support/fake-agent.js';
import { runScenarios } from '../src/runner/run.js';
import { selectScenarios } from '../src/scenario/select.js';
import { liveTarget } from '../src/runner/targets.js';
import {
  hostileReport,
  readFixture,
  SCRIPT_TAG,
  IMG_ATTR,
  BREAKOUT,
  QUOTES,
  LONG,
} from './fixtures/reports/hostile.js';
import { DROPPED, expectationsWithout, replayReport } from './support/replay-run.js';
import { tempFolder } from './support/temp.js';

const ARTIFACTS = join(ROOT, 'test-artifacts');
const pages = new Map<string, string>();
let browser: Browser;
let server: Server;
let base: string;

before(async () => {
  browser = await launchChromium();
  server = createServer((req, res) => {
    const html = pages.get(req.url ?? '');
    if (html === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await mkdir(ARTIFACTS, { recursive: true });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
});

interface Session {
  page: Page;
  close(): Promise<void>;
}

/** serves `html`, opens it, and on close asserts: no other request, no dialog, no console error */
async function open(name: string, html: string, javaScriptEnabled = true): Promise<Session> {
  const url = `${base}/${name}.html`;
  pages.set(`/${name}.html`, html);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
  const requests = new Set<string>();
  const dialogs: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    if (route.request().url() === url) return route.continue();
    requests.add(route.request().url());
    return route.abort();
  });
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  page.on('request', (r) => {
    if (r.url() !== url) requests.add(r.url());
  });
  page.on('websocket', (ws) => requests.add(ws.url()));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url, { waitUntil: 'load' });
  return {
    page,
    async close() {
      await page.waitForTimeout(100); // let a late onerror/onload fire before judging
      await context.close();
      assert.deepEqual([...requests], [], 'the page made no request besides itself');
      assert.deepEqual(dialogs, [], 'no dialog opened');
      assert.deepEqual(errors, [], 'no console error');
    },
  };
}

const visibleChecks = (page: Page) => page.locator('li.check:visible').count();
const verdictBox = (page: Page, verdict: string) => page.locator(`#filters input[name=verdict][value="${verdict}"]`);
const checkItem = (page: Page, id: string) =>
  page.locator('li.check').filter({ has: page.locator('.id', { hasText: id }) });

describe('report.html', () => {
  test('a passing run: verdict, totals, coverage with uncovered endpoints marked', async () => {
    const report = readFixture('pass');
    const s = await open('pass', toHtml(report));
    const { page } = s;
    await assert.doesNotReject(page.locator('header.banner.ok').waitFor());
    assert.match(await page.locator('h1').innerText(), /agent 1\.27\.0 conforms/);
    const totals = await page.locator('.totals').innerText();
    assert.match(totals, /15\s+checks/);
    assert.match(totals, /14\s+pass/);
    assert.match(totals, /1\s+expected fail/);
    assert.match(await page.locator('#failures').innerText(), /No check failed/);

    const endpoints = loadEndpoints();
    assert.equal(await page.locator('#coverage tbody tr').count(), endpoints.length);
    const shutdown = page.locator('#coverage tr[data-endpoint="POST /rest/system/shutdown"]');
    assert.equal(await shutdown.getAttribute('class'), 'uncovered');
    assert.ok(await shutdown.getByText('not covered').isVisible());
    const browse = page.locator('#coverage tr[data-endpoint="GET /rest/system/browse"]');
    assert.equal(await browse.getAttribute('class'), 'covered');
    assert.ok(await browse.getByRole('link', { name: 'system-browse' }).isVisible());
    const named = new Set(report.scenarios.flatMap((x) => x.spec));
    const spec = endpoints.filter((ep) => !ep.related);
    const covered = spec.filter((ep) => named.has(ep.id)).length;
    assert.ok(covered < spec.length, 'the fixture leaves endpoints uncovered');
    assert.ok(
      (await page.locator('#coverage > p').first().innerText()).includes(
        `${covered} of ${spec.length} spec endpoints are covered`,
      ),
    );

    await page.screenshot({ path: join(ARTIFACTS, 'report-pass.png'), fullPage: true });
    await s.close();
  });

  test('a failing run: failures listed first, passing scenarios collapsed, verdict and endpoint filters', async () => {
    const s = await open('fail', toHtml(readFixture('fail')));
    const { page } = s;
    assert.ok(await page.locator('header.banner.bad').isVisible());
    assert.equal(await page.locator('#failures li').count(), 4);
    assert.equal(await page.locator('details.scenario').first().getAttribute('data-verdict'), 'fail');
    const passing = page.locator('details.scenario[data-verdict="pass"]');
    assert.equal(
      await passing.evaluate((d) => (d as HTMLDetailsElement).open),
      false,
      'a passing scenario is collapsed',
    );

    const form = page.locator('#filters');
    assert.ok(await form.isVisible(), 'the script shows the filters');
    assert.equal(await page.locator('#shown').innerText(), 'showing 15 of 15 checks');
    await verdictBox(page, 'pass').uncheck();
    assert.equal(await visibleChecks(page), 7);
    assert.equal(await page.locator('#shown').innerText(), 'showing 7 of 15 checks');
    assert.ok(await passing.isHidden(), 'a scenario left empty is hidden');
    for (const v of ['unexpected-pass', 'expected-fail', 'skip']) await verdictBox(page, v).uncheck();
    assert.equal(await visibleChecks(page), 3);
    for (const v of ['pass', 'unexpected-pass', 'expected-fail', 'skip']) await verdictBox(page, v).check();
    await form.getByLabel('Endpoint').selectOption('GET /rest/system/status');
    assert.equal(await visibleChecks(page), 2, 'a filter opens the scenarios (and passing checks) it matches');
    assert.equal(await page.locator('details.scenario:visible').count(), 1);
    await form.getByLabel('Endpoint').selectOption('');
    assert.equal(await page.locator('#shown').innerText(), 'showing 15 of 15 checks');
    // The search filters the failures too, and their heading counts what it shows.
    const search = form.getByLabel('Search');
    await search.fill('system-status');
    assert.match(await page.locator('#failures h2').innerText(), /^Failures \(\d of 4\)$/);
    await search.fill('no check is called this');
    assert.equal(await page.locator('#failures h2').innerText(), 'Failures (0 of 4)');
    assert.ok(await page.locator('#failures .none-match').isVisible());
    await search.fill('');
    assert.equal(await page.locator('#failures h2').innerText(), 'Failures (4)');
    assert.ok(await page.locator('#failures .none-match').isHidden());
    assert.equal(
      await passing.evaluate((d) => (d as HTMLDetailsElement).open),
      false,
      'collapsed again without a filter',
    );

    await page.screenshot({ path: join(ARTIFACTS, 'report-fail.png'), fullPage: true });
    await s.close();
  });

  test("a failure's evidence expands: request, status, body excerpt, schema errors, spec section", async () => {
    const s = await open('evidence', toHtml(readFixture('fail')));
    const { page } = s;
    const item = checkItem(page, 'system-status/get/schema');
    const details = item.locator('details.evidence');
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), false);
    assert.ok(await item.locator('pre.body').isHidden());
    await details.locator('summary').click();
    assert.equal(await details.evaluate((d) => (d as HTMLDetailsElement).open), true);
    const body = item.locator('pre.body');
    assert.ok(await body.isVisible());
    assert.match(await body.innerText(), /"uptime": "42"/);
    const text = await details.innerText();
    assert.match(text, /Body \(excerpt\)/);
    assert.match(text, /GET \/rest\/system\/status/);
    assert.match(text, /X-API-Key\s+<API_KEY>/);
    assert.match(text, /Status\s+200/);
    assert.match(text, /\/lastDialStatus\s+required\s+"present"/);
    assert.match(text, /Spec\s+GET \/rest\/system\/status § Endpoints › GET \/rest\/system\/status/);
    assert.match(text, /Repeat it\s+curl -sS -i -H "X-API-Key: \$SYNCTHING_API_KEY"/);

    const xfail = checkItem(page, 'system-config-deprecated/get/schema');
    assert.match(await xfail.innerText(), /unexpected pass/);
    await xfail.locator('summary').click();
    assert.match(await xfail.locator('details').innerText(), /Known deviation\s+added to the config in 1\.15\.0/);
    await s.close();
  });

  test('without JavaScript: failures and curl commands shown, scenarios open by a click, filters hidden', async () => {
    const s = await open('nojs', toHtml(readFixture('fail')), false);
    const { page } = s;
    assert.ok(await page.locator('#filters').isHidden());
    assert.equal(await page.locator('#failures li:visible').count(), 4);
    assert.ok(
      await page.locator('#failures pre.curl-text').first().isVisible(),
      'the curl command can be selected by hand',
    );
    assert.equal(await page.locator('button.copy:visible').count(), 0, 'no button that would do nothing');
    assert.equal(await page.locator('li.check').count(), 15);
    const passing = page.locator('details.scenario[data-verdict="pass"]');
    await passing.locator('> summary').click();
    await passing.locator('details.passing > summary').click();
    assert.ok(await passing.locator('li.check').first().isVisible(), 'a collapsed scenario opens without JS');
    await s.close();
  });

  test('hostile report text is shown as text, runs nothing, and cannot break the layout', async () => {
    const s = await open('hostile', toHtml(hostileReport()));
    const { page } = s;
    const item = checkItem(page, 'system-browse/sub/');
    await item.locator('details.evidence > summary').click();
    await page.waitForTimeout(200);

    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
    assert.equal(await page.locator('img, svg, iframe, object, embed').count(), 0, 'no element injected');
    assert.equal(await page.locator('script').count(), 1, 'only the page script');
    const text = await page.locator('body').innerText();
    for (const s of [SCRIPT_TAG, IMG_ATTR, BREAKOUT, QUOTES]) assert.ok(text.includes(s), `shown as text: ${s}`);
    assert.equal(await page.title(), `synconf: harness error (agent 2.1.0${SCRIPT_TAG})`);

    // the 100 kB value: cut in the message, scrollable in the evidence, no horizontal overflow
    const message = await item.locator('.msg').innerText();
    assert.ok(message.length < 1000 && /more characters/.test(message), `message cut to ${message.length}`);
    const body = item.locator('pre.body');
    const box = await body.evaluate((el) => ({
      scroll: el.scrollHeight,
      client: el.clientHeight,
      right: el.getBoundingClientRect().right,
    }));
    assert.ok(box.scroll > box.client, 'the long body scrolls inside its box');
    assert.ok(box.right <= 1280, 'the body stays within the viewport');
    const width = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    assert.ok(width.scroll <= width.client, `no horizontal scroll: ${width.scroll} > ${width.client}`);
    assert.ok((await page.content()).length < LONG.length, 'the page does not carry the value whole');

    // a hostile endpoint id still works as a filter value (data-spec round-trips)
    await page.locator('#filters').getByLabel('Endpoint').selectOption(`GET /rest/${SCRIPT_TAG}`);
    assert.equal(await visibleChecks(page), 4);
    await s.close();
  });
});

describe('report.html of the full 1.19.2 run', () => {
  const dir = tempFolder('html');

  test('a failing run at 1280×800: the failure, its reason and copy-as-curl on the first screen; search finds a known deviation by endpoint', async () => {
    const report = await replayReport(expectationsWithout(DROPPED, dir()));
    assert.equal(report.totals.fail, 1, report.verdict);
    const s = await open('first-screen', toHtml(report));
    const { page } = s;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const inFirstScreen = async (loc: ReturnType<Page['locator']>, what: string) => {
      const box = await loc.boundingBox();
      assert.ok(
        box && box.y >= 0 && box.y + box.height <= 800,
        `${what} is on the first screen: ${JSON.stringify(box)}`,
      );
    };
    assert.match(await page.locator('h1').innerText(), /agent v1\.19\.2\S* does not conform/);
    const failure = page.locator('#failures li.problem').first();
    assert.match(await failure.innerText(), new RegExp(`${DROPPED}\\s+not a valid system-status`));
    await inFirstScreen(failure.locator('.id'), 'the failing check');
    await inFirstScreen(failure.locator('.msg'), 'its reason');
    const copy = failure.getByRole('button', { name: 'Copy as curl' });
    await inFirstScreen(copy, 'the copy-as-curl button');
    await page.screenshot({ path: join(ARTIFACTS, 'report-first-screen-1280x800.png') });
    await copy.click();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.match(
      copied,
      /^curl -sS -i -H "X-API-Key: \$SYNCTHING_API_KEY" "\$\{SYNCTHING_URL:-http:\/\/127\.0\.0\.1:8384\}"'\/rest\/system\/status'$/,
    );

    // the known deviations: one table, grouped by endpoint, checks that deviate alike in one row (the 37 listed, in
    // fewer rows); the search box narrows it (and the checks), its heading counting deviations, not rows
    const known = page.locator('table.known tbody tr:not(.group)');
    assert.equal(await known.locator('.id').count(), 37);
    const rows = await known.count();
    assert.ok(rows < 37, `${rows} rows`);
    await page.locator('#filters input[name=q]').fill('get /rest/db/status');
    assert.deepEqual(await page.locator('table.known tbody tr:not(.group):visible .id').allInnerTexts(), [
      'db-status/status/schema',
    ]);
    assert.equal(await page.locator('table.known tr.group:visible').count(), 1);
    assert.ok(
      await checkItem(page, 'db-status/status/schema').isVisible(),
      'the check itself is shown, its scenario opened',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'report-search-db-status.png') });
    // a row of several checks counts each
    await page.locator('#filters input[name=q]').fill('wildcard-suffix');
    const shown = page.locator('table.known tbody tr:not(.group):visible');
    const ids = await shown.locator('.id').count();
    assert.ok(ids > (await shown.count()), `${ids} checks in ${await shown.count()} rows`);
    assert.equal(await page.locator('#known h2').innerText(), `Known deviations (${ids} of 37)`);
    await page.locator('#filters input[name=q]').fill('');
    assert.equal(await known.locator('visible=true').count(), rows);
    assert.equal(await page.locator('#known h2').innerText(), 'Known deviations (37)');
    await s.close();
  });
});

describe('matrix.html', () => {
  test('a real run against an agent that answers hostile strings: shown as text, nothing runs', async () => {
    const agent = new FakeAgent();
    const label = `"><img src=x onerror="window.__pwned=1;alert(1)">`;
    const script = `</script><script>window.__pwned=2</script>`;
    const long = `${'<b>'.repeat(40_000)}end`;
    agent.route('GET /rest/system/ping', () => json({ ping: script }));
    agent.route('GET /rest/config', () => json({ version: 36, folders: [{ id: 'abc-de', label }], devices: [] }));
    agent.route('GET /rest/system/browse', () => json([long]));
    await agent.up();
    try {
      const selection = await selectScenarios([join(ROOT, 'tests', 'fixtures', 'hostile', 'hostile.yaml')], undefined);
      const target = liveTarget(
        'live',
        agent.url,
        { agent: { url: agent.url, apiKey: agent.apiKey } },
        { peer: 'n/a', files: 'n/a', restart: 'n/a', shutdown: 'n/a' },
        { agent: { deviceId: agent.deviceId } },
        [],
      );
      const report = await runScenarios(selection, target, { expectations: false });
      await target.close();
      assert.ok(report.totals.fail >= 3, report.verdict);
      const s = await open('hostile-run', toHtml(report));
      const { page } = s;
      await page.evaluate(() =>
        document.querySelectorAll('details').forEach((d) => ((d as HTMLDetailsElement).open = true)),
      );
      await page.waitForTimeout(200);
      assert.ok(!(await page.content()).includes(agent.apiKey), 'the real API key is nowhere in the page');
      assert.match(await page.locator('pre.curl-text').first().innerText(), /"X-API-Key: \$SYNCTHING_API_KEY"/);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned), undefined);
      assert.equal(await page.locator('img, iframe, object, embed').count(), 0, 'no element injected');
      const text = await page.locator('body').innerText();
      assert.ok(text.includes(label), 'the folder label is shown as text');
      assert.ok(text.includes(script), 'the script tag is shown as text');
      const width = await page.evaluate(() => ({
        scroll: document.documentElement.scrollWidth,
        client: document.documentElement.clientWidth,
      }));
      assert.ok(width.scroll <= width.client, `no horizontal scroll: ${width.scroll} > ${width.client}`);
      await page.screenshot({ path: join(ARTIFACTS, 'report-hostile-run.png'), fullPage: false });
      await s.close();
    } finally {
      await agent.close();
    }
  });

  test('changed rows come first, highlighted, and can be shown alone', async () => {
    const m = mergeReports([readFixture('pass'), readFixture('fail')], ['pass.json', 'fail.json']);
    const s = await open('matrix', matrixToHtml(m));
    const { page } = s;
    const rows = page.locator('tbody tr.row');
    assert.equal(await rows.count(), m.rows.length);
    assert.equal(await rows.first().getAttribute('class'), 'row changed');
    assert.equal(await rows.nth(m.changed).getAttribute('class'), 'row');
    const bg = await rows
      .first()
      .locator('td')
      .first()
      .evaluate((td) => getComputedStyle(td).backgroundColor);
    assert.equal(bg, 'rgb(255, 248, 197)', 'highlighted');
    // the checks table is collapsed under the causes: opened, the filter works on it
    await page.locator('details#checks > summary').click();
    await page.getByLabel('only changed rows').check();
    assert.equal(await page.locator('tbody tr.row:visible').count(), m.changed);
    await s.close();
  });
});
