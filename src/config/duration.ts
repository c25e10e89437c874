// Go's time.ParseDuration, shared by --timeout, --wait-timeout and logs --since.

const UNIT_NS: Record<string, number> = { ns: 1, us: 1e3, µs: 1e3, μs: 1e3, ms: 1e6, s: 1e9, m: 6e10, h: 3.6e12 };

/** Go's time.ParseDuration in nanoseconds, or undefined. */
export function parseGoDuration(text: string): number | undefined {
  const m = /^([-+]?)((?:(?:\d+\.?\d*|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+|0)$/.exec(text);
  if (!m) return undefined;
  if (m[2] === '0') return 0;
  let total = 0;
  for (const part of m[2].matchAll(/(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g)) {
    total += Number(part[1]) * UNIT_NS[part[2]];
  }
  return m[1] === '-' ? -total : total;
}
