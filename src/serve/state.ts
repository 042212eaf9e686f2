// What serve --stateful remembers: the configuration, the errors posted, the pending records, seeded from the
// recordings (state-seed.ts). Every change is committed here, so the events it emits are the agent's for that change,
// whichever request made it: ConfigSaved after each saved configuration (lib/config/wrapper.go), FolderPaused or
// FolderResumed for each folder whose `paused` changed (lib/model/model.go), PendingDevicesChanged and
// PendingFoldersChanged when a pending record is dismissed or its device or folder is added.
import { DEVICE_ID } from '../schema/normal-key.js';
import { goTime, type EventLog } from './events.js';
import type { Seed } from './state-seed.js';

export type Json = Record<string, unknown>;

const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isJson) : []);
const clone = <T>(v: T): T => structuredClone(v);

/** Go's refusal of a configuration that lib/config's prepare rejects (the handler answers it 500) */
export function configRefusal(config: Json): string | undefined {
  const seen = new Set<string>();
  for (const folder of list(config.folders)) {
    const id = typeof folder.id === 'string' ? folder.id : '';
    if (id === '') return 'folder has empty ID';
    if (!folder.path) return `folder "${id}": folder has empty path`;
    if (seen.has(id)) return `folder "${id}": folder has duplicate ID`;
    seen.add(id);
  }
  return undefined;
}

/** Go's refusal of a device ID (protocol.DeviceIDFromString), or undefined for a well-formed one */
export function deviceIdRefusal(id: string): string | undefined {
  const bare = id.replace(/[-\s]/g, '').toUpperCase();
  if (bare.length !== 56 && bare.length !== 52) return `"${id}": device ID invalid: incorrect length`;
  return DEVICE_ID.test(id.toUpperCase()) ? undefined : `"${id}": device ID invalid: check digit incorrect`;
}

/** the patterns the agent lists as `expanded` for ignore lines (lib/ignore/ignore.go parseLine), as recorded for
 * plain patterns on every bundled version: `p` also matches below any folder and as a folder's contents; a rooted
 * `/p` only as itself and its contents. Comments and empty lines are dropped; #include and the `!`, `(?i)`, `(?d)`
 * prefixes are not expanded as the agent expands them (not recorded) */
export function expandIgnores(lines: string[]): string[] {
  return lines
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('//'))
    .flatMap((l) => (l.startsWith('/') ? [l.slice(1), `${l.slice(1)}/**`] : [l, `**/${l}`, `${l}/**`, `**/${l}/**`]));
}

export class AgentState {
  config: Json;
  errors: Json[] = [];
  pendingDevices: Json;
  pendingFolders: Json;
  /** each folder's ignore lines a client set (POST /rest/db/ignores) */
  readonly ignores = new Map<string, string[]>();
  /** each folder's need queue as POST /rest/db/prio left it */
  readonly need = new Map<string, Json>();
  /** when a client's POST /rest/system/restart started the agent again (before it, the recorded start holds) */
  startedAt?: Date;

  constructor(
    readonly seed: Seed,
    readonly events: EventLog,
  ) {
    this.config = clone(seed.config ?? {});
    this.pendingDevices = clone(seed.pendingDevices ?? {});
    this.pendingFolders = clone(seed.pendingFolders ?? {});
  }

  folder(id: string): Json | undefined {
    return list(this.config.folders).find((f) => f.id === id);
  }

  device(id: string): Json | undefined {
    return list(this.config.devices).find((d) => d.deviceID === id);
  }

  /** the configuration becomes `next`, saved: its events emitted, what it supersedes dismissed */
  commit(next: Json): void {
    const before = new Map(list(this.config.folders).map((f) => [f.id, f]));
    this.config = next;
    for (const folder of list(next.folders)) {
      const was = before.get(folder.id);
      if (was && Boolean(was.paused) !== Boolean(folder.paused))
        this.events.append(folder.paused ? 'FolderPaused' : 'FolderResumed', { id: folder.id, label: folder.label });
    }
    this.events.append('ConfigSaved', clone(next));
    // a device or folder added to the configuration is no longer pending (the agent drops its record)
    for (const device of list(next.devices))
      if (typeof device.deviceID === 'string' && device.deviceID in this.pendingDevices)
        this.dismissDevice(device.deviceID);
    for (const folder of list(next.folders))
      if (typeof folder.id === 'string' && folder.id in this.pendingFolders) this.dismissFolder(folder.id, '');
  }

  /** the configuration with `key` set to `value` (a part replaced, the rest kept) */
  with(key: string, value: unknown): Json {
    return { ...this.config, [key]: value };
  }

  addError(text: string, now = new Date()): void {
    const template = this.seed.errorTemplate;
    const message = template ? template.message.split('{}').join(text) : text;
    this.errors.push({ ...(template?.item ?? {}), when: goTime(now), message });
  }

  errorsAnswer(): unknown {
    return this.errors.length ? { errors: clone(this.errors) } : clone(this.seed.noErrors);
  }

  dismissDevice(deviceID: string): void {
    delete this.pendingDevices[deviceID];
    this.events.append('PendingDevicesChanged', { removed: [{ deviceID }] });
  }

  /** the folder's pending offers by `deviceID` (every device's when it is '') */
  dismissFolder(folderID: string, deviceID: string): void {
    const entry = this.pendingFolders[folderID];
    const offeredBy = isJson(entry) && isJson(entry.offeredBy) ? entry.offeredBy : {};
    const devices = deviceID ? [deviceID] : Object.keys(offeredBy);
    for (const d of devices) delete offeredBy[d];
    if (!Object.keys(offeredBy).length) delete this.pendingFolders[folderID];
    const removed = devices.map((d) => ({ folderID, deviceID: d }));
    this.events.append('PendingFoldersChanged', { removed: removed.length ? removed : [{ folderID }] });
  }

  /** GET /rest/cluster/pending/folders?device=: the offers of that device only */
  pendingFoldersOf(deviceID: string | null): Json {
    if (!deviceID) return clone(this.pendingFolders);
    const out: Json = {};
    for (const [folder, entry] of Object.entries(this.pendingFolders)) {
      const offeredBy = isJson(entry) && isJson(entry.offeredBy) ? entry.offeredBy : {};
      if (deviceID in offeredBy) out[folder] = { ...(entry as Json), offeredBy: { [deviceID]: offeredBy[deviceID] } };
    }
    return out;
  }

  /** GET /rest/db/ignores of a folder: the lines set, and their expansion (Go's nil slices when there are none) */
  ignoresAnswer(folder: string): Json {
    const lines = this.ignores.get(folder) ?? [];
    const expanded = expandIgnores(lines);
    return { ...this.seed.noIgnores, ignore: lines.length ? lines : null, expanded: expanded.length ? expanded : null };
  }

  /** POST /rest/db/scan: the folder's state goes idle → scan-waiting → scanning → idle (lib/model/folder.go), each
   * change a StateChanged event as recorded on every bundled version */
  scan(folder: string, now = new Date()): void {
    const steps = [
      ['idle', 'scan-waiting'],
      ['scan-waiting', 'scanning'],
      ['scanning', 'idle'],
    ];
    steps.forEach(([from, to], i) =>
      this.events.append('StateChanged', { ...(i ? { duration: 0.0001 } : {}), folder, from, to }, now),
    );
  }

  /** GET /rest/db/need of a folder: its queue as seeded (recorded) and reordered since, or undefined */
  needOf(folder: string): Json | undefined {
    const need = this.need.get(folder) ?? clone(this.seed.need.get(folder));
    if (need) this.need.set(folder, need);
    return need;
  }

  /** POST /rest/db/prio: a queued file to the front of the queue (the agent's jobQueue.BringToFront; a file in
   * progress or not queued stays where it is); the folder's need as it is then */
  prio(folder: string, file: string): Json | undefined {
    const need = this.needOf(folder);
    if (!need) return undefined;
    const queued = list(need.queued);
    const at = queued.findIndex((f) => f.name === file);
    if (at > 0) need.queued = [queued[at], ...queued.slice(0, at), ...queued.slice(at + 1)];
    this.need.set(folder, need);
    return clone(need);
  }

  /** POST /rest/system/restart: the agent starts again: its recent errors gone, its events numbered from 1 anew,
   * beginning with Starting and StartupComplete (the recorded data); the configuration and pending records kept */
  restart(): void {
    this.startedAt = new Date();
    this.errors = [];
    this.events.restart();
    for (const type of ['Starting', 'StartupComplete'])
      if (this.seed.eventData.has(type)) this.events.append(type, clone(this.seed.eventData.get(type)));
  }

  /** GET /rest/system/status after a restart: the recorded status with the new start (its startTime as Go writes a
   * time, RFC 3339 with nanoseconds trimmed; uptime its whole seconds since), else undefined (the recordings know it) */
  systemStatus(now = new Date()): Json | undefined {
    const recorded = this.seed.answerText('GET', '/rest/system/status');
    if (!this.startedAt || recorded === undefined) return undefined;
    const status = JSON.parse(recorded) as unknown;
    if (!isJson(status)) return undefined;
    const startTime = this.startedAt.toISOString().replace(/\.?0*Z$/, 'Z');
    return { ...status, startTime, uptime: Math.floor((now.getTime() - this.startedAt.getTime()) / 1000) };
  }

  /** the folder status's ignorePatterns, when a client set the folder's ignores */
  private patternsOf(id: string): Json {
    const lines = this.ignores.get(id);
    return lines ? { ignorePatterns: expandIgnores(lines).length > 0 } : {};
  }

  /** GET /rest/db/status of a folder the state knows better than the recordings, else undefined */
  folderStatus(id: string): { status: number; body: unknown } | undefined {
    const folder = this.folder(id);
    if (!folder) return { status: 404, body: this.seed.noSuchFolder ?? 'no such folder\n' };
    const recorded = this.seed.folderStatus.get(id);
    // ignore patterns set: the spec's ignorePatterns boolean says so
    if (recorded && this.ignores.has(id) && !folder.paused)
      return { status: 200, body: { ...recorded, ...this.patternsOf(id) } };
    if (!folder.paused && recorded) return undefined; // the recordings know it
    const template = recorded ?? this.seed.folderStatus.values().next().value;
    if (!template) return undefined;
    // a paused folder has no runner: an empty summary, state "" (lib/model/folder_summary.go); a folder the client
    // added has scanned nothing: empty and idle (not shown: agent behaviour)
    const empty = Object.fromEntries(
      Object.entries(template).map(([k, v]) => [k, typeof v === 'number' ? 0 : isJson(v) ? {} : v]),
    );
    return folder.paused
      ? { status: 200, body: { ...empty, state: '', stateChanged: '0001-01-01T00:00:00Z' } }
      : { status: 200, body: { ...empty, ...this.patternsOf(id), state: 'idle', stateChanged: goTime(new Date()) } };
  }
}
