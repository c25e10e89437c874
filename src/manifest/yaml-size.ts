// Bounds on what a manifest may make syncpod build, checked on the YAML parser's concrete syntax
// tree (cheap: tokens that point into the text) before any value is built, so an alias bomb or a
// 50 MB annotation is refused in milliseconds instead of being expanded. Pure.
//
// - A text (a file or stdin) longer than MAX_MANIFEST_BYTES is refused before it is parsed.
// - One object (a document, or one item of a List) may expand to MAX_OBJECT_BYTES, aliases
//   counted at every use: the API server refuses a request body over 3 MiB (apiserver's
//   MaxRequestBodyBytes), so no object it stores is larger.
// - All documents of one text together may expand to MAX_MANIFEST_BYTES.
// - One invocation reads at most MAX_MANIFEST_OBJECTS objects (non-empty documents and List items,
//   over all its files) and MAX_MANIFEST_BYTES of files in all: 8 MiB of one-line pods is 87,000
//   pods, which took `plan` 54 s and 2.3 GB before it failed, where a node runs kubelet's maxPods
//   (110 by default).
// The expanded size counts the source characters of every scalar (keys and values) and two for
// each entry: close to, and never above, what its JSON would take.
import type { CST } from 'yaml';

const MiB = 1024 * 1024;
/** The API server's request body limit (k8s.io/apiserver MaxRequestBodyBytes): the largest object it admits. */
export const MAX_OBJECT_BYTES = 3 * MiB;
/** A manifest file or stdin, and everything its documents expand to together. */
export const MAX_MANIFEST_BYTES = 8 * MiB;
/** Objects (non-empty documents and List items) one invocation reads, over all its files. */
export const MAX_MANIFEST_OBJECTS = 2000;

/** How many objects the texts of one invocation held so far (expandedSizeProblem adds to it). */
export interface ObjectCount {
  objects: number;
}

export interface SizeProblem {
  /** 1-based document number. */
  document: number;
  /** 1-based item number when the object is an item of a List document. */
  item?: number;
  /** Source offset of the object. */
  offset: number;
  size: number;
  limit: number;
  what: 'object' | 'manifest' | 'objects';
}

type Node = CST.Token | null | undefined;

/** Walks tokens in document order; an anchor applies to the next node, as the composer reads it. */
class Measure {
  readonly anchors = new Map<string, number>();
  private pending: string | undefined;

  props(tokens: readonly CST.Token[] | undefined): void {
    for (const t of tokens ?? []) if (t.type === 'anchor') this.pending = t.source.slice(1);
  }

  node(token: Node): number {
    if (!token) return 0;
    let anchor = this.pending;
    this.pending = undefined;
    let size = 0;
    switch (token.type) {
      case 'alias':
        size = this.anchors.get(token.source.slice(1).trim()) ?? 0;
        break;
      case 'scalar':
      case 'single-quoted-scalar':
      case 'double-quoted-scalar':
        size = token.source.length;
        break;
      case 'block-scalar':
        for (const p of token.props) if (p.type === 'anchor') anchor = p.source.slice(1);
        size = token.source.length;
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection':
        size = this.items(token.items);
        break;
      default:
        size = 0;
    }
    if (anchor !== undefined) this.anchors.set(anchor, size);
    return size;
  }

  item(it: CST.CollectionItem): number {
    this.props(it.start);
    let size = this.node(it.key);
    this.props(it.sep);
    size += this.node(it.value);
    return size + 2;
  }

  items(items: readonly CST.CollectionItem[]): number {
    let size = 0;
    for (const it of items) size += this.item(it);
    return size;
  }
}

function offsetOf(token: Node, fallback: number): number {
  return token && 'offset' in token && typeof token.offset === 'number' ? token.offset : fallback;
}

const isItemsKey = (key: Node): boolean =>
  !!key &&
  (key.type === 'scalar' || key.type === 'single-quoted-scalar' || key.type === 'double-quoted-scalar') &&
  key.source.replace(/^["']|["']$/g, '') === 'items';

/** A document without a value (empty, or only comments): nothing is built from it. */
const isEmptyDocument = (top: Node): boolean =>
  !top || (top.type === 'scalar' && top.source.trim() === '') || top.type === 'comment';

/**
 * The first object or text over its limit among the parsed documents (CST tokens of one text), or
 * undefined. A document whose top level is a mapping with an `items` sequence (a List) is measured
 * item by item; its other fields together are one more object. Every non-empty document that is not
 * a List, and every List item, adds one to `count`; one past MAX_MANIFEST_OBJECTS is a problem.
 * `tokens` is read in order and no further than the first problem (the parser's generator: a text
 * of 87,000 documents is refused after parsing 2,001 of them).
 */
export function expandedSizeProblem(
  tokens: Iterable<CST.Token>,
  count: ObjectCount = { objects: 0 },
): SizeProblem | undefined {
  let total = 0;
  let document = 0;
  const tooMany = (offset: number, item?: number): SizeProblem | undefined =>
    ++count.objects > MAX_MANIFEST_OBJECTS
      ? {
          document,
          offset,
          size: count.objects,
          limit: MAX_MANIFEST_OBJECTS,
          what: 'objects',
          ...(item ? { item } : {}),
        }
      : undefined;
  for (const doc of tokens) {
    if (doc.type !== 'document') continue;
    document++;
    const m = new Measure();
    m.props(doc.start);
    const top = doc.value;
    const over = (size: number, offset: number, item?: number): SizeProblem | undefined =>
      size > MAX_OBJECT_BYTES
        ? { document, offset, size, limit: MAX_OBJECT_BYTES, what: 'object', ...(item ? { item } : {}) }
        : undefined;
    let docSize = 0;
    if (
      top &&
      (top.type === 'block-map' || top.type === 'flow-collection') &&
      top.items.some((i) => isItemsKey(i.key))
    ) {
      let rest = 0;
      for (const it of top.items) {
        const list = it.value;
        if (!isItemsKey(it.key) || !list || (list.type !== 'block-seq' && list.type !== 'flow-collection')) {
          rest += m.item(it);
          continue;
        }
        m.props(it.start);
        rest += m.node(it.key) + 2;
        m.props(it.sep);
        let n = 0;
        for (const entry of list.items) {
          n++;
          const counted = tooMany(offsetOf(entry.value, offsetOf(top, 0)), n);
          if (counted) return counted;
          const size = m.item(entry);
          const problem = over(size, offsetOf(entry.value, offsetOf(top, 0)), n);
          if (problem) return problem;
          docSize += size;
        }
      }
      const problem = over(rest, offsetOf(top, 0));
      if (problem) return problem;
      docSize += rest;
    } else {
      if (!isEmptyDocument(top)) {
        const counted = tooMany(offsetOf(top, doc.offset));
        if (counted) return counted;
      }
      docSize = m.node(top);
      const problem = over(docSize, offsetOf(top, doc.offset));
      if (problem) return problem;
    }
    total += docSize;
    if (total > MAX_MANIFEST_BYTES)
      return { document, offset: offsetOf(top, doc.offset), size: total, limit: MAX_MANIFEST_BYTES, what: 'manifest' };
  }
  return undefined;
}

/** 3145728 -> "3 MiB", 536870912 -> "512 MiB", 2048 -> "2 KiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return 'more than any memory';
  if (n >= MiB) return `${Number((n / MiB).toFixed(1))} MiB`;
  if (n >= 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${n} bytes`;
}

/** The one line (after the file label) for a size problem. */
export function sizeProblemLine(p: SizeProblem): string {
  const doc = `document ${p.document}: `;
  const item = p.item ? `items[${p.item - 1}]: ` : '';
  if (p.what === 'objects')
    return `${doc}${item}more than ${p.limit} objects (non-empty documents and List items) in one invocation, far more than a node runs (kubelet's maxPods, 110 by default): refused; split the input`;
  if (p.what === 'manifest')
    return `${doc}the documents expand to ${formatBytes(p.size)} (YAML aliases included), over the ${formatBytes(p.limit)} limit for one manifest: refused`;
  return `${doc}${item}the object expands to ${formatBytes(p.size)} (YAML aliases included), over the ${formatBytes(p.limit)} the API server admits for one object: refused`;
}

export const MANIFEST_LIMIT_WHY = `a manifest; the API server admits no object over ${formatBytes(MAX_OBJECT_BYTES)}`;

/** The line for the files of one invocation together past MAX_MANIFEST_BYTES, or undefined. */
export function inputsTooLong(total: number): string | undefined {
  return total > MAX_MANIFEST_BYTES
    ? `the manifests of this invocation come to ${formatBytes(total)} with this file, over the ${formatBytes(MAX_MANIFEST_BYTES)} syncpod reads at once: refused; split the input`
    : undefined;
}

/** The line for a text too long to parse, or undefined. */
export function textTooLong(length: number): string | undefined {
  return length > MAX_MANIFEST_BYTES
    ? `larger than ${formatBytes(MAX_MANIFEST_BYTES)}: refused (${MANIFEST_LIMIT_WHY})`
    : undefined;
}
