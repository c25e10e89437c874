// The one test every reader of parsed YAML/JSON makes before walking into a value.

export type Obj = Record<string, unknown>;

/** A plain object of parsed input: not null, not an array. */
export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
