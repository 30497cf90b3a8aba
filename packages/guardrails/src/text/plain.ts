/**
 * The plain form of a text, as the rules' regular expressions read it: NFKD, accents dropped, lower
 * case. Texts the normaliser returned are NFKD already, and normalising again leaves them as they are.
 */

const ACCENT = /[\u0300-\u036f]/g;

export function plainText(text: string): string {
  return text.normalize('NFKD').replace(ACCENT, '').toLowerCase();
}
