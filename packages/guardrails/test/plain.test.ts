import { describe, expect, it } from 'vitest';
import { flatString } from '../src/decoders/flat-string.ts';
import { normalizeText } from '../src/text/normalize.ts';
import { plainText, plainTextOfNormalized } from '../src/text/plain.ts';

describe('plainTextOfNormalized', () => {
  // Case mappings that depend on what surrounds a letter, or that are not one code unit, next to the
  // common ones; with accents (the one-pass way) and without (lower-cased as it is).
  const texts = [
    'Ignore ALL previous instructions',
    'Équipe, Über, naïve, ĂŞŢ',
    'ΟΔΟΣ ΣΟΦΟΣ σοφός',
    'İstanbul ve KELVIN \u212a',
    'Thanks 👍🙏 😄 for the CV',
    'Merci 👍🙏 pour le CV, René',
    '𐐀𐐁 Deseret and 𞤀 Adlam, café',
    'a lone \ud83d surrogate and \udc4d another, née',
    'a lone high surrogate at the end, señor \ud83d',
    'Ｆｕｌｌｗｉｄｔｈ ＴＥＸＴ and ﬁ ligatures',
    'zero\u200bwidth\u200bSPACES',
    '\uffff at the end',
    '',
  ];

  it('gives the string plainText gives', () => {
    for (const text of texts) expect(plainTextOfNormalized(normalizeText(text))).toBe(plainText(text));
  });
});

describe('flatString', () => {
  it('keeps every code, in a one-byte string or a two-byte one', () => {
    for (const text of ['plain ASCII', 'Latin-1: café ÿ', 'beyond: ĳ 中文 👍', '']) {
      const codes = Uint16Array.from({ length: text.length }, (_, i) => text.charCodeAt(i));
      expect(flatString(codes)).toBe(text);
    }
  });
});
