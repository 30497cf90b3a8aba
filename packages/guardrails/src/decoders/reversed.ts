import { codesFor, flatString } from './flat-string.ts';

/** Where reverseText writes, reused from call to call. */
let buffer = new Uint16Array(1 << 13);

/** The text read backwards, by UTF-16 code unit (attacks spell ASCII backwards: "snoitcurtsni"). */
export function reverseText(text: string): string {
  const codes = (buffer = codesFor(buffer, text.length));
  for (let i = 0; i < text.length; i += 1) codes[text.length - 1 - i] = text.charCodeAt(i);
  return flatString(codes.subarray(0, text.length));
}
