/** What the rules of more than one block reason ask about a position: who is told, what was set up. */
import * as lexicon from '../lexicon-index.ts';
import { memoized, type Scan } from '../scan.ts';
import { UNKNOWN_WORD } from '../text/vocabulary.ts';
import { MemoSlot } from './memo-slots.ts';

const { C } = lexicon;

/** The word at i starts its clause, give or take a "please" or "now": "Act as ...", "Please be ...". */
export function isImperative(s: Scan, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && s.is(j, C.filler)) j -= 1;
  return j < 0 || s.isClauseStart(j);
}

/** "Could you act as ...", "can you please be ...": a request to the bot put as a question. */
export function isPoliteAsk(s: Scan, i: number): boolean {
  let j = i - 1;
  while (j >= 0 && s.is(j, C.filler)) j -= 1;
  return j >= 1 && s.is(j, C.you) && s.is(j - 1, C.auxiliary);
}

/** "employees must never disclose secrets", "you must not share credentials": a rule quoted, not a request. */
export function isProhibited(s: Scan, i: number): boolean {
  return s.prev(i, 2, C.prohibition) >= 0;
}

/** "is", "are" and their kin in the rules' languages: a statement about something, not an order. */
export const DECLARATIVE = new Set(['is', 'are', 'es', 'est', 'ist', 'sono', 'sind', 'sont', 'son', 'sao']);

/** "CDN caching rules", "firewall rules": rules of some system, named by the word before them. */
export function isDomainRules(s: Scan, k: number): boolean {
  return s.word(k - 1) === UNKNOWN_WORD || s.is(k - 1, C.instructionTopic);
}

/** "you were given" or "configured you": some setup verb with the bot as its object. */
export const isGivenToYou = memoized(
  MemoSlot.GivenToYou,
  [C.setupVerb, C.toldVerb],
  (s, k) => s.is(k, C.you) || s.prev(k, 3, C.you) >= 0 || s.is(k + 1, C.you),
);

/** "you were loaded with", "configured you", "what were you told before ...". */
export const isSetupReference = memoized(MemoSlot.SetupReference, [C.setupVerb, C.toldVerb], (s, j) => {
  if (!s.holds(isGivenToYou, j)) return false;
  return s.is(j, C.setupVerb) || s.next(j, 6, C.origin) >= 0 || s.prev(j, 6, C.origin) >= 0;
});

