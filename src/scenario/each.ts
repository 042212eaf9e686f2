// Step tables: a step with `each: [rows]` stands for one step per row, so that one check repeated over a list (every
// endpoint refused without a key) is a table in the file, not a copy per endpoint. Each row is a step of its own
// (its name is the step's name); the table step's other members are what the rows share, merged under each row's:
// objects member by member, anything else taken from the row when it has it. Expanded before the scenario is
// validated again and run, so the runner, reports, recordings and mutants only ever see plain steps.

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

const PHASES = ['setup', 'steps', 'cleanup'] as const;

/** where an expanded step came from: its table step and row in the file as written */
interface Origin {
  phase: string;
  step: number;
  row?: number;
  /** the row as written, and what the table step gives every row (undefined for a step that is no table) */
  rowValue?: Node;
  shared?: Node;
}

export interface ExpandedScenario {
  data: unknown;
  /** the pointer in the file as written of a pointer into the expanded scenario (errors point at the right line) */
  source(pointer: string): string;
  /** the pointer of each expanded step in the file as written (its row, or the step itself), by phase and index */
  stepSource(phase: string, index: number): string;
}

/** `shared` with `own` over it: objects member by member, anything else `own`'s */
function merge(shared: unknown, own: unknown): unknown {
  if (!isNode(shared) || !isNode(own)) return own === undefined ? structuredClone(shared) : structuredClone(own);
  const out: Node = structuredClone(shared);
  for (const [key, value] of Object.entries(own)) out[key] = merge(shared[key], value);
  return out;
}

const hasMember = (node: unknown, parts: string[]): boolean =>
  parts.length === 0 || (isNode(node) && Object.hasOwn(node, parts[0]) && hasMember(node[parts[0]], parts.slice(1)));

/** the steps of a scenario with each table step replaced by one step per row (a well-formed file only: a table
 * whose rows are not objects is left as written, for the schema to name) */
export function expandTables(data: unknown): ExpandedScenario {
  const origins = new Map<string, Origin[]>();
  if (!isNode(data)) return { data, source: (p) => p, stepSource: (phase, i) => `/${phase}/${i}` };
  const out: Node = { ...data };
  for (const phase of PHASES) {
    const steps = data[phase];
    if (!Array.isArray(steps)) continue;
    const expanded: unknown[] = [];
    const from: Origin[] = [];
    steps.forEach((step, i) => {
      const rows = isNode(step) ? step.each : undefined;
      if (!Array.isArray(rows) || !rows.every(isNode)) {
        expanded.push(step);
        from.push({ phase, step: i });
        return;
      }
      const { each: _rows, name: _table, ...shared } = step as Node;
      rows.forEach((row, r) => {
        expanded.push(merge(shared, row));
        from.push({ phase, step: i, row: r, rowValue: row, shared });
      });
    });
    out[phase] = expanded;
    origins.set(phase, from);
  }
  const originOf = (phase: string, index: number) => origins.get(phase)?.[index];
  const stepSource = (phase: string, index: number) => {
    const o = originOf(phase, index);
    if (!o) return `/${phase}/${index}`;
    return o.row === undefined ? `/${phase}/${o.step}` : `/${phase}/${o.step}/each/${o.row}`;
  };
  const source = (pointer: string) => {
    const m = /^\/(setup|steps|cleanup)\/(\d+)(.*)$/.exec(pointer);
    if (!m) return pointer;
    const o = originOf(m[1], Number(m[2]));
    if (!o || o.row === undefined) return o ? `/${m[1]}/${o.step}${m[3]}` : pointer;
    // a member the row gives is the row's; one only the table step gives is the table step's
    const parts = m[3]
      .split('/')
      .slice(1)
      .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
    const shared = !hasMember(o.rowValue, parts) && hasMember(o.shared, parts);
    return shared ? `/${m[1]}/${o.step}${m[3]}` : `/${m[1]}/${o.step}/each/${o.row}${m[3]}`;
  };
  return { data: out, source, stepSource };
}
