/**
 * The plain form of a text, as the rules' regular expressions read it: NFKD, accents dropped, lower
 * case. Texts the normaliser returned are NFKD already, and normalising again leaves them as they are.
 */

const ACCENT = /[\u0300-\u036f]/g;

export function plainText(text: string): string {
  return text.normalize('NFKD').replace(ACCENT, '').toLowerCase();
}

/**
 * The plain form of a text the normaliser returned (normalizeText): NFKD already, and NFKD leaves
 * an NFKD text as it is, so it is not normalised again. The same string plainText gives, without
 * the copy normalize makes of an 8,000-character message.
 */
export function plainTextOfNormalized(normalized: string): string {
  return normalized.replace(ACCENT, '').toLowerCase();
}
