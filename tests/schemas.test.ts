// The JSON Schemas of schemas/ against documents of real Syncthing 1.19.2, without a lab (the live half:
// tests/live/schemas-lab.test.ts):
//
// * every schema compiles, through the registry and from the sources;
// * documents recorded from 1.19.2 (tests/fixtures/syncthing-1.19.2/) are accepted where 1.19.2 conforms; where it
//   deviates, validation must report exactly the deviation (pointer + rule), and the document with only the
//   deviating part fixed must then be accepted. KNOWN_1_19_2 (tests/support/schema-findings.ts) is the list of those
//   deviations: a schema is never loosened to make 1.19.2 pass;
// * broken variants of conforming documents fail with the expected pointer and rule;
// * the version overlay: properties marked x-since are required only from that agent version on.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listResources, validate } from '../src/schema/registry.js';
import { buildAjv, loadSchemas } from '../src/schema/ajv-setup.js';
import { releaseOf, atLeast } from '../src/schema/version.js';
import { expectationsFor } from '../src/runner/expectations.js';
import semverGte from 'semver/functions/gte.js';
import { ROOT } from '../src/paths.js';
import {
  AGENT,
  assertAsKnown,
  assertFindings,
  assertValid,
  absentUsageFields,
  conformed,
  EVENT_DATA,
  expectedFor,
  fixture,
  ptr,
  type Doc,
  type Finding,
} from './support/schema-findings.js';

const SCHEMAS = join(ROOT, 'schemas');

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
    assert.deepEqual(files('v1.30.0'), ['expectations/syncthing-1.30.yaml']);
    assert.deepEqual(files('v2.1.0'), ['expectations/syncthing-2.1.yaml']);
    assert.deepEqual(files('v2.1.2'), ['expectations/syncthing-2.1.yaml']);
    assert.deepEqual(files('v1.15.0'), []);
  });
});
