// The request log of `synconf serve`: every request it was asked, answered or missed, as HAR 1.2
// (the format of synconf's cassettes, so the same tools read both), every credential a client sent redacted: the key
// as <API_KEY>, a wrong key, an Authorization header, cookies and key-like query parameters as <REDACTED>.
import { renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { HarEntry } from '../schema/generated/types.js';
import type { Exchange } from '../transport/types.js';
import { toEntry } from '../transport/cassette.js';
import { withoutCredentials, type Redactor } from '../transport/redact.js';
import { SYNCONF_VERSION } from '../paths.js';
import { makeOutputDir } from '../output-dir.js';
import { InputError } from '../errors.js';

/** how serve answered: the recorded exchange (scenario/step), the event log, the agent's refusal, a miss, or the
 * state of --stateful (origin: the rule of serve/state-rules.ts that answered) */
export interface Outcome {
  served: 'recorded' | 'events' | 'refusal' | 'miss' | 'agent' | 'state' | 'control';
  /** the fault that touched the answer (serve --fault, --faults) */
  fault?: string;
  origin?: string;
  miss?: string;
}

export class RequestLog {
  private readonly entries: HarEntry[] = [];
  private timer: NodeJS.Timeout | undefined;

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
    // the log is written beside its place and renamed into it: a device, FIFO or socket there would be replaced
    const found = statSync(file, { throwIfNoEntry: false });
    if (found && !found.isFile() && !found.isDirectory())
      throw new InputError(this.named('not a regular file: a device, FIFO or socket is not replaced by a log'));
    this.write(); // proven before the first request: a folder named by --log is one line, exit 2
  }

  add(x: Exchange, outcome: Outcome): void {
    const entry = toEntry(withoutCredentials(x, this.apiKey), outcome.origin ?? `(${outcome.served})`, this.redactor);
    // HAR 1.2 requires the cookie lists; the agent's API uses none
    this.entries.push({
      ...entry,
      request: { ...entry.request, cookies: [] },
      response: { ...entry.response, cookies: [] },
      _served: outcome.served,
      ...(outcome.miss ? { _miss: outcome.miss } : {}),
      ...(outcome.fault ? { _fault: outcome.fault } : {}),
    });
    // written soon after each request, not on every one (a polling client asks many)
    this.timer ??= setTimeout(() => this.flush(), 200).unref();
  }

  /** written while serving: a failure is said (once) and serving goes on; the last write says it as an error */
  private flush(): void {
    try {
      this.write();
      this.failure = undefined;
    } catch (e) {
      if (!this.failure) this.say(`synconf serve: ${(e as Error).message}; serving goes on`);
      this.failure = (e as Error).message;
    }
  }

  /** the whole log to a temporary name beside it, then renamed into place: a reader (or a second writer) never
   * sees it half written, and a link in its place is replaced, not written through */
  write(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const har = {
      log: { version: '1.2', creator: { name: 'synconf serve', version: SYNCONF_VERSION }, entries: this.entries },
    };
    const tmp = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.partial`);
    try {
      writeFileSync(tmp, JSON.stringify(har, null, 1) + '\n');
      renameSync(tmp, this.file);
    } catch (e) {
      rmSync(tmp, { force: true });
      const err = e as NodeJS.ErrnoException;
      throw new InputError(this.named(err.code ?? err.message));
    }
  }
}
