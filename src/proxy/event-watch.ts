// Statements judged from the session so far, not from one exchange: a call that must fire an event (the catalog's
// `event`: DELETE /rest/cluster/pending/devices → PendingDevicesChanged) is judged by the client's own later polls of
// /rest/events. The event seen in an answer after the call proves it; a poll that began after the call and ended
// without it (the client asked, the event was not there) breaks it; a client that never polled again leaves it unjudged.
import type { Check } from '../runner/exchange-checks.js';
import type { EndpointEntry } from '../schema/endpoints.js';
import type { Exchange } from '../transport/types.js';
import { bodyOf } from '../runner/exchange-checks.js';

/** calls awaiting their event at most (a client deleting in a loop without polling does not grow the session) */
const PENDING_AT_MOST = 100;

interface Awaited {
  /** the call's place in the session, and the call itself (for its check's evidence) */
  n: number;
  x: Exchange;
  type: string;
  statements: string[];
  startedMs: number;
  endedMs: number;
  /** a poll that began after the call ended and did not show the event */
  missedBy?: number;
}

/** a check of one awaited event, for the call's exchange `n` */
export interface EventCheck {
  n: number;
  x: Exchange;
  check: Check;
}

const eventCheck = (a: Awaited, verdict: Check['verdict'], message: string): EventCheck => ({
  n: a.n,
  x: a.x,
  check: {
    name: `event ${a.type}`,
    kind: 'event',
    verdict,
    message,
    statements: a.statements,
    ...(verdict === 'fail' ? { blame: 'agent' as const } : {}),
  },
});

export class EventWatch {
  private awaited: Awaited[] = [];

  /** a finished exchange of the spec: a successful call that fires an event starts awaiting it */
  called(n: number, x: Exchange, endpoint: EndpointEntry): void {
    if (!endpoint.event || x.response?.status !== 200 || this.awaited.length >= PENDING_AT_MOST) return;
    const startedMs = Date.parse(x.startedAt);
    this.awaited.push({
      n,
      x,
      type: endpoint.event.type,
      statements: endpoint.event.statements ?? [],
      startedMs,
      endedMs: startedMs + x.durationMs,
    });
  }

  /** an answer to a poll of /rest/events: the awaited events it shows are proven (their checks returned) */
  polled(poll: Exchange): EventCheck[] {
    if (!this.awaited.length || poll.response?.status !== 200) return [];
    const events = bodyOf(poll.response).json;
    if (!Array.isArray(events)) return [];
    const url = new URL(poll.request.url, 'http://proxy');
    const only = url.searchParams.get('events')?.split(',');
    const pollStarted = Date.parse(poll.startedAt);
    const proven: EventCheck[] = [];
    this.awaited = this.awaited.filter((a) => {
      if (only && !only.includes(a.type)) return true; // the client asked for other kinds: this poll says nothing
      const seen = events.find(
        (e: { type?: unknown; time?: unknown }) =>
          e?.type === a.type && Date.parse(String(e.time)) >= a.startedMs - 1000, // the agent's clock, to a second
      );
      if (seen) {
        proven.push(eventCheck(a, 'pass', `${a.type} seen in a later poll of /rest/events (id ${seen.id})`));
        return false;
      }
      if (pollStarted >= a.endedMs) a.missedBy ??= Math.round(pollStarted);
      return true;
    });
    return proven;
  }

  /** at the end of the session: the events a later poll should have shown and did not; the rest unjudged */
  finish(): EventCheck[] {
    const out = this.awaited.map((a) =>
      a.missedBy !== undefined
        ? eventCheck(a, 'fail', `no ${a.type} in the client's later polls of /rest/events after the call succeeded`)
        : eventCheck(a, 'skip', `the client did not poll /rest/events after the call: ${a.type} not judged`),
    );
    this.awaited = [];
    return out;
  }
}
