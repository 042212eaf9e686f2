// The HAR of a proxy session, written as the session goes: each exchange appended to the file when it ends, so that
// memory stays bounded over a long session. It is written beside the report folder's recordings/ (the live run's
// stage, recordings.<pid>.live) and swapped in with the report (write-reports.ts): a killed proxy, or a second
// writer, never leaves a recordings/_run.har that is not JSON, and a recordings/ that is a link is replaced, never
// written through. A write that fails (a full disk) stops the HAR, never the proxy: the session goes on, the failure
// is said at once and kept for the report. The file is a synconf cassette: `synconf drift` replays it, `synconf serve`
// and any HAR viewer read it.
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CassetteMeta, HarEntry } from '../schema/generated/types.js';
import { cassettePath, newCassette, RUN_CASSETTE } from '../transport/cassette.js';
import { EXCHANGES_DIR, liveExchangesDir, removeDeadStages } from '../changes/exchanges.js';
import { makeOutputDir } from '../output-dir.js';
import { SYNCONF_VERSION } from '../paths.js';

export class HarSink {
  /** where the HAR will be once the report is written (recordings/_run.har of the report folder) */
  readonly file: string;
  private readonly stage: string;
  private fd: number | undefined;
  private count = 0;
  private tail: string;
  /** the first write that failed: the HAR is then not kept */
  failure: string | undefined;

  constructor(
    reportDir: string,
    meta: CassetteMeta,
    private readonly onFailure: (line: string) => void = () => {},
  ) {
    this.file = cassettePath(join(reportDir, EXCHANGES_DIR), RUN_CASSETTE);
    this.stage = liveExchangesDir(reportDir);
    removeDeadStages(reportDir);
    rmSync(this.stage, { recursive: true, force: true });
    makeOutputDir(this.stage, 'the report folder');
    // the cassette's text with its entries left open: written up to them now, closed by end()
    const text = JSON.stringify(newCassette(meta, SYNCONF_VERSION, []), null, 1);
    const at = text.indexOf('"entries": [') + '"entries": ['.length;
    this.tail = text.slice(at).replace(/^\]/, '');
    this.write(() => {
      this.fd = openSync(cassettePath(this.stage, RUN_CASSETTE), 'w');
      writeSync(this.fd, text.slice(0, at));
    });
  }

  add(entry: HarEntry): void {
    this.write(() => writeSync(this.fd!, `${this.count++ ? ',' : ''}\n${JSON.stringify(entry)}`));
  }

  /** the HAR closed; false when it could not be written whole (its stage is then removed, nothing swapped in) */
  end(): boolean {
    this.write(() => writeSync(this.fd!, `\n]${this.tail}\n`));
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (this.failure) rmSync(this.stage, { recursive: true, force: true });
    return !this.failure;
  }

  /** one write; the first failure said and kept, every later one skipped (the proxy goes on forwarding) */
  private write(action: () => void): void {
    if (this.failure) return;
    try {
      action();
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      this.failure = `cannot write the session's HAR ${this.file} (${err.code ?? err.message}, in ${this.stage}): the exchanges from #${Math.max(1, this.count)} on are not kept`;
      this.onFailure(this.failure);
    }
  }
}
