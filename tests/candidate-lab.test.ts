// A release candidate in the lab: a build whose version has -rc. always accepts usage reporting (urAccepted 3,
// whatever config.xml says). The lab keeps its reports on loopback (options.urURL, the discard port) and checks
// that, instead of refusing the candidate; an instance whose reports would leave loopback is still refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loopbackViolations } from '../src/lab/config.js';

const ports = { guiPort: 8384, syncPort: 22000 };
const config = (options: Record<string, unknown>) => ({
  gui: { address: '127.0.0.1:8384' },
  options: { listenAddresses: ['tcp://127.0.0.1:22000'], urAccepted: -1, urURL: 'https://127.0.0.1:9/', ...options },
});

test('a candidate with usage reporting forced on (urAccepted 3) runs while its reports go to loopback', () => {
  assert.deepEqual(loopbackViolations(config({ urAccepted: 3 }), ports), []);
});

test('usage reporting that would leave loopback is refused, accepted or not', () => {
  const away = 'https://data.syncthing.net/newdata';
  assert.deepEqual(loopbackViolations(config({ urAccepted: 3, urURL: away }), ports), [
    `options.urURL is "${away}", not "https://127.0.0.1:9/"`,
    'options.urAccepted is 3, not -1',
  ]);
  assert.deepEqual(loopbackViolations(config({ urURL: away }), ports), [
    `options.urURL is "${away}", not "https://127.0.0.1:9/"`,
  ]);
  // the other loopback settings are checked as before: an upgrade check on is refused
  assert.deepEqual(loopbackViolations(config({ urAccepted: 3, autoUpgradeIntervalH: 12 }), ports), [
    'options.autoUpgradeIntervalH is 12, not 0',
  ]);
});
