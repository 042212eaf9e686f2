// `npm run record` (scripts/record.sh): from the report.json of the live run that recorded a bundled recordings folder,
// writes what synconf keeps of it, recorded-run.json (schemas/recorded-run.schema.json): each scenario's duration,
// the weights of --shard, and each check's verdict, what a replay of the folder must give. The whole report (1.3 MB
// and more) stays out of the repository. Usage: node scripts/recorded-run.mjs REPORT_JSON OUT_JSON
import { readFileSync, writeFileSync } from 'node:fs';

const [from, to] = process.argv.slice(2);
if (!from || !to) {
  console.error('usage: node scripts/recorded-run.mjs REPORT_JSON OUT_JSON');
  process.exit(2);
}
const report = JSON.parse(readFileSync(from, 'utf8'));
if (report.format !== 'synconf-report/1' || report.run?.mode !== 'record') {
  console.error(`${from}: not the report of a recording run (format ${report.format}, mode ${report.run?.mode})`);
  process.exit(2);
}
const recorded = {
  agentVersion: report.agent.version,
  exitCode: report.exitCode,
  totals: report.totals,
  scenarios: report.scenarios.map((s) => ({
    id: s.id,
    durationMs: s.durationMs,
    checks: Object.fromEntries(s.checks.map((c) => [c.id, c.verdict])),
  })),
};
writeFileSync(to, JSON.stringify(recorded, null, 2) + '\n');
