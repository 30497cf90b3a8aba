/**
 * The scanner: one normalised text read as terms (multi-word entries fused into one term), where
 * each word class occurs, and memoised per-position predicates, so that rules which look a few
 * tokens around every occurrence of a word stay linear however often the word repeats.
 */
import type { Arena } from './arena.ts';
import * as lexicon from './lexicon-index.ts';
import type { TermPhrase } from './lexicon-index.ts';
import type { Tokens } from './text/tokenize.ts';
import * as vocabularies from './text/vocabulary.ts';

/*
 * Local copies of the imported values that the per-token loops read: under a CommonJS loader such
 * as tsx's, each read of an imported binding is a getter call.
 */
const { CLASS_COUNT, TERMS, termIs } = lexicon;
const NO_TERM = vocabularies.UNKNOWN_ID;
const endsSentence = vocabularies.isSentenceEndId;
const isBoundary = vocabularies.isBoundaryId;
const TO_BOT: number = lexicon.Speaker.ToBot;
const TO_OTHER: number = lexicon.Speaker.ToOther;
const AUXILIARY: number = lexicon.Speaker.Auxiliary;
const ORDINARY: number = lexicon.Speaker.Ordinary;

/** The arrays a scan takes its memory from; see MessageReader. */
export interface ScanMemory {
  readonly ints: Arena<Int32Array>;
  readonly bytes: Arena<Uint8Array>;
}

/**
 * A yes/no question about one position, answered at most once per position and text. It can only
 * be true on a token of one of its gate classes; elsewhere it is false without being asked.
 */
export interface Predicate {
  /** Where a scan keeps its answers: one slot per predicate (see rules/memo-slots.ts). */
  readonly slot: number;
  /** gate[term] is 1 when the term is in one of the gate classes: elsewhere the predicate is false. */
  readonly gate: Uint8Array;
  readonly test: (s: Scan, i: number) => boolean;
}

export function memoized(slot: number, gate: number[], test: (s: Scan, i: number) => boolean): Predicate {
  const admitted = new Uint8Array(TERMS.texts.length);
  for (let term = 0; term < admitted.length; term += 1) admitted[term] = gate.some((id) => termIs(term, id)) ? 1 : 0;
  return { slot, gate: admitted, test };
}

const NO_CLASS = -1;
const NEXT_POSITION = new Int32Array(CLASS_COUNT);

/**
 * Where each class occurs, as one array of positions grouped by class: `starts` holds each class's
 * count at starts[id + 1], counted as the terms were read; here they become offsets, then filled.
 */
function indexClasses(terms: Int32Array, length: number, starts: Int32Array, ints: Arena<Int32Array>): Int32Array {
  const { classStarts, classList } = TERMS;
  // Where each class's next position goes: scratch, used only here, and written whole with the offsets.
  const next = NEXT_POSITION;
  for (let id = 0; id < CLASS_COUNT; id += 1) {
    next[id] = starts[id] as number;
    starts[id + 1] = (starts[id + 1] as number) + (starts[id] as number);
  }
  // Written whole before it is read: every slot of positions holds one occurrence.
  const positions = ints.takeUnfilled(starts[CLASS_COUNT] as number);
  for (let i = 0; i < length; i += 1) {
    const term = terms[i] as number;
    for (let k = classStarts[term] as number; k < (classStarts[term + 1] as number); k += 1) {
      const id = classList[k] as number;
      positions[next[id] as number] = i;
      next[id] = (next[id] as number) + 1;
    }
  }
  return positions;
}

/**
 * One text as terms (multi-word entries fused into one term), where each class occurs, and memoised
 * per-position predicates, so that rules which look a few tokens around every occurrence of a word
 * stay linear however often the word repeats.
 */
export class Scan {
  /** How many tokens the text has. */
  readonly length: number;
  /** Each token's term. */
  private readonly terms: Int32Array;
  /** Where each sentence ends, made when a rule first looks at a window. */
  private sentenceEnds: SentenceEnds | null = null;
  /** The positions of each class's tokens: positions[starts[id] .. starts[id + 1]). */
  private readonly starts: Int32Array;
  private readonly positions: Int32Array;
  private readonly answers: (Uint8Array | undefined)[] = [];
  private speakerIndex: SpeakerIndex | null = null;

  /** Fuses phrases in place in the tokens' ids: the scan owns them from now on. */
  constructor(
    tokens: Tokens,
    private readonly memory: ScanMemory,
  ) {
    const { ids: words, count: wordCount } = tokens;
    const terms = words;
    const { phrases, classStarts, classList } = TERMS;
    const starts = memory.ints.take(CLASS_COUNT + 1);
    let count = 0;
    let i = 0;
    while (i < wordCount) {
      let term = words[i] as number;
      let length = 1;
      const starting = phrases[term];
      if (starting !== undefined) {
        const phrase = longestPhraseAt(starting, words, wordCount, i);
        if (phrase) {
          term = phrase.term;
          length = phrase.parts.length;
        }
      }
      i += length;
      if (term !== NO_TERM && count > 0 && term === terms[count - 1]) continue;
      terms[count] = term;
      count += 1;
      for (let k = classStarts[term] as number; k < (classStarts[term + 1] as number); k += 1) {
        const id = classList[k] as number;
        starts[id + 1] = (starts[id + 1] as number) + 1;
      }
    }
    this.length = count;
    this.terms = terms;
    this.starts = starts;
    this.positions = indexClasses(terms, count, starts, memory.ints);
  }

  private termAt(i: number): number {
    return i >= 0 && i < this.length ? (this.terms[i] as number) : NO_TERM;
  }

  /** Whether the token at i belongs to class a (or b, or c); false outside the text. */
  is(i: number, a: number, b = NO_CLASS, c = NO_CLASS): boolean {
    return i >= 0 && i < this.length && this.isAt(i, a, b, c);
  }

  where(id: number): Int32Array {
    const start = this.starts[id] as number;
    const end = this.starts[id + 1] as number;
    // Most classes do not occur in a given text: those share one empty array instead of a new view.
    return start === end ? NO_POSITIONS : this.positions.subarray(start, end);
  }

  /** How many tokens belong to the class. */
  countOf(id: number): number {
    return (this.starts[id + 1] as number) - (this.starts[id] as number);
  }

  word(i: number): string {
    return i >= 0 && i < this.length ? (TERMS.texts[this.terms[i] as number] as string) : '';
  }

  /** Whether any token belongs to one of the classes: a cheap test before a rule looks closer. */
  hasAny(a: number, b = NO_CLASS, c = NO_CLASS): boolean {
    return this.countOf(a) > 0 || (b !== NO_CLASS && this.countOf(b) > 0) || (c !== NO_CLASS && this.countOf(c) > 0);
  }

  /** predicate(this, i), computed once per position. */
  holds(predicate: Predicate, i: number): boolean {
    const term = this.termAt(i);
    if (predicate.gate[term] === 0) return false;
    const answers = (this.answers[predicate.slot] ??= this.memory.bytes.take(this.length));
    if (answers[i] === 0) answers[i] = predicate.test(this, i) ? 2 : 1;
    return answers[i] === 2;
  }

  /** The last position of the window (i, i + within], cut before the sentence's end unless across. */
  private windowEnd(i: number, within: number, acrossSentences = false): number {
    const end = Math.min(this.length - 1, i + within);
    if (acrossSentences || i + 1 > end) return end;
    return Math.min(end, (this.ends().firstEndFrom[i + 1] as number) - 1);
  }

  /** The first position of the window [i - within, i), cut after the sentence's start unless across. */
  private windowStart(i: number, within: number, acrossSentences = false): number {
    const start = Math.max(0, i - within);
    if (acrossSentences || i - 1 < start) return start;
    return Math.max(start, (this.ends().lastEndUpTo[i - 1] as number) + 1);
  }

  private ends(): SentenceEnds {
    return (this.sentenceEnds ??= indexSentenceEnds(this.terms, this.length, this.memory.ints));
  }

  /** Whether the token at j, a position of the text, is in class a, b or c. */
  private isAt(j: number, a: number, b: number, c: number): boolean {
    const term = this.terms[j] as number;
    return termIs(term, a) || (b !== NO_CLASS && termIs(term, b)) || (c !== NO_CLASS && termIs(term, c));
  }

  /** Nearest position after i, at most `within` tokens on and in the same sentence, in class a, b or c; else -1. */
  next(i: number, within: number, a: number, b = NO_CLASS, c = NO_CLASS): number {
    const end = this.windowEnd(i, within);
    for (let j = i + 1; j <= end; j += 1) if (this.isAt(j, a, b, c)) return j;
    return -1;
  }

  /** Like next, but the window may run on into the following sentences. */
  nextAcross(i: number, within: number, a: number): number {
    const end = Math.min(this.length - 1, i + within);
    for (let j = i + 1; j <= end; j += 1) if (this.is(j, a)) return j;
    return -1;
  }

  /** Like prev, but the window may run back into the preceding sentences. */
  prevAcross(i: number, within: number, a: number): number {
    for (let j = i - 1; j >= Math.max(0, i - within); j -= 1) if (this.is(j, a)) return j;
    return -1;
  }

  /** Nearest position before i, at most `within` tokens back and in the same sentence, in class a, b or c; else -1. */
  prev(i: number, within: number, a: number, b = NO_CLASS, c = NO_CLASS): number {
    const start = this.windowStart(i, within);
    for (let j = i - 1; j >= start; j -= 1) if (this.isAt(j, a, b, c)) return j;
    return -1;
  }

  /** Nearest position after i where the predicate holds; crosses sentence ends only when asked. */
  nextWhere(i: number, within: number, predicate: Predicate, acrossSentences = false): number {
    const end = this.windowEnd(i, within, acrossSentences);
    for (let j = i + 1; j <= end; j += 1) if (this.holds(predicate, j)) return j;
    return -1;
  }

  /** Nearest position before i where the predicate holds; crosses sentence ends only when asked. */
  prevWhere(i: number, within: number, predicate: Predicate, acrossSentences = false): number {
    const start = this.windowStart(i, within, acrossSentences);
    for (let j = i - 1; j >= start; j -= 1) if (this.holds(predicate, j)) return j;
    return -1;
  }

  /**
   * Whether `wanted` holds within `within` tokens after i, in the same sentence, before any token of
   * the blocker classes: "tell me the API key" reaches the key, "tell me if she has used API keys" does not.
   */
  reachesBefore(i: number, within: number, wanted: Predicate, blocker: number, otherBlocker = NO_CLASS): boolean {
    const end = this.windowEnd(i, within);
    for (let j = i + 1; j <= end; j += 1) {
      if (this.holds(wanted, j)) return true;
      if (this.isAt(j, blocker, otherBlocker, NO_CLASS)) return false;
    }
    return false;
  }

  isClauseStart(j: number): boolean {
    return isBoundary(this.termAt(j));
  }

  /**
   * Whether the verb at i is said to the bot (an imperative, or "you" as its subject) rather than
   * about someone else. Looking back at most ADDRESS_WINDOW tokens for the nearest clause start,
   * "you", third person or auxiliary: "Act as ...", "I want you to act as ...", "we lost it, so
   * please output ..." are; "Can she act as a tech lead?", "she would ignore it", "Could Maria act
   * as ..." (an auxiliary with another subject before the verb) are not.
   */
  addressed(i: number): boolean {
    const { previous, wordsBefore } = (this.speakerIndex ??= indexSpeakers(this.terms, this.length, this.memory.ints));
    let k = previous[i] as number;
    while (k >= 0 && k >= i - ADDRESS_WINDOW) {
      const speaker = TERMS.speakers[this.terms[k] as number] as number;
      if (speaker === TO_BOT) return true;
      if (speaker === TO_OTHER) return false;
      if ((wordsBefore[i] as number) > (wordsBefore[k + 1] as number)) return false;
      k = previous[k] as number;
    }
    return true;
  }
}

const ADDRESS_WINDOW = 6;
const NO_POSITIONS = new Int32Array(0);

interface SentenceEnds {
  /** firstEndFrom[i]: the first sentence end at or after position i, or n when there is none. */
  readonly firstEndFrom: Int32Array;
  /** lastEndUpTo[i]: the last sentence end at or before position i, or -1 when there is none. */
  readonly lastEndUpTo: Int32Array;
}

function indexSentenceEnds(terms: Int32Array, n: number, ints: Arena<Int32Array>): SentenceEnds {
  const firstEndFrom = ints.take(n + 1);
  const lastEndUpTo = ints.take(n + 1);
  firstEndFrom[n] = n;
  for (let j = n - 1; j >= 0; j -= 1) {
    firstEndFrom[j] = endsSentence(terms[j] as number) ? j : (firstEndFrom[j + 1] as number);
  }
  let lastEnd = -1;
  for (let j = 0; j < n; j += 1) {
    if (endsSentence(terms[j] as number)) lastEnd = j;
    lastEndUpTo[j] = lastEnd;
  }
  return { firstEndFrom, lastEndUpTo };
}

interface SpeakerIndex {
  /** The nearest position before i that is ToBot, ToOther or Auxiliary, or -1. */
  readonly previous: Int32Array;
  /** How many ordinary words come before position i. */
  readonly wordsBefore: Int32Array;
}

function indexSpeakers(terms: Int32Array, n: number, ints: Arena<Int32Array>): SpeakerIndex {
  const { speakers } = TERMS;
  const previous = ints.take(n + 1);
  const wordsBefore = ints.take(n + 1);
  let last = -1;
  for (let j = 0; j < n; j += 1) {
    previous[j] = last;
    const speaker = speakers[terms[j] as number] as number;
    wordsBefore[j + 1] = (wordsBefore[j] as number) + (speaker === ORDINARY ? 1 : 0);
    if (speaker === TO_BOT || speaker === TO_OTHER || speaker === AUXILIARY) last = j;
  }
  previous[n] = last;
  return { previous, wordsBefore };
}

function longestPhraseAt(
  phrases: Map<number, TermPhrase[]>,
  words: Int32Array,
  count: number,
  i: number,
): TermPhrase | null {
  if (i + 1 >= count) return null;
  const candidates = phrases.get(words[i + 1] as number);
  if (!candidates) return null;
  for (const phrase of candidates) {
    if (i + phrase.parts.length > count) continue;
    let matches = true;
    for (let k = 2; k < phrase.parts.length && matches; k += 1) matches = words[i + k] === phrase.parts[k];
    if (matches) return phrase;
  }
  return null;
}
