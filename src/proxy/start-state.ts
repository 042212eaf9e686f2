// The session's starting state: the folders and devices a live agent already held when the proxy started (a folder
// made before the client ran). A client's calls depend on it (GET /rest/db/status?folder=…), so `drift --against`
// sets it up on a lab of the other version before it asks again; where it cannot (a running agent, recordings), the
// calls that depend on it cannot tell, never "removed". Read with GETs only: the proxy writes nothing to an agent.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { HarEntry, Report } from '../schema/generated/types.js';
import { agentFetch } from '../agent-https.js';

export type StartState = NonNullable<NonNullable<Report['proxy']>['startState']>;

const TIMEOUT_MS = 10_000;

async function getJson(url: string, apiKey: string, path: string): Promise<unknown> {
  const res = await agentFetch(new URL(path, url), { headers: { 'X-API-Key': apiKey }, timeoutMs: TIMEOUT_MS });
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
  return JSON.parse(res.body);
}

interface ConfigDoc {
  folders?: { id?: unknown; label?: unknown; type?: unknown; devices?: { deviceID?: unknown }[] }[];
  devices?: { deviceID?: unknown; name?: unknown }[];
}

/** what the agent holds now, or why it cannot be read */
export async function readStartState(url: string, apiKey: string): Promise<StartState | string> {
  try {
    const { myID } = (await getJson(url, apiKey, '/rest/system/status')) as { myID?: unknown };
    const config = (await getJson(url, apiKey, '/rest/config')) as ConfigDoc;
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    const me = text(myID);
    return {
      myID: me,
      folders: (config.folders ?? []).map((f) => ({
        id: text(f.id),
        label: text(f.label),
        type: text(f.type) || 'sendreceive',
        devices: (f.devices ?? []).map((d) => text(d.deviceID)).filter((d) => d && d !== me),
      })),
      devices: (config.devices ?? [])
        .map((d) => ({ deviceID: text(d.deviceID), name: text(d.name) }))
        .filter((d) => d.deviceID && d.deviceID !== me),
    };
  } catch (e) {
    return (e as Error).message;
  }
}

/** "2 folder(s), 1 device(s)" */
export const stateSize = (s: StartState) => `${s.folders.length} folder(s), ${s.devices.length} device(s)`;

export const holdsAnything = (s: StartState | undefined): s is StartState =>
  !!s && s.folders.length + s.devices.length > 0;

async function post(url: string, apiKey: string, path: string, body: unknown): Promise<void> {
  const res = await agentFetch(new URL(path, url), {
    method: 'POST',
    headers: { 'X-API-Key': apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    timeoutMs: TIMEOUT_MS,
  });
  if (res.status !== 200) throw new Error(`POST ${path} answered ${res.status}`);
}

/**
 * The state set up on an agent synconf started (a lab of `drift --against`): the devices, then the folders (each in
 * a fresh folder under `dir`). Returns why it could not, or undefined when it is done.
 */
export async function seedStartState(
  url: string,
  apiKey: string,
  state: StartState,
  dir: string,
): Promise<string | undefined> {
  try {
    mkdirSync(dir);
    for (const d of state.devices) await post(url, apiKey, '/rest/config/devices', d);
    for (const [i, f] of state.folders.entries()) {
      const path = join(dir, `folder-${i}`);
      mkdirSync(path);
      const devices = f.devices.map((deviceID) => ({ deviceID }));
      await post(url, apiKey, '/rest/config/folders', { id: f.id, label: f.label, type: f.type, path, devices });
    }
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** the paths whose answers tell of the folders and devices an agent holds */
const STATEFUL =
  /^\/rest\/(config|system\/config|stats\/|db\/|folder\/|cluster\/|events|svc\/report|system\/connections)/;

/** whether an exchange's answer depends on the starting state (it names one of its IDs, or lists what is held) */
export function dependsOnStart(e: HarEntry, state: StartState): boolean {
  const url = new URL(e.request.url);
  if (STATEFUL.test(url.pathname)) return true;
  let named = url.pathname + url.search;
  try {
    named = decodeURIComponent(named);
  } catch {
    // an escape that decodes to nothing: the IDs are looked for as sent
  }
  return [...state.folders.map((f) => f.id), ...state.devices.map((d) => d.deviceID)].some(
    (id) => id && named.includes(id),
  );
}
