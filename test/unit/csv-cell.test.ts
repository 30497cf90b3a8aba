import { describe, expect, it } from 'vitest';
import { csvCell } from '../../src/adapters/http/csv.ts';

describe('a leads.csv cell, as OWASP advises against CSV injection', () => {
  it.each([
    ['=1+1', `"'=1+1"`],
    ['+1 555 0100', `"'+1 555 0100"`],
    ['-2+3', `"'-2+3"`],
    ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
    ['\t=1+1', `"'\t=1+1"`],
    ['\r=1+1', `"'\r=1+1"`],
    ['\u200b=1+1', `"'\u200b=1+1"`],
    ['\ufeff\u2060@SUM(A1)', `"'\ufeff\u2060@SUM(A1)"`],
    [' =1+1', `"' =1+1"`],
    ['＝1+1', `"'＝1+1"`],
    ['＋1', `"'＋1"`],
    ['－1', `"'－1"`],
    ['＠SUM(A1)', `"'＠SUM(A1)"`],
    ['=HYPERLINK("http://evil.example","x")', `"'=HYPERLINK(""http://evil.example"",""x"")"`],
  ])('neutralises %j as %s', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  it.each([
    // A `;` before a formula: quoted, so a spreadsheet that splits on `;` keeps it one cell.
    ['a;=1+1', `"a;=1+1"`],
    ['a,=1+1', `"a,=1+1"`],
    ['a\t=1+1', `"a\t=1+1"`],
    ['a\r\n=1+1', `"a\r\n=1+1"`],
    ['Plain summary', `"Plain summary"`],
    ['Zoë — 日本語 — 🚀', `"Zoë — 日本語 — 🚀"`],
    ['', `""`],
    [null, `""`],
  ])('quotes %j whole, so no separator inside it starts a cell', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });
});
