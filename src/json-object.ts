// The one test every reader of parsed YAML/JSON makes before walking into a value.

export type Obj = Record<string, unknown>;

/** A plain object of parsed input: not null, not an array (`isObj<Json>` where values are JSON). */
export function isObj<V = unknown>(v: unknown): v is Record<string, V> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
