// The JSON Schemas of schemas/ against real Syncthing 1.19.2 documents.
//
// * every schema compiles, through the registry and from the sources;
// * documents recorded from 1.19.2 (tests/fixtures/syncthing-1.19.2/) and documents captured live from a lab are
//   accepted where 1.19.2 conforms; where it deviates, validation must report exactly the deviation (pointer +
//   rule), and the document with only the deviating part fixed must then be accepted. KNOWN_1_19_2 below is the
//   list of those deviations: a schema is never loosened to make 1.19.2 pass;
// * broken variants of conforming documents fail with the expected pointer and rule;
// * the version overlay: properties marked x-since are required only from that agent version on.
import { test, describe, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { listResources, validate, formatError } from '../src/schema/registry.js';
import { buildAjv, loadSchemas } from '../src/schema/ajv-setup.js';
import { releaseOf, atLeast } from '../src/schema/version.js';
import { expectationsFor } from '../src/runner/expectations.js';
import semverGte from 'semver/functions/gte.js';
import { useLab, labFetch, type LabInstance } from './support/lab.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SCHEMAS = join(ROOT, 'schemas');
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'syncthing-1.19.2');
const AGENT = '1.19.2';

// Documents are JSON of any shape; the tests poke into them freely.
type Doc = any; // eslint-disable-line @typescript-eslint/no-explicit-any
type Finding = [pointer: string, rule: string];

const fixture = (name: string): Doc => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
const copy = <T>(doc: T): T => structuredClone(doc);
/** one JSON pointer segment */
const seg = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');
const ptr = (...keys: (string | number)[]) => keys.map((k) => `/${seg(k)}`).join('');

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

function assertValid(resource: string, doc: unknown, agentVersion: string | undefined = AGENT, what = resource): void {
  const errors = validate(resource, doc, agentVersion);
  assert.deepEqual(errors.map(formatError), [], `${what} should be a valid ${resource}`);
}

function assertFindings(
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
const absentUsageFields = (doc: Doc) =>
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
const EVENT_DATA: Record<string, string> = {
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
const expectedFor = (resource: string, doc: Doc): Finding[] =>
  (KNOWN_1_19_2[resource] ?? []).flatMap((k) => k.expected(doc));
/** a copy with only the known deviations fixed */
function conformed(resource: string, doc: Doc): Doc {
  const out = copy(doc);
  for (const k of KNOWN_1_19_2[resource] ?? []) k.conform(out);
  return out;
}
/** The 1.19.2 document fails with exactly its known deviations, and is accepted once they are fixed. */
function assertAsKnown(resource: string, doc: Doc, what = resource): void {
  assertFindings(resource, doc, expectedFor(resource, doc), AGENT, what);
  assertValid(resource, conformed(resource, doc), AGENT, `${what} (known deviations fixed)`);
}

// ---------------------------------------------------------------------------------------------------------------
describe('schemas compile', () => {
  // The agent's resources (schemas/ also holds schemas of synconf's own files: scenario, report, cassette, …).
  const mine = [
    'common',
    'config',
    'folder',
    'folder-device',
    'device',
    'gui',
    'ldap',
    'options',
    'remote-ignored-device',
    'system-status',
    'folder-status',
    'file-info',
    'local-changed',
    'need',
    'usage-report',
    'debug-facilities',
    'browse',
    'ping',
    'versions',
    'versions-restore-result',
    'pending-devices',
    'pending-folders',
    'event',
    'events',
    'pending-devices-changed',
    'pending-folders-changed',
    'system-errors',
    'control-reply',
    'system-version',
  ];

  test('every schema is a resource the registry validates with', () => {
    const files = readdirSync(SCHEMAS).filter((f) => f.endsWith('.schema.json'));
    for (const name of mine) assert.ok(files.includes(`${name}.schema.json`), `schemas/${name}.schema.json exists`);
    const resources = listResources();
    for (const name of mine.filter((n) => n !== 'common')) {
      assert.ok(resources.includes(name), `registry lists ${name}`);
      assert.ok(Array.isArray(validate(name, {})), `${name} validates`);
      assert.ok(Array.isArray(validate(name, {}, '1.0.0')), `${name} validates for an old agent`);
    }
  });

  test('the sources compile with the project ajv setup (strict mode)', () => {
    const loaded = loadSchemas();
    const ajv = buildAjv(loaded.map((s) => s.schema));
    for (const s of loaded) assert.ok(ajv.getSchema(s.id), `${s.name} compiles`);
  });

  test('conventions: $schema, $id, title, description; common holds $defs only', () => {
    for (const name of mine) {
      const s = JSON.parse(readFileSync(join(SCHEMAS, `${name}.schema.json`), 'utf8'));
      assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema', name);
      assert.equal(s.$id, `https://synconf.dev/schemas/${name}.schema.json`, name);
      assert.match(s.title, /^[A-Z][A-Za-z0-9]+$/, `${name} title is PascalCase`);
      assert.ok(typeof s.description === 'string' && s.description.length > 10, `${name} has a description`);
      if (name === 'common')
        assert.deepEqual(
          Object.keys(s).filter((k) => !k.startsWith('$') && k !== 'title' && k !== 'description'),
          [],
        );
    }
  });

  test('endpoints.json lists every endpoint of the spec with an existing response resource', () => {
    const { endpoints } = JSON.parse(readFileSync(join(SCHEMAS, 'endpoints.json'), 'utf8')) as {
      endpoints: {
        id: string;
        method: string;
        path: string;
        section: string;
        response: string | null;
        since?: string;
        deprecated?: string;
        related?: boolean;
      }[];
    };
    const ids = endpoints.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    const resources = listResources();
    for (const e of endpoints) {
      assert.equal(e.id, `${e.method} ${e.path}`);
      assert.match(e.path, /^\/rest\//);
      assert.ok(e.section, `${e.id} names its spec section`);
      if (e.response !== null)
        assert.ok(resources.includes(e.response), `${e.id}: response ${e.response} is a resource`);
    }
    const spec = [
      'GET /rest/system/browse',
      'DELETE /rest/cluster/pending/folders',
      'DELETE /rest/cluster/pending/devices',
      'POST /rest/db/prio',
      'GET /rest/system/config',
      'POST /rest/folder/versions',
      'GET /rest/system/status',
      'POST /rest/system/ping',
      'POST /rest/system/shutdown',
      'POST /rest/system/restart',
      'POST /rest/system/error/clear',
      'GET /rest/db/localchanged',
      'GET /rest/db/status',
      'GET /rest/svc/report',
      'GET /rest/system/debug',
    ];
    assert.deepEqual(
      endpoints
        .filter((e) => !e.related)
        .map((e) => e.id)
        .sort(),
      [...spec].sort(),
    );
    const byId = Object.fromEntries(endpoints.map((e) => [e.id, e]));
    assert.equal(byId['GET /rest/system/config'].deprecated, '1.12.0');
    assert.equal(byId['DELETE /rest/cluster/pending/devices'].since, '1.18.0');
    assert.equal(byId['DELETE /rest/cluster/pending/folders'].since, '1.18.0');
    assert.equal(byId['GET /rest/db/localchanged'].since, '0.14.55');
    assert.equal(byId['GET /rest/system/debug'].since, '0.12.0');
    for (const id of [
      'GET /rest/system/ping',
      'GET /rest/cluster/pending/devices',
      'GET /rest/cluster/pending/folders',
      'GET /rest/db/need',
      'GET /rest/folder/versions',
      'GET /rest/config',
      'GET /rest/system/error',
      'POST /rest/system/error',
      'GET /rest/events',
      'GET /rest/system/version',
    ]) {
      assert.equal(byId[id]?.related, true, `${id} is a related endpoint`);
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Documents recorded from a real 1.19.2 (two instances on loopback, discovery off; see the fixtures' README).
const RECORDED: [file: string, resource: string][] = [
  ['config', 'config'],
  ['system-status', 'system-status'],
  ['folder-status', 'folder-status'],
  ['folder-status-sendreceive', 'folder-status'],
  ['local-changed', 'local-changed'],
  ['need', 'need'],
  ['usage-report', 'usage-report'],
  ['debug-facilities', 'debug-facilities'],
  ['browse', 'browse'],
  ['ping', 'ping'],
  ['versions', 'versions'],
  ['versions-restore-result', 'versions-restore-result'],
  ['pending-devices', 'pending-devices'],
  ['pending-folders', 'pending-folders'],
  ['events', 'events'],
  ['system-errors', 'system-errors'],
  ['system-errors-after-clear', 'system-errors'],
  ['control-reply', 'control-reply'],
  ['system-version', 'system-version'],
];

describe('recorded 1.19.2 documents', () => {
  for (const [file, resource] of RECORDED) {
    test(`${file}.json as ${resource}`, () => assertAsKnown(resource, fixture(file), `${file}.json`));
  }

  test('the parts of the configuration validate as their own resources', () => {
    const config = fixture('config');
    for (const f of config.folders) assertValid('folder', f, AGENT, `folder ${f.id}`);
    for (const f of config.folders) for (const d of f.devices) assertValid('folder-device', d);
    for (const d of config.devices) assertValid('device', d, AGENT, `device ${d.name}`);
    for (const name of ['gui', 'ldap', 'options'] as const) assertValid(name, config[name]);
    assert.ok(config.remoteIgnoredDevices.length > 0);
    for (const r of config.remoteIgnoredDevices) assertValid('remote-ignored-device', r);
    // the templates are not folders/devices: their IDs are empty
    assertFindings('folder', config.defaults.folder, [['/id', 'pattern']]);
    assertFindings('device', config.defaults.device, [['/deviceID', 'pattern']]);
  });

  test('file entries and event data validate as their own resources', () => {
    const local = fixture('local-changed');
    for (const f of local.files) assertAsKnown('file-info', f);
    const need = fixture('need');
    for (const f of [...need.progress, ...need.queued, ...need.rest]) assertAsKnown('file-info', f);
    const pending = (fixture('events') as Doc[]).filter((e) => EVENT_DATA[e.type]);
    assert.ok(pending.length >= 4);
    for (const e of pending) {
      assertAsKnown('event', e, `event ${e.id}`);
      assertAsKnown(EVENT_DATA[e.type], e.data, `data of event ${e.id} (${e.type})`);
    }
    // the recording has the one deviating event: DELETE /rest/cluster/pending/devices without a device
    assert.deepEqual(expectedFor('events', fixture('events')), [['/11/data/removed/0/deviceID', 'pattern']]);
  });

  test('usage report: exactly the zero-valued fields of the recorded state are missing', () => {
    assert.deepEqual(absentUsageFields(fixture('usage-report')), [
      '/uniqueID',
      '/usesRateLimit',
      '/upgradeAllowedManual',
      '/upgradeAllowedAuto',
      '/folderUses/ignorePerms',
      '/folderUses/sendonly',
      '/folderUses/ignoreDelete',
      '/deviceUses/compressAlways',
      '/deviceUses/compressNever',
      '/deviceUses/customCertName',
      '/deviceUses/introducer',
      '/announce/globalEnabled',
      '/announce/localEnabled',
      '/announce/defaultServersIP',
      '/announce/otherServers',
      '/relays/enabled',
      '/relays/defaultServers',
      '/relays/otherServers',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Broken variants of conforming documents: each must fail with exactly the given findings.
type Variant = [what: string, resource: string, base: () => Doc, mutate: (d: Doc) => void, expected: Finding[]];
const ok =
  (file: string, resource = file) =>
  () =>
    conformed(resource, fixture(file));
const first = (o: object) => Object.keys(o)[0];

const VARIANTS: Variant[] = [
  ['folder without id', 'config', ok('config'), (d) => delete d.folders[0].id, [['/folders/0/id', 'required']]],
  [
    'folder id with a space',
    'config',
    ok('config'),
    (d) => (d.folders[0].id = 'my folder'),
    [['/folders/0/id', 'pattern']],
  ],
  ['unknown folder type', 'config', ok('config'), (d) => (d.folders[0].type = 'mirror'), [['/folders/0/type', 'enum']]],
  [
    'rescanIntervalS as text',
    'config',
    ok('config'),
    (d) => (d.folders[0].rescanIntervalS = '3600'),
    [['/folders/0/rescanIntervalS', 'type']],
  ],
  [
    'fsWatcherDelayS fractional',
    'config',
    ok('config'),
    (d) => (d.folders[0].fsWatcherDelayS = 10.5),
    [['/folders/0/fsWatcherDelayS', 'type']],
  ],
  [
    'minDiskFree without unit',
    'config',
    ok('config'),
    (d) => delete d.folders[0].minDiskFree.unit,
    [['/folders/0/minDiskFree/unit', 'required']],
  ],
  [
    'versioning.params not an object',
    'config',
    ok('config'),
    (d) => (d.folders[0].versioning.params = []),
    [['/folders/0/versioning/params', 'type']],
  ],
  [
    'folder device with a short ID',
    'config',
    ok('config'),
    (d) => (d.folders[0].devices[0].deviceID = 'ABCDEFG'),
    [['/folders/0/devices/0/deviceID', 'pattern']],
  ],
  [
    'introducedBy not a device ID',
    'config',
    ok('config'),
    (d) => (d.folders[0].devices[0].introducedBy = 'someone'),
    [['/folders/0/devices/0/introducedBy', 'pattern']],
  ],
  [
    'lower-case device ID',
    'config',
    ok('config'),
    (d) => (d.devices[0].deviceID = d.devices[0].deviceID.toLowerCase()),
    [['/devices/0/deviceID', 'pattern']],
  ],
  [
    'device address without scheme',
    'config',
    ok('config'),
    (d) => (d.devices[1].addresses = ['127.0.0.1:22000']),
    [['/devices/1/addresses/0', 'pattern']],
  ],
  [
    'unknown compression',
    'config',
    ok('config'),
    (d) => (d.devices[0].compression = 'sometimes'),
    [['/devices/0/compression', 'enum']],
  ],
  [
    'ignoredFolders entry with a bad time',
    'config',
    ok('config'),
    (d) => (d.devices[0].ignoredFolders = [{ time: 'yesterday', id: 'abc-12', label: '' }]),
    [['/devices/0/ignoredFolders/0/time', 'format']],
  ],
  [
    'gui address without port',
    'config',
    ok('config'),
    (d) => (d.gui.address = 'localhost'),
    [['/gui/address', 'pattern']],
  ],
  ['gui.enabled as text', 'config', ok('config'), (d) => (d.gui.enabled = 'true'), [['/gui/enabled', 'type']]],
  [
    'ldap without searchFilter',
    'config',
    ok('config'),
    (d) => delete d.ldap.searchFilter,
    [['/ldap/searchFilter', 'required']],
  ],
  [
    'urURL not a URL',
    'config',
    ok('config'),
    (d) => (d.options.urURL = 'data syncthing net'),
    [['/options/urURL', 'format']],
  ],
  [
    'localAnnounceMCAddr IPv4',
    'config',
    ok('config'),
    (d) => (d.options.localAnnounceMCAddr = '239.0.0.1:21027'),
    [['/options/localAnnounceMCAddr', 'pattern']],
  ],
  [
    'options without connectionLimitMax',
    'config',
    ok('config'),
    (d) => delete d.options.connectionLimitMax,
    [['/options/connectionLimitMax', 'required']],
  ],
  [
    'remote ignored device with a bad time',
    'config',
    ok('config'),
    (d) => (d.remoteIgnoredDevices[0].time = '2026-11-22'),
    [['/remoteIgnoredDevices/0/time', 'format']],
  ],
  [
    'remote ignored device address without port',
    'config',
    ok('config'),
    (d) => (d.remoteIgnoredDevices[0].address = '127.0.0.1'),
    [['/remoteIgnoredDevices/0/address', 'pattern']],
  ],
  [
    'defaults without device',
    'config',
    ok('config'),
    (d) => delete d.defaults.device,
    [['/defaults/device', 'required']],
  ],
  [
    'defaults.folder id not a folder ID',
    'config',
    ok('config'),
    (d) => (d.defaults.folder.id = 'a b'),
    [['/defaults/folder/id', 'pattern']],
  ],
  ['config version as text', 'config', ok('config'), (d) => (d.version = '36'), [['/version', 'type']]],
  [
    'startTime without offset',
    'system-status',
    ok('system-status'),
    (d) => (d.startTime = '2026-11-22T04:16:51'),
    [['/startTime', 'format']],
  ],
  [
    'myID in lower case',
    'system-status',
    ok('system-status'),
    (d) => (d.myID = d.myID.toLowerCase()),
    [['/myID', 'pattern']],
  ],
  ['cpuPercent as text', 'system-status', ok('system-status'), (d) => (d.cpuPercent = '0'), [['/cpuPercent', 'type']]],
  ['uptime fractional', 'system-status', ok('system-status'), (d) => (d.uptime = 1.5), [['/uptime', 'type']]],
  ['themes not an array', 'system-status', ok('system-status'), (d) => (d.themes = 'default'), [['/themes', 'type']]],
  [
    'connection service error a number',
    'system-status',
    ok('system-status'),
    (d) => (d.connectionServiceStatus[first(d.connectionServiceStatus)].error = 42),
    [[ptr('connectionServiceStatus', first(fixture('system-status').connectionServiceStatus), 'error'), 'type']],
  ],
  [
    'connection service without lanAddresses',
    'system-status',
    ok('system-status'),
    (d) => delete d.connectionServiceStatus[first(d.connectionServiceStatus)].lanAddresses,
    [
      [
        ptr('connectionServiceStatus', first(fixture('system-status').connectionServiceStatus), 'lanAddresses'),
        'required',
      ],
    ],
  ],
  [
    'dial status ok: false',
    'system-status',
    ok('system-status'),
    (d) => (d.lastDialStatus[first(d.lastDialStatus)].ok = false),
    [[ptr('lastDialStatus', first(fixture('system-status').lastDialStatus), 'ok'), 'const']],
  ],
  [
    'dial status without when',
    'system-status',
    ok('system-status'),
    (d) => delete d.lastDialStatus[first(d.lastDialStatus)].when,
    [[ptr('lastDialStatus', first(fixture('system-status').lastDialStatus), 'when'), 'required']],
  ],
  [
    'discoveryErrors value not text',
    'system-status',
    ok('system-status'),
    (d) => (d.discoveryErrors = { global: 1 }),
    [['/discoveryErrors/global', 'type']],
  ],
  [
    'stateChanged not a timestamp',
    'folder-status',
    ok('folder-status'),
    (d) => (d.stateChanged = 'idle since 5 min'),
    [['/stateChanged', 'format']],
  ],
  ['invalid not empty', 'folder-status', ok('folder-status'), (d) => (d.invalid = 'broken'), [['/invalid', 'const']]],
  [
    'folder status without sequence',
    'folder-status',
    ok('folder-status'),
    (d) => delete d.sequence,
    [['/sequence', 'required']],
  ],
  [
    'ignorePatterns as number',
    'folder-status',
    ok('folder-status'),
    (d) => (d.ignorePatterns = 0),
    [['/ignorePatterns', 'type']],
  ],
  [
    'version entry without counter',
    'local-changed',
    ok('local-changed'),
    (d) => (d.files[0].version = ['UFWNNAP']),
    [['/files/0/version/0', 'pattern']],
  ],
  [
    'flags not octal',
    'local-changed',
    ok('local-changed'),
    (d) => (d.files[0].flags = 'rw-r--r--'),
    [['/files/0/flags', 'pattern']],
  ],
  [
    'modified not a timestamp',
    'local-changed',
    ok('local-changed'),
    (d) => (d.files[0].modified = 1700000000),
    [['/files/0/modified', 'type']],
  ],
  ['page missing', 'local-changed', ok('local-changed'), (d) => delete d.page, [['/page', 'required']]],
  ['need without queued', 'need', ok('need'), (d) => delete d.queued, [['/queued', 'required']]],
  [
    'need item size as text',
    'need',
    ok('need'),
    (d) => (d.progress[0].size = '1048576'),
    [['/progress/0/size', 'type']],
  ],
  [
    'usage report sendonly counter as text',
    'usage-report',
    ok('usage-report'),
    (d) => (d.folderUses.sendonly = '0'),
    [['/folderUses/sendonly', 'type']],
  ],
  [
    'usage report without announce',
    'usage-report',
    ok('usage-report'),
    (d) => delete d.announce,
    [['/announce', 'required']],
  ],
  [
    'usage report rescanIntvs with text',
    'usage-report',
    ok('usage-report'),
    (d) => (d.rescanIntvs = ['3600']),
    [['/rescanIntvs/0', 'type']],
  ],
  [
    'debug facility without description text',
    'debug-facilities',
    ok('debug-facilities'),
    (d) => (d.facilities.beacon = 1),
    [['/facilities/beacon', 'type']],
  ],
  [
    'debug without versioner facility',
    'debug-facilities',
    ok('debug-facilities'),
    (d) => delete d.facilities.versioner,
    [['/facilities/versioner', 'required']],
  ],
  [
    'browse entry without trailing separator',
    'browse',
    ok('browse'),
    (d) => (d[0] = d[0].replace(/\/$/, '')),
    [['/0', 'pattern']],
  ],
  ['ping PONG', 'ping', ok('ping'), (d) => (d.ping = 'PONG'), [['/ping', 'const']]],
  [
    'version entry with a bad versionTime',
    'versions',
    ok('versions'),
    (d) => (d[first(d)][0].versionTime = '20240101-000000'),
    [[ptr(first(fixture('versions')), 0, 'versionTime'), 'format']],
  ],
  [
    'version entry size as text',
    'versions',
    ok('versions'),
    (d) => (d[first(d)][0].size = '3'),
    [[ptr(first(fixture('versions')), 0, 'size'), 'type']],
  ],
  [
    'restore result value not text',
    'versions-restore-result',
    ok('versions-restore-result'),
    (d) => (d[first(d)] = { error: 'x' }),
    [[ptr(first(fixture('versions-restore-result'))), 'type']],
  ],
  [
    'pending device address without port',
    'pending-devices',
    ok('pending-devices'),
    (d) => (d[first(d)].address = '127.0.0.1'),
    [[ptr(first(fixture('pending-devices')), 'address'), 'pattern']],
  ],
  [
    'pending device keyed by a non-ID',
    'pending-devices',
    ok('pending-devices'),
    (d) => (d['not-a-device'] = d[first(d)]),
    [['/not-a-device', 'pattern']],
  ],
  [
    'pending folder offer with a text boolean',
    'pending-folders',
    ok('pending-folders'),
    (d) => (d['nq-1'].offeredBy[first(d['nq-1'].offeredBy)].receiveEncrypted = 'false'),
    [[ptr('nq-1', 'offeredBy', first(fixture('pending-folders')['nq-1'].offeredBy), 'receiveEncrypted'), 'type']],
  ],
  [
    'pending folder without offeredBy',
    'pending-folders',
    ok('pending-folders'),
    (d) => delete d['nq-1'].offeredBy,
    [['/nq-1/offeredBy', 'required']],
  ],
  ['event time not a timestamp', 'events', ok('events'), (d) => (d[0].time = 'now'), [['/0/time', 'format']]],
  ['event without globalID', 'events', ok('events'), (d) => delete d[0].globalID, [['/0/globalID', 'required']]],
  [
    'pending devices added entry without name',
    'events',
    ok('events'),
    (d) => delete d[4].data.added[0].name,
    [['/4/data/added/0/name', 'required']],
  ],
  [
    'pending folders removed entry without folderID',
    'events',
    ok('events'),
    (d) => delete d[10].data.removed[0].folderID,
    [['/10/data/removed/0/folderID', 'required']],
  ],
  [
    'error without when',
    'system-errors',
    ok('system-errors'),
    (d) => delete d.errors[0].when,
    [['/errors/0/when', 'required']],
  ],
  [
    'error level boolean',
    'system-errors',
    ok('system-errors'),
    (d) => (d.errors[0].level = true),
    [['/errors/0/level', 'type']],
  ],
  ['errors null', 'system-errors', ok('system-errors'), (d) => (d.errors = null), [['/errors', 'type']]],
  ['control reply without ok', 'control-reply', ok('control-reply'), (d) => delete d.ok, [['/ok', 'required']]],
  [
    'version without the v',
    'system-version',
    ok('system-version'),
    (d) => (d.version = '1.19.2'),
    [['/version', 'pattern']],
  ],
  ['version without arch', 'system-version', ok('system-version'), (d) => delete d.arch, [['/arch', 'required']]],
];

describe('broken variants of real documents', () => {
  for (const [what, resource, base, mutate, expected] of VARIANTS) {
    test(`${resource}: ${what}`, () => {
      const doc = base();
      mutate(doc);
      assertFindings(resource, doc, expected);
    });
  }

  test('accepted variants: what the spec allows', () => {
    const config = ok('config')();
    config.folders[0].type = 'sendonly';
    config.folders[1].type = 'receiveencrypted';
    config.devices[0].addresses = [
      'dynamic',
      'tcp://[::1]:22000',
      'quic://example.org:22000',
      'relay://10.0.0.1:22067/?id=X',
    ];
    config.defaults.folder.id = ''; // the templates' IDs are shown empty
    config.defaults.device.deviceID = '';
    config.gui.address = '[::1]:8384';
    assertValid('config', config);
    const status = ok('system-status')();
    const addr = first(status.lastDialStatus);
    status.lastDialStatus[addr] = { when: '2026-11-22T04:17:37.123456789+01:00', error: 'dial tcp: refused' }; // failure
    status.lastDialStatus['tcp://127.0.0.1:1'] = { when: '2026-11-22T04:17:37Z', ok: true }; // success
    assertValid('system-status', status);
    const errors = ok('system-errors')();
    errors.errors = [];
    assertValid('system-errors', errors);
    errors.errors = [{ when: '2026-11-22T04:17:37Z', message: 'x', level: 'ERROR' }]; // a 2.x agent's level
    assertValid('system-errors', errors);
    assertValid('pending-folders-changed', { removed: [{ folderID: 'abc-12' }] }); // removed for every device
    assertValid('versions', {});
    assertValid('versions-restore-result', {});
    assertValid('browse', []);
  });
});

// ---------------------------------------------------------------------------------------------------------------
describe('version overlay', () => {
  const status = () => conformed('system-status', fixture('system-status'));

  test('the conformed status is valid for every agent version', () => {
    for (const v of ['0.14.0', '1.1.0', '1.2.0', '1.19.2', 'v1.19.2-ds1', '2.1.0', undefined])
      assertValid('system-status', status(), v, `status for ${v}`);
  });

  test('system-status without lastDialStatus: valid before 1.2.0, required from 1.2.0 on', () => {
    const doc = status();
    delete doc.lastDialStatus;
    assertValid('system-status', doc, '1.1.0');
    assertValid('system-status', doc, '1.1.9');
    for (const v of ['1.2.0', 'v1.19.2-ds1', '2.1.0', undefined])
      assertFindings('system-status', doc, [['/lastDialStatus', 'required']], v, `status for ${v}`);
  });

  test('connection service entries without error: valid before 1.2.0, required from 1.2.0 on', () => {
    const doc = status();
    const addr = first(doc.connectionServiceStatus);
    delete doc.connectionServiceStatus[addr].error;
    assertValid('system-status', doc, '1.1.0');
    for (const v of ['1.2.0', '2.1.0'])
      assertFindings('system-status', doc, [[ptr('connectionServiceStatus', addr, 'error'), 'required']], v);
  });

  test('x-since does not relax types: a present lastDialStatus is still checked for an old agent', () => {
    const doc = status();
    doc.lastDialStatus = [];
    assertFindings('system-status', doc, [['/lastDialStatus', 'type']], '1.1.0');
  });
});

describe('agent versions as the agents report them', () => {
  test("Debian's -ds1 suffix is not a pre-release: v1.12.1-ds1 is 1.12.1 for every comparison, the raw string is kept", () => {
    assert.equal(semverGte('1.12.1-ds1', '1.12.1'), false, 'a naive semver comparison puts it before 1.12.1');
    assert.equal(releaseOf('v1.12.1-ds1'), '1.12.1');
    assert.equal(releaseOf('v1.29.5'), '1.29.5');
    assert.equal(atLeast('v1.12.1-ds1', '1.12.1'), true);
    assert.equal(atLeast('v1.12.1-ds1', '1.13.0'), false);
    assert.equal(atLeast('v1.19.2-ds1', '1.18.0'), true);
    assert.equal(atLeast('v1.17.9-ds1', '1.18.0'), false);
    // a schema gate at exactly the Debian build's release applies to it
    const doc = conformed('system-status', fixture('system-status'));
    delete doc.lastDialStatus;
    assertFindings('system-status', doc, [['/lastDialStatus', 'required']], 'v1.2.0-ds1');
  });

  test('each known-deviations file is chosen by the release of the raw version', () => {
    const files = (v: string) => expectationsFor(v).map((e) => e.file);
    assert.deepEqual(files('v1.12.1-ds1'), ['expectations/syncthing-1.12.yaml']);
    assert.deepEqual(files('v1.19.2-ds1'), ['expectations/syncthing-1.19.yaml']);
    assert.deepEqual(files('v1.29.5'), ['expectations/syncthing-1.29.yaml']);
    assert.deepEqual(files('v1.15.0'), []);
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Live: documents captured from a lab of two real instances, "agent" and "peer".
describe('real Syncthing 1.19.2 responses (lab)', { timeout: 180_000 }, () => {
  const shared = useLab(2);
  const live: Record<string, Doc> = {};
  let agent: LabInstance;
  let peer: LabInstance;

  async function call(inst: LabInstance, method: string, path: string, body?: unknown): Promise<Doc> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      init.headers = { 'Content-Type': typeof body === 'string' ? 'text/plain' : 'application/json' };
    }
    const res = await labFetch(inst, path, init);
    const text = await res.text();
    assert.equal(res.status, 200, `${inst.name}: ${method} ${path} answered ${res.status} ${text}`);
    return text.trim() === '' ? undefined : JSON.parse(text);
  }
  const get = (inst: LabInstance, path: string) => call(inst, 'GET', path);

  async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await sleep(50);
    }
  }

  const scanned = (inst: LabInstance, folder: string, check: (s: Doc) => boolean) =>
    until(`${folder} scanned on ${inst.name}`, async () => {
      const s = await get(inst, `/rest/db/status?folder=${folder}`);
      return s.state === 'idle' && check(s) ? s : undefined;
    });

  before(async () => {
    [agent, peer] = shared.lab.instances;
    const q = encodeURIComponent;

    // Folders of the agent: send-receive, receive-only with a local change, simple versioning with planted versions.
    const dir = (name: string) => {
      const d = join(agent.dataDir, name);
      mkdirSync(d, { recursive: true });
      return d;
    };
    writeFileSync(join(dir('sr-1'), 'hello.txt'), 'hello\n');
    writeFileSync(join(dir('ro-1'), 'local.txt'), 'changed locally\n');
    mkdirSync(join(dir('vv-1'), '.stversions', 'sub'), { recursive: true });
    writeFileSync(join(agent.dataDir, 'vv-1', 'doc.txt'), 'current\n');
    writeFileSync(join(agent.dataDir, 'vv-1', '.stversions', 'doc~20240101-000000.txt'), 'first\n');
    writeFileSync(join(agent.dataDir, 'vv-1', '.stversions', 'doc~20240315-093000.txt'), 'second\n');
    writeFileSync(join(agent.dataDir, 'vv-1', '.stversions', 'sub', 'deep~20240404-040404.md'), 'deep\n');
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'sr-1',
      label: 'SR',
      path: join(agent.dataDir, 'sr-1'),
      type: 'sendreceive',
    });
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'ro-1',
      label: 'RO',
      path: join(agent.dataDir, 'ro-1'),
      type: 'receiveonly',
    });
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'vv-1',
      label: 'VV',
      path: join(agent.dataDir, 'vv-1'),
      type: 'sendreceive',
      versioning: { type: 'simple', params: { keep: '5' }, cleanupIntervalS: 3600, fsPath: '', fsType: 'basic' },
    });
    live.statusSR = await scanned(agent, 'sr-1', (s) => s.localFiles === 1);
    live.statusRO = await scanned(agent, 'ro-1', (s) => s.receiveOnlyChangedFiles === 1);
    live.statusVV = await scanned(agent, 'vv-1', (s) => s.localFiles === 1);
    live.statusEarly = await get(agent, '/rest/system/status'); // no dials yet
    live.report = await get(agent, '/rest/svc/report'); // ~1.3 s; state: 3 folders, no remote device

    // Pending device: the peer knows the agent, the agent does not know the peer.
    await call(peer, 'POST', '/rest/config/devices', {
      deviceID: agent.deviceId,
      name: 'agent',
      addresses: [agent.syncAddress],
    });
    live.pendingDevices = await until('the peer pending on the agent', async () => {
      const p = await get(agent, '/rest/cluster/pending/devices');
      return peer.deviceId in p ? p : undefined;
    });
    // The agent ignores it (what the GUI's "ignore" does): a remoteIgnoredDevices entry.
    const config = await get(agent, '/rest/config');
    const seen = live.pendingDevices[peer.deviceId];
    config.remoteIgnoredDevices.push({
      time: seen.time,
      deviceID: peer.deviceId,
      name: seen.name,
      address: seen.address,
    });
    await call(agent, 'PUT', '/rest/config', config);
    live.configIgnoring = await get(agent, '/rest/config');

    // Then accepts it: both know each other and connect. The peer stops dialling first (address `dynamic`, and
    // discovery is off), so the connection is the agent's own dial: a successful lastDialStatus entry.
    await call(peer, 'PATCH', `/rest/config/devices/${agent.deviceId}`, { addresses: ['dynamic'] });
    await call(agent, 'POST', '/rest/config/devices', {
      deviceID: peer.deviceId,
      name: 'peer',
      addresses: [peer.syncAddress],
    });
    await until(
      'agent and peer connected',
      async () => (await get(agent, '/rest/system/connections')).connections[peer.deviceId]?.connected,
    );

    // Pending folder: the peer offers nq-1 (3 × 1 MiB, sent slowly so the agent's need list stays filled) and off-1.
    const nq = join(peer.dataDir, 'nq-1');
    mkdirSync(nq, { recursive: true });
    for (const i of [0, 1, 2]) writeFileSync(join(nq, `f${i}.bin`), randomBytes(1 << 20)); // random: no block can be copied locally
    await call(peer, 'PATCH', '/rest/config/options', { maxSendKbps: 32, limitBandwidthInLan: true });
    const shareWithAgent = [{ deviceID: peer.deviceId }, { deviceID: agent.deviceId }];
    await call(peer, 'POST', '/rest/config/folders', {
      id: 'nq-1',
      label: 'NQ',
      path: nq,
      type: 'sendonly',
      devices: shareWithAgent,
    });
    mkdirSync(join(peer.dataDir, 'off-1'), { recursive: true });
    await call(peer, 'POST', '/rest/config/folders', {
      id: 'off-1',
      label: 'Offered',
      path: join(peer.dataDir, 'off-1'),
      devices: shareWithAgent,
    });
    live.pendingFolders = await until('nq-1 and off-1 pending on the agent', async () => {
      const p = await get(agent, '/rest/cluster/pending/folders');
      return p['nq-1'] && p['off-1'] ? p : undefined;
    });

    // The agent accepts nq-1; the pull is throttled to 32 KiB/s, so db/need lists the files for many seconds.
    await call(agent, 'POST', '/rest/config/folders', {
      id: 'nq-1',
      label: 'NQ',
      path: join(agent.dataDir, 'nq-1'),
      type: 'receiveonly',
      order: 'alphabetic',
      devices: [{ deviceID: agent.deviceId }, { deviceID: peer.deviceId }],
    });
    live.need = await until('files needed in nq-1', async () => {
      const n = await get(agent, '/rest/db/need?folder=nq-1');
      return n.progress.length + n.queued.length + n.rest.length === 3 ? n : undefined;
    });
    live.prio = await call(agent, 'POST', '/rest/db/prio?folder=nq-1&file=f2.bin');

    // The DELETE endpoints and their events; the last two leave out the parameter (a 1.19.2 deviation: 200 and "").
    await call(agent, 'DELETE', `/rest/cluster/pending/folders?folder=off-1&device=${q(peer.deviceId)}`);
    await call(agent, 'DELETE', '/rest/cluster/pending/folders?folder=off-1');
    await call(agent, 'DELETE', `/rest/cluster/pending/devices?device=${q(peer.deviceId)}`);
    await call(agent, 'DELETE', '/rest/cluster/pending/devices');
    await call(agent, 'DELETE', '/rest/cluster/pending/folders');
    live.events = await until('the DELETE events', async () => {
      const events: Doc[] = await get(agent, '/rest/events?since=0&timeout=0');
      return events.some((e) => e.type === 'PendingFoldersChanged' && e.data.removed?.[0]?.folderID === '')
        ? events
        : undefined;
    });

    live.status = await get(agent, '/rest/system/status'); // the agent has dialled the peer: a lastDialStatus entry
    live.config = await get(agent, '/rest/config');
    live.systemConfig = await get(agent, '/rest/system/config');
  });

  test('config (GET /rest/config, GET /rest/system/config): 1.19.2 conforms', () => {
    assertValid('config', live.config);
    assertValid('config', live.systemConfig);
    assertValid('config', live.configIgnoring);
    assert.deepEqual(
      live.configIgnoring.remoteIgnoredDevices.map((r: Doc) => r.deviceID),
      [peer.deviceId],
    );
  });

  test('folder, folder-device, device, gui, ldap, options, remote-ignored-device', async () => {
    for (const id of ['sr-1', 'ro-1', 'vv-1', 'nq-1']) {
      const folder = await get(agent, `/rest/config/folders/${id}`);
      assertValid('folder', folder, AGENT, `folder ${id}`);
      for (const d of folder.devices) assertValid('folder-device', d);
    }
    for (const inst of [agent, peer])
      assertValid('device', await get(agent, `/rest/config/devices/${inst.deviceId}`), AGENT, `device ${inst.name}`);
    assertValid('gui', await get(agent, '/rest/config/gui'));
    assertValid('ldap', await get(agent, '/rest/config/ldap'));
    assertValid('options', await get(agent, '/rest/config/options'));
    for (const r of live.configIgnoring.remoteIgnoredDevices) assertValid('remote-ignored-device', r);
  });

  test('system-status: discovery*, themes and lastDialStatus `ok` deviate', () => {
    assert.deepEqual(live.statusEarly.lastDialStatus, {});
    assertFindings('system-status', live.statusEarly, [
      ['/discoveryEnabled', 'required'],
      ['/discoveryErrors', 'required'],
      ['/discoveryMethods', 'required'],
      ['/themes', 'required'],
    ]);
    const dialled = Object.entries(live.status.lastDialStatus as Record<string, Doc>).filter(
      ([, v]) => v.error === null,
    );
    assert.ok(dialled.length >= 1, 'the agent dialled the peer successfully');
    assertAsKnown('system-status', live.statusEarly, 'status before any dial');
    assertAsKnown('system-status', live.status, 'status after dialling the peer');
  });

  test('folder-status: receive-only conforms; send-receive lacks the receiveOnlyChanged* group', async () => {
    assertValid('folder-status', live.statusRO);
    const missing = ['Bytes', 'Deletes', 'Directories', 'Files', 'Symlinks'].map((k): Finding => [
      `/receiveOnlyChanged${k}`,
      'required',
    ]);
    for (const doc of [live.statusSR, live.statusVV]) {
      assertFindings('folder-status', doc, [...missing, ['/receiveOnlyTotalItems', 'required']]);
      assertAsKnown('folder-status', doc);
    }
    assertAsKnown('folder-status', await get(agent, '/rest/db/status?folder=nq-1'));
  });

  test('local-changed and file-info: `permissions` instead of `flags`', async () => {
    const doc = await get(agent, '/rest/db/localchanged?folder=ro-1');
    assert.deepEqual(
      doc.files.map((f: Doc) => f.name),
      ['local.txt'],
    );
    assertFindings('local-changed', doc, [['/files/0/flags', 'required']]);
    assertAsKnown('local-changed', doc);
    assertFindings('file-info', doc.files[0], [['/flags', 'required']]);
    assertAsKnown('file-info', doc.files[0]);
    assertValid('local-changed', await get(agent, '/rest/db/localchanged?folder=sr-1')); // files: []
  });

  test('need (GET /rest/db/need, POST /rest/db/prio)', () => {
    for (const doc of [live.need, live.prio]) {
      const items = [...doc.progress, ...doc.queued, ...doc.rest];
      assert.equal(items.length, 3);
      assertFindings('need', doc, expectedFor('need', doc));
      assert.equal(expectedFor('need', doc).length, 3, 'one finding per file: /<list>/<i>/flags required');
      assertAsKnown('need', doc);
    }
  });

  test('usage-report: zero-valued fields and uniqueID are left out', () => {
    assert.deepEqual(absentUsageFields(live.report), [
      '/uniqueID',
      '/totMiB',
      '/folderMaxMiB',
      '/usesRateLimit',
      '/upgradeAllowedManual',
      '/upgradeAllowedAuto',
      '/folderUses/ignorePerms',
      '/folderUses/sendonly',
      '/folderUses/ignoreDelete',
      '/deviceUses/compressAlways',
      '/deviceUses/compressNever',
      '/deviceUses/customCertName',
      '/deviceUses/staticAddr',
      '/deviceUses/introducer',
      '/announce/globalEnabled',
      '/announce/localEnabled',
      '/announce/defaultServersDNS',
      '/announce/defaultServersIP',
      '/relays/enabled',
      '/relays/defaultServers',
      '/relays/otherServers',
    ]);
    assertAsKnown('usage-report', live.report);
  });

  test('debug-facilities: `api` instead of `http`', async () => {
    const doc = await get(agent, '/rest/system/debug');
    assertFindings('debug-facilities', doc, [['/facilities/http', 'required']]);
    assertAsKnown('debug-facilities', doc);
  });

  test('browse, ping, system-version', async () => {
    assertValid('browse', await get(agent, '/rest/system/browse'));
    const dirs = await get(agent, `/rest/system/browse?current=${encodeURIComponent(agent.dataDir + '/')}`);
    assert.ok(dirs.length >= 3);
    assertValid('browse', dirs);
    assertValid('ping', await get(agent, '/rest/system/ping'));
    assertValid('ping', await call(agent, 'POST', '/rest/system/ping'));
    const version = await get(agent, '/rest/system/version');
    assert.match(version.version, /^v1\.19\.2/);
    assertValid('system-version', version);
  });

  test('versions and versions-restore-result', async () => {
    const versions = await get(agent, '/rest/folder/versions?folder=vv-1');
    assert.deepEqual(Object.keys(versions).sort(), ['doc.txt', 'sub/deep.md']);
    assertValid('versions', versions);
    const target = versions['doc.txt'].find((v: Doc) => v.versionTime.startsWith('2024-01-01')).versionTime;
    assertValid(
      'versions-restore-result',
      await call(agent, 'POST', '/rest/folder/versions?folder=vv-1', { 'doc.txt': target }),
    );
    const failed = await call(agent, 'POST', '/rest/folder/versions?folder=vv-1', {
      'nothing-here.txt': '2024-01-01T00:00:00Z',
    });
    assert.deepEqual(Object.keys(failed), ['nothing-here.txt']);
    assertValid('versions-restore-result', failed);
  });

  test('pending-devices and pending-folders conform', () => {
    assertValid('pending-devices', live.pendingDevices);
    assertValid('pending-folders', live.pendingFolders);
  });

  test('events and the data of Pending*Changed events; a DELETE without its parameter reports ""', () => {
    const events: Doc[] = live.events;
    assertAsKnown('events', events);
    const pending = events.filter((e) => EVENT_DATA[e.type]);
    for (const e of pending) {
      assertAsKnown('event', e, `event ${e.id} ${e.type}`);
      assertAsKnown(EVENT_DATA[e.type], e.data, `data of event ${e.id} ${e.type}`);
    }
    const removed = pending.filter((e) => e.data.removed?.length).map((e) => [e.type, e.data.removed]);
    // the DELETEs, in order (the peer's pending device was also removed when the agent ignored and accepted it)
    assert.deepEqual(removed.slice(-5), [
      ['PendingFoldersChanged', [{ deviceID: peer.deviceId, folderID: 'off-1' }]],
      ['PendingFoldersChanged', [{ folderID: 'off-1' }]],
      ['PendingDevicesChanged', [{ deviceID: peer.deviceId }]],
      ['PendingDevicesChanged', [{ deviceID: '' }]],
      ['PendingFoldersChanged', [{ folderID: '' }]],
    ]);
    const noDevice = pending.find((e) => e.data.removed?.[0]?.deviceID === '');
    assertFindings('pending-devices-changed', noDevice.data, [['/removed/0/deviceID', 'pattern']]);
    const noFolder = pending.find((e) => e.data.removed?.[0]?.folderID === '');
    assertFindings('pending-folders-changed', noFolder.data, [['/removed/0/folderID', 'pattern']]);
    assert.ok(
      pending.some((e) => e.type === 'PendingDevicesChanged' && e.data.added),
      'an added device event',
    );
    assert.ok(
      pending.some((e) => e.type === 'PendingFoldersChanged' && e.data.added?.length),
      'an added folder event',
    );
  });

  test('system-errors: a list; null after a clear', async () => {
    await call(agent, 'POST', '/rest/system/error', 'synconf schema test');
    const errors = await get(agent, '/rest/system/error');
    assert.ok(errors.errors.some((e: Doc) => e.message === 'synconf schema test'));
    assertValid('system-errors', errors);
    assert.equal(await call(agent, 'POST', '/rest/system/error/clear'), undefined);
    const cleared = await get(agent, '/rest/system/error');
    assertFindings('system-errors', cleared, [['/errors', 'type']]);
    assertAsKnown('system-errors', cleared);
  });

  test('control-reply: restart and shutdown (JSON text sent as text/plain)', { timeout: 60_000 }, async () => {
    const before = (await get(peer, '/rest/system/status')).startTime;
    const restart = await labFetch(peer, '/rest/system/restart', { method: 'POST' });
    assert.equal(restart.status, 200);
    const restartReply = JSON.parse(await restart.text());
    assert.deepEqual(restartReply, { ok: 'restarting' });
    assertValid('control-reply', restartReply);
    // startTime has second precision: wait for the new process, then let a second pass so it differs
    await until(
      'the peer back after its restart',
      async () => {
        try {
          const s = await get(peer, '/rest/system/status');
          return s.startTime !== before ? s : undefined;
        } catch {
          return undefined;
        }
      },
      30_000,
    );
    const shutdown = await labFetch(peer, '/rest/system/shutdown', { method: 'POST' });
    assert.equal(shutdown.status, 200);
    const shutdownReply = JSON.parse(await shutdown.text());
    assert.deepEqual(shutdownReply, { ok: 'shutting down' });
    assertValid('control-reply', shutdownReply);
  });
});
