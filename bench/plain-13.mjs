#!/usr/bin/env node
// The baseline of the speed benchmark: the 13 requests of bench/synconf-13.yaml, sent with Node's
// built-in fetch and checked by hand (status and a few fields), as someone would without synconf.
//
//   node bench/plain-13.mjs URL API_KEY [FOLDER_ID]
//
// Exit 0 when every check holds, 1 otherwise (the failures are printed).
const [url, key, folder = 'bench-folder'] = process.argv.slice(2);
if (!url || !key) {
  console.error('usage: node bench/plain-13.mjs URL API_KEY [FOLDER_ID]');
  process.exit(2);
}

const failures = [];
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

async function call(method, path, { auth = true } = {}) {
  const res = await fetch(url + path, { method, headers: auth ? { 'X-API-Key': key } : {} });
  const text = await res.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body };
}

async function check(name, method, path, status, ok = () => true, opts) {
  const r = await call(method, path, opts);
  if (r.status !== status) failures.push(`${name}: status ${r.status}, expected ${status}`);
  else if (!ok(r.body)) failures.push(`${name}: unexpected body ${JSON.stringify(r.body)?.slice(0, 200)}`);
}

const q = encodeURIComponent(folder);
await check('post-ping', 'POST', '/rest/system/ping', 200, (b) => b?.ping === 'pong');
await check('get-ping', 'GET', '/rest/system/ping', 200, (b) => b?.ping === 'pong');
await check('status', 'GET', '/rest/system/status', 200, (b) => typeof b?.myID === 'string');
await check('config', 'GET', '/rest/config', 200, (b) => typeof b?.version === 'number');
await check('browse', 'GET', '/rest/system/browse?current=%2F', 200, (b) => Array.isArray(b));
await check('debug', 'GET', '/rest/system/debug', 200, (b) => isObject(b?.facilities));
await check('errors', 'GET', '/rest/system/error', 200, (b) => isObject(b) && 'errors' in b);
await check('clear', 'POST', '/rest/system/error/clear', 200);
await check('pending-devices', 'GET', '/rest/cluster/pending/devices', 200, isObject);
await check('pending-folders', 'GET', '/rest/cluster/pending/folders', 200, isObject);
await check('db-status', 'GET', `/rest/db/status?folder=${q}`, 200, (b) => typeof b?.state === 'string');
await check('db-need', 'GET', `/rest/db/need?folder=${q}`, 200, (b) => Array.isArray(b?.progress));
await check('no-key', 'GET', '/rest/system/status', 403, () => true, { auth: false });

if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
console.log('13 requests, 13 checks: all hold');
