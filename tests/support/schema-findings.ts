// What validation of schemas/ must report for documents of Syncthing 1.19.2: the finding helpers and the list of
// known deviations, shared by tests/schemas.test.ts (recorded documents) and tests/live/schemas-lab.test.ts (live ones).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate, formatError } from '../../src/schema/registry.js';
import { ROOT } from '../../src/paths.js';

export const AGENT = '1.19.2';
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'syncthing-1.19.2');

// Documents are JSON of any shape; the tests poke into them freely.
export type Doc = any;
export type Finding = [pointer: string, rule: string];

export const fixture = (name: string): Doc => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
const copy = <T>(doc: T): T => structuredClone(doc);
/** one JSON pointer segment */
const seg = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
export const ptr = (...keys: (string | number)[]) => keys.map((k) => `/${seg(k)}`).join('');

function findings(resource: string, doc: unknown, agentVersion?: string): Finding[] {
  return validate(resource, doc, agentVersion)
    .map((e): Finding => [e.pointer, e.rule])
    .sort(compareFindings);
}
const compareFindings = (a: Finding, b: Finding) =>
  a[0] + ' ' + a[1] < b[0] + ' ' + b[1] ? -1 : a[0] === b[0] && a[1] === b[1] ? 0 : 1;
/** without duplicates, sorted like findings() */
const normalize = (list: Finding[]): Finding[] =>
  [...new Map(list.map((f) => [f.join(' '), f] as const)).values()].sort(compareFindings);

export function assertValid(
  resource: string,
  doc: unknown,
  agentVersion: string | undefined = AGENT,
  what = resource,
): void {
  const errors = validate(resource, doc, agentVersion);
  assert.deepEqual(errors.map(formatError), [], `${what} should be a valid ${resource}`);
}

export function assertFindings(
  resource: string,
  doc: unknown,
  expected: Finding[],
  agentVersion: string | undefined = AGENT,
  what = resource,
): void {
  const errors = validate(resource, doc, agentVersion);
  const detail = errors.map((e) => `  ${e.rule} ${formatError(e)}`).join('\n');
  assert.deepEqual(
    findings(resource, doc, agentVersion),
    normalize(expected),
    `${what}: validation reported\n${detail}`,
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Known deviations of Syncthing 1.19.2 from the spec (as of 2.1.0). Each says what validation reports for a
// document of the resource (exactly), and how to fix only the deviating part so the rest can be shown to conform.

interface KnownDeviation {
  what: string;
  expected(doc: Doc): Finding[];
  conform(doc: Doc): void;
}

/** the usage-report fields the spec lists (pointers), all required */
const USAGE_REPORT_FIELDS: Record<string, 'integer' | 'number' | 'boolean' | 'string' | 'array'> = {
  '/urVersion': 'integer',
  '/uniqueID': 'string',
  '/version': 'string',
  '/longVersion': 'string',
  '/platform': 'string',
  '/numFolders': 'integer',
  '/numDevices': 'integer',
  '/totFiles': 'integer',
  '/folderMaxFiles': 'integer',
  '/totMiB': 'integer',
  '/folderMaxMiB': 'integer',
  '/memoryUsageMiB': 'integer',
  '/memorySize': 'integer',
  '/numCPU': 'integer',
  '/sha256Perf': 'number',
  '/usesRateLimit': 'boolean',
  '/upgradeAllowedManual': 'boolean',
  '/upgradeAllowedAuto': 'boolean',
  '/rescanIntvs': 'array',
  '/folderUses/ignorePerms': 'integer',
  '/folderUses/autoNormalize': 'integer',
  '/folderUses/sendonly': 'integer',
  '/folderUses/ignoreDelete': 'integer',
  '/deviceUses/compressMetadata': 'integer',
  '/deviceUses/compressAlways': 'integer',
  '/deviceUses/compressNever': 'integer',
  '/deviceUses/customCertName': 'integer',
  '/deviceUses/staticAddr': 'integer',
  '/deviceUses/dynamicAddr': 'integer',
  '/deviceUses/introducer': 'integer',
  '/announce/globalEnabled': 'boolean',
  '/announce/localEnabled': 'boolean',
  '/announce/defaultServersDNS': 'integer',
  '/announce/defaultServersIP': 'integer',
  '/announce/otherServers': 'integer',
  '/relays/enabled': 'boolean',
  '/relays/defaultServers': 'integer',
  '/relays/otherServers': 'integer',
};
const ZERO = { integer: 0, number: 0, boolean: false, string: '', array: [] } as const;
export const absentUsageFields = (doc: Doc) =>
  Object.keys(USAGE_REPORT_FIELDS).filter(
    (p) =>
      p
        .split('/')
        .slice(1)
        .reduce((node, key) => node?.[key], doc) === undefined,
  );

/** a file entry of db/localchanged or db/need: `permissions` where the spec has `flags` */
const fileInfoDeviation =
  (prefix: (string | number)[]): KnownDeviation['expected'] =>
  () => [[ptr(...prefix, 'flags'), 'required']];
const conformFileInfo = (f: Doc) => {
  f.flags = f.permissions;
};

const KNOWN_1_19_2: Record<string, KnownDeviation[]> = {
  'system-status': [
    {
      what: 'discoveryEnabled, discoveryErrors and discoveryMethods are left out when discovery is disabled (the lab disables it), not set to false/{}/0',
      expected: () => [
        ['/discoveryEnabled', 'required'],
        ['/discoveryErrors', 'required'],
        ['/discoveryMethods', 'required'],
      ],
      conform: (d) => Object.assign(d, { discoveryEnabled: false, discoveryErrors: {}, discoveryMethods: 0 }),
    },
    {
      what: 'themes is missing',
      expected: () => [['/themes', 'required']],
      conform: (d) => Object.assign(d, { themes: ['default', 'dark', 'black', 'light'] }),
    },
    {
      what: 'a successful lastDialStatus entry is {when, error: null}: no `ok: true`, and `error` is null instead of absent',
      expected: (d) =>
        Object.entries(d.lastDialStatus ?? {})
          .filter(([, v]) => (v as Doc).error === null)
          .flatMap(([addr]): Finding[] => [
            [ptr('lastDialStatus', addr, 'ok'), 'required'],
            [ptr('lastDialStatus', addr, 'error'), 'type'],
          ]),
      conform: (d) => {
        for (const v of Object.values(d.lastDialStatus ?? {}) as Doc[]) {
          if (v.error === null) {
            delete v.error;
            v.ok = true;
          }
        }
      },
    },
  ],
  'folder-status': [
    {
      what: 'the receiveOnlyChanged* group is present only for receive-only folders (the spec lists it unconditionally)',
      expected: (d) =>
        'receiveOnlyTotalItems' in d
          ? []
          : ['Bytes', 'Deletes', 'Directories', 'Files', 'Symlinks']
              .map((k): Finding => [`/receiveOnlyChanged${k}`, 'required'])
              .concat([['/receiveOnlyTotalItems', 'required']]),
      conform: (d) => {
        for (const k of ['Bytes', 'Deletes', 'Directories', 'Files', 'Symlinks']) d[`receiveOnlyChanged${k}`] ??= 0;
        d.receiveOnlyTotalItems ??= 0;
      },
    },
  ],
  'local-changed': [
    {
      what: 'file entries carry `permissions` ("0644") instead of `flags`',
      expected: (d) => d.files.flatMap((_: Doc, i: number) => fileInfoDeviation(['files', i])(d)),
      conform: (d) => d.files.forEach(conformFileInfo),
    },
  ],
  need: [
    {
      what: 'file entries carry `permissions` ("0644") instead of `flags`',
      expected: (d) =>
        (['progress', 'queued', 'rest'] as const).flatMap((list) =>
          d[list].flatMap((_: Doc, i: number) => fileInfoDeviation([list, i])(d)),
        ),
      conform: (d) => (['progress', 'queued', 'rest'] as const).forEach((list) => d[list].forEach(conformFileInfo)),
    },
  ],
  'file-info': [
    { what: '`permissions` instead of `flags`', expected: fileInfoDeviation([]), conform: conformFileInfo },
  ],
  'debug-facilities': [
    {
      what: 'the REST API facility is called `api`, not `http` (1.19.2 also lists app, backend, fs, nat, pmp, sha256, stun, ur, walkfs, watchaggregator: extra keys are allowed)',
      expected: () => [['/facilities/http', 'required']],
      conform: (d) => {
        d.facilities.http = d.facilities.api;
      },
    },
  ],
  'usage-report': [
    {
      what: 'fields whose value is zero/false/empty are left out (omitempty), uniqueID always (usage reporting was never accepted)',
      expected: (d) => absentUsageFields(d).map((p): Finding => [p, 'required']),
      conform: (d) => {
        for (const p of absentUsageFields(d)) {
          const keys = p.split('/').slice(1);
          const parent = keys.slice(0, -1).reduce((node, key) => (node[key] ??= {}), d);
          parent[keys.at(-1)!] = copy(ZERO[USAGE_REPORT_FIELDS[p]]);
        }
      },
    },
  ],
  'system-errors': [
    {
      what: 'after POST /rest/system/error/clear the list is `null`, not `[]`',
      expected: (d) => (d.errors === null ? [['/errors', 'type']] : []),
      conform: (d) => {
        d.errors ??= [];
      },
    },
  ],
  'pending-devices-changed': [
    {
      what: 'DELETE /rest/cluster/pending/devices without a device parameter answers 200 and reports the empty device ID ""',
      expected: (d) =>
        (d.removed ?? []).flatMap((r: Doc, i: number): Finding[] =>
          r.deviceID === '' ? [[ptr('removed', i, 'deviceID'), 'pattern']] : [],
        ),
      conform: (d) => {
        d.removed = (d.removed ?? []).filter((r: Doc) => r.deviceID !== '');
      },
    },
  ],
  'pending-folders-changed': [
    {
      what: 'DELETE /rest/cluster/pending/folders without a folder parameter answers 200 and reports the empty folder ID ""',
      expected: (d) =>
        (d.removed ?? []).flatMap((r: Doc, i: number): Finding[] =>
          r.folderID === '' ? [[ptr('removed', i, 'folderID'), 'pattern']] : [],
        ),
      conform: (d) => {
        d.removed = (d.removed ?? []).filter((r: Doc) => r.folderID !== '');
      },
    },
  ],
};
export const EVENT_DATA: Record<string, string> = {
  PendingDevicesChanged: 'pending-devices-changed',
  PendingFoldersChanged: 'pending-folders-changed',
};
KNOWN_1_19_2.event = [
  {
    what: 'the data of Pending*Changed events deviates as described for pending-devices-changed / pending-folders-changed',
    expected: (e) => {
      const data = EVENT_DATA[e.type];
      if (!data) return [];
      const inner = KNOWN_1_19_2[data].flatMap((k) => k.expected(e.data)).map(([p, r]): Finding => [`/data${p}`, r]);
      return inner;
    },
    conform: (e) => {
      const data = EVENT_DATA[e.type];
      if (data) KNOWN_1_19_2[data].forEach((k) => k.conform(e.data));
    },
  },
];
KNOWN_1_19_2.events = [
  {
    what: 'as for each event',
    expected: (list) =>
      list.flatMap((e: Doc, i: number) => KNOWN_1_19_2.event[0].expected(e).map(([p, r]): Finding => [`/${i}${p}`, r])),
    conform: (list) => list.forEach((e: Doc) => KNOWN_1_19_2.event[0].conform(e)),
  },
];

/** what validation must report for a 1.19.2 document: exactly its known deviations */
export const expectedFor = (resource: string, doc: Doc): Finding[] =>
  (KNOWN_1_19_2[resource] ?? []).flatMap((k) => k.expected(doc));
/** a copy with only the known deviations fixed */
export function conformed(resource: string, doc: Doc): Doc {
  const out = copy(doc);
  for (const k of KNOWN_1_19_2[resource] ?? []) k.conform(out);
  return out;
}
/** The 1.19.2 document fails with exactly its known deviations, and is accepted once they are fixed. */
export function assertAsKnown(resource: string, doc: Doc, what = resource): void {
  assertFindings(resource, doc, expectedFor(resource, doc), AGENT, what);
  assertValid(resource, conformed(resource, doc), AGENT, `${what} (known deviations fixed)`);
}
