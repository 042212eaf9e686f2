// The one way the generated docs (docs/figures.md, docs/cli.md) are written or checked, from a script's arguments:
//   (none)         write the file
//   --check        exit 1, with one line naming the command that writes it again, when the file is not what the
//                  script would write (the tests run this)
//   --file PATH    write or check PATH instead (a test plants a stale copy to show the check catches it)
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';

export function writeOrCheck(path, text, { root, command }) {
  const at = process.argv.indexOf('--file');
  const file = at >= 0 ? process.argv[at + 1] : path;
  const name = relative(root, path);
  if (!process.argv.includes('--check')) {
    writeFileSync(file, text);
    console.log(`wrote ${file}`);
    return;
  }
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '';
  if (current === text) return;
  const [was, now] = [current.split('\n'), text.split('\n')];
  const line = Array.from({ length: Math.max(was.length, now.length) }, (_, i) => i).find((i) => was[i] !== now[i]);
  console.error(`${name} is stale: run ${command} (first difference at line ${line + 1})`);
  process.exitCode = 1;
}
