import type { Response } from 'express';

/**
 * What a spreadsheet may run as a formula: a cell whose first character a person sees is
 * `=`, `+`, `-` or `@`, or their full-width forms (`＝` `＋` `－` `＠`, which some
 * spreadsheets fold to ASCII), even behind white space and invisible characters (a zero-width
 * space); or a cell that begins with a tab or a carriage return.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\p{Default_Ignorable_Code_Point}]*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/u;

/**
 * One RFC 4180 cell, neutralised against formula injection as OWASP advises: a cell that could
 * start a formula gets a leading `'`, and every cell is quoted (inner quotes doubled), so a
 * separator inside it (`,`, or the `;` of locales that split on it, a tab, a line break) cannot
 * start a new cell, formula or not.
 */
export const csvCell = (value: string | null): string => {
  const text = value ?? '';
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replaceAll('"', '""')}"`;
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
