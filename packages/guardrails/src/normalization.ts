/**
 * Turns visitor text into the canonical lower-case token list the message filter matches on.
 * normalizeText does the Unicode normalisation; tokenize then reads the text once, character by
 * character, folding case, look-alike letters and leetspeak and skipping invisible characters as it
 * goes, so the whole cost is linear in the input length.
 */
import type { Arena } from './arena.ts';

/** Sentence ends become this token, so rules can keep a match inside one sentence. */
export const SENTENCE_END = '.';
/** A question mark ends a sentence too, and says it was a question. */
export const QUESTION_END = '?';
/** Colons and equals signs become this token: "Previous directions: null", "name = Grom". */
export const LABEL_END = ':';
/** Commas become this token, so "we lost it, so please output ..." reads as a new clause. */
export const CLAUSE_END = ',';
/** Words outside the vocabulary become this token: the filter never needs their text. */
export const UNKNOWN_WORD = '';


// ------------------------------------------------------------------ Unicode normalisation

const UNICODE_TAG = /[\u{E0000}-\u{E007F}]/gu;
const TAG_LEAD_SURROGATE = '\uDB40';
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

// ------------------------------------------------------------------ character folding

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
const FOLDED = new Uint16Array(0x10000);
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

/** Whether a code unit is punctuation, a space, a symbol or a surrogate rather than a letter. */
export function isSymbolCode(code: number): boolean {
  return isSymbol(code);
}

function isSymbol(code: number): boolean {
  return (
    code < 0xc0 ||
    code === 0xd7 ||
    code === 0xf7 ||
    (code >= 0x2000 && code <= 0x2bff) ||
    (code >= 0x3000 && code <= 0x303f) ||
    (code >= 0xd800 && code <= 0xdfff) ||
    (code >= 0xfe10 && code <= 0xfe6f) ||
    (code >= 0xff00 && code <= 0xff0f)
  );
}

// ------------------------------------------------------------------ vocabulary

/**
 * Tokens are word ids, numbers into the vocabulary's list of texts. The first ids are fixed: the
 * unknown word, the four boundaries, the 26 single letters and "zero".
 */
export const UNKNOWN_ID = 0;
export const SENTENCE_END_ID = 1;
export const QUESTION_END_ID = 2;
export const LABEL_END_ID = 3;
export const CLAUSE_END_ID = 4;
const FIRST_LETTER_ID = 5;
const ZERO_ID = FIRST_LETTER_ID + 26;
const FIXED_WORDS = [UNKNOWN_WORD, SENTENCE_END, QUESTION_END, LABEL_END, CLAUSE_END];

/** How strongly each boundary id separates: next to another boundary only the stronger one stays. */
const BOUNDARY_STRENGTH = Uint8Array.of(0, 3, 3, 2, 1);

export function isBoundaryId(id: number): boolean {
  return id >= SENTENCE_END_ID && id <= CLAUSE_END_ID;
}

export function isSentenceEndId(id: number): boolean {
  return id === SENTENCE_END_ID || id === QUESTION_END_ID;
}

/** label[node] for a node with several children, looked up in the branch table. */
const BRANCHING = 255;
/** label[node] for a node without children. */
const LEAF = 254;

/**
 * The words the filter knows, as a trie over the letters a-z. Nodes are laid out so that a node with
 * a single child has it right after itself: most nodes are such, so a step is one byte read from a
 * small table, and only branching nodes keep a row of 26 children. The whole trie stays in the cache.
 */
export interface Vocabulary {
  /** The single child's letter (0-25) of each node, or BRANCHING or LEAF; node 0 is the root. */
  readonly label: Uint8Array;
  /** For a branching node, its row in `branches`. */
  readonly branchRow: Uint16Array;
  /** branches[row * 26 + letter] is the child node, 0 when there is none (the root is no one's child). */
  readonly branches: Uint16Array;
  /** The id of the word that ends at each node, or UNKNOWN_ID. */
  readonly wordIds: Uint16Array;
  /** Each id's text. */
  readonly texts: readonly string[];
  /** Each text's id. */
  readonly ids: ReadonlyMap<string, number>;
  /** The typo targets a word may be a misspelling of, by typoSlot(first letter, length); see readTypo. */
  readonly typoTargets: (string[] | undefined)[];
}

interface BuildNode {
  readonly children: Map<number, BuildNode>;
  wordId: number;
}

/** typoTargets: words worth reading through one typo ("pasword", "ignroe"); they join the vocabulary too. */
export function buildVocabulary(words: Iterable<string>, typoTargets: Iterable<string> = []): Vocabulary {
  const texts = [...FIXED_WORDS];
  for (let code = 97; code <= 122; code += 1) texts.push(String.fromCharCode(code));
  texts.push(ZERO);
  const letterWords = new Set<string>(texts.slice(FIRST_LETTER_ID));
  for (const word of words) if (/^[a-z]+$/.test(word)) letterWords.add(word);
  const bySlot = new Array<string[] | undefined>(typoSlot(26, 0));
  for (const target of typoTargets) {
    if (!/^[a-z]{4,13}$/.test(target)) continue;
    letterWords.add(target);
    const anyEdit = target.length >= MIN_ANY_EDIT_LENGTH;
    for (let length = target.length - 1; length <= target.length + 1; length += 1) {
      if (length !== target.length && !anyEdit) continue;
      (bySlot[typoSlot(target.charCodeAt(0) - 97, length)] ??= []).push(target);
    }
  }
  const ids = new Map(texts.map((text, id) => [text, id]));
  for (const word of letterWords) if (!ids.has(word)) ids.set(word, texts.push(word) - 1);
  if (texts.length > 0xffff) throw new Error('The vocabulary is too large for its 16-bit ids.');

  const root: BuildNode = { children: new Map(), wordId: UNKNOWN_ID };
  let nodes = 1;
  for (const word of letterWords) {
    let node = root;
    for (let i = 0; i < word.length; i += 1) {
      const letter = word.charCodeAt(i) - A;
      let child = node.children.get(letter);
      if (!child) {
        node.children.set(letter, (child = { children: new Map(), wordId: UNKNOWN_ID }));
        nodes += 1;
      }
      node = child;
    }
    node.wordId = ids.get(word) as number;
  }
  return { ...layOutTrie(root, nodes), texts, ids, typoTargets: bySlot };
}

/** Numbers the nodes depth first, so that a single child comes right after its parent. */
function layOutTrie(root: BuildNode, nodes: number) {
  if (nodes > 0xffff) throw new Error('The vocabulary is too large for its 16-bit trie.');
  const label = new Uint8Array(nodes);
  const branchRow = new Uint16Array(nodes);
  const wordIds = new Uint16Array(nodes);
  const rows: Uint16Array[] = [];
  let next = 0;
  const place = (node: BuildNode): number => {
    const at = next++;
    wordIds[at] = node.wordId;
    if (node.children.size === 0) {
      label[at] = LEAF;
    } else if (node.children.size === 1) {
      const [[letter, child]] = node.children as Map<number, BuildNode> & [[number, BuildNode]];
      label[at] = letter;
      place(child);
    } else {
      label[at] = BRANCHING;
      const row = new Uint16Array(26);
      branchRow[at] = rows.length;
      rows.push(row);
      for (const [letter, child] of [...node.children].sort((a, b) => a[0] - b[0])) row[letter] = place(child);
    }
    return at;
  };
  place(root);
  const branches = new Uint16Array(rows.length * 26);
  rows.forEach((row, i) => branches.set(row, i * 26));
  return { label, branchRow, branches, wordIds };
}

/** The node after reading one more letter (0-25), or NOT_IN_VOCABULARY. */
function step(vocabulary: Vocabulary, node: number, letter: number): number {
  if (node < 0) return NOT_IN_VOCABULARY;
  const label = vocabulary.label[node] as number;
  if (label === letter) return node + 1;
  if (label !== BRANCHING) return NOT_IN_VOCABULARY;
  return (vocabulary.branches[(vocabulary.branchRow[node] as number) * 26 + letter] as number) || NOT_IN_VOCABULARY;
}

const NOT_IN_VOCABULARY = -1;

/** The id of the word read up to the node, or UNKNOWN_ID. */
function wordIdAt(vocabulary: Vocabulary, node: number): number {
  return node > 0 ? (vocabulary.wordIds[node] as number) : UNKNOWN_ID;
}

// ------------------------------------------------------------------ leetspeak

const A = 97;
/** Leetspeak digits and symbols, as the letter they stand for ("1" also stands for "l", tried second). */
const LEET_LETTER = new Int8Array(128).fill(-1);
for (const [char, letter] of Object.entries({
  '0': 'o', '1': 'i', '2': 'z', '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '8': 'b', '9': 'g',
  '@': 'a', $: 's', '!': 'i', '|': 'l',
})) {
  LEET_LETTER[char.charCodeAt(0)] = letter.charCodeAt(0) - A;
}
const L = 'l'.charCodeAt(0) - A;

const isAsciiDigit = (code: number) => code >= 48 && code <= 57;
const isAsciiLetterOrDigit = (code: number) =>
  (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || isAsciiDigit(code);
const isLeet = (code: number) => code < 128 && (LEET_LETTER[code] as number) >= 0;

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

// ------------------------------------------------------------------ tokenizer

/** The tokens of a text, and the runs of base64 characters found while reading it. */
export interface Tokens {
  /** Word ids (see Vocabulary.texts) in ids[0 .. count): a slice of the arena given to tokenize. */
  readonly ids: Int32Array;
  readonly count: number;
  readonly base64Runs: string[];
  /** Whether the text has letters with no Latin reading (Cyrillic, Arabic, Chinese, ...): worth a gloss. */
  readonly hasForeignLetters: boolean;
}

const enum Char {
  Lower,
  Upper,
  /** A digit, or a leet symbol (@ $ ! |) that sits inside a word. */
  Leet,
  /** An apostrophe between letters: "you're", "d'origine". */
  Apostrophe,
  /** A letter outside ASCII that has no Latin look-alike. */
  Foreign,
  Other,
}

function charKind(code: number, next: number, inWord: boolean): Char {
  if (code >= 97 && code <= 122) return Char.Lower;
  if (code >= 65 && code <= 90) return Char.Upper;
  if (isAsciiDigit(code)) return Char.Leet;
  const wordGoesOn = isAsciiLetterOrDigit(next);
  if (code === 39) return inWord && wordGoesOn ? Char.Apostrophe : Char.Other;
  if (isLeet(code)) return wordGoesOn && (inWord || code === 64 || code === 36) ? Char.Leet : Char.Other;
  return isSymbol(code) ? Char.Other : Char.Foreign;
}

const ELISIONS = new Set(['l', 'd', 'j', 't', 's', 'n', 'm', 'c', 'qu']);
/** The number 0 is kept as a word ("message #0"); other numbers are unknown words. */
const ZERO = 'zero';
const NOT_READING = -1;
/** asL follows asI until the word has a "1" or "!". */
const SAME_AS_I = -2;
const SPACE = 32;

const MIN_BASE64_RUN = 24;
const MAX_BASE64_RUNS = 16;
const BASE64_ALPHABET = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/') {
  BASE64_ALPHABET[char.charCodeAt(0)] = 1;
}

/**
 * Splits normalised text into lower-case tokens, looking each word up in the vocabulary letter by
 * letter as it is read, so words outside it cost no string. On the way, invisible characters and
 * accents are skipped, look-alike letters are read as Latin, camelCase is split ("systemPrompt"),
 * leetspeak is folded ("pr0mpt", "5y5tem"; "1" is read as "i" and, failing that, as "l"),
 * contractions are kept whole ("you're" -> "youre"), French elisions are split ("d'origine"), and
 * runs of single letters are joined ("i g n o r e"). "." "?" "!" ";" and line breaks end a sentence
 * ("node.js" does not), ":" and "=" end a label, "," a clause. Runs of 24 or more base64 characters
 * are collected as they are passed.
 */
export function tokenize(normalized: string, vocabulary: Vocabulary, arena: Arena<Int32Array>): Tokens {
  // Each token ends at a different character, or at the end: there are at most length + 1.
  const ids = arena.take(normalized.length + 1);
  let count = 0;
  const base64Runs: string[] = [];
  let start = NOT_READING;
  let asI = 0;
  let asL = SAME_AS_I;
  let hasLetter = false;
  let hasLeetSymbol = false;
  let foreign = false;
  let afterLowerCase = false;
  let base64Start = 0;
  let skipped = false;
  let hasForeignLetters = false;

  const length = normalized.length;
  for (let i = 0; i <= length; i += 1) {
    let code = i < length ? normalized.charCodeAt(i) : SPACE;
    if (code >= 97 && code <= 122 && start !== NOT_READING) {
      hasLetter = true;
      afterLowerCase = true;
      const letter = code - A;
      asI = step(vocabulary, asI, letter);
      if (asL >= 0) asL = step(vocabulary, asL, letter);
      continue;
    }
    if (code >= 128) {
      const folded = FOLDED[code] as number;
      if (folded === INVISIBLE) {
        skipped = true;
        continue;
      }
      if (folded !== 0) code = folded;
    }
    if (code >= 128 || BASE64_ALPHABET[code] !== 1) {
      if (i - base64Start >= MIN_BASE64_RUN && base64Runs.length < MAX_BASE64_RUNS) {
        base64Runs.push(base64Run(normalized.slice(base64Start, i), skipped));
      }
      base64Start = i + 1;
      skipped = false;
    }
    if (code === SPACE) {
      if (start !== NOT_READING) {
        ids[count++] = finishWord(vocabulary, normalized, start, i, asI, asL, hasLetter || hasLeetSymbol, foreign);
        start = NOT_READING;
      }
      afterLowerCase = false;
      continue;
    }

    const next = i + 1 < length ? normalized.charCodeAt(i + 1) : SPACE;
    const kind = charKind(code, (next >= 128 && FOLDED[next]) || next, start !== NOT_READING);
    if (start !== NOT_READING && (kind === Char.Other || (kind === Char.Upper && afterLowerCase))) {
      ids[count++] = finishWord(vocabulary, normalized, start, i, asI, asL, hasLetter || hasLeetSymbol, foreign);
      start = NOT_READING;
    }
    afterLowerCase = kind === Char.Lower;
    if (kind === Char.Other) {
      count = pushBoundaryFor(ids, count, code, next);
      continue;
    }
    if (start === NOT_READING) {
      start = i;
      asI = 0;
      asL = SAME_AS_I;
      hasLetter = false;
      hasLeetSymbol = false;
      foreign = false;
    }
    if (kind === Char.Lower || kind === Char.Upper) {
      const letter = (kind === Char.Upper ? code + 32 : code) - A;
      hasLetter = true;
      if (asL >= 0) asL = step(vocabulary, asL, letter);
      asI = step(vocabulary, asI, letter);
    } else if (kind === Char.Leet) {
      if (!isAsciiDigit(code)) hasLeetSymbol = true;
      const letter = LEET_LETTER[code] as number;
      const letterAsL = code === 49 || code === 33 ? L : letter;
      if (asL === SAME_AS_I && letterAsL !== letter) asL = asI;
      if (asL !== SAME_AS_I) asL = step(vocabulary, asL, letterAsL);
      asI = step(vocabulary, asI, letter);
    } else if (kind === Char.Apostrophe) {
      const sofar = wordIdAt(vocabulary, asI);
      if (sofar !== UNKNOWN_ID && ELISIONS.has(vocabulary.texts[sofar] as string)) {
        ids[count++] = sofar;
        start = NOT_READING;
      }
    } else {
      foreign = true;
      hasForeignLetters = true;
    }
  }
  return { ids, count: joinSpacedLetters(ids, count, vocabulary), base64Runs, hasForeignLetters };
}

/** A base64 run as text, without the invisible characters tokenize read through. */
function base64Run(text: string, hadInvisible: boolean): string {
  if (!hadInvisible) return text;
  let run = '';
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 128) run += text[i];
  }
  return run;
}

/** The id of the word normalized[start, end): its vocabulary form, "zero" for 0, or UNKNOWN_ID. */
function finishWord(
  vocabulary: Vocabulary,
  normalized: string,
  start: number,
  end: number,
  asI: number,
  asL: number,
  readable: boolean,
  foreign: boolean,
): number {
  if (foreign) return UNKNOWN_ID;
  if (!readable) return end - start === 1 && normalized.charCodeAt(start) === 48 ? ZERO_ID : UNKNOWN_ID;
  const known = wordIdAt(vocabulary, asI);
  if (known !== UNKNOWN_ID) return known;
  const knownAsL = asL === SAME_AS_I ? UNKNOWN_ID : wordIdAt(vocabulary, asL);
  if (knownAsL !== UNKNOWN_ID) return knownAsL;
  const length = end - start;
  if (length < MIN_TYPO_LENGTH || length > MAX_TYPO_LENGTH) return UNKNOWN_ID;
  const first = (normalized.charCodeAt(start) | 32) - A;
  const targets = first >= 0 && first < 26 ? vocabulary.typoTargets[typoSlot(first, length)] : undefined;
  if (targets === undefined) return UNKNOWN_ID;
  const typo = readTypo(targets, normalized, start, length);
  return typo === UNKNOWN_WORD ? UNKNOWN_ID : (vocabulary.ids.get(typo) as number);
}

// ------------------------------------------------------------------ typos

const MIN_TYPO_LENGTH = 4;
const MAX_TYPO_LENGTH = 14;
/** Below this length only a swap of two neighbouring letters counts: "rlues", "shwo", but not "roles". */
const MIN_ANY_EDIT_LENGTH = 6;

function typoSlot(firstLetter: number, length: number): number {
  return firstLetter * (MAX_TYPO_LENGTH + 1) + length;
}

/**
 * The typo target an unknown word is one slip away from, or UNKNOWN_WORD: one pair of neighbouring
 * letters swapped ("ignroe", "previuos"), or for targets of six letters or more also one letter
 * dropped ("promt"), added or replaced ("pasword" is a drop). A target plus "s" or "d" is an
 * inflection, not a typo, and stays unknown ("systems", "ignored"). Only the few targets with the
 * word's first letter and a near length are compared, each up to its second difference, so the cost
 * stays a small constant per word.
 */
function readTypo(targets: readonly string[], text: string, start: number, length: number): string {
  for (const target of targets) {
    if (isOneSlipFrom(text, start, length, target)) return target;
  }
  return UNKNOWN_WORD;
}

function lowerLetterAt(text: string, i: number): number {
  const code = text.charCodeAt(i);
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function isOneSlipFrom(text: string, start: number, length: number, target: string): boolean {
  const shorter = Math.min(length, target.length);
  let i = 0;
  while (i < shorter && lowerLetterAt(text, start + i) === target.charCodeAt(i)) i += 1;
  if (i === length && i === target.length) return false;
  const slip = lowerLetterAt(text, start + i);
  if (i < length && (slip < 97 || slip > 122)) return false;
  if (length === target.length + 1) {
    if (i === target.length && (slip === 115 || slip === 100)) return false;
    return restMatches(text, start, length, i + 1, target, i);
  }
  if (length === target.length - 1) return restMatches(text, start, length, i, target, i + 1);
  const swapped =
    i + 1 < length &&
    slip === target.charCodeAt(i + 1) &&
    lowerLetterAt(text, start + i + 1) === target.charCodeAt(i) &&
    restMatches(text, start, length, i + 2, target, i + 2);
  return swapped || (target.length >= MIN_ANY_EDIT_LENGTH && restMatches(text, start, length, i + 1, target, i + 1));
}

/** Adds the boundary the character stands for, if any, to ids[0 .. count); returns the new count. */
function pushBoundaryFor(ids: Int32Array, count: number, code: number, next: number): number {
  if (code === 46) return isAsciiLetterOrDigit(next) ? count : pushBoundary(ids, count, SENTENCE_END_ID);
  if (code === 63) return pushBoundary(ids, count, QUESTION_END_ID);
  if (code === 33 || code === 59 || code === 10) return pushBoundary(ids, count, SENTENCE_END_ID);
  if (code === 58 || code === 61) return pushBoundary(ids, count, LABEL_END_ID);
  if (code === 44) return pushBoundary(ids, count, CLAUSE_END_ID);
  return count;
}

/** Adds a boundary; next to another boundary only the stronger one stays. */
function pushBoundary(ids: Int32Array, count: number, boundary: number): number {
  if (count === 0) return count;
  const last = ids[count - 1] as number;
  if (!isBoundaryId(last)) {
    ids[count] = boundary;
    return count + 1;
  }
  if ((BOUNDARY_STRENGTH[last] as number) < (BOUNDARY_STRENGTH[boundary] as number)) ids[count - 1] = boundary;
  return count;
}

/**
 * Cuts the single letters ids[from .. to) back into known words of two letters or more, written from
 * ids[write] on; returns where writing stopped. Each word written consumes two letters or more, so
 * writing never overtakes reading and the cut can be made in place.
 */
function segment(ids: Int32Array, from: number, to: number, write: number, vocabulary: Vocabulary): number {
  let start = from;
  while (start < to) {
    let node = 0;
    let longest = UNKNOWN_ID;
    let longestEnd = start + 1;
    for (let i = start; i < to && node >= 0; i += 1) {
      node = step(vocabulary, node, (ids[i] as number) - FIRST_LETTER_ID);
      const id = wordIdAt(vocabulary, node);
      if (id !== UNKNOWN_ID && i > start) {
        longest = id;
        longestEnd = i + 1;
      }
    }
    if (longest !== UNKNOWN_ID) ids[write++] = longest;
    start = longestEnd;
  }
  return write;
}

const isSingleLetter = (id: number) => id >= FIRST_LETTER_ID && id < FIRST_LETTER_ID + 26;

/**
 * Joins runs of three or more single letters ("i g n o r e", "A P I k e y") and cuts the joined
 * letters back into known words ("previousdirections" -> "previous", "directions"), in place in
 * ids[0 .. count); returns the new count.
 */
function joinSpacedLetters(ids: Int32Array, count: number, vocabulary: Vocabulary): number {
  let write = 0;
  let runStart = 0;
  for (let i = 0; i <= count; i += 1) {
    if (i < count && isSingleLetter(ids[i] as number)) continue;
    if (i - runStart >= 3) {
      write = segment(ids, runStart, i, write, vocabulary);
    } else {
      for (let k = runStart; k < i; k += 1) ids[write++] = ids[k] as number;
    }
    if (i < count) ids[write++] = ids[i] as number;
    runStart = i + 1;
  }
  return write;
}

/** Whether the word's letters from `from` on equal the target's from `to` on, to the end of both. */
function restMatches(text: string, start: number, length: number, from: number, target: string, to: number): boolean {
  if (length - from !== target.length - to) return false;
  for (; from < length; from += 1, to += 1) {
    if (lowerLetterAt(text, start + from) !== target.charCodeAt(to)) return false;
  }
  return true;
}

// ------------------------------------------------------------------ base64

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const MIN_PRINTABLE_SHARE = 0.8;

/** The text a base64 run encodes, when it is readable UTF-8; null for binary or invalid input. */
export function decodeBase64Text(run: string): string | null {
  let binary: string;
  try {
    // Padding ("=") is not part of the run; atob reads a last group of two or three characters
    // without it. A single character left over encodes no whole byte and is dropped.
    binary = atob(run.length % 4 === 1 ? run.slice(0, -1) : run);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  let printable = 0;
  for (let i = 0; i < binary.length; i += 1) {
    const byte = binary.charCodeAt(i);
    bytes[i] = byte;
    if (isPrintableByte(byte)) printable += 1;
  }
  return printableUtf8(bytes, printable);
}

const isPrintableByte = (byte: number) =>
  (byte >= 0x20 && byte < 0x7f) || byte === 0x0a || byte === 0x0d || byte === 0x09;

/** The bytes as text when at least MIN_PRINTABLE_SHARE of them are printable ASCII and they are valid UTF-8. */
function printableUtf8(bytes: Uint8Array, printable: number): string | null {
  if (printable < bytes.length * MIN_PRINTABLE_SHARE) return null;
  try {
    return UTF8.decode(bytes);
  } catch {
    return null;
  }
}

// ------------------------------------------------------------------ hex

const MIN_HEX_BYTES = 6;
const MAX_HEX_PAYLOADS = 16;

function hexDigit(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  const lower = code | 32;
  return lower >= 97 && lower <= 102 ? lower - 87 : -1;
}

/** Where a "\x" or "0x" prefix before a byte ends, or i when there is none. */
function afterHexPrefix(text: string, i: number): number {
  const code = text.charCodeAt(i);
  if ((code === 92 || code === 48) && (text.charCodeAt(i + 1) | 32) === 120 && hexDigit(text.charCodeAt(i + 2)) >= 0) {
    return i + 2;
  }
  return i;
}

const isHexSeparator = (code: number) => code === 32 || code === 44 || code === 58 || code === 45;

/**
 * The texts hidden in hex byte sequences: "7072696e74...", "77 68 61 74 ...", "\x69\x67...",
 * "0x73,0x68,...". A sequence is byte pairs, each optionally prefixed by "\x" or "0x", with at most
 * one separator (space, comma, colon, hyphen) between them. Sequences of six bytes or more that
 * decode to readable text are returned. One pass: the reading position never moves back.
 */
export function decodeHexPayloads(text: string): string[] {
  const found: string[] = [];
  const bytes: number[] = [];
  const flush = () => {
    if (bytes.length >= MIN_HEX_BYTES && found.length < MAX_HEX_PAYLOADS) {
      const decoded = printableUtf8(Uint8Array.from(bytes), bytes.filter(isPrintableByte).length);
      if (decoded !== null) found.push(decoded);
    }
    bytes.length = 0;
  };
  let i = 0;
  while (i < text.length) {
    const at = afterHexPrefix(text, i);
    const high = hexDigit(text.charCodeAt(at));
    const low = hexDigit(text.charCodeAt(at + 1));
    if (high < 0 || low < 0) {
      flush();
      i = at + 1;
      continue;
    }
    bytes.push(high * 16 + low);
    i = at + 2;
    if (isHexSeparator(text.charCodeAt(i)) && hexDigit(text.charCodeAt(afterHexPrefix(text, i + 1))) >= 0) i += 1;
  }
  flush();
  return found;
}

// ------------------------------------------------------------------ ROT13

/** The text with each ASCII letter moved 13 places along the alphabet (ROT13 undoes itself). */
export function rot13(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    const base = code >= 97 && code <= 122 ? 97 : code >= 65 && code <= 90 ? 65 : 0;
    codes[i] = base === 0 ? code : ((code - base + 13) % 26) + base;
  }
  return flatString(codes);
}

/** Whether a Uint16Array's bytes are little-endian, as a UTF-16LE decoder reads them. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;
const CHUNK = 4096;

/**
 * One flat string from UTF-16 codes, lone surrogates kept. Text built up piece by piece is a rope
 * that tokenize would read more slowly, and that slows its reading of every other message too.
 * Decoding the codes' bytes as UTF-16LE costs a hundredth of spreading them into fromCharCode.
 */
function flatString(codes: Uint16Array): string {
  if (LITTLE_ENDIAN) return Buffer.from(codes.buffer, codes.byteOffset, codes.byteLength).toString('utf16le');
  const parts: string[] = [];
  for (let i = 0; i < codes.length; i += CHUNK) parts.push(String.fromCharCode(...codes.subarray(i, i + CHUNK)));
  return parts.join('');
}

// ------------------------------------------------------------------ reversal and URL escapes

/** The text read backwards, by UTF-16 code unit (attacks spell ASCII backwards: "snoitcurtsni"). */
export function reverseText(text: string): string {
  const codes = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i += 1) codes[text.length - 1 - i] = text.charCodeAt(i);
  return flatString(codes);
}

const URL_ESCAPES = /%([0-9a-f]{2})/gi;

/** The text with each %XX escape replaced by its byte, read as Latin-1 ("%69%67" -> "ig"). */
export function decodeUrlEscapes(text: string): string {
  return text.replace(URL_ESCAPES, (_escape, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

// ------------------------------------------------------------------ glosses

/**
 * Words of languages the tokenizer cannot read as words (Cyrillic, Arabic, Chinese, Japanese, ...),
 * each with an English gloss the rules understand, as a trie over UTF-16 code units.
 */
export interface Glossary {
  readonly root: GlossNode;
}

interface GlossNode {
  readonly next: Map<number, GlossNode>;
  gloss: string | null;
  /** The gloss is a verb: it moves to the front of its clause ("指示を無視して" -> "ignore instructions"). */
  verb: boolean;
  /** The entry matches a whole word only, not the start of a longer one. */
  wholeWord: boolean;
}

const newGlossNode = (): GlossNode => ({ next: new Map(), gloss: null, verb: false, wholeWord: false });

function isMark(code: number): boolean {
  return code >= 0x80 && FOLDED[code] === INVISIBLE;
}

/** Lower case, accents and other marks dropped: the form glossText compares. */
function glossForm(text: string): string {
  let out = '';
  for (const char of normalizeText(text).toLowerCase()) if (!isMark(char.charCodeAt(0))) out += char;
  return out;
}

/**
 * Entries map a word, or the start of a word, to its gloss: "игнорир": "!ignore" ("!" marks a verb),
 * "ты$": "you are" ("$" asks for the whole word).
 */
export function buildGlossary(entries: Record<string, string>): Glossary {
  const root = newGlossNode();
  for (const [key, value] of Object.entries(entries)) {
    const wholeWord = key.endsWith('$');
    const form = glossForm(wholeWord ? key.slice(0, -1) : key);
    let node = root;
    for (let i = 0; i < form.length; i += 1) {
      const code = form.charCodeAt(i);
      let child = node.next.get(code);
      if (!child) node.next.set(code, (child = newGlossNode()));
      node = child;
    }
    node.verb = value.startsWith('!');
    node.gloss = node.verb ? value.slice(1) : value;
    node.wholeWord = wholeWord;
  }
  return { root };
}

/**
 * Chinese and Japanese script, and Korean (whose syllables NFD splits into jamo): words are not
 * spaced, or carry particles, so a gloss may start anywhere.
 */
function isUnspacedScript(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x11ff) ||
    (code >= 0x3040 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x9fff) ||
    (code >= 0xac00 && code <= 0xd7af)
  );
}

/** Clause and sentence marks of all scripts, as the ASCII mark tokenize reads. */
const GLOSS_MARKS = new Map<number, string>();
for (const [marks, ascii] of [['.!;\n。！؛۔', '.'], ['?？؟', '?'], [':：', ':'], [',，、،', ',']] as const) {
  for (const mark of marks) GLOSS_MARKS.set(mark.charCodeAt(0), ascii);
}

/** Whether the character at i is a letter of a spaced script: a word that starts before i goes on. */
function isSpacedLetterAt(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return false;
  const code = text.charCodeAt(i);
  if (code < 128) return isAsciiLetterOrDigit(code);
  return !isSymbol(code) && !isUnspacedScript(code) && !GLOSS_MARKS.has(code);
}

/**
 * An English reading of text in other scripts: each glossed word in order, verbs first in their
 * clause, Latin words ("API") kept, clause and sentence marks kept as ASCII; everything else is
 * dropped. One pass: each position starts at most one walk of the trie, which is as long as the
 * longest entry.
 */
export function glossText(normalized: string, glossary: Glossary): string {
  const text = normalized.toLowerCase();
  const out: string[] = [];
  let verbs: string[] = [];
  let rest: string[] = [];
  let inWord = false;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code < 128 && isAsciiLetterOrDigit(code)) {
      const start = i;
      while (i < text.length && isAsciiLetterOrDigit(text.charCodeAt(i))) i += 1;
      rest.push(text.slice(start, i));
      inWord = false;
      continue;
    }
    const mark = GLOSS_MARKS.get(code);
    if (mark !== undefined || code < 128 || isSymbol(code)) {
      if (mark !== undefined) {
        out.push(...verbs, ...rest, mark);
        verbs = [];
        rest = [];
      }
      inWord = false;
      i += 1;
      continue;
    }
    const unspaced = isUnspacedScript(code);
    if (inWord && !unspaced) {
      i += 1;
      continue;
    }
    inWord = !unspaced;
    const [node, end] = longestGloss(glossary, text, i);
    if (node === null) {
      i += 1;
      continue;
    }
    (node.verb ? verbs : rest).push(node.gloss as string);
    i = end;
  }
  out.push(...verbs, ...rest);
  return out.join(' ');
}

function longestGloss(glossary: Glossary, text: string, start: number): [GlossNode | null, number] {
  let node: GlossNode | undefined = glossary.root;
  let best: GlossNode | null = null;
  let bestEnd = start;
  for (let i = start; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isMark(code)) continue;
    node = node.next.get(code);
    if (node === undefined) break;
    if (node.gloss !== null && (!node.wholeWord || !isSpacedLetterAt(text, i + 1))) {
      best = node;
      bestEnd = i + 1;
    }
  }
  return [best, bestEnd];
}
