#!/usr/bin/env node
// Where a CPU profile's time went, by function: self time (the function's own code) and inclusive time (it and
// what it called), each with its share of the whole. For a readable profile of the built command:
//
//   SYNCONF_PROFILE_BUILD=1 node scripts/bundle.mjs     # unminified bundles (npm run build makes minified ones)
//   node --cpu-prof --cpu-prof-dir=/tmp/prof --cpu-prof-interval 100 dist/bin/synconf.js replay --report-dir /tmp/r
//   node bench/profile-summary.mjs /tmp/prof/*.cpuprofile [SELF_ROWS] [INCLUSIVE_ROWS]
import { readFileSync } from 'node:fs';

const [file, selfRows = '30', inclusiveRows = '60'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs FILE.cpuprofile [SELF_ROWS] [INCLUSIVE_ROWS]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodeById = new Map(profile.nodes.map((node) => [node.id, node]));
const parentOf = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);

/** microseconds sampled in each node */
const sampled = new Map();
profile.samples.forEach((id, i) => sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...sampled.values()].reduce((a, b) => a + b, 0);

const nameOf = ({ callFrame: f }) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const self = new Map();
const inclusive = new Map();
for (const [id, us] of sampled) {
  add(self, nameOf(nodeById.get(id)), us);
  const counted = new Set(); // a recursive function counts once per sample
  for (let at = id; at !== undefined; at = parentOf.get(at)) {
    const name = nameOf(nodeById.get(at));
    if (!counted.has(name)) (add(inclusive, name, us), counted.add(name));
  }
}
const table = (map, rows) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, Number(rows))
    .map(
      ([name, us]) =>
        `${(us / 1000).toFixed(1).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${name}`,
    )
    .join('\n');
console.log(`total ${(total / 1000).toFixed(1)} ms\n--- self`);
console.log(table(self, selfRows));
console.log('--- inclusive');
console.log(table(inclusive, inclusiveRows));
