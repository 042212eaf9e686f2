// The shell of synconf's HTML files (report.html, matrix.html): one self-contained document with
// its CSS and JS inline. The Content-Security-Policy allows exactly that inline style and script
// (by hash) and nothing else: no request can leave the page, and should an escaping bug ever let
// report text through as markup, an injected <script> or onerror= handler still would not run.
import { createHash } from 'node:crypto';
import { escapeHtml } from './text.js';

const CSS = `
:root { --pass:#1a7f37; --fail:#c62828; --xfail:#8a5300; --upass:#6f42c1; --skip:#57606a; --unknown:#1a47b8; --line:#d1d9e0; --muted:#59636e; --soft:#f6f8fa; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 1200px; margin: 0 auto; padding: 0 1.5rem 3rem; }
h1 { margin: 0; font-size: 1.6rem; }
h2 { margin: 2rem 0 .6rem; font-size: 1.25rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h3 { margin: 0; font-size: 1.05rem; }
/* a heading in a <summary> stays on the line of its toggle (a block heading would leave the toggle on a line of its
   own, under the section above, where it reads as that section's): the summary takes the heading's spacing */
summary > h2 { display: inline; margin: 0; padding: 0; border: 0; }
summary:has(> h2) { margin: 2rem 0 .6rem; padding-bottom: .2rem; border-bottom: 1px solid var(--line); cursor: pointer; }
a { color: #0550ae; }
code, pre, .id, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: .88em; }
p, li, td, th, dd, h1, h2, h3, summary, .msg { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24em; overflow: auto; margin: .2rem 0; padding: .5rem .6rem; background: var(--soft); border: 1px solid var(--line); border-radius: 4px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.banner { color: #fff; padding: 1.2rem 1.5rem; }
.banner > div { max-width: 1200px; margin: 0 auto; }
.banner .line { margin: .3rem 0 0; font-size: 1.05rem; }
.banner.ok { background: var(--pass); } .banner.bad { background: var(--fail); } .banner.error, .banner.attention { background: var(--xfail); }
.banner a { color: inherit; }
/* the matrix's banner takes the colour of its worst answer; cannot tell is as loud as a break, in a colour of its own */
.banner.breaks { background: var(--fail); } .banner.cannot-tell { background: var(--unknown); }
.banner.may-affect { background: var(--xfail); } .banner.compatible { background: var(--pass); }
/* the matrix's first screen holds a banner, a row a pair and a row a version: eight pairs and nine versions in 800 px.
   Every pair's answer in columns, worst first (a line each would push the ship table below the fold past four pairs) */
.banner.matrix { padding: 1rem 1.5rem; } .banner.matrix > div, main.matrix { max-width: 1400px; } .banner.matrix h1 { font-size: 1.5rem; } .banner.matrix .line { font-size: 1rem; }
.banner .answers { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 30rem), 1fr)); column-gap: 2.5rem; margin: .3rem 0 0; padding-left: 1.2rem; font-size: 1.05rem; }
.banner .relate { font-size: .85rem; }
table.ship, table.versions { font-size: .9rem; line-height: 1.3; }
table.ship :is(th, td), table.versions :is(th, td) { padding: .15rem .5rem; }
table.ship thead th { font-size: .8rem; } table.ship .badge { min-width: 0; }
table.versions { margin-top: .7rem; }
h2#ship { margin-bottom: .4rem; }
.badge.a-cannot-tell { background: var(--unknown); }
details.tops > summary { cursor: pointer; }
/* past five pairs (matrix-ship.ts WHOLE_CAUSES) each pair's most urgent cause on one line, cut with an ellipsis: the
   cell takes the width left and no more, the cause what is left of it beside its toggle; whole once opened */
table.ship.cut td.cause { width: 100%; max-width: 0; }
table.ship.cut .top { display: inline-block; max-width: calc(100% - 6.5rem); overflow: hidden; white-space: nowrap; text-overflow: ellipsis; vertical-align: top; }
table.ship.cut details[open] .top { display: inline; white-space: normal; }
details.tops .more { color: #0550ae; white-space: nowrap; }
details.tops .also { margin: .15rem 0 0 1.1rem; }
.banner + main > h2:first-child { margin-top: .7rem; }
.listed { font-weight: 600; color: var(--xfail); }
.known-index { line-height: 1.7; }
.muted { color: var(--muted); }
.badge { display: inline-block; min-width: 5.5em; text-align: center; padding: .05em .6em; border-radius: 1em; font-size: .8em; font-weight: 700; color: #fff; white-space: nowrap; }
.badge.v-pass { background: var(--pass); } .badge.v-fail { background: var(--fail); } .badge.v-expected-fail { background: var(--xfail); }
.badge.v-unexpected-pass { background: var(--upass); } .badge.v-skip { background: var(--skip); } .badge.v-none { background: #fff; color: #8b1a1a; border: 2px solid #8b1a1a; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: .5rem 0; }
.facts dt { font-weight: 600; } .facts dd { margin: 0; min-width: 0; }
.totals { display: flex; flex-wrap: wrap; gap: .5rem; list-style: none; padding: 0; margin: 1rem 0; }
.totals li { border: 1px solid var(--line); border-left-width: 6px; border-radius: 4px; padding: .3rem .8rem; min-width: 8rem; }
.totals .n { display: block; font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
.totals .v-pass { border-left-color: var(--pass); } .totals .v-fail { border-left-color: var(--fail); } .totals .v-expected-fail { border-left-color: var(--xfail); }
.totals .v-unexpected-pass { border-left-color: var(--upass); } .totals .v-skip { border-left-color: var(--skip); }
.legend { display: grid; grid-template-columns: max-content 1fr; gap: .3rem .8rem; align-items: baseline; margin: .5rem 0; }
.legend dd { margin: 0; }
.problems li { margin: .3rem 0; }
tr.uncovered td { background: #fff1e5; } tr.uncovered .status { color: #8b1a1a; font-weight: 700; }
tr.changed td { background: #fff8c5; } tr.changed th { background: #fff1a8; }
.changed-mark, .nowrap { font-weight: 700; white-space: nowrap; overflow-wrap: normal; }
.filters { position: sticky; top: 0; z-index: 1; display: flex; flex-wrap: wrap; gap: .4rem 1rem; align-items: center; padding: .5rem .7rem; margin: .5rem 0 1rem; background: #fff; border: 1px solid var(--line); border-radius: 4px; }
.filters fieldset { border: 0; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .2rem .8rem; }
.filters legend { float: left; font-weight: 600; margin-right: .5rem; }
.filters select { max-width: 28rem; }
.scenario { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 .5rem; padding: .45rem .9rem; }
.scenario > summary { cursor: pointer; }
.scenario > summary h3 { display: inline; }
.scenario > summary .meta { display: block; margin: .1rem 0 0; color: var(--muted); font-size: .85em; }
.glance { display: flex; flex-wrap: wrap; gap: .6rem; margin: .8rem 0 0; }
.glance .box { flex: 1 1 12rem; display: block; padding: .5rem .8rem; border: 1px solid var(--line); border-left-width: 6px; border-radius: 4px; color: inherit; text-decoration: none; }
.glance .box .n { font-size: 1.4rem; font-weight: 700; }
.glance .bad { border-left-color: var(--fail); } .glance .ok { border-left-color: var(--pass); } .glance .known { border-left-color: var(--xfail); } .glance .warn { border-left-color: #bf8700; } .glance .plain { border-left-color: var(--skip); }
#failures h2, #known h2 { margin-top: 1.1rem; }
.problems { padding-left: 1.2rem; }
.problem .hint, .check .hint { margin: .15rem 0; color: #6f42c1; }
.problem .where { font-size: .85em; }
.curl { display: flex; gap: .5rem; align-items: flex-start; margin: .2rem 0; }
.curl pre { flex: 1 1 auto; margin: 0; max-height: 6em; font-size: .8em; }
button.copy { flex: 0 0 auto; font: inherit; font-size: .85em; padding: .2rem .6rem; border: 1px solid var(--line); border-radius: 4px; background: var(--soft); cursor: pointer; }
table.known td:first-child { width: 30%; }
table.known tr.group th { background: #fff8e5; }
.dur { color: var(--muted); font-size: .8em; white-space: nowrap; margin-left: auto; }
.badge.v-flaky { background: #bf8700; margin-left: .3rem; } .badge.v-notrun { background: #fff; color: var(--skip); border: 2px solid var(--skip); }
tr.notrun td { background: var(--soft); }
.filters .search input { width: 22rem; max-width: 60vw; font: inherit; padding: .15rem .4rem; }
.scenario.v-fail { border-left: 6px solid var(--fail); } .scenario.v-unexpected-pass { border-left: 6px solid var(--upass); }
.scenario.v-expected-fail { border-left: 6px solid var(--xfail); } .scenario.v-skip { border-left: 6px solid var(--skip); } .scenario.v-pass { border-left: 6px solid var(--pass); }
.scenario .meta { margin: .2rem 0 .4rem; color: var(--muted); font-size: .9em; }
.checks { list-style: none; margin: .3rem 0 0; padding: 0; }
.check { padding: .25rem 0; border-top: 1px solid #eaeef2; }
.check .head { display: flex; gap: .6rem; align-items: baseline; min-width: 0; }
.check .head .id { flex: 0 1 auto; min-width: 0; overflow-wrap: anywhere; }
.check .head .msg { flex: 1 1 20rem; min-width: 0; }
.kind { color: var(--muted); font-size: .85em; }
details.evidence { margin: .3rem 0 .3rem 6.5rem; }
details.evidence > summary { cursor: pointer; color: #0550ae; }
.ev { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: .3rem .8rem; margin: .4rem 0; }
.ev dt { font-weight: 600; } .ev dd { margin: 0; min-width: 0; }
.ev table { font-size: .9em; }
@media (max-width: 700px) { details.evidence { margin-left: 0; } .ev, .facts { grid-template-columns: 1fr; } }
@media print { .filters { display: none; } details.evidence { display: block; } }
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** a complete HTML document; `title` is plain text, `body` is HTML, `script` plain JS (or empty) */
export function htmlPage(title: string, body: string, script = ''): string {
  const csp = [
    "default-src 'none'",
    `style-src ${sha256(CSS)}`,
    `script-src ${script ? sha256(script) : "'none'"}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<style>${CSS}</style>
</head>
<body>
${body}
${script ? `<script>${script}</script>` : ''}
</body>
</html>
`;
}
