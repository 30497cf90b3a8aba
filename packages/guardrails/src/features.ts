/**
 * What the learned scorer reads: hashed word unigrams and bigrams and character 3- and 4-grams
 * of each word, and the lexicon's word classes of each word (word-classes.ts) with the classes and
 * the word that follow them, in windows of a few sentences. The classes are what makes "ignora le
 * istruzioni precedenti" and "önceki talimatları yok say" read like "ignore the previous
 * instructions": the same class features, whatever the language.
 *
 * Words are read the way the rules read them, more loosely: lower case, look-alike letters as
 * Latin, invisible characters skipped, leetspeak folded inside words that also have letters
 * ("pr0mpt"), and runs of single letters joined ("i g n o r e"). Letters of other scripts are kept
 * as they are, so Chinese or Russian text gives its own character n-grams.
 *
 * A window closes at the first sentence end after WINDOW_WORDS words, or at MAX_WINDOW_WORDS
 * words: an order hidden in a long job description is scored on its own sentences, not diluted
 * by the whole page.
 */
import * as leet from './decoders/leet.ts';
import * as lookAlikes from './decoders/look-alikes.ts';
import * as characters from './text/characters.ts';
import { WORD_CLASS_TABLE, plainCode } from './word-classes.ts';

// Local copies: under a CommonJS loader such as tsx's, each read of an imported binding is a getter call.
const { FOLDED_INVISIBLE, FOLDED_KEPT, foldedCode } = lookAlikes;
const { isSymbolCode } = characters;
const { leetLetterCode } = leet;

const BUCKET_BITS = 18;
export const BUCKETS = 1 << BUCKET_BITS;
const BUCKET_MASK = BUCKETS - 1;

const WINDOW_WORDS = 40;
const MAX_WINDOW_WORDS = 80;
/** Longer runs (base64, Chinese without spaces) are cut into words of this many characters. */
const MAX_WORD = 24;
/** Three single letters in a row read as one spaced-out word. */
const MIN_SPACED_LETTERS = 3;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const START = 0x5e; // "^"
const END = 0x24; // "$"
const SPACE = 0x20;
/** Seeds that keep the kinds of feature apart in the one hash space. */
const UNIGRAM = 0x9e3779b1;
const BIGRAM = 0x85ebca77;
const TRIGRAM = 0xc2b2ae3d;
const FOURGRAM = 0x27d4eb2f;
const CLASS_UNIGRAM = 0x165667b1;
const CLASS_BIGRAM = 0xd3a2646c;
const CLASS_NEXT_WORD = 0xfd7046c5;
/** A class pairs with the classes of the words at most this many words before it. */
const CLASS_REACH = 3;
/** The class mentions a window remembers for pairing: enough for CLASS_REACH words of several classes. */
const RECENT_CLASSES = 16;

function bucketOf(hash: number, seed: number): number {
  let h = Math.imul(hash ^ seed, 0x2c1b3c6d);
  h ^= h >>> 15;
  return h & BUCKET_MASK;
}

const isSentenceEnd = (code: number) =>
  code === 0x2e || code === 0x21 || code === 0x3f || code === 0x0a || code === 0x3002 || code === 0xff01 || code === 0xff1f;

/**
 * The features of a text: distinct bucket numbers of each window in `buckets[0 .. count)`, the
 * window i ending before `windowEnds[i]`. The buffers are reused from call to call: copy what must outlive the next call.
 */
export class FeatureReader {
  buckets = new Int32Array(1 << 14);
  count = 0;
  windowEnds: number[] = [];

  private readonly word = new Uint16Array(MAX_WORD);
  private wordLength = 0;
  private wordHasLetter = false;
  private previousWord = 0;
  private windowWords = 0;
  private stamp = 0;
  private readonly spaced = new Uint16Array(MAX_WORD);
  private readonly padded = new Uint16Array(MAX_WORD + 2);
  private readonly letter = new Uint16Array(1);
  private spacedLength = 0;
  private onWindow: ((start: number, end: number) => boolean) | null = null;
  private stopped = false;
  /**
   * Which window last counted each bucket: a window counts a feature once, however often it repeats,
   * so "ignore ignore ignore ..." weighs what "ignore" weighs, not ninety times more. One byte per
   * bucket (256 KB, where four took 1 MB) keeps it in the cache; it is cleared every 255 windows.
   */
  private readonly countedIn = new Uint8Array(BUCKETS);
  private windowStamp = 0;
  /** The hash of each prefix of the current word without accents, for the lexicon's stems. */
  private readonly prefixes = new Int32Array(MAX_WORD);
  /** The classes of the window's last words, newest last, and the word each came with. */
  private readonly recentClass = new Int32Array(RECENT_CLASSES);
  private readonly recentWord = new Int32Array(RECENT_CLASSES);
  private recentCount = 0;
  private wordNumber = 0;
  /** The hash of the last word without accents, for the lexicon's two-word entries ("yok say"). */
  private previousPlain = FNV_OFFSET;

  private nextWindowStamp(): number {
    if (this.windowStamp === 0xff) {
      this.countedIn.fill(0);
      this.windowStamp = 0;
    }
    this.windowStamp += 1;
    return this.windowStamp;
  }

  /**
   * Reads a text's features. `onWindow`, when given, sees each window as it closes, its features in
   * `buckets[start .. end)`; once it answers true, reading stops there.
   */
  read(text: string, onWindow: ((start: number, end: number) => boolean) | null = null): this {
    this.onWindow = onWindow;
    this.stopped = false;
    this.count = 0;
    this.windowEnds = [];
    this.wordLength = 0;
    this.wordHasLetter = false;
    this.previousWord = FNV_OFFSET;
    this.windowWords = 0;
    this.spacedLength = 0;
    this.recentCount = 0;
    this.wordNumber = 0;
    this.previousPlain = FNV_OFFSET;
    this.stamp = this.nextWindowStamp();
    const lower = text.toLowerCase();
    const length = lower.length;
    for (let i = 0; i < length && !this.stopped; i += 1) {
      let code = lower.charCodeAt(i);
      if (code >= 128) {
        const folded = foldedCode(code);
        if (folded === FOLDED_INVISIBLE) continue;
        if (folded !== FOLDED_KEPT) code = folded | 0x20;
      }
      if ((code >= 97 && code <= 122) || (code >= 128 && !isSymbolCode(code))) {
        this.push(code, true);
        continue;
      }
      if (code >= 48 && code <= 57) {
        this.push(code, false);
        continue;
      }
      // "@" and "$" between letters are leetspeak ("p@ssword"); elsewhere they end the word.
      if ((code === 0x40 || code === 0x24) && this.wordLength > 0 && isLetter(lower.charCodeAt(i + 1))) {
        this.push(code, false);
        continue;
      }
      if (code === 0x27 && this.wordLength > 0 && isLetter(lower.charCodeAt(i + 1))) continue; // "you're"
      this.endWord();
      if (isSentenceEnd(code)) this.endSentence();
    }
    if (!this.stopped) {
      this.endWord();
      this.flushSpaced();
      this.closeWindow();
    }
    this.onWindow = null;
    return this;
  }

  private push(code: number, letter: boolean): void {
    if (this.wordLength === MAX_WORD) this.endWord();
    this.word[this.wordLength++] = code;
    if (letter) this.wordHasLetter = true;
  }

  private endWord(): void {
    const length = this.wordLength;
    if (length === 0) return;
    this.wordLength = 0;
    const hasLetter = this.wordHasLetter;
    this.wordHasLetter = false;
    if (hasLetter) {
      for (let i = 0; i < length; i += 1) {
        const code = this.word[i] as number;
        if (code < 97) {
          const letter = leetLetterCode(code);
          if (letter >= 0) this.word[i] = letter;
        }
      }
    }
    if (length === 1 && hasLetter) {
      if (this.spacedLength < MAX_WORD) this.spaced[this.spacedLength++] = this.word[0] as number;
      return;
    }
    this.flushSpaced();
    this.emitWord(this.word, length);
  }

  /** A run of single letters: one word if long enough ("i g n o r e"), else each letter alone. */
  private flushSpaced(): void {
    const length = this.spacedLength;
    if (length === 0) return;
    this.spacedLength = 0;
    if (length >= MIN_SPACED_LETTERS) {
      this.emitWord(this.spaced, length);
      return;
    }
    const letter = this.letter;
    for (let i = 0; i < length; i += 1) {
      letter[0] = this.spaced[i] as number;
      this.emitWord(letter, 1);
    }
  }

  private emitWord(word: Uint16Array, length: number): void {
    if (this.count + 2 * length + 8 > this.buckets.length) this.grow();
    const out = this.buckets;
    let n = this.count;
    // "^word$", for the character n-grams.
    const padded = this.padded;
    padded[0] = START;
    let hash = FNV_OFFSET;
    let plain = FNV_OFFSET;
    let pair = Math.imul(this.previousPlain ^ SPACE, FNV_PRIME);
    const prefixes = this.prefixes;
    for (let i = 0; i < length; i += 1) {
      const code = word[i] as number;
      padded[i + 1] = code;
      hash = Math.imul(hash ^ code, FNV_PRIME);
      const letter = plainCode(code);
      plain = Math.imul(plain ^ letter, FNV_PRIME);
      pair = Math.imul(pair ^ letter, FNV_PRIME);
      prefixes[i] = plain;
    }
    this.previousPlain = plain;
    padded[length + 1] = END;
    const stamp = this.stamp;
    const counted = this.countedIn;
    let bucket = bucketOf(hash, UNIGRAM);
    if (counted[bucket] !== stamp) {
      counted[bucket] = stamp;
      out[n++] = bucket;
    }
    bucket = bucketOf(Math.imul(this.previousWord ^ hash, FNV_PRIME), BIGRAM);
    if (counted[bucket] !== stamp) {
      counted[bucket] = stamp;
      out[n++] = bucket;
    }
    this.previousWord = hash;
    const last = length + 2;
    for (let i = 0; i + 3 <= last; i += 1) {
      let gram = Math.imul(FNV_OFFSET ^ (padded[i] as number), FNV_PRIME);
      gram = Math.imul(gram ^ (padded[i + 1] as number), FNV_PRIME);
      gram = Math.imul(gram ^ (padded[i + 2] as number), FNV_PRIME);
      bucket = bucketOf(gram, TRIGRAM);
      if (counted[bucket] !== stamp) {
        counted[bucket] = stamp;
        out[n++] = bucket;
      }
      if (i + 4 > last) continue;
      bucket = bucketOf(Math.imul(gram ^ (padded[i + 3] as number), FNV_PRIME), FOURGRAM);
      if (counted[bucket] !== stamp) {
        counted[bucket] = stamp;
        out[n++] = bucket;
      }
    }
    this.count = n;
    this.emitClasses(hash, pair, length);
    this.windowWords += 1;
    if (this.windowWords >= MAX_WINDOW_WORDS) this.closeWindow();
  }

  /**
   * The word's classes: each class alone, each after the classes of the CLASS_REACH words before it,
   * and the classes of the word just before it with this word.
   */
  private emitClasses(hash: number, pair: number, length: number): void {
    const table = WORD_CLASS_TABLE;
    const word = (this.wordNumber += 1);
    const recentClass = this.recentClass;
    const recentWord = this.recentWord;
    let recent = this.recentCount;
    for (let r = recent - 1; r >= 0 && (recentWord[r] as number) === word - 1; r -= 1) {
      this.add(bucketOf(Math.imul((recentClass[r] as number) ^ hash, FNV_PRIME), CLASS_NEXT_WORD));
    }
    const found = table.find(pair, this.prefixes, length);
    if (found < 0) return;
    const end = table.end(found);
    for (let k = table.start(found); k < end; k += 1) {
      const cls = table.classAt(k);
      this.add(bucketOf(cls, CLASS_UNIGRAM));
      for (let r = recent - 1; r >= 0 && word - (recentWord[r] as number) <= CLASS_REACH; r -= 1) {
        if ((recentWord[r] as number) === word) continue;
        this.add(bucketOf(Math.imul((recentClass[r] as number) ^ cls, FNV_PRIME), CLASS_BIGRAM));
      }
      if (recent === RECENT_CLASSES) {
        recentClass.copyWithin(0, 1);
        recentWord.copyWithin(0, 1);
        recent -= 1;
      }
      recentClass[recent] = Math.imul(cls + 1, 0x9e3779b1);
      recentWord[recent] = word;
      recent += 1;
    }
    this.recentCount = recent;
  }

  private add(bucket: number): void {
    if (this.countedIn[bucket] === this.stamp) return;
    this.countedIn[bucket] = this.stamp;
    if (this.count === this.buckets.length) this.grow();
    this.buckets[this.count++] = bucket;
  }

  private endSentence(): void {
    this.flushSpaced();
    if (this.windowWords >= WINDOW_WORDS) this.closeWindow();
  }

  private closeWindow(): void {
    const start = this.windowEnds.length === 0 ? 0 : (this.windowEnds[this.windowEnds.length - 1] as number);
    if (this.count > start) {
      this.windowEnds.push(this.count);
      if (this.onWindow?.(start, this.count)) this.stopped = true;
    }
    this.stamp = this.nextWindowStamp();
    this.windowWords = 0;
    this.previousWord = FNV_OFFSET;
    this.previousPlain = FNV_OFFSET;
    this.recentCount = 0;
  }

  private grow(): void {
    const larger = new Int32Array(this.buckets.length * 2);
    larger.set(this.buckets.subarray(0, this.count));
    this.buckets = larger;
  }
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}
