import type { Response } from 'express';

const NEEDS_QUOTES = /[",\r\n]/;
/** Cells a spreadsheet would run as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 cell, neutralised against formula injection. */
const csvCell = (value: string | null): string => {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

const csvLine = (row: (string | null)[]): string => `${row.map(csvCell).join(',')}\r\n`;

/** Resolves when the response can take more, or has closed (a client that left never drains). */
export const writable = (res: Response) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

/**
 * A CSV written page by page as the client takes it, so a large export is never held whole:
 * UTF-8 with a byte-order mark (so spreadsheets read non-ASCII right), CRLF line ends. Stops
 * reading pages once the client has gone.
 */
export const writeCsv = async (res: Response, header: string[], pages: AsyncIterable<(string | null)[][]>): Promise<void> => {
  res.write('\uFEFF' + csvLine(header));
  for await (const rows of pages) {
    if (res.destroyed) return;
    if (!res.write(rows.map(csvLine).join(''))) await writable(res);
  }
  res.end();
};
