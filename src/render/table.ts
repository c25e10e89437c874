// Column layout for every text table: each column but the last is as wide as its widest cell plus
// 3 spaces (and at least `minWidth`), the header row comes first, and no line ends in spaces.
// Cells are measured with ANSI codes stripped, so painted cells line up like plain ones: crictl's
// tables by runes as Go's tabwriter counts, syncpod's own views by terminal columns.

/** crictl's tabwriter settings: minimum cell width 20 and padding 3. */
export const CRICTL_MIN_COLUMN_WIDTH = 20;
const COLUMN_PADDING = 3;

/** Escape sequences (colours) take no room on the screen. */
const ANSI = /\u001b\[[0-9;]*m/g;

/** Cells of plain printable ASCII (nearly all): one column per character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Terminal columns a line of a cell takes: code points, with East Asian wide and emoji counted twice. */
export function displayWidth(text: string): number {
  // The common case without a per-character loop: a table of 200 rows is laid out at every start.
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const ch of text.replace(ANSI, '')) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || (cp >= 0x300 && cp < 0x370) || cp === 0x200b) continue;
    width += isWide(cp) ? 2 : 1;
  }
  return width;
}

/**
 * Go's tabwriter measure, which crictl's tables use: one column per rune (utf8.RuneCount), a wide CJK
 * character or an emoji included; colour codes (syncpod's, on a terminal) take none.
 */
export function runeWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let n = 0;
  for (const _ of text.replace(ANSI, '')) n++;
  return n;
}

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  );
}

/**
 * Lays out rows (cells may already be painted) and returns one string per row, trailing spaces
 * removed: every column but the last as wide as its widest cell plus 3 spaces, and at least
 * `minWidth`. A cell holding a newline makes its row several lines long, the other columns kept
 * aligned; that row's string then holds those lines joined by "\n". Written here rather than
 * through a table package: this is Go's tabwriter as crictl uses it, and cli-table3 (used before)
 * spent 34 ms laying out 100 rows, more than the whole start-up budget of a list command.
 */
export function tableLines(
  rows: ReadonlyArray<ReadonlyArray<string>>,
  minWidth = 0,
  measure: (text: string) => number = displayWidth,
): string[] {
  if (rows.length === 0) return [];
  // Plain loops, one pass to measure and one to write: a list command lays out its table once, in
  // code V8 has not optimised yet, where every closure and intermediate array costs (200 rows cold:
  // 1.2 ms, against 2.8 ms with per-cell closures and arrays).
  let columns = 0;
  let multiline = false;
  for (const row of rows) {
    if (row.length > columns) columns = row.length;
    for (let i = 0; i < row.length; i++) if (row[i]!.includes('\n')) multiline = true;
  }
  const widths: number[] = new Array(columns).fill(minWidth > COLUMN_PADDING ? minWidth : 0);
  if (!multiline) return singleLineRows(rows, columns, widths, measure);
  // Cells by row, each as its lines (one line unless the cell holds a newline), and their widths.
  const cellLines: string[][][] = new Array(rows.length);
  const cellWidths: number[][][] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const lines: string[][] = new Array(columns);
    const measured: number[][] = new Array(columns);
    for (let i = 0; i < columns; i++) {
      const text = row[i] ?? '';
      const parts = text.includes('\n') ? text.split('\n') : [text];
      const ws = new Array<number>(parts.length);
      for (let l = 0; l < parts.length; l++) {
        const w = measure(parts[l]!);
        ws[l] = w;
        if (w + COLUMN_PADDING > widths[i]!) widths[i] = w + COLUMN_PADDING;
      }
      lines[i] = parts;
      measured[i] = ws;
    }
    cellLines[r] = lines;
    cellWidths[r] = measured;
  }
  const out: string[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const lines = cellLines[r]!;
    const measured = cellWidths[r]!;
    let height = 1;
    for (let i = 0; i < columns; i++) if (lines[i]!.length > height) height = lines[i]!.length;
    let text = '';
    for (let l = 0; l < height; l++) {
      let line = '';
      for (let i = 0; i < columns; i++) {
        const cell = lines[i]!;
        const width = l < cell.length ? measured[i]![l]! : 0;
        if (l < cell.length) line += cell[l]!;
        const pad = widths[i]! - width;
        if (pad > 0) line += ' '.repeat(pad);
      }
      text += l === 0 ? line.trimEnd() : `\n${line.trimEnd()}`;
    }
    out[r] = text;
  }
  return out;
}

/**
 * crictl's table: rows laid out by `tableLines` with minimum width 20 and cells measured as Go's
 * tabwriter measures them (runes), each line ending in "\n".
 */
export function crictlTable(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const lines = tableLines(rows, CRICTL_MIN_COLUMN_WIDTH, runeWidth);
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/**
 * tableLines for rows whose cells are one line each (every list command's table): the widths in
 * one flat array, each line written once. 1000 rows cold: about half the time of the general path.
 */
function singleLineRows(
  rows: ReadonlyArray<ReadonlyArray<string>>,
  columns: number,
  widths: number[],
  measure: (text: string) => number,
): string[] {
  const measured = new Int32Array(rows.length * columns);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    for (let i = 0; i < columns; i++) {
      const w = i < row.length ? measure(row[i]!) : 0;
      measured[r * columns + i] = w;
      if (w + COLUMN_PADDING > widths[i]!) widths[i] = w + COLUMN_PADDING;
    }
  }
  let spaces = ' ';
  for (const w of widths) while (spaces.length < w) spaces += spaces;
  const out: string[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let line = '';
    for (let i = 0; i < columns; i++) {
      if (i < row.length) line += row[i]!;
      const pad = widths[i]! - measured[r * columns + i]!;
      if (pad > 0) line += spaces.slice(0, pad);
    }
    out[r] = line.trimEnd();
  }
  return out;
}
