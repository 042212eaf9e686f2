// Where each statement of the spec's index can be broken in a recorded exchange: a table of rules, by statement id
// (a pattern names a family: every `config.options.X.default`, every `debug.facility.X`), each giving the operator
// and its target; shape statements without a rule take theirs from the schemas' `x-statement` annotations (the
// member they describe, in every answer whose schema reaches it). No rule reads what the suite checks: a statement
// nobody wrote a check for gets a mutant all the same.
import type { Statement } from '../schema/statements.js';
import { loadEndpoints } from '../schema/endpoints.js';
import { reachedStatements } from '../schema/schema-statements.js';
import { atLeast } from '../schema/version.js';
import type { SpecTarget } from './spec-operators.js';

/** the targets that break a statement, or why none does */
export type Targets = { targets: SpecTarget[] } | { none: string };

const CONFIG = ['GET /rest/config', 'GET /rest/system/config'];
/** a folder or device of the configuration also answers on its own path (a member read back after adding it) */
const ENTRIES: Record<'folders' | 'devices', string> = {
  folders: 'GET /rest/config/folders/{id}',
  devices: 'GET /rest/config/devices/{id}',
};
const STATUS = ['GET /rest/system/status'];
const DB_STATUS = ['GET /rest/db/status'];
const LOCALCHANGED = ['GET /rest/db/localchanged'];
const REPORT = ['GET /rest/svc/report'];
const DEBUG = ['GET /rest/system/debug'];
const BROWSE = ['GET /rest/system/browse'];
const RESTORE = ['POST /rest/folder/versions'];
/** the refusals a statement about a failure judges (not the API key's 403, which the auth statements judge) */
const FAILURES = [400, 404, 500];

type Make = (m: RegExpExecArray, agentVersion: string | null) => SpecTarget[] | SpecTarget | string;
const at = (operator: SpecTarget['operator'], endpoints: string[], pointer: string, value?: unknown): SpecTarget => ({
  operator,
  endpoints,
  at: pointer,
  ...(value !== undefined ? { value } : {}),
});
const on = (operator: SpecTarget['operator'], endpoints: string[], more: Partial<SpecTarget> = {}): SpecTarget => ({
  operator,
  endpoints,
  ...more,
});

/** an endpoint added in a version: absent (404) before it, answering from it; the operator breaks whichever holds */
function versionGate(endpoint: string, agentVersion: string | null): SpecTarget | string {
  const since = loadEndpoints().find((e) => e.id === endpoint)?.since;
  if (!since) return `schemas/endpoints.json gives ${endpoint} no "since"`;
  if (!agentVersion) return 'the recordings do not say which agent version answered them';
  return on(atLeast(agentVersion, since) ? 'absent' : 'present', [endpoint]);
}

const NOT_RECORDED_AGAIN =
  "no rule yet: breaking it means dropping the record from the GET answers after the peer's new announcement, and no target can locate that announcement in a recording";
const PENDING = (what: 'folders' | 'devices'): [RegExp, Make][] => {
  const del = [`DELETE /rest/cluster/pending/${what}`];
  const event = what === 'folders' ? 'PendingFoldersChanged' : 'PendingDevicesChanged';
  const id = `pending-${what}\\.delete`;
  return [
    [new RegExp(`^${id}\\.since$`), (_m, v) => versionGate(del[0], v)],
    [new RegExp(`^${id}\\.removes$`), () => on('undo-effect', del)],
    [new RegExp(`^${id}\\.(folder|device)$`), () => on('accept-refused', del, { statuses: FAILURES })],
    [new RegExp(`^${id}\\.device-given$`), () => on('undo-effect', del, { query: { device: true } })],
    [new RegExp(`^${id}\\.device-omitted$`), () => on('undo-effect', del, { query: { device: false } })],
    [new RegExp(`^${id}\\.success$`), () => on('fill-body', del)],
    [new RegExp(`^${id}\\.failure$`), () => on('error-body', del, { statuses: FAILURES })],
    [new RegExp(`^${id}\\.event$`), () => on('drop-events', ['GET /rest/events'], { event })],
    // an ignored record that comes back: the state after the DELETE replayed from before it
    [new RegExp(`^${id}\\.ignore-prevents$`), () => on('undo-effect', del)],
    [new RegExp(`^${id}\\.not-permanent$`), () => NOT_RECORDED_AGAIN],
  ];
};

/** the members a folder or device cannot be added without: its entry shows them as given, never the default */
const GIVEN = ['folder.id', 'folder.path', 'device.deviceID'];

/** a member of every configured folder or device: in the whole configuration, and in the entry read on its own */
function inEntries(kind: 'folders' | 'devices', member: string, make: (endpoints: string[], at: string) => SpecTarget) {
  return [make(CONFIG, `/${kind}/*${member}`), make([ENTRIES[kind]], member)];
}
const otherIn = (kind: 'folders' | 'devices', member: string) =>
  inEntries(kind, member, (endpoints, pointer) => at('other-value', endpoints, pointer));
const setIn = (kind: 'folders' | 'devices', member: string, value: unknown) =>
  inEntries(kind, member, (endpoints, pointer) => at('set-value', endpoints, pointer, value));

/** the rules, first match wins */
const RULES: [RegExp, Make][] = [
  // shown defaults: defaults.folder / defaults.device, the gui, options and ldap objects as the lab left them
  // (and the entry of a folder or device added without the member: it takes the default)
  [
    /^config\.(folder|device)\.([^.]+)\.default$/,
    (m) => [
      at('other-value', CONFIG, `/defaults/${m[1]}/${m[2]}`),
      ...(GIVEN.includes(`${m[1]}.${m[2]}`)
        ? []
        : [at('other-value', [ENTRIES[m[1] === 'folder' ? 'folders' : 'devices']], `/${m[2]}`)]),
    ],
  ],
  [/^config\.(gui|options|ldap)\.([^.]+)\.default$/, (m) => at('other-value', CONFIG, `/${m[1]}/${m[2]}`)],
  [/^config\.folder\.([^.]+)\.entry-default$/, (m) => otherIn('folders', `/${m[1]}`)],
  [/^config\.folder-device\.([^.]+)\.empty$/, (m) => otherIn('folders', `/devices/*/${m[1]}`)],
  [/^config\.defaults\.templates$/, () => otherIn('folders', '/rescanIntervalS')],
  [/^config\.folder\.type\.receive-only$/, () => setIn('folders', '/type', 'sendreceive')],
  [/^config\.folder\.id\.form$/, () => setIn('folders', '/id', 'mutant folder id')],
  [/^config\.device\.deviceID\.form$/, () => setIn('devices', '/deviceID', 'ABCDEFG-HIJKLMN')],
  [
    /^config\.device\.addresses\.form$/,
    () => inEntries('devices', '/addresses', (e, p) => at('add-item', e, p, 'not an address')),
  ],
  [/^config\.gui\.address\.host-port$/, () => at('set-value', CONFIG, '/gui/address', 'mutant-host')],
  [/^config\.gui\.password\.hash$/, () => at('set-value', CONFIG, '/gui/password', 'clear-text-password')],
  [/^config\.options\.(\w+)\.url$/, (m) => at('set-value', CONFIG, `/options/${m[1]}`, 'not a url')],
  [/^config\.ldap\.empty$/, () => at('set-value', CONFIG, '/ldap/address', 'ldap.example.org:389')],
  [/^versioning\.config-version$/, () => at('other-value', CONFIG, '/version')],
  [/^auth\.key\.gui-apiKey$/, () => at('other-value', CONFIG, '/gui/apiKey')],
  // the system status
  [
    /^status\.(connectionServiceStatus|lastDialStatus)\.(listeners|peers)$/,
    (m) => at('rename-keys', STATUS, `/${m[1]}`),
  ],
  [/^status\.lastDialStatus\.outcome$/, () => at('set-value', STATUS, '/lastDialStatus/*/ok', true)],
  [/^status\.myID\.own-device$/, () => at('foreign-id', STATUS, '/myID')],
  [/^status\.tilde\.home$/, () => at('relative-path', STATUS, '/tilde')],
  [/^status\.pathSeparator\.host$/, () => at('swap-separator', STATUS, '/pathSeparator')],
  [/^status\.lastDialStatus\.since$/, () => at('drop-member', STATUS, '/lastDialStatus')],
  [
    /^status\.connectionServiceStatus\.error-always$/,
    () => at('drop-member', STATUS, '/connectionServiceStatus/*/error'),
  ],
  [/^resources\.field-names\.exact$/, () => at('rename-keys', STATUS, '')],
  [/^resources\.timestamps\.rfc3339$/, () => at('drop-offset', STATUS, '/startTime')],
  [/^endpoints\.root$/, () => on('absent', STATUS)],
  [/^endpoints\.json-bodies$/, () => on('media-type', STATUS)],
  [/^endpoints\.query-parameters$/, () => on('refuse', DB_STATUS)],
  // the folder status
  [
    /^folder-status\.(global|inSync|local|need|receiveOnlyChanged)\.meaning$/,
    (m) => at('counter-skew', DB_STATUS, `/${m[1]}Files`),
  ],
  [/^folder-status\.invalid\.empty$/, () => at('set-value', DB_STATUS, '/invalid', 'mutant')],
  [/^folder-status\.pullErrors\.failed-files$/, () => at('counter-skew', DB_STATUS, '/pullErrors')],
  [/^folder-status\.sequence\.current$/, () => at('freeze-value', DB_STATUS, '/sequence')],
  [/^folder-status\.state\.idle$/, () => at('set-value', DB_STATUS, '/state', 'scanning')],
  [/^folder-status\.stateChanged\.when$/, () => at('set-value', DB_STATUS, '/stateChanged', '2000-01-01T00:00:00Z')],
  [/^folder-status\.version\.equals-sequence$/, () => at('counter-skew', DB_STATUS, '/version')],
  // local changes
  [/^localchanged\.file\.flags\.octal$/, () => at('set-value', LOCALCHANGED, '/files/*/flags', 'rw-r--r--')],
  [/^localchanged\.file\.name\.relative$/, () => at('absolute-path', LOCALCHANGED, '/files/*/name')],
  [/^localchanged\.file\.size\.bytes$/, () => at('counter-skew', LOCALCHANGED, '/files/*/size')],
  [/^localchanged\.file\.version\.form$/, () => at('set-value', LOCALCHANGED, '/files/*/version', ['mutant'])],
  [/^localchanged\.folder\.receive-only$/, () => on('refuse', LOCALCHANGED)],
  [/^localchanged\.folder\.mandatory$/, () => on('accept-refused', LOCALCHANGED, { statuses: FAILURES })],
  [/^localchanged\.files\.revertable$/, () => on('undo-effect', ['POST /rest/db/revert'])],
  [/^localchanged\.since$/, () => on('absent', LOCALCHANGED)],
  // the usage report against the configuration and the agent
  [/^report\.version\.agent$/, () => at('set-value', REPORT, '/version', 'v0.0.1')],
  [/^report\.(numFolders|numDevices)\.config$/, (m) => at('counter-skew', REPORT, `/${m[1]}`)],
  [/^report\.rescanIntvs\.config$/, () => at('add-item', REPORT, '/rescanIntvs', 7)],
  [/^report\.folderUses\.config$/, () => at('set-value', REPORT, '/folderUses/ignorePerms', 7)],
  [/^report\.deviceUses\.config$/, () => at('set-value', REPORT, '/deviceUses/introducer', 7)],
  [/^report\.announce\.config$/, () => at('other-value', REPORT, '/announce/globalEnabled')],
  [/^report\.relays\.config$/, () => at('other-value', REPORT, '/relays/enabled')],
  // debug facilities
  [/^debug\.facility\.(\w+)$/, (m) => at('drop-key', DEBUG, `/facilities/${m[1]}`)],
  [/^debug\.enabled\.listed$/, () => at('add-item', DEBUG, '/enabled', 'mutant-facility')],
  [/^debug\.since$/, () => on('absent', DEBUG)],
  // browse
  [/^browse\.current\.prefix$/, () => at('add-item', BROWSE, '', '/mutant-elsewhere/')],
  [/^browse\.current\.directories$/, () => at('add-item', BROWSE, '', '/etc/hostname')],
  [/^browse\.current\.(patterns|star-appended|subdirectories|partial-name)$/, () => at('set-value', BROWSE, '', [])],
  [/^browse\.root$/, () => ({ ...at('set-value', BROWSE, '', ['/mutant-root/']), query: { current: false } })],
  [/^browse\.entry\.trailing-separator$/, () => at('strip-trailing-separator', BROWSE, '/*')],
  [/^browse\.entry\.status-separator$/, () => at('swap-separator', BROWSE, '/*')],
  ...PENDING('folders'),
  ...PENDING('devices'),
  [
    /^errors\.pending\.success$/,
    () => on('fill-body', ['DELETE /rest/cluster/pending/folders', 'DELETE /rest/cluster/pending/devices']),
  ],
  [
    /^events\.pending-(folders|devices)-changed$/,
    (m) =>
      on('drop-events', ['GET /rest/events'], { event: `Pending${m[1] === 'folders' ? 'Folders' : 'Devices'}Changed` }),
  ],
  [/^events\.interface$/, () => on('absent', ['GET /rest/events'])],
  [
    /^events\.pending-(folders|devices)\.failure-silent$/,
    (m) => at('add-item', ['GET /rest/events'], '', failedDeleteEvent(m[1] === 'folders' ? 'Folders' : 'Devices')),
  ],
  // prio, the deprecated config path, restore, ping, shutdown, restart, error clear
  [/^prio\.(folder|file)$/, () => on('refuse', ['POST /rest/db/prio'])],
  [/^prio\.effect\.top-of-queue$/, () => on('undo-effect', ['POST /rest/db/prio'])],
  [/^prio\.response\.as-need$/, () => at('other-value', ['POST /rest/db/prio'], '/perpage')],
  [/^system-config\.deprecated$/, () => on('absent', ['GET /rest/config'])],
  [/^system-config\.still-works$/, () => at('other-value', ['GET /rest/system/config'], '/version')],
  [/^versions\.restore\.content$/, () => on('undo-effect', RESTORE)],
  [/^versions\.folder\.mandatory$/, () => on('accept-refused', RESTORE, { statuses: FAILURES })],
  [/^versions\.body\.(form|timestamp|version-time)$/, () => on('refuse', RESTORE)],
  [
    /^(versions\.response\.keyed-by-path|errors\.versions\.per-file)$/,
    () => at('set-value', RESTORE, '/mutant', 'no such version'),
  ],
  [/^ping\.post\.pong$/, () => at('set-value', ['POST /rest/system/ping'], '/ping', 'pang')],
  [/^shutdown\.exits$/, () => on('undo-effect', ['POST /rest/system/shutdown'])],
  [/^shutdown\.no-restart$/, () => on('undo-effect', ['POST /rest/system/shutdown'], { value: 'last' })],
  [/^restart\.immediate$/, () => on('undo-effect', ['POST /rest/system/restart'])],
  [/^error-clear\.removes-all$/, () => on('undo-effect', ['POST /rest/system/error/clear'])],
  [/^auth\.header$/, () => on('refuse', STATUS, { value: 403 })],
];

/** an event a failed DELETE must not generate, well-formed as the agent sends events */
const failedDeleteEvent = (what: 'Folders' | 'Devices') => ({
  id: 1000000,
  globalID: 1000000,
  time: '2026-01-01T00:00:00Z',
  type: `Pending${what}Changed`,
  data: { removed: [{ folderID: 'synconf-events', deviceID: 'not-a-device-id' }] },
});

const ENDPOINT_IN = /\b(GET|POST|PUT|PATCH|DELETE) (\/rest\/[^\s),]+)/;

/** the endpoint a statement's section (or, for the related paths, its quote) names */
function endpointOf(s: Statement): string | undefined {
  const named = s.id.startsWith('related.')
    ? (ENDPOINT_IN.exec(s.quote) ?? /(\/rest\/[^\s),]+)/.exec(s.quote))
    : undefined;
  if (named) return named.length > 2 ? `${named[1]} ${named[2]}` : `GET ${named[1]}`;
  const m = [...s.section]
    .reverse()
    .map((x) => ENDPOINT_IN.exec(x))
    .find(Boolean);
  return m ? `${m[1]} ${m[2]}` : undefined;
}

/** the rules by kind where the table has none: a shape annotated in the schemas, an endpoint's existence or input */
function byKind(s: Statement): SpecTarget[] | string {
  const reached = shapeTargets(s.id);
  if (reached.length) return reached;
  const endpoint = endpointOf(s);
  // a method the endpoint does not take is refused: the refusals of its path accepted
  if (/\.method$/.test(s.id) && endpoint) {
    const path = endpoint.split(' ')[1];
    const others = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => `${m} ${path}`).filter((x) => x !== endpoint);
    return [on('accept-refused', others, { statuses: [405] })];
  }
  if (s.kind === 'shape' && endpoint) {
    if (/\.exists$/.test(s.id)) return [on('absent', [endpoint])];
    if (/\.response$/.test(s.id)) return [at('retype', [endpoint], '')];
    // a parameter or body the spec defines (or rules out): an agent that reads it otherwise refuses the request
    return [on('refuse', [endpoint])];
  }
  return `no rule of src/mutate/spec-targets.ts breaks this ${s.kind} statement, and no schema annotates it`;
}

/** a member of a configured folder or device, where the configuration's own entry answers it too */
function onItsOwn(endpoint: string, pointer: string): SpecTarget[] {
  const entry = /^\/(folders|devices)\/\*(\/.*)$/.exec(pointer);
  return endpoint === 'GET /rest/config' && entry ? [at('retype', [ENTRIES[entry[1] as 'folders']], entry[2])] : [];
}

/** the members a shape statement describes, in the answers (and events) whose schemas reach its annotation */
function shapeTargets(id: string): SpecTarget[] {
  const out: SpecTarget[] = [];
  for (const e of loadEndpoints()) {
    const event = (e as { event?: { type: string; data: string } }).event;
    for (const r of e.response ? reachedStatements(e.response) : [])
      if (r.id === id) out.push(...r.at.flatMap((p) => [at('retype', [e.id], p), ...onItsOwn(e.id, p)]));
    if (!event) continue;
    for (const r of reachedStatements(event.data))
      if (r.id === id)
        out.push(...r.at.map((p) => ({ ...at('retype', ['GET /rest/events'], `/*/data${p}`), event: event.type })));
  }
  return out;
}

/** why a statement about an endpoint says nothing on an agent older than the endpoint (its version note aside) */
function notYet(s: Statement, agentVersion: string | null): string | undefined {
  const endpoint = s.kind === 'version' ? undefined : endpointOf(s);
  const since = endpoint && loadEndpoints().find((e) => e.id === endpoint)?.since;
  if (!since || !agentVersion || atLeast(agentVersion, since)) return undefined;
  return `${endpoint} exists from ${since} on: agent ${agentVersion} answers it with the router's 404, which its version statement judges`;
}

/** the targets of one statement on recordings of `agentVersion` */
export function targetsOf(s: Statement, agentVersion: string | null): Targets {
  const absent = notYet(s, agentVersion);
  if (absent) return { none: absent };
  const rule = RULES.map(([re, make]) => [re.exec(s.id), make] as const).find(([m]) => m);
  const made = rule ? rule[1](rule[0]!, agentVersion) : byKind(s);
  if (typeof made === 'string') return { none: made };
  return { targets: Array.isArray(made) ? made : [made] };
}
