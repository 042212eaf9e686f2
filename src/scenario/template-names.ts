// Every {{template}} of a scenario must name something that will have a value when its step runs: a capture of an
// earlier step, one of the scenario's `vars`, or a run variable (tmp, agent.*, peer.*). Checked when the file is
// loaded, so a typo is an input error with its line, not a step skipped at run time in a green run.
import type { Scenario, Step } from '../schema/generated/types.js';
import { escapePointer } from '../json.js';
import { didYouMean } from '../did-you-mean.js';
import { templateNames, ANY_TEMPLATE } from './template.js';
import { short } from '../schema/registry.js';

/** what a run gives each agent instance (runner/targets.ts), as {{agent.x}} and {{peer.x}} */
const INSTANCE_VARS = ['deviceId', 'syncAddress', 'dataDir', 'home', 'pathSeparator'];
/** step members that are not rendered: names, descriptions, and capture (JSON pointers into the answer) */
const NOT_RENDERED = new Set(['name', 'description', 'capture']);

type Fail = (pointer: string, message: string) => Error;

/**
 * The strings of a step's rendered members (and their keys) that hold a template, each with its JSON pointer. `at`
 * is the path to `value`: the step's own pointer (`/steps/0`), then its members' keys. A pointer is built only for a
 * string with "{{" in it (every other string names no template): a step's bodies are large, its templates few.
 */
function templatedStrings(value: unknown, at: string[], out: [string, string][] = []): [string, string][] {
  const pointer = () =>
    at[0] +
    at
      .slice(1)
      .map((k) => `/${escapePointer(k)}`)
      .join('');
  if (typeof value === 'string') {
    if (value.includes('{{')) out.push([value, pointer()]);
  } else if (Array.isArray(value))
    value.forEach((v, i) => {
      at.push(String(i));
      templatedStrings(v, at, out);
      at.pop();
    });
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) {
      if (at.length === 1 && NOT_RENDERED.has(k)) continue; // a member of the step itself
      at.push(k);
      if (k.includes('{{')) out.push([k, pointer()]);
      templatedStrings(v, at, out);
      at.pop();
    }
  return out;
}

/** throws `fail(pointer, message)` for the first template that names nothing known at its step */
export function checkTemplateNames(s: Scenario, fail: Fail): void {
  const own = Object.keys(s.vars ?? {});
  const run = ['tmp', ...own, ...own.map((k) => `vars.${k}`), ...INSTANCE_VARS.map((v) => `agent.${v}`)];
  if (s.needs?.includes('peer')) run.push(...INSTANCE_VARS.map((v) => `peer.${v}`));
  const capturedBy = new Map<string, string>(); // every capture of the file, by the first step that makes it
  const phases = (['setup', 'steps', 'cleanup'] as const).flatMap((phase) =>
    (s[phase] ?? []).map((step, i) => [step, `/${phase}/${i}`] as const),
  );
  for (const [step] of phases)
    for (const v of Object.keys(step.capture ?? {})) if (!capturedBy.has(v)) capturedBy.set(v, step.name);
  const known = new Set(run);
  checkVars(s, fail);
  for (const [step, at] of phases) {
    for (const [text, pointer] of templatedStrings(step, [at])) {
      if (text.replace(ANY_TEMPLATE, '').includes('{{'))
        throw fail(pointer, `${short(text)}: "{{" opens no template (a template is {{name}}, closed by "}}")`);
      for (const name of templateNames(text)) checkName(name, step, pointer, known, capturedBy, fail);
    }
    for (const v of Object.keys(step.capture ?? {})) {
      if (run.includes(v))
        throw fail(
          `${at}/capture/${escapePointer(v)}`,
          `capture "${v}" would hide the run variable {{${v}}}: name it otherwise`,
        );
      if (RUN_ROOTS.includes(v))
        throw fail(
          `${at}/capture/${escapePointer(v)}`,
          `capture "${v}" would hide the run variables {{${v}.*}}: name it otherwise`,
        );
      known.add(v);
    }
  }
}

/** the roots of the run variables a capture may not take the name of */
const RUN_ROOTS = ['agent', 'peer', 'vars'];

/** `vars` are constants: a template in one is never rendered (it would be sent as written) */
function checkVars(s: Scenario, fail: Fail): void {
  for (const [name, value] of Object.entries(s.vars ?? {}))
    for (const [text, pointer] of templatedStrings(value, [`/vars/${escapePointer(name)}`]))
      throw fail(pointer, `vars.${name}: ${short(text)} holds a template, but vars are constants (never rendered)`);
}

function checkName(
  name: string,
  step: Step,
  pointer: string,
  known: Set<string>,
  capturedBy: Map<string, string>,
  fail: Fail,
) {
  const root = name.split('.')[0];
  // a capture holds a whole answer: {{folder.id}} reads into it, so its root is what must be known
  if (known.has(name) || (known.has(root) && !['agent', 'peer', 'vars'].includes(root))) return;
  if (name === 'n' && step.file && pointer.includes('/file/')) return; // the counter of a repeated file step
  if (root === 'peer' && INSTANCE_VARS.includes(name.slice(5)))
    throw fail(pointer, `template {{${name}}} needs a peer: add \`needs: [peer]\` to the scenario`);
  const later = capturedBy.get(root);
  const hint = later ? ` (step "${later}" captures it, after this one)` : didYouMean(name, known, (n) => `{{${n}}}`);
  throw fail(pointer, `template {{${name}}} names no capture of an earlier step${hint}`);
}
