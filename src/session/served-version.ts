// What version a built binary says it is when it runs: how `agents install` (and history, bisect and spec
// --boundaries, which install releases on demand) checks a build beyond its --version line.
import { startLab } from '../lab/lab.js';

/**
 * A built binary started briefly, alone on loopback (the lab's guarantees: its own home, no network), and the
 * X-Syncthing-Version header of its API's answer to a ping. About a second.
 */
export async function servedVersion(binary: string): Promise<string> {
  const lab = await startLab({ instances: 1, binary });
  try {
    const [inst] = lab.instances;
    const res = await fetch(`${inst.url}/rest/system/ping`, {
      headers: { 'X-API-Key': inst.apiKey },
      signal: AbortSignal.timeout(10_000),
    });
    await res.arrayBuffer();
    return res.headers.get('x-syncthing-version') ?? '(no X-Syncthing-Version header)';
  } finally {
    await lab.down();
  }
}
