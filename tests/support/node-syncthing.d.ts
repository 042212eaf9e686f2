// node-syncthing 3.3.7 ships no types: the calls tests/live/real-clients.test.ts makes, each with its callback.
declare module 'node-syncthing' {
  type Callback = (err: unknown, body: never) => void;
  interface Options {
    hostname: string;
    port: number;
    apiKey: string;
    https: boolean;
  }
  type Call = (cb: Callback) => void;
  interface Client {
    system: Record<'ping' | 'status' | 'version' | 'getConfig' | 'errors' | 'debug', Call>;
  }
  export default function syncthing(options: Options): Client;
}
