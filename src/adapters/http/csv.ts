const NEEDS_QUOTES = /[",\r\n]/;
/** Cells a spreadsheet would run as a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One RFC 4180 cell, neutralised against formula injection. */
export const csvCell = (value: string | null): string => {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** UTF-8 with a byte-order mark (so spreadsheets read non-ASCII right), CRLF line ends. */
export const toCsv = (header: string[], rows: (string | null)[][]): string =>
  '\uFEFF' + [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
