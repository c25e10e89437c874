// kubectl's `-l/--selector` label selector syntax (k8s.io/apimachinery labels.Parse): a comma-
// separated list of `key=value`, `key==value`, `key!=value`, `key in (a,b)`, `key notin (a,b)`,
// `key` and `!key`. Pure.

import { SyncpodError } from '../errors';

type Requirement = (labels: Record<string, string>) => boolean;

const KEY =
  /^(?:[a-z0-9]([-a-z0-9]*[a-z0-9])?(?:\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const VALUE = /^(?:[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?)?$/;

/** A predicate over a pod's labels; throws a one-line error for a selector kubectl would refuse. */
export function parseSelector(text: string): (labels: Record<string, string>) => boolean {
  const bad = (why: string): SyncpodError => new SyncpodError(`--selector "${text}": ${why}`);
  const key = (k: string): string => {
    if (k.length === 0 || k.length > 316 || !KEY.test(k)) throw bad(`invalid label key "${k}"`);
    return k;
  };
  const value = (v: string): string => {
    if (v.length > 63 || !VALUE.test(v)) throw bad(`invalid label value "${v}"`);
    return v;
  };
  const reqs: Requirement[] = [];
  // Split on commas outside parentheses.
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  for (const raw of parts) {
    const part = raw.trim();
    if (part === '') {
      if (text.trim() === '') continue;
      throw bad('empty requirement');
    }
    let m: RegExpExecArray | null;
    if ((m = /^(\S+?)\s+(in|notin)\s*\((.*)\)$/.exec(part))) {
      const k = key(m[1]!);
      const values = m[3]!.split(',').map((v) => value(v.trim()));
      const not = m[2] === 'notin';
      reqs.push((l) =>
        not ? !(Object.hasOwn(l, k) && values.includes(l[k]!)) : Object.hasOwn(l, k) && values.includes(l[k]!),
      );
    } else if ((m = /^([^=!\s]+)\s*(==|=|!=)\s*(.*)$/.exec(part))) {
      const k = key(m[1]!);
      const v = value(m[3]!.trim());
      reqs.push(m[2] === '!=' ? (l) => l[k] !== v : (l) => Object.hasOwn(l, k) && l[k] === v);
    } else if ((m = /^!\s*(\S+)$/.exec(part))) {
      const k = key(m[1]!);
      reqs.push((l) => !Object.hasOwn(l, k));
    } else {
      const k = key(part);
      reqs.push((l) => Object.hasOwn(l, k));
    }
  }
  return (labels) => reqs.every((r) => r(labels));
}
