// The shell of synconf's HTML files (report.html, matrix.html): one self-contained document with its CSS and JS inline
// (the files of assets/, their text in the bundle). The Content-Security-Policy allows exactly that inline style and
// script (by hash) and nothing else: no request can leave the page, and should an escaping bug ever let report text
// through as markup, an injected <script> or onerror= handler still would not run.
import { createHash } from 'node:crypto';
import { escapeHtml } from './text.js';
import { PAGE_CSS } from './assets.js';

// the newlines around the file's text keep the pages as they were
const CSS = `\n${PAGE_CSS}\n`;

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
