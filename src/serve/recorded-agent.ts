// Which recorded answer a request gets. Each cassette keeps its own matcher (the one replay uses),
// so identical requests get a scenario's answers in recorded order. Where several recorded
// scenarios asked the same request, the one whose preceding requests match the client's latest
// requests answers (a client repeating a recorded sequence gets that sequence, a restart's refused
// connections included); on a tie, a scenario that starts with it (a client beginning something),
// then the earliest recorded.
// A dropped connection (a restart's refused request) is given only to a client repeating the requests recorded before
// it: an unrelated ping, polled six times, never gets a drop recorded while the agent restarted (issue 40).
// Once every recorded answer to a request is used, the last one given repeats (a polling client
// sees the end state).
import type { HarEntry } from '../schema/generated/types.js';
import type { OutgoingRequest } from '../transport/types.js';
import { Matcher, closestEntry } from '../transport/matcher.js';
import { requestKey } from '../transport/cassette.js';
import type { Redactor } from '../transport/redact.js';
import type { Recordings } from './recordings.js';

interface Tape {
  name: string;
  matcher: Matcher;
  keys: readonly string[];
  index: Map<HarEntry, number>;
}

/** how many of the client's latest requests the context is compared with */
const HISTORY = 8;

export class RecordedAgent {
  private readonly tapes: Tape[];
  private readonly all: HarEntry[];
  private readonly origin = new Map<HarEntry, string>();
  private readonly lastGiven = new Map<string, HarEntry>();
  private history: string[] = [];

  constructor(
    rec: Recordings,
    private readonly redactor: Redactor,
  ) {
    this.tapes = rec.scenarios.map(({ name, entries }) => {
      for (const e of entries) this.origin.set(e, `${name}/${e._step}`);
      const matcher = new Matcher(entries);
      return { name, matcher, keys: matcher.keys, index: new Map(entries.map((e, i) => [e, i])) };
    });
    this.all = rec.scenarios.flatMap((s) => s.entries);
  }

  /** scenario/step an entry was recorded in */
  originOf(e: HarEntry): string {
    return this.origin.get(e) ?? '?';
  }

  get entries(): HarEntry[] {
    return this.all;
  }

  /** the recorded answer to this request, or undefined when none was ever recorded */
  answer(req: OutgoingRequest): HarEntry | undefined {
    const key = requestKey(req, this.redactor);
    let best: { tape: Tape; score: number; start: number } | undefined;
    for (const tape of this.tapes) {
      const next = tape.matcher.peek(key);
      if (!next) continue;
      const at = tape.index.get(next)!;
      let score = 0;
      while (
        score < this.history.length &&
        score < at &&
        tape.keys[at - 1 - score] === this.history[this.history.length - 1 - score]
      )
        score++;
      // a recorded drop belongs to its scenario's sequence: the request recorded before it must be the client's last
      if (next._error && score === 0) continue;
      const start = at === 0 ? 1 : 0;
      if (!best || score > best.score || (score === best.score && start > best.start)) best = { tape, score, start };
    }
    this.history = [...this.history.slice(1 - HISTORY), key];
    let entry: HarEntry | undefined;
    if (best) {
      entry = best.tape.matcher.take(key);
    } else entry = this.lastGiven.get(key); // every recorded answer given: the last one again
    if (entry) this.lastGiven.set(key, entry);
    return entry;
  }

  /** the recorded entry that differs least from a request nothing answers, and how (the request's query, key and
   * body not repeated: the answer goes back to a stranger, and to the log and the terminal) */
  closest(req: OutgoingRequest) {
    return closestEntry(req, this.redactor, this.all, false);
  }
}
