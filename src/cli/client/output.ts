/** How a command prints: the API's JSON for scripts, else a table for people. */
export interface OutputOptions {
  json?: boolean;
}

export type Cell = string | number | boolean | null | undefined;

/** Bold headers on a terminal that wants colour (https://no-color.org). */
function useColour(): boolean {
  return process.stdout.isTTY === true && !process.env.NO_COLOR && process.env.TERM !== 'dumb';
}

function text(cell: Cell): string {
  if (cell === null || cell === undefined || cell === '') return '-';
  return String(cell);
}

/** Columns padded to their widest cell, two spaces apart; the last is not padded. */
export function formatTable(headers: readonly string[], rows: readonly Cell[][]): string {
  const cells = rows.map((row) => headers.map((_, index) => text(row[index])));
  const widths = headers.map((header, index) =>
    Math.max(header.length, ...cells.map((row) => (row[index] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  const head = line(headers);
  const bold = useColour() ? `\u001b[1m${head}\u001b[0m` : head;
  return `${[bold, ...cells.map(line)].join('\n')}\n`;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The JSON as the API answered it with `--json`, else the table. */
export function printList<T>(
  options: OutputOptions,
  items: readonly T[],
  headers: readonly string[],
  row: (item: T) => Cell[],
): void {
  if (options.json) printJson(items);
  else process.stdout.write(formatTable(headers, items.map(row)));
}

export function printOne<T>(options: OutputOptions, item: T, human: (item: T) => string): void {
  if (options.json) printJson(item);
  else process.stdout.write(`${human(item)}\n`);
}
