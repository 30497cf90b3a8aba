/**
 * Unicode normalisation, the first step of reading a visitor's text: NFKD, and the text hidden in
 * invisible Unicode tag characters revealed.
 */

const UNICODE_TAG = /[\u{E0000}-\u{E007F}]/gu;
/** Every Unicode tag character starts with this code unit: a text without it hides nothing in tags. */
export const TAG_LEAD_SURROGATE = '\uDB40';
const NON_ASCII = /[\u0080-\uffff]/;

function decodeUnicodeTags(text: string): string {
  return text.replace(UNICODE_TAG, (tag) => {
    const ascii = (tag.codePointAt(0) ?? 0) - 0xe0000;
    return ascii >= 0x20 && ascii < 0x7f ? String.fromCharCode(ascii) : '';
  });
}

/**
 * Unicode NFKD: full-width and mathematical letters become ASCII, and accents stand apart from their
 * letters ("é" -> "e" + accent) for tokenize to skip. (NFKD equals NFKC followed by NFD, in one pass
 * and one string.) Text hidden in invisible Unicode tag characters is revealed. ASCII text is
 * returned as it is.
 */
export function normalizeText(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const revealed = text.includes(TAG_LEAD_SURROGATE) ? decodeUnicodeTags(text) : text;
  return revealed.normalize('NFKD');
}
