// The lines that tell a run's harness errors on stderr: one each, repeated identical ones folded into a count.
import type { Report } from '../../schema/generated/types.js';
import { fold, harnessKind, moreLine } from '../../report/fold.js';
import { printableLine } from '../../printable.js';

export function harnessLines(errors: Report['harnessErrors']): string[] {
  return fold(errors, harnessKind).flatMap(({ item: e, more }) => [
    printableLine(
      `synconf: ${[e.file, e.scenario, e.step && `step "${e.step}"`].filter(Boolean).join(': ')}${e.file || e.scenario ? ': ' : ''}${e.message}`,
    ),
    ...(more ? [`synconf: ${moreLine(more)}`] : []),
  ]);
}
