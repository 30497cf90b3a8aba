/**
 * Letters of other scripts that look like Latin ones, and the characters a reader reads through
 * (zero-width characters, bidi controls, accents split off by NFD), as one table by code unit.
 */

/** Letters from other scripts that look like Latin ones. */
const LOOK_ALIKES: Record<string, string> = {
  // Cyrillic
  а: 'a', в: 'b', г: 'r', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', п: 'n', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  ь: 'b', ѕ: 's', і: 'i', ј: 'j', ԁ: 'd', һ: 'h', ԛ: 'q', ԝ: 'w', ү: 'y', ӏ: 'l', ѵ: 'v', ԍ: 'g', ԉ: 'n', ѡ: 'w',
  А: 'A', В: 'B', Е: 'E', К: 'K', М: 'M', Н: 'H', О: 'O', Р: 'P', С: 'C', Т: 'T', У: 'Y', Х: 'X', Ѕ: 'S', І: 'I',
  Ј: 'J', Ү: 'Y', Ԛ: 'Q', Ԝ: 'W', Ӏ: 'I', Ԁ: 'D', Һ: 'H', Ԍ: 'G',
  // Greek
  α: 'a', β: 'b', γ: 'y', ε: 'e', ζ: 'z', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x',
  ω: 'w', ϲ: 'c', ϳ: 'j',
  Α: 'A', Β: 'B', Ε: 'E', Ζ: 'Z', Η: 'H', Ι: 'I', Κ: 'K', Μ: 'M', Ν: 'N', Ο: 'O', Ρ: 'P', Τ: 'T', Υ: 'Y', Χ: 'X',
  Ϲ: 'C',
  // Latin small capitals and IPA letters
  ᴀ: 'a', ʙ: 'b', ᴄ: 'c', ᴅ: 'd', ᴇ: 'e', ꜰ: 'f', ɢ: 'g', ʜ: 'h', ɪ: 'i', ᴊ: 'j', ᴋ: 'k', ʟ: 'l', ᴍ: 'm', ɴ: 'n',
  ᴏ: 'o', ᴘ: 'p', ʀ: 'r', ꜱ: 's', ᴛ: 't', ᴜ: 'u', ᴠ: 'v', ᴡ: 'w', ʏ: 'y', ᴢ: 'z', ɑ: 'a', ɡ: 'g', ɩ: 'i', ɵ: 'o',
  // Armenian
  օ: 'o', ս: 'u', հ: 'h', ո: 'n', ց: 'g', զ: 'q',
  // Latin letters that NFD does not split into letter and accent
  ł: 'l', Ł: 'L', ı: 'i', ø: 'o', Ø: 'O', đ: 'd', Đ: 'D',
  // Typographic apostrophes
  '\u2018': "'", '\u2019': "'", '\u02BC': "'",
};

/**
 * Zero-width characters, bidi controls, variation selectors and other invisible characters, and the
 * combining accents NFD splits off letters: tokenize reads through them as if they were not there.
 */
const INVISIBLE_RANGES: readonly [number, number][] = [
  [0x00ad, 0x00ad], [0x0300, 0x036f], [0x0483, 0x0489], [0x061c, 0x061c], [0x115f, 0x1160], [0x17b4, 0x17b5],
  [0x180b, 0x180f], [0x1ab0, 0x1aff], [0x1dc0, 0x1dff], [0x200b, 0x200f], [0x202a, 0x202e], [0x2060, 0x206f],
  [0x20d0, 0x20ff], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfe20, 0xfe2f], [0xfeff, 0xfeff], [0xffa0, 0xffa0],
  [0x064b, 0x065f], [0x0670, 0x0670], [0x3099, 0x309a],
];

/** For each non-ASCII UTF-16 code unit: INVISIBLE, the ASCII code of its look-alike, or 0. */
export const FOLDED = new Uint16Array(0x10000);
const INVISIBLE = 1;
for (const [from, to] of INVISIBLE_RANGES) FOLDED.fill(INVISIBLE, from, to + 1);
for (const [char, latin] of Object.entries(LOOK_ALIKES)) FOLDED[char.charCodeAt(0)] = latin.charCodeAt(0);

/** foldedCode of a letter of another script, or of a symbol (see isSymbolCode): kept as it is. */
export const FOLDED_KEPT = 0;
/** foldedCode of an invisible character: read through it. */
export const FOLDED_INVISIBLE = INVISIBLE;

/** For readers other than tokenize: FOLDED_INVISIBLE, the ASCII code of a Latin look-alike, or FOLDED_KEPT. */
export function foldedCode(code: number): number {
  return FOLDED[code] as number;
}

