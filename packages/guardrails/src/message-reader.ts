/**
 * The reader of a visitor's message: its normalised text and the texts it hides (base64, hex,
 * ROT13, reversed, URL-escaped, glossed from other scripts), each with its scan. A reader owns the
 * memory its scans take their arrays from and reuses it from one message to the next: whoever
 * checks messages creates one and keeps it.
 */
import { Arena } from './arena.ts';
import { decodeBase64Text } from './decoders/base64.ts';
import { glossText } from './decoders/glosses.ts';
import { decodeHexPayloads } from './decoders/hex.ts';
import { reverseText } from './decoders/reversed.ts';
import { rot13 } from './decoders/rot13.ts';
import { decodeUrlEscapes } from './decoders/url-escapes.ts';
import * as lexicon from './lexicon-index.ts';
import { WORD_CLASSES } from './lexicon.ts';
import { isJobDocument } from './rules/addressee.ts';
import { wordsOf, type Words } from './rules/passage.ts';
import { Scan, type ScanMemory } from './scan.ts';
import { normalizeText } from './text/normalize.ts';
import { plainTextOfNormalized } from './text/plain.ts';
import { joinSpacedLetters } from './decoders/spaced-letters.ts';
import { tokenize, type TokenPlaces, type Tokens } from './text/tokenize.ts';
import * as vocabularies from './text/vocabulary.ts';
import type { Vocabulary } from './text/vocabulary.ts';
import * as characters from './text/characters.ts';

const { C, GLOSSARY, VOCABULARY } = lexicon;
// Local copies: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { buildVocabulary, isBoundaryId, step, wordIdAt } = vocabularies;
const { hexDigitValue } = characters;

const MIN_CODED_WORDS = 3;

/** Common words as ROT13 or backwards turn up: three of them, or one where the message names the encoding. */
function readsAsCoded(scan: Scan, hint: number, codedWord: number): boolean {
  const coded = scan.countOf(codedWord);
  return coded >= MIN_CODED_WORDS || (coded > 0 && scan.hasAny(hint));
}
/** A test of one line of a text: text[start, end). Lines are read in place, never cut out. */
type LineTest = (text: string, start: number, end: number) => boolean;

/** A %XX escape of a printable character: URL-encoded text, worth decoding. */
const URL_ESCAPE = /%[2-7][0-9a-f]/i;
/**
 * A %XX escape of a printable character in a line, for the lines of one text taken in order, as
 * linesWhere takes them: it jumps from one "%" to the next with indexOf, and keeps where the next
 * one is, so that the lines up to it are not searched again.
 */
function urlEscapeTest(): LineTest {
  // The first "%" at or after where the last search began; the text's length when there is none.
  let nextPercent = -1;
  return (text, start, end) => {
    for (let i = start; i + 2 < end; i = nextPercent + 1) {
      if (nextPercent < i) {
        const found = text.indexOf('%', i);
        nextPercent = found < 0 ? text.length : found;
      }
      if (nextPercent + 2 >= end) return false;
      const digit = text.charCodeAt(nextPercent + 1);
      if (digit >= 50 && digit <= 55 && hexDigitValue(text.charCodeAt(nextPercent + 2)) >= 0) return true;
    }
    return false;
  };
}

/**
 * The lines of a text that `keep` selects, joined by newlines. A decoded reading needs only the
 * lines its decoding changes: reading the rest again costs as much as the whole message and finds
 * nothing the plain reading did not.
 */
function linesWhere(text: string, keep: LineTest): string {
  if (!text.includes('\n')) return text;
  let kept = '';
  let keptAny = false;
  let keptAll = true;
  // Lines as split('\n') gives them: a text ending in a newline ends with an empty line.
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline < 0 ? text.length : newline;
    if (keep(text, start, end)) {
      kept = keptAny ? `${kept}\n${text.slice(start, end)}` : text.slice(start, end);
      keptAny = true;
    } else {
      keptAll = false;
    }
    start = end + 1;
  }
  return keptAll ? text : kept;
}

/** Letters beyond Latin (Greek, Cyrillic, Arabic, Devanagari, CJK, ...): what a gloss reads. */
const hasForeignScript: LineTest = (text, start, end) => {
  for (let i = start; i < end; i += 1) if (text.charCodeAt(i) >= 0x370) return true;
  return false;
};

/** Words that give a coding away, as a trie to walk letter by letter; isCoded[id] for the words of the class. */
interface CodedWords {
  readonly vocabulary: Vocabulary;
  readonly isCoded: Uint8Array;
}

function wordsOfClass(name: 'rot13Word' | 'reversedWord'): CodedWords {
  const words = WORD_CLASSES[name].split(',').map((word) => word.trim());
  const vocabulary = buildVocabulary(words);
  const isCoded = new Uint8Array(vocabulary.texts.length);
  for (const word of words) {
    const id = vocabulary.ids.get(word);
    if (id !== undefined) isCoded[id] = 1;
  }
  return { vocabulary, isCoded };
}
const ROT13_WORDS = wordsOfClass('rot13Word');
const REVERSED_WORDS = wordsOfClass('reversedWord');

/** The only characters that toLowerCase turns into ASCII letters besides A-Z: "İ" (i + dot) and the Kelvin sign. */
const lowersToAscii = (code: number) => code === 0x130 || code === 0x212a;
/** A-Z or a-z: (code | 32) folds only those onto a-z. */
const isAsciiLetter = (code: number) => (code | 32) >= 97 && (code | 32) <= 122;
/** What hasWordIn answers: found, not found, or met a character that lowers to ASCII before it knew. */
const FOUND = 1;
const NOT_FOUND = 0;
const LOWER_FIRST = -1;

/**
 * Whether a run of ASCII letters a-z in the lower-cased line is one of the words. Each run is walked
 * code by code through the words' trie as it is read, A-Z read as a-z: no string per word, no match
 * object, each character read once, and no lower-cased copy of the line unless it holds a character
 * that lowers to ASCII. Up to the first such character the line reads the same lower-cased, so a word
 * found before it stands; once the walk meets one, it starts again on the lower-cased line.
 */
function hasWordOf(text: string, start: number, end: number, words: CodedWords): boolean {
  const found = hasWordIn(text, start, end, words);
  if (found !== LOWER_FIRST) return found === FOUND;
  const lowered = text.slice(start, end).toLowerCase();
  return hasWordIn(lowered, 0, lowered.length, words) === FOUND;
}

function hasWordIn(text: string, start: number, end: number, { vocabulary, isCoded }: CodedWords): number {
  let i = start;
  while (i < end) {
    let code = text.charCodeAt(i);
    if (!isAsciiLetter(code)) {
      if (lowersToAscii(code)) return LOWER_FIRST;
      i += 1;
      continue;
    }
    // A run of letters, stepped through the trie as it is read: a run longer than every word falls
    // off the trie (or ends on a word of its own length, none of the coded ones).
    let node = 0;
    do {
      if (node >= 0) node = step(vocabulary, node, (code | 32) - 97);
      i += 1;
      code = i < end ? text.charCodeAt(i) : 0;
    } while (i < end && isAsciiLetter(code));
    // The character after the run decides first, as it would read next.
    if (i < end && lowersToAscii(code)) return LOWER_FIRST;
    if (node >= 0 && isCoded[wordIdAt(vocabulary, node)] === 1) return FOUND;
    // The character after the run is neither a letter nor one that lowers to one: read, and passed.
    i += 1;
  }
  return NOT_FOUND;
}

/**
 * What a ROT13 or reversed reading decodes: the whole text when the message names the encoding
 * (the payload may hold none of the common words), else only the lines that hold such a word.
 */
function codedLines(normalized: string, scan: Scan, hint: number, codedWords: CodedWords): string {
  if (scan.hasAny(hint)) return normalized;
  return linesWhere(normalized, (text, start, end) => hasWordOf(text, start, end, codedWords));
}

/** Hex digits only, in pairs; printable ASCII starts each pair with a digit (2-7). */
function looksLikeHexText(run: string): boolean {
  return run.length % 2 === 0 && isDigitAt(run, 0) && isDigitAt(run, 2) && /^(0x)?[0-9a-f]+$/i.test(run);
}
/** Not a closure made for each run: a function made per call costs an allocation, and more under tsx. */
const isDigitAt = (run: string, i: number) => run.charCodeAt(i) >= 48 && run.charCodeAt(i) <= 57;
const HEX_ESCAPE = '\\x';

/**
 * What a message hides, decoded in order, as far as the reader goes: its gloss, each base64 or hex
 * run that decodes to text, and, only when the message hints at an encoding or reads like ROT13
 * ("gur", "lbh", ...), its spaced or escaped hex bytes and its ROT13 or reversed reading; last, its
 * URL escapes.
 */
function* hiddenTexts(normalized: string, scan: Scan, { base64Runs, hasForeignLetters }: Tokens): Generator<string> {
  if (hasForeignLetters) yield glossText(linesWhere(normalized, hasForeignScript), GLOSSARY);
  if (scan.hasAny(C.hexHint) || normalized.includes(HEX_ESCAPE)) {
    yield* decodeHexPayloads(normalized);
  } else {
    for (const run of base64Runs) if (looksLikeHexText(run)) yield* decodeHexPayloads(run);
  }
  for (const run of base64Runs) {
    const decoded = decodeBase64Text(run);
    if (decoded !== null) yield decoded;
  }
  if (readsAsCoded(scan, C.rot13Hint, C.rot13Word)) yield rot13(codedLines(normalized, scan, C.rot13Hint, ROT13_WORDS));
  if (readsAsCoded(scan, C.reversedHint, C.reversedWord)) yield reverseText(codedLines(normalized, scan, C.reversedHint, REVERSED_WORDS));
  if (normalized.includes('%') && URL_ESCAPE.test(normalized)) yield decodeUrlEscapes(linesWhere(normalized, urlEscapeTest()));
}

/** The normalised texts of one message's readings, the hidden ones decoded only as far as asked. */
class ReadingTexts {
  private readonly texts: string[];
  private hidden: Iterator<string> | null;

  constructor(normalized: string, hidden: Iterator<string>) {
    this.texts = [normalized];
    this.hidden = hidden;
  }

  at(reading: number): string | undefined {
    while (this.hidden !== null && this.texts.length <= reading) {
      const next = this.hidden.next();
      if (next.done === true) this.hidden = null;
      else this.texts.push(normalizeText(next.value));
    }
    return this.texts[reading];
  }

  all(): string[] {
    this.at(Infinity);
    return this.texts;
  }
}

/**
 * A message as the filter reads it: its normalised text and the texts it hides, each with its scan.
 * The hidden texts are decoded, and each text scanned, when first asked for: the rules stop at the
 * first reading that matches, and a message blocked on its own words needs nothing of what it hides.
 */
export interface MessageReading {
  /**
   * One text: the normalised message first (0), then each decoded payload and reading, normalised;
   * undefined past the last.
   */
  text(reading: number): string | undefined;
  /** Every text, in that order. */
  texts(): string[];
  scan(reading: number): Scan;
  /** Which of the texts glosses the message's words in other scripts into English, or -1. */
  readonly glossed: number;
  /** The normalised message's plain form (text/plain.ts), made when first asked for: once per message. */
  plain(): string;
  /**
   * Whether the message is a document about a job (rules/addressee.ts), found when first asked for:
   * the rules' review and the scorer's verdict of a glossed message both ask.
   */
  isJobDocument(): boolean;
}

/**
 * Whether tokenize, reading the character at i, ends any word and starts nothing: ASCII white space
 * (a space, a tab, a line break; a line break also ends a sentence). True before the text and at its
 * end. Other white space is not: a zero-width no-break space is read through, an Ogham space mark
 * read as a letter.
 */
function endsWord(text: string, i: number): boolean {
  if (i < 0 || i >= text.length) return true;
  const code = text.charCodeAt(i);
  return code === 32 || (code >= 9 && code <= 13);
}

/** The first k in [0, count) with offsets[k] >= at, or count: offsets increase. */
function firstAtOrAfter(offsets: Int32Array, count: number, at: number): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((offsets[middle] as number) < at) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class MessageReader {
  /** The current message's readings tokenized so far, where their tokens were read, and the scans of their pieces. */
  private readonly placed: { text: string; places: TokenPlaces; pieces: Map<number, Scan> | null; words: Words | null }[] = [];

  /**
   * The memory every scan of one message takes its arrays from (terms, class positions, memoised
   * answers), freed all at once when the next message is read.
   */
  private readonly memory: ScanMemory = {
    ints: new Arena((length) => new Int32Array(length), 1 << 15),
    bytes: new Arena((length) => new Uint8Array(length), 1 << 15),
  };

  /**
   * The message's tokens, and the texts it hides (hiddenTexts), decoded and tokenized as the rules
   * and the scorer come to them. The extra passes cost nothing on messages that hide nothing. The
   * scans are valid until the next call.
   */
  read(message: string): MessageReading {
    const memory = this.memory;
    // The scans of the previous message are gone: their memory is free to reuse.
    memory.ints.reset();
    memory.bytes.reset();
    this.placed.length = 0;
    const normalized = normalizeText(message);
    const tokens = this.tokenizeReading(normalized);
    const scan = new Scan(tokens, memory);
    const texts = new ReadingTexts(normalized, hiddenTexts(normalized, scan, tokens));
    const scans: (Scan | undefined)[] = [scan];
    let plain: string | null = null;
    const plainOf = () => (plain ??= plainTextOfNormalized(normalized));
    let jobDocument: boolean | null = null;
    return {
      text: (reading) => texts.at(reading),
      texts: () => texts.all(),
      scan: (reading) => (scans[reading] ??= new Scan(this.tokenizeReading(texts.at(reading) as string), memory)),
      // The gloss, when there is one, is the first text the message hides.
      glossed: tokens.hasForeignLetters ? 1 : -1,
      plain: plainOf,
      isJobDocument: () => (jobDocument ??= isJobDocument(normalized, plainOf())),
    };
  }

  /** A scan of a piece of the current message's normalised texts, valid until the next read. */
  scanOf(piece: string): Scan {
    return new Scan(tokenize(piece, VOCABULARY, this.memory.ints), this.memory);
  }

  /** A reading's tokens, and where they were read, kept for the scans of its pieces (scanOfSlice). */
  private tokenizeReading(text: string): Tokens {
    const tokens = tokenize(text, VOCABULARY, this.memory.ints, true);
    this.placed.push({ text, places: tokens.places as TokenPlaces, pieces: null, words: null });
    return tokens;
  }

  /**
   * A scan of text[start, end), the same as scanOf(text.slice(start, end)) gives. When the text is
   * one of the current message's readings and the piece lies between white space that ends a word
   * (a space, a tab, a line break), the piece's tokens are the reading's tokens read there, and the
   * scan is made from them without reading the piece again: tokenize starts a piece as it goes on
   * after such a space, and a piece cut there ends as the text goes on. Only the boundaries at its
   * edges differ: a piece drops those before its first word (there is nothing to separate), and
   * one after its last word may have been made stronger by what follows the piece.
   */
  scanOfSlice(text: string, start: number, end: number): Scan {
    const reading = this.placed.find((placed) => placed.text === text);
    if (reading === undefined) return this.scanOf(text.slice(start, end));
    // Each rule that matches a reading looks for its passages in the same runs: each is scanned once.
    const key = start * (text.length + 1) + end;
    reading.pieces ??= new Map();
    let scan = reading.pieces.get(key);
    if (scan === undefined) {
      scan = this.scanOfPiece(reading.places, text, start, end);
      reading.pieces.set(key, scan);
    }
    return scan;
  }

  private scanOfPiece(placed: TokenPlaces, text: string, start: number, end: number): Scan {
    if (!endsWord(text, start - 1) || !endsWord(text, end)) return this.scanOf(text.slice(start, end));
    const { ids, count, offsets, strengthenedAt } = placed;
    let first = firstAtOrAfter(offsets, count, start);
    const last = firstAtOrAfter(offsets, count, end);
    while (first < last && isBoundaryId(ids[first] as number)) first += 1;
    if (last > first && isBoundaryId(ids[last - 1] as number) && (strengthenedAt[last - 1] as number) >= end) {
      return this.scanOf(text.slice(start, end));
    }
    const pieceIds = this.memory.ints.takeUnfilled(last - first);
    // Copied code by code: a subarray to copy from would be one more object per piece.
    for (let k = first; k < last; k += 1) pieceIds[k - first] = ids[k] as number;
    const pieceCount = joinSpacedLetters(pieceIds, last - first, VOCABULARY);
    return new Scan({ ids: pieceIds, count: pieceCount, base64Runs: [], hasForeignLetters: false, places: null }, this.memory);
  }

  /** Room for `length` word offsets in the current message's memory, valid until the next read. */
  private readonly takeOffsets = (length: number) => this.memory.ints.takeUnfilled(length);

  /** The words of a text (see rules/passage.ts), found once per reading of the current message. */
  words(text: string): Words {
    const reading = this.placed.find((placed) => placed.text === text);
    if (reading === undefined) return wordsOf(text, this.takeOffsets);
    return (reading.words ??= wordsOf(text, this.takeOffsets));
  }
}
