// Free loopback ports. 8384/22000 may be taken on a shared machine, so every instance gets ports the OS hands out.
import { createServer, type AddressInfo, type Server } from 'node:net';

/**
 * Every port this process has handed out. Syncthing binds its sync port with SO_REUSEPORT, so two instances given
 * the same port both start and the kernel shares the connections between them: a dial of one reaches the other
 * ("unexpected device id"). Labs started at once by one process (a matrix runs several versions side by side) must
 * therefore never be handed a port another lab of this process got, even one the OS sees as free again.
 */
const handedOut = new Set<number>();
/** how many listeners a call may open before it gives up finding ports not handed out yet */
const MAX_TRIES_PER_PORT = 50;

/**
 * Returns n distinct free TCP ports on 127.0.0.1, none handed out before by this process. All listeners are held
 * open until every port is picked, so the OS cannot hand the same port out twice; a different process could still
 * take one before Syncthing binds it (a tiny window, and the instance then fails with a clear early-exit error).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers: Server[] = [];
  const picked: number[] = [];
  try {
    for (let tries = 0; picked.length < n && tries < n * MAX_TRIES_PER_PORT; tries++) {
      const server = createServer();
      servers.push(server);
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(0, '127.0.0.1', () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      if (!handedOut.has(port)) picked.push(port);
    }
    if (picked.length < n) throw new Error(`found ${picked.length} of ${n} free loopback ports not handed out before`);
    for (const port of picked) handedOut.add(port);
    return picked;
  } finally {
    await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }
}
