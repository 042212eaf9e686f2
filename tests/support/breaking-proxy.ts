// A proxy in front of a real agent that breaks chosen routes: everything else is the real agent's
// answer, byte for byte. For faults of one endpoint that no real agent shows on demand.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** what the proxy answers instead of the agent, by "METHOD path" */
export type Broken = Record<string, { status: number; body: string; contentType?: string }>;

/**
 * the agent's own answer, changed: `json` gets its parsed body (a copy to change and return), `status` and
 * `contentType` replace the agent's; by "METHOD path", or by the name a request gives in its X-Fault header
 */
export type Changed = Record<
  string,
  { json?: (doc: unknown) => unknown; body?: (text: string) => string; status?: number; contentType?: string }
>;

export interface BreakingProxy {
  url: string;
  close(): Promise<void>;
}

export async function startBreakingProxy(
  agentUrl: string,
  broken: Broken,
  changed: Changed = {},
): Promise<BreakingProxy> {
  const agent = new URL(agentUrl);
  const server = http.createServer((req, res) => {
    const own = broken[`${req.method} ${(req.url ?? '').split('?')[0]}`];
    if (own) {
      req.resume();
      res.writeHead(own.status, { 'Content-Type': own.contentType ?? 'application/json' });
      res.end(own.body);
      return;
    }
    const upstream = http.request(
      {
        host: agent.hostname,
        port: agent.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: agent.host },
      },
      (answer) => {
        const fault = req.headers['x-fault'];
        const change =
          (typeof fault === 'string' ? changed[fault] : undefined) ??
          changed[`${req.method} ${(req.url ?? '').split('?')[0]}`];
        if (!change) {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          return;
        }
        let text = '';
        answer.setEncoding('utf8');
        answer.on('data', (c: string) => (text += c));
        answer.on('end', () => {
          if (change.json) text = JSON.stringify(change.json(JSON.parse(text)), null, 2);
          if (change.body) text = change.body(text);
          // the changed body is sent whole: its length, not the agent's chunking
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
          delete headers['transfer-encoding'];
          if (change.contentType) headers['content-type'] = change.contentType;
          res.writeHead(change.status ?? answer.statusCode ?? 502, headers);
          res.end(text);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
