/**
 * Turns normalised visitor text into the canonical lower-case token list the message filter matches
 * on, reading the text once, character by character: case, look-alike letters and leetspeak are
 * folded, invisible characters skipped, so the whole cost is linear in the input length.
 */
import type { Arena } from '../arena.ts';
import * as leet from '../decoders/leet.ts';
import * as lookAlikes from '../decoders/look-alikes.ts';
import { joinSpacedLetters } from '../decoders/spaced-letters.ts';
import * as typos from '../decoders/typos.ts';
import * as characters from './characters.ts';
import * as vocabularies from './vocabulary.ts';
import type { Vocabulary } from './vocabulary.ts';

// Local copies of what the per-character loop reads: under a CommonJS loader such as tsx's, each
// read of an imported binding is a getter call.
const { L, LEET_LETTER, isLeet } = leet;
const { FOLDED, FOLDED_INVISIBLE: INVISIBLE } = lookAlikes;
const { A, isAsciiDigit, isAsciiLetterOrDigit, isSymbolCode: isSymbol } = characters;
const { CLAUSE_END_ID, LABEL_END_ID, QUESTION_END_ID, SENTENCE_END_ID, UNKNOWN_ID, ZERO_ID } = vocabularies;
const { BOUNDARY_STRENGTH, isBoundaryId, step, wordIdAt } = vocabularies;
const { MAX_TYPO_LENGTH, MIN_TYPO_LENGTH, readTypo, typoSlot } = typos;

/** The tokens of a text, and the runs of base64 characters found while reading it. */
export interface Tokens {
  /** Word ids (see Vocabulary.texts) in ids[0 .. count): a slice of the arena given to tokenize. */
  readonly ids: Int32Array;
  readonly count: number;
  readonly base64Runs: string[];
  /** Whether the text has letters with no Latin reading (Cyrillic, Arabic, Chinese, ...): worth a gloss. */
  readonly hasForeignLetters: boolean;
  /** Where each token was read, when tokenize was asked to keep it: see TokenPlaces. */
  readonly places: TokenPlaces | null;
}

/**
 * The tokens as read, before spaced letters are joined, and where each was read: what it takes to
 * give the tokens of a piece of the text without reading the piece again (see MessageReader).
 */
export interface TokenPlaces {
  /** The tokens as read: ids[0 .. count), word ids and boundaries, before joinSpacedLetters. */
  readonly ids: Int32Array;
  readonly count: number;
  /** Each token's first character: a word's first, a boundary's own (the first, when several made it). */
  readonly offsets: Int32Array;
  /**
   * For a boundary, the last character that made it stronger (a "," then a ";" or a line break
   * makes one sentence end), or -1: a piece that ends before it holds the weaker boundary.
   */
  readonly strengthenedAt: Int32Array;
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

/** The kind of a character other than a letter a-z or A-Z, given the one after it (tokenize reads letters itself). */
function charKind(code: number, next: number, inWord: boolean): Char {
  if (isAsciiDigit(code)) return Char.Leet;
  const wordGoesOn = isAsciiLetterOrDigit(next);
  if (code === 39) return inWord && wordGoesOn ? Char.Apostrophe : Char.Other;
  if (isLeet(code)) return wordGoesOn && (inWord || code === 64 || code === 36) ? Char.Leet : Char.Other;
  return isSymbol(code) ? Char.Other : Char.Foreign;
}

const ELISIONS = new Set(['l', 'd', 'j', 't', 's', 'n', 'm', 'c', 'qu']);
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
export function tokenize(normalized: string, vocabulary: Vocabulary, arena: Arena<Int32Array>, keepPlaces = false): Tokens {
  // Each token ends at a different character, or at the end: there are at most length + 1. Only
  // ids[0 .. count) is ever read, and each is written first; so are offsets and strengthenedAt.
  const ids = arena.takeUnfilled(normalized.length + 1);
  const offsets = arena.takeUnfilled(normalized.length + 1);
  const strengthenedAt = arena.takeUnfilled(normalized.length + 1);
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
    // A letter, read as a look-alike or not, is a base64 character and its kind needs no look ahead.
    let kind = code >= 97 && code <= 122 ? Char.Lower : code >= 65 && code <= 90 ? Char.Upper : Char.Other;
    let next = SPACE;
    if (kind === Char.Other) {
      if (code >= 128 || BASE64_ALPHABET[code] !== 1) {
        if (i - base64Start >= MIN_BASE64_RUN && base64Runs.length < MAX_BASE64_RUNS) {
          base64Runs.push(base64Run(normalized.slice(base64Start, i), skipped));
        }
        base64Start = i + 1;
        skipped = false;
      }
      if (code === SPACE) {
        if (start !== NOT_READING) {
          offsets[count] = start;
          ids[count++] = finishWord(vocabulary, normalized, start, i, asI, asL, hasLetter || hasLeetSymbol, foreign);
          start = NOT_READING;
        }
        afterLowerCase = false;
        continue;
      }
      next = i + 1 < length ? normalized.charCodeAt(i + 1) : SPACE;
      kind = charKind(code, (next >= 128 && FOLDED[next]) || next, start !== NOT_READING);
    }
    if (start !== NOT_READING && (kind === Char.Other || (kind === Char.Upper && afterLowerCase))) {
      offsets[count] = start;
      ids[count++] = finishWord(vocabulary, normalized, start, i, asI, asL, hasLetter || hasLeetSymbol, foreign);
      start = NOT_READING;
    }
    afterLowerCase = kind === Char.Lower;
    if (kind === Char.Other) {
      count = pushBoundaryFor(ids, count, code, next, offsets, strengthenedAt, i);
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
        offsets[count] = start;
        ids[count++] = sofar;
        start = NOT_READING;
      }
    } else {
      foreign = true;
      hasForeignLetters = true;
    }
  }
  let places: TokenPlaces | null = null;
  if (keepPlaces) {
    // joinSpacedLetters and then the scan rewrite ids in place: the tokens as read are kept apart.
    const read = arena.takeUnfilled(count);
    read.set(ids.subarray(0, count));
    places = { ids: read, count, offsets, strengthenedAt };
  }
  return { ids, count: joinSpacedLetters(ids, count, vocabulary), base64Runs, hasForeignLetters, places };
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
  return typo === null ? UNKNOWN_ID : (vocabulary.ids.get(typo) as number);
}

/**
 * Adds the boundary the character at `at` stands for, if any, to ids[0 .. count), and where it was
 * read (see TokenPlaces); returns the new count.
 */
function pushBoundaryFor(
  ids: Int32Array,
  count: number,
  code: number,
  next: number,
  offsets: Int32Array,
  strengthenedAt: Int32Array,
  at: number,
): number {
  let boundary: number;
  if (code === 46) {
    if (isAsciiLetterOrDigit(next)) return count;
    boundary = SENTENCE_END_ID;
  } else if (code === 63) boundary = QUESTION_END_ID;
  else if (code === 33 || code === 59 || code === 10) boundary = SENTENCE_END_ID;
  else if (code === 58 || code === 61) boundary = LABEL_END_ID;
  else if (code === 44) boundary = CLAUSE_END_ID;
  else return count;
  // Next to another boundary only the stronger one stays.
  if (count === 0) return count;
  const last = ids[count - 1] as number;
  if (!isBoundaryId(last)) {
    ids[count] = boundary;
    offsets[count] = at;
    strengthenedAt[count] = -1;
    return count + 1;
  }
  if ((BOUNDARY_STRENGTH[last] as number) < (BOUNDARY_STRENGTH[boundary] as number)) {
    ids[count - 1] = boundary;
    strengthenedAt[count - 1] = at;
  }
  return count;
}
