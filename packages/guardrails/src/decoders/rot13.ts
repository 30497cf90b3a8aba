import { flatString } from './flat-string.ts';

/** The text with each ASCII letter moved 13 places along the alphabet (ROT13 undoes itself). */
export function rot13(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const base = code >= 97 && code <= 122 ? 97 : code >= 65 && code <= 90 ? 65 : 0;
    codes[i] = base === 0 ? code : ((code - base + 13) % 26) + base;
  }
  return flatString(codes);
}
