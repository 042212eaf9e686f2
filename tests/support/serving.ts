// `synconf serve` started as a user starts it, from a given folder: resolves once it printed where it listens.
import { spawnCli } from './cli.js';
import { listeningFrom, type Listening } from './syncthing-cli.js';

export interface Serving extends Listening {
  /** from spawn to the URL printed */
  startupMs: number;
}

export function startServe(args: string[], cwd: string): Promise<Serving> {
  const t0 = performance.now();
  const child = spawnCli(['serve', '--port', '0', ...args], { cwd });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`serve ended (${code}) before it listened: ${err}`)));
    child.stdout!.on('data', (d) => {
      out += d;
      const listening = listeningFrom(
        child,
        () => out,
        () => err,
        /Stop with Ctrl-C/,
      );
      if (listening) {
        child.removeAllListeners('exit');
        resolve({ ...listening, startupMs: performance.now() - t0 });
      }
    });
  });
}
