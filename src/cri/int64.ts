// int64 fields as the codec gives them: decimal strings (createdAt, startedAt and the like).

/**
 * Two int64 values as the decoder gives them (decimal strings without leading zeros, '' for 0)
 * compared without parsing: a longer non-negative number is larger, equal lengths compare by text.
 * Sorting 1000 containers made 20,000 BigInts before (several ms of a `ps -a`).
 */
export function compareInt64Strings(a: string, b: string): number {
  const x = a || '0';
  const y = b || '0';
  if (x === y) return 0;
  const nx = x.charCodeAt(0) === 45; // '-'
  const ny = y.charCodeAt(0) === 45;
  if (nx !== ny) return nx ? -1 : 1;
  const byMagnitude = x.length !== y.length ? x.length - y.length : x < y ? -1 : 1;
  return nx ? -byMagnitude : byMagnitude;
}
