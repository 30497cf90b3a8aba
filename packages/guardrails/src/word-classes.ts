/**
 * The lexicon's word classes as the learned scorer reads them (features.ts): a word's classes found
 * by the hash of its letters without accents, in one open-addressed table; a two-word entry ("yok
 * say", "api key") is found at its second word, by the hash of both joined by a space. A word that
 * is not in the lexicon but starts with one of its words of STEM_LETTERS letters or more, followed
 * by at most MAX_ENDING letters, takes that word's classes ("talimatlarını", "ignored",
 * "prompting"), so inflected forms in the languages the lexicon lists read like the forms it lists.
 */
import { canonicalWord } from './decoders/leet.ts';
import { WORD_CLASSES } from './lexicon.ts';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const STEM_LETTERS = 5;
const MAX_ENDING = 6;
const SLOT_BITS = 14;
const SLOT_MASK = (1 << SLOT_BITS) - 1;

/** Latin letters with accents (U+00C0 to U+024F) as their base letter; other codes as they are. */
const PLAIN = buildPlain();

function buildPlain(): Uint16Array {
  const plain = new Uint16Array(0x250);
  for (let code = 0; code < plain.length; code += 1) {
    const base = String.fromCharCode(code).normalize('NFD').charCodeAt(0);
    plain[code] = code >= 0xc0 && base < 0x80 ? base | 0x20 : code;
  }
  return plain;
}

export function plainCode(code: number): number {
  return code < 0x250 ? (PLAIN[code] as number) : code;
}

function plainHash(word: string): number {
  let hash = FNV_OFFSET;
  for (let i = 0; i < word.length; i += 1) hash = Math.imul(hash ^ plainCode(word.charCodeAt(i)), FNV_PRIME);
  return hash;
}

export class WordClassTable {
  private readonly keys = new Int32Array(1 << SLOT_BITS);
  /** Per slot: 0 when empty, else 1 + the start of its classes in `classes`. */
  private readonly starts = new Int32Array(1 << SLOT_BITS);
  private readonly ends = new Int32Array(1 << SLOT_BITS);
  /** Whether the slot's word is long enough to be read as a stem. */
  private readonly stems = new Uint8Array(1 << SLOT_BITS);
  private readonly classes: Uint16Array;

  constructor(classesByWord: Map<string, number[]>) {
    const list: number[] = [];
    for (const [word, classes] of classesByWord) {
      const slot = this.slotOf(plainHash(word));
      if (this.starts[slot] !== 0) throw new Error(`word-classes: "${word}" hashes like another word`);
      this.keys[slot] = plainHash(word);
      this.starts[slot] = list.length + 1;
      list.push(...classes);
      this.ends[slot] = list.length;
      this.stems[slot] = word.length >= STEM_LETTERS ? 1 : 0;
    }
    this.classes = Uint16Array.from(list);
  }

  /** The slot holding the hash, or the empty slot where it would go. */
  private slotOf(hash: number): number {
    let slot = Math.imul(hash, 0x9e3779b1) >>> (32 - SLOT_BITS);
    while (this.starts[slot] !== 0 && this.keys[slot] !== hash) slot = (slot + 1) & SLOT_MASK;
    return slot;
  }

  /**
   * The slot of a word given the hash of the last word and it as a two-word entry, and the hashes of
   * its prefixes (`prefixes[i]`: its first i + 1 letters); -1 when neither the pair, the word nor a
   * stem it starts with has classes.
   */
  find(pair: number, prefixes: Int32Array, length: number): number {
    const both = this.slotOf(pair);
    if (this.starts[both] !== 0) return both;
    const whole = this.slotOf(prefixes[length - 1] as number);
    if (this.starts[whole] !== 0) return whole;
    const shortest = Math.max(STEM_LETTERS, length - MAX_ENDING);
    for (let letters = length - 1; letters >= shortest; letters -= 1) {
      const slot = this.slotOf(prefixes[letters - 1] as number);
      if (this.starts[slot] !== 0 && this.stems[slot] === 1) return slot;
    }
    return -1;
  }

  start(slot: number): number {
    return (this.starts[slot] as number) - 1;
  }

  end(slot: number): number {
    return this.ends[slot] as number;
  }

  classAt(index: number): number {
    return this.classes[index] as number;
  }
}

/** Each single word of the lexicon's classes, with the numbers of the classes it is in. */
function classesByWord(): Map<string, number[]> {
  const byWord = new Map<string, number[]>();
  Object.values(WORD_CLASSES).forEach((words, id) => {
    for (const raw of words.split(',')) {
      const word = canonicalWord(raw.trim().replace(/\s+/g, ' '));
      if (word === '' || word.split(' ').length > 2 || /[^\p{L}\p{N} ]/u.test(word)) continue;
      const classes = byWord.get(word) ?? [];
      if (!classes.includes(id)) classes.push(id);
      byWord.set(word, classes);
    }
  });
  return byWord;
}

export const WORD_CLASS_TABLE = new WordClassTable(classesByWord());
