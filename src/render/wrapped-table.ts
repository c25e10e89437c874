// syncpod's own human tables (plan steps, upgrade preview, node plan and orphans, report, node
// profile, doctor), laid out by cli-table3 without borders: every column as wide as its widest cell
// plus 3 spaces, except the columns allowed to wrap (REASON, MESSAGE, ...), which share what the
// terminal width leaves and are word-wrapped into it. Nothing is cut: ids and names keep their
// width, a wrapped column is never narrower than its longest word, and when the fixed columns
// already fill the width the line runs past it. crictl's lists keep tabwriter's layout (table.ts);
// cli-table3 is required here, at the first call, so those lists never load it.
//
// Cells and wrapped text are masked (the invocation's Secret values) before they are laid out: the
// output streams mask what they write, but a value with spaces wrapped over lines reaches them in
// pieces they cannot recognise.
import { invocationSecrets } from './secret-mask';
import { displayWidth } from './table';

export interface WrappedTableOptions {
  /** Terminal columns the table should fit in (default 100). */
  width?: number;
  /** Indexes of the columns that may wrap (word by word) to fit the width. */
  wrap?: number[];
  /**
   * Indexes of fixed columns whose long cells move to a line of their own under the row (`  TARGET:
   * …`) when keeping them in place would squeeze a wrap column below READABLE_WRAP_WIDTH.
   */
  moveLong?: number[];
}

/** Width used when the caller knows none (not a terminal, no COLUMNS). */
export const DEFAULT_TABLE_WIDTH = 100;
const PADDING = 3;
/** A wrapped column keeps at least this many characters (or its longest word) before lines run past the width. */
const MIN_WRAP_WIDTH = 16;
/** Tables with movable columns keep every wrap column at least this wide (~30: a reason stays readable). */
export const READABLE_WRAP_WIDTH = 30;
/** A moved column keeps cells up to this width in place. */
const MOVED_KEEP = 12;

/** The widest line of a cell (cells may hold newlines). */
function cellWidth(text: string): number {
  let w = 0;
  for (const line of text.split('\n')) w = Math.max(w, displayWidth(line));
  return w;
}

function longestWord(text: string): number {
  let w = 0;
  // (displayWidth does not count ANSI codes, and they hold no spaces.)
  for (const word of text.split(/\s+/)) w = Math.max(w, displayWidth(word));
  return w;
}

/** Content widths (padding excluded) per column: fixed columns their widest cell, wrap columns a share of the rest. */
export function columnWidths(
  all: ReadonlyArray<ReadonlyArray<string>>,
  columns: number,
  opts: WrappedTableOptions,
): number[] {
  const width = opts.width && opts.width > 0 ? opts.width : DEFAULT_TABLE_WIDTH;
  const wrap = new Set((opts.wrap ?? []).filter((i) => i >= 0 && i < columns));
  const natural = new Array<number>(columns).fill(0);
  const words = new Array<number>(columns).fill(0);
  for (const row of all) {
    for (let i = 0; i < columns; i++) {
      const cell = row[i] ?? '';
      natural[i] = Math.max(natural[i]!, cellWidth(cell));
      if (wrap.has(i)) words[i] = Math.max(words[i]!, longestWord(cell));
    }
  }
  const widths = [...natural];
  // A line is the sum of the content widths plus 3 spaces between columns.
  let left = width - PADDING * (columns - 1);
  for (let i = 0; i < columns; i++) if (!wrap.has(i)) left -= natural[i]!;
  // Narrow wrap columns first keep their whole width; the others split what remains.
  const open = [...wrap].sort((a, b) => natural[a]! - natural[b]!);
  open.forEach((i, k) => {
    const share = Math.floor(left / (open.length - k));
    const floor = Math.max(words[i]!, Math.min(natural[i]!, MIN_WRAP_WIDTH));
    widths[i] = Math.min(natural[i]!, Math.max(floor, share));
    left -= widths[i]!;
  });
  return widths;
}

/**
 * The header and each row as their lines (a wrapped row takes several), no line ending in spaces.
 * Callers that paint a row paint each of its lines.
 */
export function wrappedTableRows(
  head: readonly string[],
  rows: ReadonlyArray<ReadonlyArray<string>>,
  opts: WrappedTableOptions = {},
): string[][] {
  let columns = head.length;
  for (const r of rows) columns = Math.max(columns, r.length);
  let all = [head, ...rows].map((r) => Array.from({ length: columns }, (_, i) => invocationSecrets.mask(r[i] ?? '')));
  let widths = columnWidths(all, columns, opts);
  // A wrap column squeezed below its floor: long cells of the movable columns go to their own line.
  const moved: Array<Array<[string, string]>> = all.map(() => []);
  const squeezed = (opts.wrap ?? []).some((i) => {
    const natural = Math.max(...all.map((r) => cellWidth(r[i] ?? '')));
    return widths[i]! < Math.min(natural, READABLE_WRAP_WIDTH);
  });
  if (squeezed && opts.moveLong?.length) {
    const keep = new Set(opts.moveLong);
    const width = opts.width && opts.width > 0 ? opts.width : DEFAULT_TABLE_WIDTH;
    // What the movable columns may keep in place so that the wrap columns get READABLE_WRAP_WIDTH each.
    let fixed = PADDING * (columns - 1) + READABLE_WRAP_WIDTH * (opts.wrap ?? []).length;
    for (let i = 0; i < columns; i++) {
      if (!(opts.wrap ?? []).includes(i) && !keep.has(i)) fixed += Math.max(...all.map((r) => cellWidth(r[i] ?? '')));
    }
    const allowed = Math.max(MOVED_KEEP, Math.floor((width - fixed) / keep.size));
    all = all.map((r, ri) =>
      r.map((cell, ci) => {
        if (ri === 0 || !keep.has(ci) || cellWidth(cell) <= Math.max(allowed, cellWidth(head[ci] ?? ''))) return cell;
        moved[ri]!.push([head[ci] ?? '', cell]);
        return '↓';
      }),
    );
    widths = columnWidths(all, columns, opts);
  }
  const Table = require('cli-table3') as typeof import('cli-table3');
  const table = new Table({
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': PADDING, compact: true },
    colWidths: widths.map((w) => w + PADDING),
    wordWrap: true,
    wrapOnWordBoundary: true,
  });
  table.push(...all);
  const lines = table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd());
  // cli-table3 records each row's height while laying out.
  const heights = (table.options as unknown as { rowHeights: number[] }).rowHeights;
  const out: string[][] = [];
  let at = 0;
  for (let r = 0; r < all.length; r++) {
    const h = heights[r] ?? 1;
    const width = opts.width && opts.width > 0 ? opts.width : DEFAULT_TABLE_WIDTH;
    const own = moved[r]!.flatMap(([name, cell]) => breakPath(`  ↳ ${name.toLowerCase()} ${cell}`, width, '      '));
    out.push([...lines.slice(at, at + h), ...own]);
    at += h;
  }
  return out;
}

/** A line of one long word (a path) broken after a `/` to fit the width; other text as wrapText. */
function breakPath(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let rest = text;
  while (displayWidth(rest) > width) {
    const cut = rest.lastIndexOf('/', width - 1);
    if (cut <= indent.length) break;
    lines.push(rest.slice(0, cut + 1));
    rest = indent + rest.slice(cut + 1);
  }
  lines.push(rest);
  return lines;
}

/** The table as text (no trailing newline): header, then the rows, wrap columns fitted to `width`. */
export function wrappedTable(head: string[], rows: string[][], opts: WrappedTableOptions = {}): string {
  return wrappedTableRows(head, rows, opts).flat().join('\n');
}

/**
 * Text in lines of at most `width` columns, broken between words; lines after the first start with
 * `indent`. A word longer than a line stands alone on its line (never cut).
 */
export function wrapText(given: string, width: number = DEFAULT_TABLE_WIDTH, indent = ''): string[] {
  const text = invocationSecrets.mask(given);
  const lead = /^\s*/.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  let empty = true;
  for (const word of text.slice(lead.length).split(/\s+/).filter(Boolean)) {
    if (!empty && displayWidth(line) + 1 + displayWidth(word) > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = empty ? `${line}${word}` : `${line} ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines;
}
