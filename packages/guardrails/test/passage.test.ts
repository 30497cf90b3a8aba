import { describe, expect, it } from 'vitest';
import { passagesWhere, wordsOf, type PassageReader } from '../src/rules/passage.ts';
import type { Scan } from '../src/scan.ts';

/** A reader whose "scan" is the piece itself, with offsets in exactly the room asked for. */
const pieceReader: PassageReader = {
  scanOfSlice: (text, start, end) => text.slice(start, end) as unknown as Scan,
  words: (text) => wordsOf(text, (length) => new Int32Array(length)),
};
const holds = (word: string) => (scan: Scan) => (scan as unknown as string).split(' ').includes(word);

describe('passagesWhere', () => {
  it('finds a passage at the very end of the densest text: one-letter words, one space apart', () => {
    const words = Array.from({ length: 301 }, (_, i) => (i === 300 ? 'z' : 'a'));
    const text = words.join(' ');
    const passages = [...passagesWhere(text, holds('z'), pieceReader)];
    expect(passages.length).toBeGreaterThan(0);
    for (const { start, end, located } of passages) {
      expect(located).toBe(true);
      expect(end).toBe(text.length);
      expect(start === 0 || text[start - 1] === ' ').toBe(true);
      expect(text.slice(start, end).split(' ').length).toBeLessThanOrEqual(16);
    }
  });

  it('gives a passage once where two runs of words overlap', () => {
    // Runs of 96 words start 80 apart: words 80 to 95 are the last passage of the first and the first of the second.
    const text = Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ');
    const passages = [...passagesWhere(text, holds('w90'), pieceReader)];
    expect(passages.length).toBeGreaterThan(0);
    expect(new Set(passages.map((p) => `${p.start}-${p.end}`)).size).toBe(passages.length);
  });

  it('gives the whole text, unlocated, when no passage matches alone', () => {
    const text = Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ');
    const needsBoth = (scan: Scan) => holds('w0')(scan) && holds('w39')(scan);
    expect([...passagesWhere(text, needsBoth, pieceReader)]).toEqual([{ start: 0, end: text.length, located: false }]);
  });
});
