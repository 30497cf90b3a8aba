import { codesFor, flatString } from './flat-string.ts';

/** Where rot13 writes, reused from call to call. */
let buffer = new Uint16Array(1 << 13);

/** The text with each ASCII letter moved 13 places along the alphabet (ROT13 undoes itself). */
export function rot13(text: string): string {
  const codes = (buffer = codesFor(buffer, text.length));
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const base = code >= 97 && code <= 122 ? 97 : code >= 65 && code <= 90 ? 65 : 0;
    codes[i] = base === 0 ? code : ((code - base + 13) % 26) + base;
  }
  return flatString(codes.subarray(0, text.length));
}
