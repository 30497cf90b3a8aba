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
import { Scan, type ScanMemory } from './scan.ts';
import { normalizeText } from './text/normalize.ts';
import { plainText } from './text/plain.ts';
import { tokenize } from './text/tokenize.ts';

const { C, GLOSSARY, VOCABULARY } = lexicon;

const MIN_CODED_WORDS = 3;

/** Common words as ROT13 or backwards turn up: three of them, or one where the message names the encoding. */
function readsAsCoded(scan: Scan, hint: number, codedWord: number): boolean {
  const coded = scan.countOf(codedWord);
  return coded >= MIN_CODED_WORDS || (coded > 0 && scan.hasAny(hint));
}
/** A %XX escape of a printable character: URL-encoded text, worth decoding. */
const URL_ESCAPE = /%[2-7][0-9a-f]/i;
const hasUrlEscape = (line: string) => URL_ESCAPE.test(line);

/**
 * The lines of a text that `keep` selects, joined by newlines. A decoded reading needs only the
 * lines its decoding changes: reading the rest again costs as much as the whole message and finds
 * nothing the plain reading did not.
 */
function linesWhere(text: string, keep: (line: string) => boolean): string {
  if (!text.includes('\n')) return text;
  return text
    .split('\n')
    .filter(keep)
    .join('\n');
}

/** Letters beyond Latin (Greek, Cyrillic, Arabic, Devanagari, CJK, ...): what a gloss reads. */
function hasForeignScript(line: string): boolean {
  for (let i = 0; i < line.length; i += 1) if (line.charCodeAt(i) >= 0x370) return true;
  return false;
}

const wordsOfClass = (name: 'rot13Word' | 'reversedWord') => new Set(WORD_CLASSES[name].split(',').map((word) => word.trim()));
const ROT13_WORDS = wordsOfClass('rot13Word');
const REVERSED_WORDS = wordsOfClass('reversedWord');

/** The only characters that toLowerCase turns into ASCII letters besides A-Z: "İ" (i + dot) and the Kelvin sign. */
const LOWERS_TO_ASCII = /[\u0130\u212a]/;

/**
 * Whether a run of ASCII letters a-z in the lower-cased line is one of the words. The runs are
 * found code by code, A-Z read as a-z: only they become strings, not a match object per word nor
 * a lower-cased copy of the line.
 */
function hasWordOf(line: string, words: ReadonlySet<string>): boolean {
  const text = LOWERS_TO_ASCII.test(line) ? line.toLowerCase() : line;
  let start = -1;
  let upper = false;
  for (let i = 0; i <= text.length; i += 1) {
    const code = i < text.length ? text.charCodeAt(i) : 0;
    const lower = code >= 65 && code <= 90 ? code + 32 : code;
    if (lower >= 97 && lower <= 122) {
      if (start < 0) start = i;
      if (lower !== code) upper = true;
    } else if (start >= 0) {
      const word = text.slice(start, i);
      if (words.has(upper ? word.toLowerCase() : word)) return true;
      start = -1;
      upper = false;
    }
  }
  return false;
}

/**
 * What a ROT13 or reversed reading decodes: the whole text when the message names the encoding
 * (the payload may hold none of the common words), else only the lines that hold such a word.
 */
function codedLines(normalized: string, scan: Scan, hint: number, codedWords: ReadonlySet<string>): string {
  if (scan.hasAny(hint)) return normalized;
  return linesWhere(normalized, (line) => hasWordOf(line, codedWords));
}

/** Hex digits only, in pairs; printable ASCII starts each pair with a digit (2-7). */
function looksLikeHexText(run: string): boolean {
  const isDigit = (i: number) => run.charCodeAt(i) >= 48 && run.charCodeAt(i) <= 57;
  return run.length % 2 === 0 && isDigit(0) && isDigit(2) && /^(0x)?[0-9a-f]+$/i.test(run);
}
const HEX_ESCAPE = '\\x';

/** A message as the filter reads it: its normalised text and the texts it hides, each with its scan. */
export interface MessageReading {
  /** The normalised message first, then each decoded payload and reading, normalised. */
  readonly texts: string[];
  readonly scans: Scan[];
  /** Which of the texts glosses the message's words in other scripts into English, or -1. */
  readonly glossed: number;
  /** The normalised message's plain form (text/plain.ts), made when first asked for: once per message. */
  plain(): string;
}

export class MessageReader {
  /**
   * The memory every scan of one message takes its arrays from (terms, class positions, memoised
   * answers), freed all at once when the next message is read.
   */
  private readonly memory: ScanMemory = {
    ints: new Arena((length) => new Int32Array(length), 1 << 15),
    bytes: new Arena((length) => new Uint8Array(length), 1 << 15),
  };

  /**
   * The message's tokens and the tokens of what it hides: each base64 or hex run that decodes to text,
   * and, only when the message hints at an encoding or reads like ROT13 ("gur", "lbh", ...), its
   * spaced or escaped hex bytes and its ROT13 reading. Those extra passes cost nothing on other messages.
   * The scans are valid until the next call.
   */
  read(message: string): MessageReading {
    const memory = this.memory;
    // The scans of the previous message are gone: their memory is free to reuse.
    memory.ints.reset();
    memory.bytes.reset();
    const normalized = normalizeText(message);
    const tokens = tokenize(normalized, VOCABULARY, memory.ints);
    const scan = new Scan(tokens, memory);
    const texts = [normalized];
    const scans = [scan];
    const addDecoded = (decoded: string) => {
      const text = normalizeText(decoded);
      texts.push(text);
      scans.push(new Scan(tokenize(text, VOCABULARY, memory.ints), memory));
    };
    const { base64Runs, hasForeignLetters } = tokens;
    const glossed = hasForeignLetters ? texts.length : -1;
    if (hasForeignLetters) addDecoded(glossText(linesWhere(normalized, hasForeignScript), GLOSSARY));
    if (scan.hasAny(C.hexHint) || normalized.includes(HEX_ESCAPE)) {
      for (const decoded of decodeHexPayloads(normalized)) addDecoded(decoded);
    } else {
      for (const run of base64Runs) {
        if (looksLikeHexText(run)) for (const decoded of decodeHexPayloads(run)) addDecoded(decoded);
      }
    }
    for (const run of base64Runs) {
      const decoded = decodeBase64Text(run);
      if (decoded !== null) addDecoded(decoded);
    }
    if (readsAsCoded(scan, C.rot13Hint, C.rot13Word)) addDecoded(rot13(codedLines(normalized, scan, C.rot13Hint, ROT13_WORDS)));
    if (readsAsCoded(scan, C.reversedHint, C.reversedWord)) {
      addDecoded(reverseText(codedLines(normalized, scan, C.reversedHint, REVERSED_WORDS)));
    }
    if (normalized.includes('%') && URL_ESCAPE.test(normalized)) addDecoded(decodeUrlEscapes(linesWhere(normalized, hasUrlEscape)));
    let plain: string | null = null;
    return { texts, scans, glossed, plain: () => (plain ??= plainText(normalized)) };
  }

  /** A scan of a piece of the current message's normalised texts, valid until the next read. */
  scanOf(piece: string): Scan {
    return new Scan(tokenize(piece, VOCABULARY, this.memory.ints), this.memory);
  }
}
