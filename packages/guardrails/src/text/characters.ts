/** What kind of character a UTF-16 code unit is, for the readers that walk text code by code. */

/** The code of "a": letters are numbered from it (0-25). */
export const A = 97;

export const isAsciiDigit = (code: number) => code >= 48 && code <= 57;

const HEX_VALUE = new Int8Array(128).fill(-1);
for (let digit = 0; digit < 16; digit += 1) {
  HEX_VALUE['0123456789abcdef'.charCodeAt(digit)] = digit;
  HEX_VALUE['0123456789ABCDEF'.charCodeAt(digit)] = digit;
}

/** The value of a hex digit (0-9, a-f, A-F), or -1 (also past the end of a text, where charCodeAt gives NaN). */
export function hexDigitValue(code: number): number {
  return code < 128 ? (HEX_VALUE[code] as number) : -1;
}

/** Whether a code unit is white space as a regular expression's \s reads it. */
export function isWhiteSpaceCode(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

export const isAsciiLetterOrDigit = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || isAsciiDigit(code);

/** Whether a code unit is punctuation, a space, a symbol or a surrogate rather than a letter. */
export function isSymbolCode(code: number): boolean {
  return (
    code < 0xc0 ||
    code === 0xd7 ||
    code === 0xf7 ||
    (code >= 0x2000 && code <= 0x2bff) ||
    (code >= 0x3000 && code <= 0x303f) ||
    (code >= 0xd800 && code <= 0xdfff) ||
    (code >= 0xfe10 && code <= 0xfe6f) ||
    (code >= 0xff00 && code <= 0xff0f)
  );
}
