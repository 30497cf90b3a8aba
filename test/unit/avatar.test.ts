import { describe, expect, it } from 'vitest';
import { avatarSvg, initialsOf } from '../../src/domain/avatar.ts';

const tagsOf = (svg: string) => new Set([...svg.matchAll(/<\/?([A-Za-z][\w:-]*)/g)].map((match) => match[1]));

describe('avatar initials', () => {
  it.each([
    ['Ada Lovelace', 'AL'],
    ['ada', 'A'],
    ['Grace Brewster Murray Hopper', 'GH'],
    ['  jean-luc   picard ', 'JP'],
    ['Ζωή Παππά', 'ΖΠ'],
    ['😀 Bot', 'B'],
    ['42 Labs', '4L'],
    ['  ', '?'],
    ['<>&"', '?'],
  ])('%j gives %j', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});

describe('avatar SVG', () => {
  it('draws the initials on the theme colour', () => {
    const svg = avatarSvg({ name: 'Ada Lovelace', themeColor: '#112233' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('fill="#112233"');
    expect(svg).toContain('>AL</text>');
    expect(tagsOf(svg)).toEqual(new Set(['svg', 'title', 'circle', 'text']));
  });

  it('escapes a hostile name everywhere it appears', () => {
    const name = `</title><script>alert(1)</script><foreignObject onload="x"> & 'q'`;
    const svg = avatarSvg({ name, themeColor: '#112233' });
    expect(tagsOf(svg)).toEqual(new Set(['svg', 'title', 'circle', 'text']));
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('onload="');
    expect(svg).toContain('&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('&amp; &apos;q&apos;');
    expect(svg).toContain('aria-label="&lt;/title&gt;');
  });

  it('falls back to the default colour when the stored one is not #rrggbb', () => {
    const svg = avatarSvg({ name: 'Ada', themeColor: '#fff" onload="alert(1)' });
    expect(svg).toContain('fill="#4f46e5"');
    expect(svg).not.toContain('onload');
  });
});
