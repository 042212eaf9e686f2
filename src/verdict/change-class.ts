// The classes of a change between two agent versions (src/matrix/classify.ts decides them) and their words, for
// every writer of the version matrix: one order, one wording, one legend.
import type { ChangeClass, Verdict } from '../schema/generated/types.js';

export type { ChangeClass };

/** the classes from the most urgent */
export const CHANGE_CLASSES: readonly ChangeClass[] = [
  'regression',
  'listed-regression',
  'fixed',
  'version-change',
  'known',
  'other',
];

export const CHANGE_LABEL: Record<ChangeClass, string> = {
  regression: 'regression',
  'listed-regression': 'listed regression',
  fixed: 'fixed',
  'version-change': 'version change',
  known: 'known',
  other: 'other change',
};

/** a heading over the rows of a class */
export const CHANGE_HEADING: Record<ChangeClass, string> = {
  regression: 'Regressions',
  'listed-regression': 'Regressions listed as known deviations',
  fixed: 'Fixed',
  'version-change': 'Version changes',
  known: 'Known deviations that changed',
  other: 'Other changes',
};

export const CHANGE_MEANING: Record<ChangeClass, string> = {
  regression: 'Conforms on the older version, deviates on the newer one, and no known deviation lists it.',
  'listed-regression':
    'Conforms on the older version, deviates on the newer one as a known deviation of the newer version lists: reviewed, so counted apart from the regressions, but clients still feel it.',
  fixed: 'Deviates on the older version, conforms on the newer one.',
  'version-change':
    'An endpoint, step or field behind the check was added or deprecated between the two versions (`since`/`deprecated`).',
  known: 'A listed known deviation on both versions, but what deviates changed.',
  other:
    'The verdict changed for another reason (a capability missing on one side, a listing on one side only); the note says which.',
};

/** the agent does what the spec says (an unexpected pass conforms: the listed deviation is stale) */
export const conforms = (v: Verdict) => v === 'pass' || v === 'unexpected-pass';
/** the agent does not do what the spec says (listed as a known deviation or not) */
export const deviates = (v: Verdict) => v === 'fail' || v === 'expected-fail';
