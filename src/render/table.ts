// Column layout for every text table, through cli-table3 with its borders blanked out: each
// column but the last is as wide as its widest cell plus 3 spaces (and at least `minWidth`), the
// header row comes first, and no line ends in spaces. cli-table3 measures cells with ANSI codes
// stripped, so painted cells line up like plain ones.

/** crictl's tabwriter settings: minimum cell width 20 and padding 3. */
export const CRICTL_MIN_COLUMN_WIDTH = 20;
const COLUMN_PADDING = 3;

const NO_BORDER = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
};

/**
 * Lays out rows (cells may already be painted) and returns one string per row, trailing spaces
 * removed. A cell holding a newline makes its row several lines long (cli-table3 keeps the other
 * columns aligned); that row's string then holds those lines joined by "\n". With `minWidth` > 3 a
 * first sizing row of blank cells, `minWidth - 3` wide, makes cli-table3 give every column at
 * least that width; that row is dropped from the result.
 */
export function tableLines(rows: ReadonlyArray<ReadonlyArray<string>>, minWidth = 0): string[] {
  if (rows.length === 0) return [];
  // Loaded here so -q, JSON and YAML output never evaluate cli-table3.
  const Table = require('cli-table3') as typeof import('cli-table3');
  const table = new Table({
    chars: NO_BORDER,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': COLUMN_PADDING },
  });
  const columns = Math.max(...rows.map((r) => r.length));
  const sizing = minWidth > COLUMN_PADDING;
  if (sizing) table.push(Array<string>(columns).fill(' '.repeat(minWidth - COLUMN_PADDING)));
  for (const row of rows) table.push([...row]);
  const lines = table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd());
  // toString() filled rowHeights with the number of lines each row took.
  const out: string[] = [];
  let next = 0;
  table.options.rowHeights.forEach((height, i) => {
    const h = height ?? 1;
    if (!(sizing && i === 0)) out.push(lines.slice(next, next + h).join('\n'));
    next += h;
  });
  return out;
}

/** crictl's table: rows laid out by `tableLines` with minimum width 20, each line ending in "\n". */
export function crictlTable(rows: ReadonlyArray<ReadonlyArray<string>>): string {
  return tableLines(rows, CRICTL_MIN_COLUMN_WIDTH)
    .map((line) => `${line}\n`)
    .join('');
}
