/**
 * Where a rule matched: the runs of PASSAGE_WORDS words, overlapping by half, on which the rule
 * matches again by itself. A rule looks at most a dozen words around the word that triggers it, so
 * a match lies whole in one run; when none matches alone (the rule needed more of the text), the
 * passage is the whole text, and it is not located.
 */
import type { Scan } from '../scan.ts';
import * as characters from '../text/characters.ts';

// A local copy: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { isWhiteSpaceCode } = characters;

const PASSAGE_WORDS = 16;
const STRIDE = PASSAGE_WORDS / 2;
/** Coarse runs overlap by a passage, so that a passage lies whole in one of them. */
const COARSE_WORDS = 6 * PASSAGE_WORDS;
const COARSE_STRIDE = COARSE_WORDS - PASSAGE_WORDS;

export interface Passage {
  /** Offsets in the text the rule read: [start, end). */
  readonly start: number;
  readonly end: number;
  /** Whether the rule matched the passage on its own (false: the passage is the whole text). */
  readonly located: boolean;
}

/** What passagesWhere reads with: the scan of a piece of the text, and the text's words. */
export interface PassageReader {
  /** A scan of the piece text[start, end), as scanning text.slice(start, end) gives it, valid while the passages are read. */
  scanOfSlice(text: string, start: number, end: number): Scan;
  /** The text's words, as wordsOf finds them, valid while the passages are read. */
  words(text: string): Words;
}

/** The runs of non-space characters of a text (a regular expression's \S+): word k is text[starts[k], ends[k]). */
export interface Words {
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly count: number;
}

/** The words of a text, found code by code, in arrays that `offsets` gives room for. */
export function wordsOf(text: string, offsets: (length: number) => Int32Array): Words {
  // Words are apart by a space at least: a text holds at most half its length in words, rounded up.
  const capacity = (text.length >> 1) + 1;
  const starts = offsets(capacity);
  const ends = offsets(capacity);
  let count = 0;
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    if (i < text.length && !isWhiteSpaceCode(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      starts[count] = start;
      ends[count] = i;
      count += 1;
      start = -1;
    }
  }
  return { starts, ends, count };
}

/**
 * Each passage of `text` on which `matches` holds, in order and once; the whole text, unlocated, when the
 * rule matches no passage alone. Runs of COARSE_WORDS words are tried first, and the passages only
 * inside those that match: most of a long text is scanned about once more, not twice.
 */
export function* passagesWhere(text: string, matches: (scan: Scan) => boolean, reader: PassageReader): Generator<Passage> {
  const { starts, ends, count } = reader.words(text);
  if (count <= PASSAGE_WORDS) {
    yield { start: 0, end: text.length, located: true };
    return;
  }
  const matchesWords = (first: number, last: number) => matches(reader.scanOfSlice(text, starts[first] as number, ends[last] as number));
  // The last passage of a coarse run is the first of the next: it is asked, and given, once.
  let askedFirst = -1;
  let askedLast = -1;
  const lastWord = count - 1;
  let found = false;
  // Coarse runs, COARSE_STRIDE words apart, then passages, STRIDE apart, inside those that match; the last of each ends at its last word.
  for (let coarseFirst = 0; ; coarseFirst += COARSE_STRIDE) {
    const coarseLast = Math.min(lastWord, coarseFirst + COARSE_WORDS - 1);
    if (coarseLast - coarseFirst < PASSAGE_WORDS || matchesWords(coarseFirst, coarseLast)) {
      for (let first = coarseFirst; ; first += STRIDE) {
        const last = Math.min(coarseLast, first + PASSAGE_WORDS - 1);
        const asked = first === askedFirst && last === askedLast;
        askedFirst = first;
        askedLast = last;
        if (!asked && matchesWords(first, last)) {
          found = true;
          yield { start: starts[first] as number, end: ends[last] as number, located: true };
        }
        if (last === coarseLast) break;
      }
    }
    if (coarseLast === lastWord) break;
  }
  if (!found) yield { start: 0, end: text.length, located: false };
}
