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

/**
 * Each passage of `text` on which `matches` holds, in order; the whole text, unlocated, when the
 * rule matches no passage alone. Runs of COARSE_WORDS words are tried first, and the passages only
 * inside those that match: most of a long text is scanned about once more, not twice.
 */
export function* passagesWhere(text: string, matches: (scan: Scan) => boolean, scanOf: (piece: string) => Scan): Generator<Passage> {
  const starts: number[] = [];
  const ends: number[] = [];
  // The runs of non-space characters (a regular expression's \S+), found code by code.
  let start = -1;
  for (let i = 0; i <= text.length; i += 1) {
    if (i < text.length && !isWhiteSpaceCode(text.charCodeAt(i))) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      starts.push(start);
      ends.push(i);
      start = -1;
    }
  }
  if (starts.length <= PASSAGE_WORDS) {
    yield { start: 0, end: text.length, located: true };
    return;
  }
  const matchesWords = (first: number, last: number) => matches(scanOf(text.slice(starts[first], ends[last])));
  let found = false;
  for (const [coarseFirst, coarseLast] of runs(0, starts.length - 1, COARSE_WORDS, COARSE_STRIDE)) {
    if (coarseLast - coarseFirst >= PASSAGE_WORDS && !matchesWords(coarseFirst, coarseLast)) continue;
    for (const [first, last] of runs(coarseFirst, coarseLast, PASSAGE_WORDS, STRIDE)) {
      if (!matchesWords(first, last)) continue;
      found = true;
      yield { start: starts[first] as number, end: ends[last] as number, located: true };
    }
  }
  if (!found) yield { start: 0, end: text.length, located: false };
}

/** The runs of `size` words from `first` to `last` (word indices), each `stride` on, the last one ending at `last`. */
function* runs(first: number, last: number, size: number, stride: number): Generator<[number, number]> {
  for (let start = first; ; start += stride) {
    const end = Math.min(last, start + size - 1);
    yield [start, end];
    if (end === last) return;
  }
}
