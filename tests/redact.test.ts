// Redaction: every secret synconf knows or learns becomes its placeholder, and user rules apply.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Redactor } from '../src/transport/redact.js';
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
