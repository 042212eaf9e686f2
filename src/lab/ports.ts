// Free loopback ports. 8384/22000 may be taken on a shared machine, so every instance gets ports the OS hands out.
import { createServer, type AddressInfo, type Server } from 'node:net';

/**
 * Returns n distinct free TCP ports on 127.0.0.1. All listeners are held open until every port is picked,
 * so the OS cannot hand the same port out twice; a different process could still take one before Syncthing binds it
 * (a tiny window, and the instance then fails with a clear early-exit error).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
    }
    return servers.map((s) => (s.address() as AddressInfo).port);
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
