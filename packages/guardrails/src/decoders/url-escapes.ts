import * as characters from '../text/characters.ts';
import { codesFor, flatString } from './flat-string.ts';

// A local copy: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { hexDigitValue } = characters;
const PERCENT = 37;

/** Where decodeUrlEscapes writes, reused from call to call. */
let buffer = new Uint16Array(1 << 13);

/**
 * The text with each %XX escape replaced by its byte, read as Latin-1 ("%69%67" -> "ig"), in one
 * pass over the codes: no match object or string per escape.
 */
export function decodeUrlEscapes(text: string): string {
  const codes = (buffer = codesFor(buffer, text.length));
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const high = code === PERCENT ? hexDigitValue(text.charCodeAt(i + 1)) : -1;
    const low = high >= 0 ? hexDigitValue(text.charCodeAt(i + 2)) : -1;
    if (low >= 0) {
      codes[count++] = high * 16 + low;
      i += 2;
    } else {
      codes[count++] = code;
    }
  }
  return flatString(codes.subarray(0, count));
}
