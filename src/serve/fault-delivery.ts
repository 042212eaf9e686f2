// How an answer goes out when a fault touches it: late, in a slow dribble, cut by a reset before or during it,
// truncated (the declared length never reached), or replaced by a status of the agent's kind (Go's http.Error text).
import type http from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { IncomingResponse } from '../transport/types.js';
import { CONTROL_PATH, checkFault, describeFault, type Fault, type Faults } from './faults.js';

const TEXT = { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' };
/** how many bytes a dribble sends at a time */
const DRIBBLE_BYTES = 16;

/** the answer a `status` fault gives instead: the agent's http.Error of that status */
export const faultStatus = (f: Fault): IncomingResponse => {
  const status = f.status ?? 500;
  return { status, headers: TEXT, body: `${STATUS_CODES[status] ?? 'Error'}\n` };
};

/** cut the connection with a TCP reset, as a crashed or restarted agent does */
export const reset = (res: http.ServerResponse) => {
  const socket = res.socket;
  if (socket && 'resetAndDestroy' in socket) socket.resetAndDestroy();
  else res.destroy();
};

/** writes `response` to `res` as the fault says (no fault: at once, whole) */
export function deliver(res: http.ServerResponse, response: IncomingResponse, fault: Fault | undefined): void {
  const body = Buffer.from(response.body);
  const sized = { ...response.headers, 'content-length': String(body.length) };
  switch (fault?.mode) {
    case 'reset-before':
      return reset(res);
    case 'latency':
      return void setTimeout(() => deliver(res, response, undefined), fault.ms ?? 1000);
    case 'reset-during':
    case 'truncate': {
      res.writeHead(response.status, sized);
      res.write(body.subarray(0, Math.floor(body.length / 2)));
      // a reset, or an orderly close short of the declared length
      return void setImmediate(() => (fault.mode === 'reset-during' ? reset(res) : res.socket?.end()));
    }
    case 'dribble':
      res.writeHead(response.status, sized);
      return dribble(res, body, 0, fault.ms ?? 100);
    default:
      res.writeHead(response.status, response.headers);
      res.end(response.body);
  }
}

function dribble(res: http.ServerResponse, body: Buffer, at: number, ms: number): void {
  if (res.destroyed) return;
  if (at >= body.length) return void res.end();
  res.write(body.subarray(at, at + DRIBBLE_BYTES));
  setTimeout(() => dribble(res, body, at + DRIBBLE_BYTES, ms), ms);
}

const json = (status: number, value: unknown): IncomingResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value, null, 2) + '\n',
});

/** /__synconf/faults: GET lists the faults in force and how many long polls are open (a test waits on it before a
 * restart), POST adds one (JSON), DELETE removes them all */
export function controlAnswer(
  faults: Faults,
  method: string,
  body: string | undefined,
  openLongPolls: number,
): IncomingResponse {
  if (method === 'GET') return json(200, { faults: faults.list(), openLongPolls });
  if (method === 'DELETE') {
    faults.clear();
    return json(200, { faults: [], openLongPolls });
  }
  if (method !== 'POST') return { status: 405, headers: TEXT, body: 'GET, POST or DELETE\n' };
  try {
    const fault = checkFault(JSON.parse(body ?? ''), `POST ${CONTROL_PATH}`);
    faults.add(fault);
    return json(200, { added: fault, describe: describeFault(fault), faults: faults.list() });
  } catch (e) {
    return { status: 400, headers: TEXT, body: `${(e as Error).message}\n` };
  }
}
