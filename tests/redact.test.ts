// Redaction: every secret synconf knows or learns becomes its placeholder, and user rules apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor, withoutCredentials } from '../src/transport/redact.js';
import { redactionRules } from '../src/transport/recorder.js';

// a bcrypt hash as Syncthing stores it: $2a$, the cost, 22 characters of salt and 31 of hash
const HASH = '$2a$10$abcdefghijklmnopqrstuv0123456789ABCDEFGHIJKLMNOPQRS./';

test('API keys, the GUI key and password hash of a config body become <API_KEY> and <PASSWORD_HASH>', () => {
  const r = new Redactor(['k3y-of-the-lab']);
  assert.equal(r.text('/rest/x?apikey=k3y-of-the-lab'), '/rest/x?apikey=<API_KEY>');
  const config = JSON.stringify({ gui: { apiKey: 'other-key-42', password: HASH }, folders: [] }, null, 2);
  r.learnFrom(config);
  const out = r.text(`${config} and again other-key-42 ${HASH}`);
  assert.doesNotMatch(out, /other-key-42|\$2a\$10\$/);
  assert.match(out, /"apiKey": "<API_KEY>"/);
  assert.match(out, /"password": "<PASSWORD_HASH>"/);
  assert.deepEqual(r.headers({ 'X-API-Key': 'k3y-of-the-lab', Accept: '*/*' }), {
    'X-API-Key': '<API_KEY>',
    Accept: '*/*',
  });
});

test('a clear password (set through a request body, or echoed by an agent) becomes <PASSWORD>, not <PASSWORD_HASH>', () => {
  const r = new Redactor();
  r.learnFrom('{"password":"plain-secret"}');
  assert.equal(r.text('{"password":"plain-secret"}'), '{"password":"<PASSWORD>"}');
  const echoed = new Redactor();
  echoed.learnFrom(JSON.stringify({ gui: { password: 'plain-secret' } }));
  assert.equal(echoed.text('{"gui":{"password":"plain-secret"}}'), '{"gui":{"password":"<PASSWORD>"}}');
});

test("a folder device's encryptionPassword (a secret, says the spec) becomes <PASSWORD>, parsed or cut short", () => {
  const folder = { id: 'f', devices: [{ deviceID: 'D1', encryptionPassword: 'enc-secret-1' }, { deviceID: 'D2' }] };
  const r = new Redactor();
  r.learnFrom(JSON.stringify({ folders: [folder] }));
  assert.equal(r.text('"enc-secret-1"'), '"<PASSWORD>"');
  const cut = new Redactor();
  cut.learnFrom('[{"id":"f","devices":[{"deviceID":"D1","encryptionPassword":"enc-secret-2"},{"devic');
  assert.equal(cut.text('{"encryptionPassword":"enc-secret-2"}'), '{"encryptionPassword":"<PASSWORD>"}');
  // no encryption: an empty password stays as it is
  const none = new Redactor();
  none.learnFrom('{"devices":[{"deviceID":"D1","encryptionPassword":""}]}');
  assert.equal(none.text('{"encryptionPassword":"","x":"D1"}'), '{"encryptionPassword":"","x":"D1"}');
});

test('user rules: header names, JSON pointers and regular expressions', () => {
  const r = new Redactor([], redactionRules(['header:Authorization', 'json:/token', 're:secret-[0-9]+']));
  assert.deepEqual(r.headers({ authorization: 'Bearer x', 'x-other': 'secret-123' }), {
    authorization: '<REDACTED>',
    'x-other': '<REDACTED>',
  });
  assert.equal(r.text('{"token":"t0k","n":1}'), '{"token":"<REDACTED>","n":1}');
  assert.throws(() => redactionRules(['cookie:x']), /use header:<name>, json:<pointer> or re:<regexp>/);
  assert.throws(() => redactionRules(['re:(']), /--redact re:\(/);
});

test('a value a JSON pointer rule redacts is redacted wherever it appears later, the run variables too', () => {
  const r = new Redactor([], redactionRules(['json:/tilde']));
  assert.equal(r.text('{"tilde":"/home/lab/agent","sys":1}'), '{"tilde":"<REDACTED>","sys":1}');
  // the recorder writes the run variables with the same redactor once the run is over
  assert.equal(
    r.text(JSON.stringify({ agent: { home: '/home/lab/agent' } })),
    JSON.stringify({ agent: { home: '<REDACTED>' } }),
  );
});

// Issue 30 (7): redaction of bytes that are not JSON, and a key replaced only where it stands as a value. Rows of
// [given: keys, what the body teaches, the text; want: what must be gone, what must stay].
const CUT_CONFIG = `{"version":37,"gui":{"enabled":true,"apiKey":"learnt-from-text-key-1234","user":"admin","password":"${HASH}","theme":"default"},"options":{"listenAdd`;
const ROWS: [name: string, keys: string[], learn: string | undefined, text: string, gone: RegExp, stays: string[]][] = [
  [
    'a /rest/config cut short still loses its hash',
    [],
    CUT_CONFIG,
    CUT_CONFIG,
    /\$2a\$10\$/,
    ['"password":"<PASSWORD_HASH>"'],
  ],
  [
    'a /rest/config cut short still loses its API key',
    [],
    CUT_CONFIG,
    CUT_CONFIG,
    /learnt-from-text-key/,
    ['"apiKey":"<API_KEY>"'],
  ],
  [
    'a hash cut in half is still a hash',
    [],
    undefined,
    `"password": "${HASH.slice(0, 30)}`,
    /\$2a\$/,
    ['<PASSWORD_HASH>'],
  ],
  [
    'a hash in plain text (a log line) goes',
    [],
    undefined,
    `stored ${HASH} for admin`,
    /\$2a\$/,
    ['stored <PASSWORD_HASH> for admin'],
  ],
  ['a hash in HTML goes', [], undefined, `<td>${HASH}</td>`, /\$2a\$/, ['<td><PASSWORD_HASH></td>']],
  [
    'a clear password of a body cut short goes',
    [],
    '{"gui":{"password":"hunter2-clear","user',
    '{"gui":{"password":"hunter2-clear","user',
    /hunter2/,
    ['<PASSWORD>'],
  ],
  [
    'key "rest" leaves /rest/ paths alone',
    ['rest'],
    undefined,
    'GET /rest/system/ping',
    /<API_KEY>/,
    ['/rest/system/ping'],
  ],
  [
    'key "rest" as a query value goes',
    ['rest'],
    undefined,
    '/rest/system/ping?apikey=rest&x=1',
    /apikey=rest/,
    ['/rest/system/ping?apikey=<API_KEY>&x=1'],
  ],
  [
    'key "e" leaves text/plain alone',
    ['e'],
    undefined,
    'Content-Type: text/plain; charset=utf-8',
    /<API_KEY>/,
    ['text/plain'],
  ],
  [
    'key "e" as a JSON string goes',
    ['e'],
    undefined,
    '{"apiKey":"e","theme":"e-dark"}',
    /"e"/,
    ['"apiKey":"<API_KEY>"', '"e-dark"'],
  ],
  [
    'a short key inside a word stays (it is not the key there)',
    ['abc12345'],
    undefined,
    'xabc12345y',
    /<API_KEY>/,
    ['xabc12345y'],
  ],
  [
    'a short key as a Bearer token goes',
    ['abc12345'],
    undefined,
    'Authorization: Bearer abc12345',
    /abc12345/,
    ['Bearer <API_KEY>'],
  ],
  [
    'a long key goes wherever it stands',
    ['0123456789abcdef0123456789abcdef'],
    undefined,
    '/x0123456789abcdef0123456789abcdefy',
    /0123456789abcdef/,
    ['/x<API_KEY>y'],
  ],
  [
    'a key in XML text goes',
    ['abc12345'],
    undefined,
    '<apikey>abc12345</apikey>',
    /abc12345/,
    ['<apikey><API_KEY></apikey>'],
  ],
];

for (const [name, keys, learn, text, gone, stays] of ROWS)
  test(`redaction: ${name}`, () => {
    const r = new Redactor(keys);
    if (learn !== undefined) r.learnFrom(learn);
    const out = r.text(text);
    assert.doesNotMatch(out, gone, out);
    for (const s of stays) assert.ok(out.includes(s), `${JSON.stringify(s)} in ${out}`);
  });

test('redaction: a secret equal to a member name never renames the member (a server whose "API key" is checks)', () => {
  for (const key of ['checks', 'harnessErrorsAndMoreThan16']) {
    const r = new Redactor([key]);
    const json = JSON.stringify({ scenarios: [{ checks: [], harnessErrorsAndMoreThan16: 1, v: key }] });
    const out = JSON.parse(r.text(json)) as { scenarios: Record<string, unknown>[] };
    assert.deepEqual(Object.keys(out.scenarios[0]), ['checks', 'harnessErrorsAndMoreThan16', 'v']);
    assert.equal(out.scenarios[0].v, '<API_KEY>');
  }
});

// Issue 40: credentials a client sends, redacted by meaning rather than spelling in every log (serve's request log,
// the proxy's HARs): header names in any case and with "-", "_" aside; query names percent-decoded.
const CREDENTIALS: [name: string, headers: Record<string, string>, url: string, gone: RegExp, stays: string[]][] = [
  ['Proxy-Authorization', { 'Proxy-Authorization': 'Basic c2VjcmV0' }, '/rest/x', /c2VjcmV0/, []],
  ['PROXY-AUTHORIZATION (any case)', { 'PROXY-AUTHORIZATION': 'Basic c2VjcmV0' }, '/rest/x', /c2VjcmV0/, []],
  ['Authorization', { Authorization: 'Bearer tok-1' }, '/rest/x', /tok-1/, []],
  ['Cookie and Set-Cookie', { Cookie: 'a=ck-1', 'Set-Cookie': 'b=ck-2' }, '/rest/x', /ck-\d/, []],
  ['X-Auth-Token', { 'X-Auth-Token': 'at-1' }, '/rest/x', /at-1/, []],
  ['X-Access-Token', { 'x-access-token': 'at-2' }, '/rest/x', /at-2/, []],
  ['Api_Key (underscore)', { Api_Key: 'ak-1' }, '/rest/x', /ak-1/, []],
  ['X-CSRF-Token-ABCDE', { 'X-CSRF-Token-ABCDE': 'csrf-1' }, '/rest/x', /csrf-1/, []],
  ['a wrong X-API-Key', { 'X-API-Key': 'wrong-1' }, '/rest/x', /wrong-1/, []],
  ['Accept stays', { Accept: 'application/json' }, '/rest/x', /<REDACTED>/, ['application/json']],
  ['?api%5Fkey= (an encoded name)', {}, '/rest/x?api%5Fkey=qk-1&folder=f', /qk-1/, ['folder=f', 'api%5Fkey=']],
  ['?API-KEY=', {}, '/rest/x?API-KEY=qk-2', /qk-2/, []],
  ['?%74oken=', {}, '/rest/x?%74oken=qk-3', /qk-3/, []],
  ['?access_token=', {}, '/rest/x?access_token=qk-4', /qk-4/, []],
  ['?pass%77ord=', {}, '/rest/x?pass%77ord=qk-5', /qk-5/, []],
  ['?api+key= (a "+" is a space)', {}, '/rest/x?api+key=qk-6', /qk-6/, []],
  ['?secret= with an invalid escape beside it', {}, '/rest/x?a=%zz&secret=qk-7', /qk-7/, ['a=%zz']],
  ['?folder= and ?device= stay', {}, '/rest/x?folder=abc&device=DEV', /<REDACTED>/, ['folder=abc&device=DEV']],
  ['X-Forwarded-Authorization', { 'X-Forwarded-Authorization': 'Bearer fa-1' }, '/rest/x', /fa-1/, []],
  ['?pass=', {}, '/rest/x?pass=qk-8', /qk-8/, []],
  ['?sessionid= (a GUI session)', {}, '/rest/x?sessionid=qk-9', /qk-9/, []],
];

for (const [name, headers, url, gone, stays] of CREDENTIALS)
  test(`a client's credential is redacted: ${name}`, () => {
    const kept = withoutCredentials({ request: { url, headers } }, 'the-real-key-0123456789');
    const out = JSON.stringify(kept);
    assert.doesNotMatch(out, gone, out);
    for (const s of stays) assert.ok(out.includes(s), `${JSON.stringify(s)} in ${out}`);
  });
