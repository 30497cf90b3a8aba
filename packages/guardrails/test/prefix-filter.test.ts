import { describe, expect, it } from 'vitest';
import { PrefixFilteredPattern } from '../src/text/prefix-filter.ts';

/** Every match a global search finds, from the start on, as [index, text] pairs. */
function globalMatches(pattern: RegExp, text: string): [number, string][] {
  const global = new RegExp(pattern.source, pattern.flags + 'g');
  return [...text.matchAll(global)].map((match) => [match.index, match[0]]);
}

/** The same walk through the filtered pattern: each next search starts where the last match ended. */
function filteredMatches(pattern: RegExp, text: string): [number, string][] {
  const filtered = new PrefixFilteredPattern(pattern);
  const found: [number, string][] = [];
  for (let match = filtered.exec(text); match !== null; match = filtered.exec(text, match.index + Math.max(1, match[0].length))) {
    found.push([match.index, match[0]]);
  }
  return found;
}

/** Texts of a few pieces, so that every pattern below matches often and in overlapping ways. */
function randomTexts(count: number, pieces: string[]): string[] {
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  return Array.from({ length: count }, () => {
    const length = Math.floor(next() * 40);
    let text = '';
    for (let i = 0; i < length; i += 1) text += pieces[Math.floor(next() * pieces.length)];
    return text;
  });
}

const PATTERNS = [
  // literals, word boundaries, classes, optional and repeated parts, alternatives inside groups
  /\bab|a[bc]d|x?yz|(foo|ba+r){2}|c\S*d|\d{2,3}z|ro(le|ll)\b/,
  // a first character that is any, and escapes of every kind
  /q.\w|\u0061b\x63|\n?ab|[^a]b[\]x-z]/,
  // assertions and a back-reference
  /(?<!a)bc|(?=b)bca|(a)\1b|(?:zz|yy)(?!x)/,
  // alternatives that only differ late, and one that is a prefix of another
  /abcd|abce|abc|ab d|a b/,
];

describe('PrefixFilteredPattern', () => {
  const texts = randomTexts(3000, ['a', 'b', 'c', 'd', 'e', 'ab', 'abc', 'bc', ' ', 'x', 'yz', 'zz', 'q', 'foo', 'bar', 'ro', 'le', '1', '9', '\n', '-', ']']);

  it.each(PATTERNS.map((pattern) => [pattern.source, pattern]))('finds what the pattern finds, in order: %s', (_, pattern) => {
    let matched = 0;
    for (const text of texts) {
      const expected = globalMatches(pattern, text);
      matched += expected.length;
      expect(filteredMatches(pattern, text)).toEqual(expected);
    }
    // The texts exercise the pattern: a filter that found nothing would not pass unnoticed.
    expect(matched).toBeGreaterThan(texts.length / 2);
  });

  it('also finds an empty match, at the end of the text included', () => {
    const pattern = /a*|b/;
    for (const text of ['', 'bab', 'xxa', 'aab']) expect(filteredMatches(pattern, text)).toEqual(globalMatches(pattern, text));
  });

  it('starts at the position it is given', () => {
    const filtered = new PrefixFilteredPattern(/abc|bcd/);
    expect(filtered.exec('abcd abcd', 1)?.index).toBe(1);
    expect(filtered.exec('abcd abcd', 2)?.index).toBe(5);
    expect(filtered.exec('abcd abcd', 7)).toBeNull();
  });

  it('refuses flags that compare other than code unit by code unit', () => {
    expect(() => new PrefixFilteredPattern(/abc/i)).toThrow();
    expect(() => new PrefixFilteredPattern(/abc/u)).toThrow();
  });
});
