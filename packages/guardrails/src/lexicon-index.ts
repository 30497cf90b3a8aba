/**
 * The lexicon compiled for the scanner: each word class numbered, multi-word entries as phrases,
 * and every term (a word of the vocabulary or a fused phrase) with its classes as a bit mask and a
 * list, and its speaker. Built once when the package loads; nothing here changes afterwards.
 */
import { buildGlossary } from './decoders/glosses.ts';
import { canonicalWord } from './decoders/leet.ts';
import { GLOSSES, SPELLED_WORDS, TYPO_TARGETS, WORD_CLASSES, type WordClass } from './lexicon.ts';
import { buildVocabulary, CLAUSE_END, LABEL_END, QUESTION_END, SENTENCE_END, type Vocabulary } from './text/vocabulary.ts';

export const enum Speaker {
  Ordinary,
  /** A clause start, "you" or "your": the verb that follows is said to the bot. */
  ToBot,
  /** A third person or "I": the verb that follows is about someone else. */
  ToOther,
  Auxiliary,
  Filler,
}

interface LexiconEntry {
  /** The word's classes as bits, MASK_WORDS 32-bit words; null when the word only starts phrases. */
  mask: Int32Array | null;
  /** Multi-word entries starting with this word, by their second word, longest first. */
  phrases: Map<string, Phrase[]> | null;
  /** The class numbers set in mask. */
  classes: number[];
  /** What the word says about who a nearby verb is addressed to; see Scan.addressed. */
  speaker: Speaker;
}

interface Phrase {
  readonly parts: readonly string[];
  /** The fused token: the parts joined by spaces. */
  readonly text: string;
}

const NO_ENTRY: LexiconEntry = {
  mask: null,
  phrases: null,
  classes: [],
  speaker: Speaker.Ordinary,
};

/** Whether class id's bit is set in the mask that starts at masks[base]. */
function hasClass(masks: Int32Array, id: number, base = 0): boolean {
  return (((masks[base + (id >> 5)] as number) >>> (id & 31)) & 1) === 1;
}

interface Lexicon {
  /** Class name -> bit number. */
  readonly ids: Record<WordClass, number>;
  /** Word or fused phrase -> its entry. */
  readonly entries: Map<string, LexiconEntry>;
  /** Every word that occurs in an entry: the vocabulary tokenize reads words against. */
  readonly words: Set<string>;
}

const MASK_WORDS = Math.ceil(Object.keys(WORD_CLASSES).length / 32);

function buildLexicon(): Lexicon {
  const ids = {} as Record<WordClass, number>;
  const entries = new Map<string, LexiconEntry>();
  const entryFor = (key: string) => {
    const entry = entries.get(key) ?? { ...NO_ENTRY, classes: [] };
    entries.set(key, entry);
    return entry;
  };
  const words = new Set<string>(SPELLED_WORDS);
  (Object.keys(WORD_CLASSES) as WordClass[]).forEach((name, id) => {
    ids[name] = id;
    for (const raw of WORD_CLASSES[name].split(',')) {
      const text = raw.trim().replace(/\s+/g, ' ');
      if (text === '') continue;
      const parts = text.split(' ').map(canonicalWord);
      for (const part of parts) words.add(part);
      if (parts.length > 1) addPhrase(entryFor(parts[0] as string), parts);
      const entry = entryFor(parts.join(' '));
      entry.mask ??= new Int32Array(MASK_WORDS);
      entry.mask[id >> 5] = (entry.mask[id >> 5] as number) | (1 << (id & 31));
    }
  });
  inheritWordClasses(entries);
  for (const entry of entries.values()) {
    entry.speaker = speakerOf(entry.mask, ids);
    entry.classes = classesIn(entry.mask);
  }
  for (const boundary of [SENTENCE_END, QUESTION_END, LABEL_END, CLAUSE_END]) {
    const entry = entries.get(boundary) ?? { ...NO_ENTRY, classes: [] };
    entry.speaker = Speaker.ToBot;
    entries.set(boundary, entry);
  }
  return { ids, entries, words };
}

function classesIn(mask: Int32Array | null): number[] {
  const classes: number[] = [];
  for (let id = 0; mask !== null && id < MASK_WORDS * 32; id += 1) {
    if (hasClass(mask, id)) classes.push(id);
  }
  return classes;
}

function speakerOf(mask: Int32Array | null, ids: Record<WordClass, number>): Speaker {
  const has = (id: number) => mask !== null && hasClass(mask, id);
  if (has(ids.you) || has(ids.your)) return Speaker.ToBot;
  if (has(ids.thirdPerson)) return Speaker.ToOther;
  if (has(ids.auxiliary)) return Speaker.Auxiliary;
  return has(ids.filler) ? Speaker.Filler : Speaker.Ordinary;
}

/** A fused phrase still counts as each of its words: "an ai language model" is also "ai". */
function inheritWordClasses(entries: Map<string, LexiconEntry>): void {
  for (const [text, entry] of entries) {
    if (!entry.mask || !text.includes(' ')) continue;
    for (const word of text.split(' ')) {
      const wordMask = entries.get(word)?.mask;
      if (!wordMask) continue;
      for (let w = 0; w < MASK_WORDS; w += 1) entry.mask[w] = (entry.mask[w] as number) | (wordMask[w] as number);
    }
  }
}

function addPhrase(first: LexiconEntry, parts: string[]): void {
  first.phrases ??= new Map<string, Phrase[]>();
  const second = parts[1] as string;
  const known = first.phrases.get(second) ?? [];
  const text = parts.join(' ');
  if (!known.some((phrase) => phrase.text === text)) known.push({ parts, text });
  known.sort((a, b) => b.parts.length - a.parts.length);
  first.phrases.set(second, known);
}

const LEXICON = buildLexicon();
/** Each word class's number: C.secret, C.request, ... */
export const C = LEXICON.ids;
export const CLASS_COUNT = Object.keys(WORD_CLASSES).length;

/**
 * The lexicon by number, as the scans read it. A term is a word of the vocabulary (its id there) or
 * a fused phrase (numbered after the words); each term's classes are a bit mask and a list, and its
 * speaker a byte.
 */
export interface Terms {
  readonly texts: string[];
  /** masks[term * MASK_WORDS + w]: the term's classes as bits. */
  readonly masks: Int32Array;
  /** The term's class numbers: classList[classStarts[term] .. classStarts[term + 1]). */
  readonly classStarts: Int32Array;
  readonly classList: Uint16Array;
  readonly speakers: Uint8Array;
  /** Phrases starting with the term, by the id of their second word, longest first. */
  readonly phrases: (Map<number, TermPhrase[]> | undefined)[];
}

export interface TermPhrase {
  readonly parts: readonly number[];
  readonly term: number;
}

function buildTerms(lexicon: Lexicon, vocabulary: Vocabulary): Terms {
  const texts = [...vocabulary.texts];
  const termOf = new Map(texts.map((text, term) => [text, term]));
  for (const text of lexicon.entries.keys()) if (!termOf.has(text)) termOf.set(text, texts.push(text) - 1);
  const count = texts.length;
  const masks = new Int32Array(count * MASK_WORDS);
  const classStarts = new Int32Array(count + 1);
  const classLists: number[][] = [];
  const speakers = new Uint8Array(count);
  const phrases = new Array<Map<number, TermPhrase[]> | undefined>(count);
  texts.forEach((text, term) => {
    const entry = lexicon.entries.get(text) ?? NO_ENTRY;
    if (entry.mask) masks.set(entry.mask, term * MASK_WORDS);
    classLists.push(entry.classes);
    classStarts[term + 1] = (classStarts[term] as number) + entry.classes.length;
    speakers[term] = entry.speaker;
    for (const [second, list] of entry.phrases ?? []) {
      const readable = list.filter((phrase) => phrase.parts.every((part) => vocabulary.ids.has(part)));
      if (!vocabulary.ids.has(second) || readable.length === 0) continue;
      const byTerm = (phrases[term] ??= new Map<number, TermPhrase[]>());
      byTerm.set(
        vocabulary.ids.get(second) as number,
        readable.map((phrase) => ({
          parts: phrase.parts.map((part) => vocabulary.ids.get(part) as number),
          term: termOf.get(phrase.text) as number,
        })),
      );
    }
  });
  return { texts, masks, classStarts, classList: Uint16Array.from(classLists.flat()), speakers, phrases };
}

export const VOCABULARY = buildVocabulary(LEXICON.words, TYPO_TARGETS);
export const TERMS = buildTerms(LEXICON, VOCABULARY);
export const GLOSSARY = buildGlossary(GLOSSES);

/** Whether the term belongs to class id. */
export function termIs(term: number, id: number): boolean {
  return hasClass(TERMS.masks, id, term * MASK_WORDS);
}
