// The resources serve --stateful holds, as a table: one row per method and path the state answers, with the reads
// a write changes, the events it emits and what it follows (a statement id of spec/statements.yaml, or the agent's
// code where the spec does not show it). A new endpoint is a new row. A path whose method has no row is answered
// from the recordings (the agent's recorded 405, say); a row whose endpoint this version's recordings do not show
// (`gate`) is not used for it.
import { decodeInto } from './go-json.js';
import { AgentState, configRefusal, deviceIdRefusal, type Json } from './state.js';

export interface StateRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
}

/** an answer of the state: JSON, a text (Go's http.Error), or an empty 200 (a write done) */
export interface StateReply {
  status: number;
  json?: unknown;
  text?: string;
  /** what the agent does once it has answered: starts again (its open long polls end), or stops for good */
  after?: 'restart' | 'shutdown';
}

export interface StateRule {
  method: string;
  path: RegExp;
  /** the statement id it follows, or "not shown: agent behaviour (<file of the agent>)" */
  follows: string;
  /** the reads whose answers it changes */
  reads: string[];
  /** the event types it can emit */
  emits: string[];
  /** what this version must have for the row to apply: a configuration, its defaults, or the endpoint answered */
  gate: 'config' | 'defaults' | 'answered';
  /** the answer, or undefined where the recordings know better */
  handle(state: AgentState, id: string, req: StateRequest, version?: string): StateReply | undefined;
}

const CONFIG_CODE = 'not shown: agent behaviour (lib/api/confighandler.go)';
const IGNORES_CODE = 'not shown: agent behaviour (lib/api/api.go getDBIgnores, postDBIgnores; lib/ignore/ignore.go)';
const SCAN_CODE = 'not shown: agent behaviour (lib/api/api.go postDBScan; lib/model/folder.go, folderstate.go)';
const API_CODE = 'not shown: agent behaviour (lib/api/api.go)';
const STARTED_CODE = 'not shown: agent behaviour (lib/api/api.go getSystemStatus: startTime, uptime since the start)';
const SAVED = ['ConfigSaved'];
const FOLDER_EVENTS = ['ConfigSaved', 'FolderPaused', 'FolderResumed', 'PendingFoldersChanged'];
const DEVICE_EVENTS = ['ConfigSaved', 'PendingDevicesChanged'];
const CONFIG_READS = ['GET /rest/config', 'GET /rest/system/config'];

const done: StateReply = { status: 200 };
const json = (value: unknown): StateReply => ({ status: 200, json: structuredClone(value) });
const refused = (status: number, text: string): StateReply => ({
  status,
  text: text.endsWith('\n') ? text : `${text}\n`,
});
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const items = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isJson) : []);

/** the configuration `next` saved, or the agent's refusal of it (500, as Modify's error) */
function save(state: AgentState, next: Json): StateReply {
  const refusal = configRefusal(next);
  if (refusal) return refused(500, refusal);
  state.commit(next);
  return done;
}

/** a collection of the configuration (folders by id, devices by deviceID) */
interface Collection {
  key: 'folders' | 'devices';
  id: 'id' | 'deviceID';
  resource: 'folder' | 'device';
  name: 'folder' | 'device';
}
const FOLDERS: Collection = { key: 'folders', id: 'id', resource: 'folder', name: 'folder' };
const DEVICES: Collection = { key: 'devices', id: 'deviceID', resource: 'device', name: 'device' };

const defaultsOf = (state: AgentState, c: Collection): Json => {
  const defaults = state.config.defaults;
  return isJson(defaults) && isJson(defaults[c.name]) ? (defaults[c.name] as Json) : {};
};

/** the configuration with `item` in place of the one with its id, or added */
function upsert(state: AgentState, c: Collection, item: Json): Json {
  const all = items(state.config[c.key]);
  const at = all.findIndex((x) => x[c.id] === item[c.id]);
  return state.with(c.key, at < 0 ? [...all, item] : all.map((x, i) => (i === at ? item : x)));
}

function decodeItem(state: AgentState, c: Collection, start: Json, req: StateRequest, version?: string) {
  const decoded = decodeInto(c.resource, start, req.body, version);
  if (!decoded.ok) return refused(400, decoded.message);
  return save(state, upsert(state, c, decoded.value as Json));
}

function putAll(state: AgentState, c: Collection, req: StateRequest, version?: string): StateReply {
  const decoded = decodeInto(undefined, undefined, req.body);
  if (!decoded.ok) return refused(400, decoded.message);
  if (!Array.isArray(decoded.value))
    return refused(400, `json: cannot unmarshal object into Go value of type []json.RawMessage`);
  const all: Json[] = [];
  for (const item of decoded.value as unknown[]) {
    const one = decodeInto(c.resource, defaultsOf(state, c), JSON.stringify(item), version);
    if (!one.ok) return refused(400, one.message);
    all.push(one.value as Json);
  }
  return save(state, state.with(c.key, all));
}

/** the item named in the path, or the agent's refusal: the device ID checked first, as the agent parses it */
function named(state: AgentState, c: Collection, id: string): { item: Json } | { reply: StateReply } {
  const bad = c.name === 'device' ? deviceIdRefusal(id) : undefined;
  if (bad) return { reply: refused(400, bad) };
  const item = c.name === 'device' ? state.device(id.toUpperCase()) : state.folder(id);
  return item ? { item } : { reply: refused(404, `No ${c.name} with given ID`) };
}

function collectionRows(c: Collection): StateRule[] {
  const all = new RegExp(`^/rest/config/${c.key}$`);
  const one = new RegExp(`^/rest/config/${c.key}/([^/]+)$`);
  const reads = [...CONFIG_READS, `GET /rest/config/${c.key}`, `GET /rest/config/${c.key}/{id}`];
  const emits = c.name === 'folder' ? FOLDER_EVENTS : DEVICE_EVENTS;
  const row = (method: string, path: RegExp, handle: StateRule['handle']): StateRule => ({
    method,
    path,
    follows: CONFIG_CODE,
    reads: method === 'GET' ? [] : reads,
    emits: method === 'GET' ? [] : emits,
    gate: 'config',
    handle,
  });
  return [
    row('GET', all, (s) => json(s.config[c.key] ?? [])),
    row('PUT', all, (s, _, req, v) => putAll(s, c, req, v)),
    row('POST', all, (s, _, req, v) => decodeItem(s, c, defaultsOf(s, c), req, v)),
    row('GET', one, (s, id) => {
      const found = named(s, c, id);
      return 'reply' in found ? found.reply : json(found.item);
    }),
    row('PUT', one, (s, _, req, v) => decodeItem(s, c, defaultsOf(s, c), req, v)),
    row('PATCH', one, (s, id, req, v) => {
      const found = named(s, c, id);
      return 'reply' in found ? found.reply : decodeItem(s, c, found.item, req, v);
    }),
    row('DELETE', one, (s, id) => {
      const bad = c.name === 'device' ? deviceIdRefusal(id) : undefined;
      if (bad) return refused(400, bad);
      const key = c.name === 'device' ? id.toUpperCase() : id;
      return save(
        s,
        s.with(
          c.key,
          items(s.config[c.key]).filter((x) => x[c.id] !== key),
        ),
      );
    }),
  ];
}

/** an object of the configuration: options, gui, ldap, the defaults */
interface Part {
  path: string;
  resource: string | undefined;
  get: (config: Json) => unknown;
  set: (state: AgentState, value: unknown) => Json;
  gate: StateRule['gate'];
}

const topPart = (key: string, resource: string): Part => ({
  path: `/rest/config/${key}`,
  resource,
  get: (config) => config[key],
  set: (state, value) => state.with(key, value),
  gate: 'config',
});
const defaultsPart = (key: string, resource: string | undefined): Part => ({
  path: `/rest/config/defaults/${key}`,
  resource,
  get: (config) => (isJson(config.defaults) ? config.defaults[key] : undefined),
  set: (state, value) => state.with('defaults', { ...(state.config.defaults as Json), [key]: value }),
  gate: 'defaults',
});
const PARTS: Part[] = [
  topPart('options', 'options'),
  topPart('gui', 'gui'),
  topPart('ldap', 'ldap'),
  defaultsPart('folder', 'folder'),
  defaultsPart('device', 'device'),
  defaultsPart('ignores', undefined),
];

function partRows(p: Part): StateRule[] {
  const path = new RegExp(`^${p.path}$`);
  const write = (s: AgentState, start: unknown, req: StateRequest, v?: string): StateReply => {
    const decoded = decodeInto(p.resource, start, req.body, v);
    return decoded.ok ? save(s, p.set(s, decoded.value)) : refused(400, decoded.message);
  };
  const row = (method: string, handle: StateRule['handle']): StateRule => ({
    method,
    path,
    follows: CONFIG_CODE,
    reads: method === 'GET' ? [] : [...CONFIG_READS, `GET ${p.path}`],
    emits: method === 'GET' ? [] : SAVED,
    gate: p.gate,
    handle,
  });
  const rows = [
    row('GET', (s) => json(p.get(s.config) ?? {})),
    // PUT starts from the agent's defaults of the part; the recordings hold none, the seeded value stands for them
    row('PUT', (s, _, req, v) => write(s, p.get(s.seed.config ?? {}), req, v)),
  ];
  return p.resource ? [...rows, row('PATCH', (s, _, req, v) => write(s, p.get(s.config), req, v))] : rows;
}

/** PUT /rest/config and the deprecated POST /rest/system/config: the whole configuration replaced */
function wholeConfig(s: AgentState, req: StateRequest, version?: string): StateReply {
  const start = { ...s.config, folders: [], devices: [] };
  const decoded = decodeInto('config', start, req.body, version);
  if (!decoded.ok) return refused(400, decoded.message);
  return save(s, decoded.value as Json);
}

const whole = (method: string, path: RegExp, follows: string, handle: StateRule['handle']): StateRule => ({
  method,
  path,
  follows,
  reads: method === 'GET' ? [] : [...CONFIG_READS, 'GET /rest/config/*', 'GET /rest/db/status'],
  emits: method === 'GET' ? [] : ['ConfigSaved', 'FolderPaused', 'FolderResumed', 'PendingDevicesChanged'],
  gate: 'config',
  handle,
});

const WHOLE_ROWS: StateRule[] = [
  whole('GET', /^\/rest\/config$/, 'related.config.exists', (s) => json(s.config)),
  whole('PUT', /^\/rest\/config$/, CONFIG_CODE, (s, _, req, v) => wholeConfig(s, req, v)),
  whole('GET', /^\/rest\/system\/config$/, 'system-config.response', (s) => json(s.config)),
  whole('POST', /^\/rest\/system\/config$/, 'system-config.still-works', (s, _, req, v) => wholeConfig(s, req, v)),
];

const answered = (
  method: string,
  path: RegExp,
  follows: string,
  reads: string[],
  emits: string[],
  handle: StateRule['handle'],
): StateRule => ({
  method,
  path,
  follows,
  reads,
  emits,
  gate: 'answered',
  handle,
});

/** DELETE /rest/cluster/pending/{devices,folders}: the device ID parsed first (400), then the record dismissed (a
 * folder's without a device: every device's offer) */
function dismissRow(
  kind: 'devices' | 'folders',
  dismiss: (s: AgentState, device: string, query: URLSearchParams) => void,
): StateRule {
  const event = kind === 'devices' ? 'PendingDevicesChanged' : 'PendingFoldersChanged';
  const path = new RegExp(`^/rest/cluster/pending/${kind}$`);
  return answered(
    'DELETE',
    path,
    `pending-${kind}.delete.event`,
    [`GET /rest/cluster/pending/${kind}`],
    [event],
    (s, _, req) => {
      const device = req.query.get('device') ?? '';
      const bad = device || kind === 'devices' ? deviceIdRefusal(device) : undefined;
      if (bad) return refused(400, bad);
      dismiss(s, device.toUpperCase(), req.query);
      return done;
    },
  );
}

const OTHER_ROWS: StateRule[] = [
  answered('GET', /^\/rest\/system\/error$/, 'related.system-error-get.exists', [], [], (s) => json(s.errorsAnswer())),
  answered('POST', /^\/rest\/system\/error$/, API_CODE, ['GET /rest/system/error'], [], (s, _, req) => {
    s.addError(req.body.trim());
    return done;
  }),
  answered('POST', /^\/rest\/system\/error\/clear$/, 'error-clear.removes-all', ['GET /rest/system/error'], [], (s) => {
    s.errors = [];
    return done;
  }),
  answered('GET', /^\/rest\/cluster\/pending\/devices$/, 'related.pending-devices-get.exists', [], [], (s) =>
    json(s.pendingDevices),
  ),
  dismissRow('devices', (s, device) => s.dismissDevice(device)),
  answered('GET', /^\/rest\/cluster\/pending\/folders$/, 'related.pending-folders-get.exists', [], [], (s, _, req) =>
    json(s.pendingFoldersOf(req.query.get('device'))),
  ),
  dismissRow('folders', (s, device, query) => s.dismissFolder(query.get('folder') ?? '', device)),
];

/** a folder the state holds, by the `folder` parameter, or undefined: the recordings answer an unknown one */
const knownFolder = (s: AgentState, req: StateRequest) => {
  const id = req.query.get('folder') ?? '';
  return s.folder(id) ? id : undefined;
};

const DB_ROWS: StateRule[] = [
  answered('GET', /^\/rest\/db\/ignores$/, IGNORES_CODE, [], [], (s, _, req) => {
    const folder = knownFolder(s, req);
    return folder === undefined ? undefined : json(s.ignoresAnswer(folder));
  }),
  answered(
    'POST',
    /^\/rest\/db\/ignores$/,
    IGNORES_CODE,
    ['GET /rest/db/ignores', 'GET /rest/db/status'],
    [],
    (s, _, req) => {
      const folder = knownFolder(s, req);
      if (folder === undefined) return undefined;
      // the body decoded as the agent decodes it: a map of string lists, of which "ignore" is taken
      const decoded = decodeInto(undefined, undefined, req.body);
      if (!decoded.ok) return refused(500, decoded.message);
      const lines = isJson(decoded.value) ? decoded.value.ignore : undefined;
      if (lines !== undefined && lines !== null && !(Array.isArray(lines) && lines.every((l) => typeof l === 'string')))
        return refused(500, 'json: cannot unmarshal into Go value of type []string');
      s.ignores.set(folder, (lines as string[] | null | undefined) ?? []);
      return json(s.ignoresAnswer(folder));
    },
  ),
  answered('POST', /^\/rest\/db\/scan$/, SCAN_CODE, [], ['StateChanged'], (s, _, req) => {
    const folder = knownFolder(s, req);
    if (folder === undefined || s.folder(folder)?.paused) return undefined;
    s.scan(folder);
    return done;
  }),
  answered('POST', /^\/rest\/db\/prio$/, 'prio.effect.top-of-queue', ['GET /rest/db/need'], [], (s, _, req) => {
    const folder = knownFolder(s, req);
    const need = folder === undefined ? undefined : s.prio(folder, req.query.get('file') ?? '');
    return need ? json(need) : undefined;
  }),
  answered('GET', /^\/rest\/db\/need$/, 'prio.response.as-need', [], [], (s, _, req) => {
    const folder = knownFolder(s, req);
    const need = folder === undefined ? undefined : s.needOf(folder);
    return need ? json(need) : undefined;
  }),
];

/** POST /rest/system/restart and /shutdown: answered, then the agent starts again (restart.immediate: its open long
 * polls end, its events numbered anew) or is gone for good (shutdown.no-restart: every later request reset) */
const life = (what: 'restart' | 'shutdown', follows: string, reads: string[], emits: string[]): StateRule =>
  answered('POST', new RegExp(`^/rest/system/${what}$`), follows, reads, emits, (s, _, req) => {
    if (what === 'restart') s.restart();
    // the agent's own text (a JSON object sent as text/plain), as recorded
    const text =
      s.seed.answerText('POST', req.path) ?? `{"ok": "${what === 'restart' ? 'restarting' : 'shutting down'}"}\n`;
    return { status: 200, text, after: what };
  });
const RESTART_READS = ['GET /rest/system/error', 'GET /rest/events', 'GET /rest/system/status'];
const LIFE_ROWS: StateRule[] = [
  life('restart', 'restart.immediate', RESTART_READS, ['Starting', 'StartupComplete']),
  life('shutdown', 'shutdown.no-restart', ['every request'], []),
  // a restarted agent has started anew: its startTime is the restart's, its uptime counts from it
  answered('GET', /^\/rest\/system\/status$/, STARTED_CODE, [], [], (s) => {
    const status = s.systemStatus();
    return status ? json(status) : undefined;
  }),
];

/** GET /rest/db/status: answered by the state only for a folder it knows better (paused, added, removed) */
const STATUS_ROW: StateRule = {
  method: 'GET',
  path: /^\/rest\/db\/status$/,
  follows: 'db-status.response',
  reads: [],
  emits: [],
  gate: 'answered',
  handle: (s, _, req) => {
    const status = s.folderStatus(req.query.get('folder') ?? '');
    if (!status) return undefined;
    return typeof status.body === 'string' ? refused(status.status, status.body) : json(status.body);
  },
};

export const STATE_RULES: StateRule[] = [
  ...WHOLE_ROWS,
  ...collectionRows(FOLDERS),
  ...collectionRows(DEVICES),
  ...PARTS.flatMap(partRows),
  ...OTHER_ROWS,
  ...DB_ROWS,
  ...LIFE_ROWS,
  STATUS_ROW,
];
