/** Leetspeak: digits and symbols that stand for letters ("pr0mpt", "5y5tem", "@dmin"). */

import { A } from '../text/characters.ts';

/** Leetspeak digits and symbols, as the letter they stand for ("1" also stands for "l", tried second). */
export const LEET_LETTER = new Int8Array(128).fill(-1);
for (const [char, letter] of Object.entries({
  '0': 'o', '1': 'i', '2': 'z', '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '8': 'b', '9': 'g',
  '@': 'a', $: 's', '!': 'i', '|': 'l',
})) {
  LEET_LETTER[char.charCodeAt(0)] = letter.charCodeAt(0) - A;
}
/** The letter "l", which "1" and "!" also stand for. */
export const L = 'l'.charCodeAt(0) - A;

export const isLeet = (code: number) => code < 128 && (LEET_LETTER[code] as number) >= 0;

/** The ASCII letter a leetspeak digit or symbol stands for ("4" -> "a", "$" -> "s"), or -1. */
export function leetLetterCode(code: number): number {
  return isLeet(code) ? A + (LEET_LETTER[code] as number) : -1;
}

/** How a word with digits is spelled in the vocabulary: "base64" is read as "basega", like "pr0mpt" as "prompt". */
export function canonicalWord(word: string): string {
  let out = '';
  for (let i = 0; i < word.length; i += 1) {
    const code = word.charCodeAt(i);
    out += isLeet(code) ? String.fromCharCode(A + (LEET_LETTER[code] as number)) : word[i];
  }
  return out;
}
