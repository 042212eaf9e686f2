// matrix.json within the size bound of a report file (bound.ts). Each cause of a pair keeps the first of its
// evidence and member names and counts the rest (keptOf, as drift --json past its bound): a pair whose answer lost
// 99,000 members is a few kB, not 18 MB of differences. Then the matrix as it is when it fits (the common case);
// otherwise its rows while they fit (they come most urgent first, unchanged ones last) and `rowsLeftOut` for the
// rest. `changed`, `classes`, a cause's `occurrences` and a pair's counts count every one.
import type { Matrix } from '../schema/generated/types.js';
import { REPORT_FILE_BOUND, Budget, boundedJson, jsonText } from './bound.js';
import { keptOf } from './causes-text.js';

/** matrix.json's text, at most `limit` bytes (unless the matrix without a row is larger) */
export function matrixJson(matrix: Matrix, limit = REPORT_FILE_BOUND): string {
  const pairs = matrix.pairs?.map((p) => ({ ...p, causes: p.causes.map((c) => ({ ...c, cause: keptOf(c.cause) })) }));
  const m: Matrix = pairs ? { ...matrix, pairs } : matrix;
  return boundedJson(m, limit, (share) => boundedMatrix(m, limit * share));
}

/** the matrix with the rows that fit in `bytes` */
function boundedMatrix(matrix: Matrix, bytes: number): Matrix {
  const { rows, rowsLeftOut: _, ...rest } = matrix;
  const budget = new Budget(bytes - Buffer.byteLength(jsonText({ ...rest, rowsLeftOut: rows.length, rows: [] })));
  const kept: Matrix['rows'] = [];
  for (const row of rows) {
    const own = JSON.stringify(row, null, 2);
    // a row's lines are indented two levels deeper in the file
    if (!budget.take(Buffer.byteLength(own) + own.split('\n').length * 4 + 2)) break;
    kept.push(row);
  }
  const left = rows.length - kept.length + (matrix.rowsLeftOut ?? 0);
  return { ...rest, ...(left ? { rowsLeftOut: left } : {}), rows: kept };
}

/** how many rows the matrix has, those a bounded matrix.json left out included */
export const rowCount = (m: Matrix) => m.rows.length + (m.rowsLeftOut ?? 0);
