/** Letters spaced out to hide a word ("i g n o r e", "A P I k e y"), joined back into known words. */
import * as vocabularies from '../text/vocabulary.ts';
import type { Vocabulary } from '../text/vocabulary.ts';

// Local copies: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { FIRST_LETTER_ID, step, UNKNOWN_ID, wordIdAt } = vocabularies;

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

/** Where the first run of three or more single letters starts in ids[0 .. count), or count. */
function firstSpacedRun(ids: Int32Array, count: number): number {
  let run = 0;
  for (let i = 0; i < count; i += 1) {
    run = isSingleLetter(ids[i] as number) ? run + 1 : 0;
    if (run === 3) return i - 2;
  }
  return count;
}

/**
 * Joins runs of three or more single letters ("i g n o r e", "A P I k e y") and cuts the joined
 * letters back into known words ("previousdirections" -> "previous", "directions"), in place in
 * ids[0 .. count); returns the new count.
 */
export function joinSpacedLetters(ids: Int32Array, count: number, vocabulary: Vocabulary): number {
  let runStart = firstSpacedRun(ids, count);
  if (runStart === count) return count;
  // Everything before the first run stays where it is.
  let write = runStart;
  for (let i = runStart; i <= count; i += 1) {
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

