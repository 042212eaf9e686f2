// RFC 3339 timestamps as `notBefore:` compares them: read when a scenario loads (a bound that is no timestamp is an
// input error) and when the assertion runs (the agent's value).

/** an RFC 3339 timestamp as [epoch milliseconds, the nanoseconds below them as 6 digits]; undefined for any other value */
export function instant(v: unknown): [number, string] | undefined {
  const m = typeof v === 'string' ? /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d+))?(Z|[+-]\d\d:\d\d)$/i.exec(v) : null;
  if (!m) return undefined;
  // Date.parse keeps milliseconds only: the digits below them are compared as text of one length
  const digits = (m[2] ?? '').padEnd(9, '0').slice(0, 9);
  const ms = Date.parse(`${m[1]}.${digits.slice(0, 3)}${m[3].toUpperCase()}`);
  return Number.isNaN(ms) ? undefined : [ms, digits.slice(3)];
}
