// The HAR of a proxy session, written as the session goes: each exchange appended to the file when it ends, so that
// memory stays bounded over a long session and a killed proxy leaves every exchange but the closing brackets. The
// file is a synconf cassette (recordings/_run.har of the report folder): `synconf drift` replays it, `synconf serve`
// and any HAR viewer read it.
import { closeSync, openSync, writeSync } from 'node:fs';
import type { CassetteMeta, HarEntry } from '../schema/generated/types.js';
import { cassettePath, newCassette, RUN_CASSETTE } from '../transport/cassette.js';
import { makeOutputDir } from '../output-dir.js';
import { SYNCONF_VERSION } from '../paths.js';

export class HarSink {
  readonly file: string;
  private readonly fd: number;
  private count = 0;
  private tail: string;

  constructor(dir: string, meta: CassetteMeta) {
    makeOutputDir(dir, 'the report folder');
    this.file = cassettePath(dir, RUN_CASSETTE);
    // the cassette's text with its entries left open: written up to them now, closed by end()
    const text = JSON.stringify(newCassette(meta, SYNCONF_VERSION, []), null, 1);
    const at = text.indexOf('"entries": [') + '"entries": ['.length;
    this.tail = text.slice(at).replace(/^\]/, '');
    this.fd = openSync(this.file, 'w');
    writeSync(this.fd, text.slice(0, at));
  }

  add(entry: HarEntry): void {
    writeSync(this.fd, `${this.count++ ? ',' : ''}\n${JSON.stringify(entry)}`);
  }

  end(): void {
    writeSync(this.fd, `\n]${this.tail}\n`);
    closeSync(this.fd);
  }
}
