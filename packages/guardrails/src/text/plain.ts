/**
 * The plain form of a text, as the rules' regular expressions read it: NFKD, accents dropped, lower
 * case. Texts the normaliser returned are NFKD already, and normalising again leaves them as they are.
 */
import { codesFor, flatString } from '../decoders/flat-string.ts';

const ACCENT = /[\u0300-\u036f]/g;

export function plainText(text: string): string {
  return text.normalize('NFKD').replace(ACCENT, '').toLowerCase();
}

/** Whether a text holds an accent that NFKD set apart: only then does the plain form drop codes. */
const HAS_ACCENT = /[\u0300-\u036f]/;

/**
 * What LOWER_CASE holds for a code unit whose lower case is not one code unit whatever surrounds
 * it: a surrogate (a pair lowers as one code point), "Σ" ("ς" at the end of a word, else "σ"), "İ"
 * ("i" and a dot above). U+FFFF lowers to itself, and only costs the slow way.
 */
const NOT_SIMPLE = 0xffff;
const CAPITAL_SIGMA = 0x3a3;
/**
 * Each code unit's lower case, or NOT_SIMPLE; 0 until first met (no code unit but NUL lowers to 0,
 * and ASCII is filled from the start), so the table costs nothing to load.
 */
const LOWER_CASE = new Uint16Array(0x10000);
for (let code = 1; code < 128; code += 1) LOWER_CASE[code] = code >= 65 && code <= 90 ? code + 32 : code;

function learnLowerCase(code: number): number {
  const lowered = String.fromCharCode(code).toLowerCase();
  const isSurrogate = code >= 0xd800 && code <= 0xdfff;
  const lower = isSurrogate || code === CAPITAL_SIGMA || lowered.length !== 1 ? NOT_SIMPLE : lowered.charCodeAt(0);
  LOWER_CASE[code] = lower;
  return lower;
}

/**
 * For each high surrogate, whether every code point it starts lowers to itself (emoji do): 0 until
 * first asked, then KEPT or NOT_KEPT. A pair of another (Deseret, Adlam, ...) takes the slow way.
 */
const PAIR_KEPT = new Uint8Array(0x400);
const KEPT = 1;
const NOT_KEPT = 2;

function keepsPairsOf(high: number): boolean {
  const slot = high - 0xd800;
  if (PAIR_KEPT[slot] === 0) {
    let kept = true;
    for (let low = 0xdc00; low <= 0xdfff && kept; low += 1) {
      const pair = String.fromCharCode(high, low);
      kept = pair.toLowerCase() === pair;
    }
    PAIR_KEPT[slot] = kept ? KEPT : NOT_KEPT;
  }
  return PAIR_KEPT[slot] === KEPT;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The plain form's code units, reused from message to message: only the string made of them is kept. */
let plainCodes = new Uint16Array(1 << 13);

/**
 * The plain form of a text the normaliser returned (normalizeText): NFKD already, and NFKD leaves
 * an NFKD text as it is, so it is not normalised again. The same string plainText gives. Without
 * accents, it is the text lower-cased. With them, replacing the accents and then lowering the case
 * copied an 8,000-character message twice: here the plain form is made in one pass, code by code,
 * in one copy. A text with a code unit whose lower case depends on what surrounds it (NOT_SIMPLE),
 * other than a pair of surrogates that lowers to itself, takes the two copies.
 */
export function plainTextOfNormalized(normalized: string): string {
  if (!HAS_ACCENT.test(normalized)) return normalized.toLowerCase();
  const length = normalized.length;
  const codes = (plainCodes = codesFor(plainCodes, length));
  const table = LOWER_CASE;
  let count = 0;
  for (let i = 0; i < length; i += 1) {
    const code = normalized.charCodeAt(i);
    if (code >= 0x300 && code <= 0x36f) continue;
    let lower = table[code] as number;
    if (lower === 0 && code !== 0) lower = learnLowerCase(code);
    if (lower === NOT_SIMPLE) {
      if (!isHighSurrogate(code) || !isLowSurrogate(normalized.charCodeAt(i + 1)) || !keepsPairsOf(code)) {
        return normalized.replace(ACCENT, '').toLowerCase();
      }
      codes[count] = code;
      count += 1;
      i += 1;
      lower = normalized.charCodeAt(i);
    }
    codes[count] = lower;
    count += 1;
  }
  return flatString(codes.subarray(0, count));
}
