// node-syncthing 3.3.7 ships no types: the calls tests/live/real-clients.test.ts and tests/serve-node-syncthing.test.ts
// make, each with its callback; with `eventListener` the client is an EventEmitter of the events it polls.
declare module 'node-syncthing' {
  import type { EventEmitter } from 'node:events';
  type Callback = (err: unknown, body: never) => void;
  interface Options {
    hostname: string;
    port: number;
    apiKey: string;
    https: boolean;
    /** poll /rest/events and emit each event by its type, first letter in lower case (FolderPaused: folderPaused) */
    eventListener?: boolean;
    /** how often the listener polls again after an error (from since=0) */
    retries?: number;
  }
  type Call = (cb: Callback) => void;
  interface Client extends EventEmitter {
    system: Record<'ping' | 'status' | 'version' | 'getConfig' | 'errors' | 'debug', Call> & {
      setConfig: (config: unknown, cb: Callback) => void;
    };
  }
  export default function syncthing(options: Options): Client;
}
