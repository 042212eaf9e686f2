// The request log of `synconf serve`: every request it was asked, answered or missed, as HAR 1.2
// (the format of synconf's cassettes, so the same tools read both), every credential a client sent redacted: the key
// as <API_KEY>, a wrong key, an Authorization header, cookies and key-like query parameters as <REDACTED>.
// Written as the proxy writes its session's HAR: each entry appended to a stage beside the log as it comes (the cost
// of a long session linear in its length, never the whole log rewritten), and the stage closed and renamed into place
// at the stop. A serve killed mid-session leaves the log it found there (whole, or none), never half of one; the next
// serve on that log removes the dead one's stage.
import { closeSync, ftruncateSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { HarEntry } from '../schema/generated/types.js';
import type { Exchange } from '../transport/types.js';
import { toEntry } from '../transport/cassette.js';
import { withoutCredentials, type Redactor } from '../transport/redact.js';
import { SYNCONF_VERSION } from '../paths.js';
import { makeOutputDir } from '../output-dir.js';
import { InputError } from '../errors.js';
import { isAlive } from '../lab/procs.js';

/** how serve answered: the recorded exchange (scenario/step), the event log, the agent's refusal, a miss, or the
 * state of --stateful (origin: the rule of serve/state-rules.ts that answered) */
export interface Outcome {
  served: 'recorded' | 'events' | 'refusal' | 'miss' | 'agent' | 'state' | 'control';
  /** the fault that touched the answer (serve --fault, --faults) */
  fault?: string;
  origin?: string;
  miss?: string;
}

/** the stage of `file` written by process `pid`: hidden, beside it (a rename within one folder is atomic) */
const stageOf = (file: string, pid: number) => join(dirname(file), `.${basename(file)}.${pid}.partial`);

/** the stages of `file` a serve that died left behind: never renamed into place, removed */
function removeDeadStages(file: string): void {
  const dead = new RegExp(`^\\.${basename(file).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.(\\d+)\\.partial$`);
  for (const name of readdirSync(dirname(file))) {
    const pid = Number(dead.exec(name)?.[1]);
    if (pid && pid !== process.pid && !isAlive(pid)) rmSync(join(dirname(file), name), { force: true });
  }
}

export class RequestLog {
  /** the entries not yet appended to the stage (written soon after each request, not on every one) */
  private pending: string[] = [];
  private count = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly stage: string;
  private fd: number | undefined;
  /** the stage's length up to its last whole entry: a write cut short (a full disk) is cut back to it */
  private length = 0;
  /** the log's text from the end of its entries (`]`), written by the last write */
  private readonly tail: string;

  /** the last write that failed (a full disk): said once, tried again with the next request and at the end */
  private failure: string | undefined;

  /**
   * `named` says what the log is in a failure's line: serve's --log, or the stand-in agent's own log in the report
   * folder of `proxy --recordings` (which has no --log)
   */
  constructor(
    readonly file: string,
    private readonly redactor: Redactor,
    private readonly apiKey: string,
    private readonly say: (line: string) => void = () => {},
    private readonly named: (cause: string) => string = (cause) =>
      `--log ${file}: cannot write the request log (${cause})`,
  ) {
    makeOutputDir(dirname(file), 'the folder of --log');
    // the log is renamed into its place at the end: a folder there cannot be replaced, and a device, FIFO or socket
    // would be
    const found = statSync(file, { throwIfNoEntry: false });
    if (found?.isDirectory()) throw new InputError(this.named('EISDIR'));
    if (found && !found.isFile())
      throw new InputError(this.named('not a regular file: a device, FIFO or socket is not replaced by a log'));
    removeDeadStages(file);
    this.stage = stageOf(file, process.pid);
    const har = { log: { version: '1.2', creator: { name: 'synconf serve', version: SYNCONF_VERSION }, entries: [] } };
    const text = JSON.stringify(har, null, 1);
    const at = text.indexOf('"entries": [') + '"entries": ['.length;
    this.tail = text.slice(at) + '\n';
    // proven before the first request: a log that cannot be written is one line, exit 2
    try {
      this.fd = openSync(this.stage, 'w');
      this.append(text.slice(0, at));
    } catch (e) {
      this.abandon();
      throw new InputError(this.named(causeOf(e)));
    }
  }

  add(x: Exchange, outcome: Outcome): void {
    const entry = toEntry(withoutCredentials(x, this.apiKey), outcome.origin ?? `(${outcome.served})`, this.redactor);
    // HAR 1.2 requires the cookie lists; the agent's API uses none
    const full: HarEntry = {
      ...entry,
      request: { ...entry.request, cookies: [] },
      response: { ...entry.response, cookies: [] },
      _served: outcome.served,
      ...(outcome.miss ? { _miss: outcome.miss } : {}),
      ...(outcome.fault ? { _fault: outcome.fault } : {}),
    };
    this.pending.push(`${this.count++ ? ',' : ''}\n${JSON.stringify(full, null, 1)}`);
    // appended soon after each request, not on every one (a polling client asks many)
    this.timer ??= setTimeout(() => this.flush(), 200).unref();
  }

  /** appended while serving: a failure is said (once) and serving goes on; the last write says it as an error */
  private flush(): void {
    try {
      this.appendPending();
      this.failure = undefined;
    } catch (e) {
      if (!this.failure) this.say(`synconf serve: ${this.named(causeOf(e))}; serving goes on`);
      this.failure = causeOf(e);
    }
  }

  /** the entries waiting, appended; on a failure the stage is cut back to its last whole entry and they wait on */
  private appendPending(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.pending.length) return;
    try {
      this.append(this.pending.join(''));
      this.pending = [];
    } catch (e) {
      ftruncateSync(this.fd!, this.length);
      throw e;
    }
  }

  /** `text` written at the stage's end, whole (a short write goes on where it stopped) */
  private append(text: string): void {
    const bytes = Buffer.from(text);
    for (let done = 0; done < bytes.length;)
      done += writeSync(this.fd!, bytes, done, bytes.length - done, this.length + done);
    this.length += bytes.length;
  }

  /** the log closed and renamed into place: a reader (or a second writer) never sees it half written, and a link in
   * its place is replaced, not written through. A failure leaves the log that was there, and is an InputError */
  write(): void {
    if (this.fd === undefined) return;
    try {
      this.appendPending();
      this.append(this.count ? `\n${this.tail}` : this.tail);
      closeSync(this.fd);
      this.fd = undefined;
      renameSync(this.stage, this.file);
    } catch (e) {
      this.abandon();
      throw new InputError(this.named(causeOf(e)));
    }
  }

  /** the stage closed and removed: nothing of this serve's log is kept */
  private abandon(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    rmSync(this.stage, { force: true });
  }
}

const causeOf = (e: unknown) => {
  const err = e as NodeJS.ErrnoException;
  return err.code ?? err.message;
};
