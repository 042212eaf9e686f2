// Events as the agent serves them, from the events a recording holds: every event any recorded
// GET /rest/events (or /rest/events/disk) answered, once each, in the order they happened. A
// request with an `events` filter numbers the matching events 1, 2, … as the agent numbers a
// filtered subscription; `since` and `limit` cut that list.
import type { HarEntry } from '../schema/generated/types.js';

interface AgentEvent {
  id: number;
  globalID?: number;
  time: string;
  type: string;
  [k: string]: unknown;
}

/** the agent's disk events are served by /rest/events/disk only */
const DISK_TYPES = new Set(['LocalChangeDetected', 'RemoteChangeDetected']);

/** a time as Go writes it (RFC 3339, UTC, the fraction's trailing zeros trimmed) */
export const goTime = (t: Date) =>
  t.toISOString().replace(/\.(\d{3})Z$/, (_, ms: string) => (/^0+$/.test(ms) ? 'Z' : `.${ms.replace(/0+$/, '')}Z`));

/** time with nanoseconds as a sortable string (Go trims trailing zeros of the fraction) */
const sortable = (time: string) => time.replace(/\.(\d+)/, (_, f: string) => '.' + f.padEnd(9, '0'));

export class EventLog {
  private readonly events: AgentEvent[];
  /** called after each event the state adds (a waiting long poll answers then, not at a timer) */
  private readonly listeners = new Set<() => void>();
  private readonly withGlobalID: boolean;
  private nextGlobalID: number;
  private telling = false;

  constructor(entries: HarEntry[]) {
    const seen = new Map<string, AgentEvent>();
    for (const e of entries) {
      if (
        e.request.method !== 'GET' ||
        e.response.status !== 200 ||
        !/^\/rest\/events(\/disk)?$/.test(new URL(e.request.url).pathname)
      )
        continue;
      let list: unknown;
      try {
        list = JSON.parse(e.response.content.text);
      } catch {
        continue;
      }
      if (!Array.isArray(list)) continue;
      for (const ev of list as AgentEvent[]) {
        // a restart starts the agent's numbering anew: the time tells the events apart
        const identity = `${ev.globalID ?? ev.id}|${ev.time}|${ev.type}`;
        if (!seen.has(identity)) seen.set(identity, ev);
      }
    }
    this.events = [...seen.values()].sort(
      (a, b) =>
        Date.parse(a.time) - Date.parse(b.time) ||
        sortable(a.time).localeCompare(sortable(b.time)) ||
        (a.globalID ?? 0) - (b.globalID ?? 0),
    );
    this.withGlobalID = this.events.length === 0 || this.events.some((e) => e.globalID !== undefined);
    this.nextGlobalID = Math.max(0, ...this.events.map((e) => e.globalID ?? e.id)) + 1;
  }

  /** an event of the stand-in's own (a client's write), after every recorded one; waiting polls are told */
  append(type: string, data: unknown, time = new Date()): AgentEvent {
    const event: AgentEvent = {
      id: 0, // numbered by each query, as the agent numbers a subscription
      ...(this.withGlobalID ? { globalID: this.nextGlobalID } : {}),
      time: goTime(time),
      type,
      data,
    };
    this.nextGlobalID++;
    this.events.push(event);
    // told once the write that emitted it is done: the events of one change come in one answer
    if (!this.telling) {
      this.telling = true;
      queueMicrotask(() => {
        this.telling = false;
        for (const listener of [...this.listeners]) listener();
      });
    }
    return event;
  }

  /** the agent started again: its events are numbered from 1 anew (a client resuming from an older id sees none
   * until the new ids pass it, as with the agent) */
  restart(): void {
    this.events.length = 0;
    this.nextGlobalID = 1;
  }

  /** calls `listener` after each appended event until the returned function is called */
  onAppend(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** how many events the log holds (recorded and appended) */
  get size(): number {
    return this.events.length;
  }

  /** the events after `since` of the given types (none given: all but the disk events), at most the last `limit` */
  query(opts: { disk: boolean; types?: string[]; since: number; limit?: number }): AgentEvent[] {
    const wanted = opts.types?.length ? new Set(opts.types) : undefined;
    const list = this.events
      .filter((e) => (wanted ? wanted.has(e.type) : opts.disk === DISK_TYPES.has(e.type)))
      .map((e, i) => ({ ...e, id: i + 1 }))
      .filter((e) => e.id > opts.since);
    return opts.limit && opts.limit > 0 ? list.slice(-opts.limit) : list;
  }
}
