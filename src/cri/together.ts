/**
 * Calls sent at once whose failure must read the same on every run: all settle, then the first
 * failure in the order the calls were made is thrown. (With Promise.all the first to fail wins, and
 * when the runtime is hung every call hits the same deadline, so the named method was a coin toss.)
 * The price: a quick failure of one call is reported only once the others end, within --timeout.
 */
export async function allInOrder<T extends readonly unknown[]>(
  calls: readonly [...{ [K in keyof T]: Promise<T[K]> }],
): Promise<T> {
  const settled = await Promise.allSettled(calls);
  for (const s of settled) if (s.status === 'rejected') throw s.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
