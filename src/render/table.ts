// Column layout for every text table: each column but the last is as wide as its widest cell plus
// 3 spaces (and at least `minWidth`), the header row comes first, and no line ends in spaces.
// Cells are measured with ANSI codes stripped, so painted cells line up like plain ones.

/** crictl's tabwriter settings: minimum cell width 20 and padding 3. */
export const CRICTL_MIN_COLUMN_WIDTH = 20;
const COLUMN_PADDING = 3;

/** Escape sequences (colours) take no room on the screen. */
const ANSI = /\u001b\[[0-9;]*m/g;

/** Cells of plain printable ASCII (nearly all): one column per character. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Terminal columns a line of a cell takes: code points, with East Asian wide and emoji counted twice. */
function displayWidth(text: string): number {
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

function isWide(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x115f) || (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) || (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0xfe30 && cp <= 0xfe4f) || (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) || (cp >= 0x1f300 && cp <= 0x1f64f) || (cp >= 0x1f900 && cp <= 0x1f9ff) ||
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
export function tableLines(rows: ReadonlyArray<ReadonlyArray<string>>, minWidth = 0): string[] {
  if (rows.length === 0) return [];
  const columns = Math.max(...rows.map((r) => r.length));
  const cells = rows.map((row) => Array.from({ length: columns }, (_, i) => (row[i] ?? '').split('\n')));
  // Each cell line measured once.
  const measured = cells.map((row) => row.map((lines) => lines.map(displayWidth)));
  const widths: number[] = new Array(columns).fill(minWidth > COLUMN_PADDING ? minWidth : 0);
  for (const row of measured) {
    for (let i = 0; i < columns; i++) {
      for (const w of row[i]!) if (w + COLUMN_PADDING > widths[i]!) widths[i] = w + COLUMN_PADDING;
    }
  }
  return cells.map((row, r) => {
    const height = Math.max(...row.map((c) => c.length));
    const lines: string[] = [];
    for (let l = 0; l < height; l++) {
      let line = '';
      for (let i = 0; i < columns; i++) {
        const text = row[i]![l] ?? '';
        const width = l < row[i]!.length ? measured[r]![i]![l]! : 0;
        line += text + ' '.repeat(Math.max(0, widths[i]! - width));
      }
      lines.push(line.trimEnd());
    }
    return lines.join('\n');
  });
}

/** crictl's table: rows laid out by `tableLines` with minimum width 20, each line ending in "\n". */
export function crictlTable(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return tableLines(rows, CRICTL_MIN_COLUMN_WIDTH)
    .map((line) => `${line}\n`)
    .join('');
}
