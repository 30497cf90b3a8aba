/**
 * Where a rule matched: the runs of PASSAGE_WORDS words, overlapping by half, on which the rule
 * matches again by itself. A rule looks at most a dozen words around the word that triggers it, so
 * a match lies whole in one run; when none matches alone (the rule needed more of the text), the
 * passage is the whole text, and it is not located.
 */
import type { Scan } from '../scan.ts';

const PASSAGE_WORDS = 16;
const STRIDE = PASSAGE_WORDS / 2;
const WORD = /\S+/g;

export interface Passage {
  /** Offsets in the text the rule read: [start, end). */
  readonly start: number;
  readonly end: number;
  /** Whether the rule matched the passage on its own (false: the passage is the whole text). */
  readonly located: boolean;
}

/**
 * Each passage of `text` on which `matches` holds, in order, until `enough` accepts one; the whole
 * text, unlocated, when the rule matches no passage alone.
 */
export function* passagesWhere(text: string, matches: (scan: Scan) => boolean, scanOf: (piece: string) => Scan): Generator<Passage> {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const word of text.matchAll(WORD)) {
    starts.push(word.index);
    ends.push(word.index + word[0].length);
  }
  if (starts.length <= PASSAGE_WORDS) {
    yield { start: 0, end: text.length, located: true };
    return;
  }
  let found = false;
  for (let first = 0; first < starts.length; first += STRIDE) {
    const last = Math.min(starts.length, first + PASSAGE_WORDS) - 1;
    const start = starts[first] as number;
    const end = ends[last] as number;
    if (matches(scanOf(text.slice(start, end)))) {
      found = true;
      yield { start, end, located: true };
    }
    if (last === starts.length - 1) break;
  }
  if (!found) yield { start: 0, end: text.length, located: false };
}
