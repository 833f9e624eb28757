// How `svc` commands render what they print for a person: a record as aligned `label  value` lines, a list as
// aligned columns. `--json` prints the value itself; these are the human lines only.

/** One printed value; empty, null and undefined print as `-`. */
export type Cell = string | number | boolean | null | undefined;

export const show = (value: Cell): string => (value === null || value === undefined || value === '' ? '-' : String(value));

/** Aligned `label  value` lines for one record. */
export function lines(pairs: [string, Cell][]): string {
  const width = Math.max(...pairs.map(([label]) => label.length));
  return pairs.map(([label, value]) => `${label.padEnd(width)}  ${show(value)}`).join('\n');
}

/** Aligned columns, one line per item; `empty` when there are none. */
export function table<T>(items: T[], columns: [string, (item: T) => Cell][], empty: string): string {
  if (items.length === 0) return empty;
  const cells = [columns.map(([title]) => title.toUpperCase()), ...items.map((item) => columns.map(([, cell]) => show(cell(item))))];
  const widths = columns.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n');
}
