import { Readable } from 'node:stream';

export type TCsvCell = string | number | boolean | null | undefined;

/**
 * Text a spreadsheet would run as a formula (= + - @, and the tab and carriage return some read
 * the same way) is written with a leading apostrophe, so a learner named "=HYPERLINK(...)" stays
 * a name when an administrator opens the file.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: TCsvCell): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: readonly TCsvCell[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * A CSV file written as its batches arrive: a byte-order mark (spreadsheets then read UTF-8
 * names right), the header, then each batch's rows, read as the client takes them.
 */
export function csvStream<T>(header: readonly string[], batches: AsyncIterable<T[]>, toCells: (item: T) => TCsvCell[]): Readable {
  async function* chunks() {
    yield `\uFEFF${csvRow(header)}`;
    for await (const batch of batches) yield batch.map((item) => csvRow(toCells(item))).join('');
  }
  return Readable.from(chunks());
}
