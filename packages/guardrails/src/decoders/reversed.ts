import { flatString } from './flat-string.ts';

/** The text read backwards, by UTF-16 code unit (attacks spell ASCII backwards: "snoitcurtsni"). */
export function reverseText(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) codes[text.length - 1 - i] = text.charCodeAt(i);
  return flatString(codes);
}
