// The CSS and JS of the HTML pages, kept as the files of assets/ (read, diffed and edited as CSS and JS): each export
// is one file's text without its final newline. Run from source (tsx: the tests) they are read here; the build puts
// their text in place of this module (scripts/bundle.mjs, reportAssets), so dist/ reads no file for them.
import { readFileSync } from 'node:fs';

const asset = (file: string) => readFileSync(new URL(`assets/${file}`, import.meta.url), 'utf8').replace(/\n$/, '');

/** the style of every HTML page (html-page.ts) */
export const PAGE_CSS = asset('page.css');
/**
 * report.html's script (html.ts): plain JS, reading only data- attributes and never writing markup. Filters: a check
 * is shown when its verdict is ticked, its scenario covers the chosen endpoint and its text holds the search;
 * scenarios left empty are hidden and, while a filter is on, those with a match are opened. The search also filters
 * the failures and the known deviations, whose headings then count what it shows ("2 of 7"). Copy buttons copy their
 * curl text.
 */
export const RUN_SCRIPT = asset('run.js');
/** matrix.html's script (matrix-html.ts): plain JS, a checkbox that leaves only the changed rows */
export const MATRIX_SCRIPT = asset('matrix.js');
