// Holds Syncthing's default ports the way another Syncthing on the machine would (a workstation's own, or a
// neighbouring lab's generate), so a test can show the lab does not depend on them being free.
import { createServer, type Server } from 'node:net';
import { createSocket, Socket } from 'node:dgram';

/** sync (TCP and QUIC), GUI, local discovery */
export const DEFAULT_PORTS = [
  { proto: 'tcp', port: 22000 },
  { proto: 'udp', port: 22000 },
  { proto: 'tcp', port: 8384 },
  { proto: 'udp', port: 21027 },
] as const;

export interface HeldPorts {
  /** e.g. "tcp/22000" */
  held: string[];
  /** the ports something else already holds, with the cause, e.g. "udp/21027 (EADDRINUSE)" */
  notHeld: string[];
  release(): Promise<void>;
}

/** Binds every default port on 0.0.0.0 (which also keeps anyone from binding 127.0.0.1); holds what it can. */
export async function holdDefaultPorts(): Promise<HeldPorts> {
  const sockets: (Server | Socket)[] = [];
  const held: string[] = [];
  const notHeld: string[] = [];
  for (const { proto, port } of DEFAULT_PORTS) {
    // a connection to a held TCP port is dropped at once; its reset (a prober that gives up) must not become an
    // uncaught error of the test process
    const socket =
      proto === 'tcp'
        ? createServer((conn) => conn.on('error', () => undefined).destroy())
        : createSocket('udp4').on('error', () => undefined);
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('error', reject);
        if (socket instanceof Socket) socket.bind(port, '0.0.0.0', resolve);
        else socket.listen(port, '0.0.0.0', resolve);
      });
      sockets.push(socket);
      held.push(`${proto}/${port}`);
    } catch (err) {
      notHeld.push(`${proto}/${port} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      if (socket instanceof Socket) socket.close();
    }
  }
  const release = () =>
    Promise.all(sockets.map((s) => new Promise<void>((resolve) => s.close(() => resolve())))).then(() => undefined);
  return { held, notHeld, release };
}
