import { createHash } from 'node:crypto';

/**
 * The bot's context text, cut into overlapping chunks for retrieval. Cuts fall on paragraph
 * boundaries where that keeps a chunk at least half full, else between sentences (or
 * lines); only a sentence longer than a whole chunk is cut between words. Each chunk
 * repeats the last sentences of the previous one, up to `overlapChars`.
 */

export const CHUNK_MAX_CHARS = 1_000;
export const CHUNK_OVERLAP_CHARS = 200;

export interface Chunk {
  text: string;
  /** Hex SHA-256 of the text: the same text always has the same hash, wherever it occurs. */
  hash: string;
}

/** A sentence (or a line, or a piece of an over-long sentence) and what separates it from the one before. */
interface Unit {
  text: string;
  separator: '\n\n' | '\n' | ' ';
}

/**
 * Sentence-ending punctuation, any closing quotes or brackets, then whitespace. A match can
 * only start at the punctuation, so the scan stays linear (a lookbehind over the quote run
 * was quadratic on a long run of quotes).
 */
const SENTENCE_END = /([.!?…]['"”’)\]]*)\s+/gu;

/** The line cut after each sentence end; the whitespace between sentences is dropped. */
const splitSentences = (line: string): string[] => {
  const sentences: string[] = [];
  let start = 0;
  for (const match of line.matchAll(SENTENCE_END)) {
    const end = match.index + match[1]!.length;
    sentences.push(line.slice(start, end));
    start = match.index + match[0].length;
  }
  sentences.push(line.slice(start));
  return sentences;
};

/** As many whole code points as fit in `maxChars` UTF-16 units (at least one). */
const leadingCodePoints = (word: string, maxChars: number): string => {
  let head = '';
  for (const codePoint of word) {
    if (head && head.length + codePoint.length > maxChars) break;
    head += codePoint;
    if (head.length >= maxChars) break;
  }
  return head;
};

/** Cuts text longer than `maxChars` between words, and a word longer than that anywhere. */
const piecesOf = (sentence: string, maxChars: number): string[] => {
  if (sentence.length <= maxChars) return [sentence];
  const pieces: string[] = [];
  let current = '';
  for (const word of sentence.split(/\s+/)) {
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= maxChars) {
      current = candidate;
      continue;
    }
    if (current) pieces.push(current);
    current = word;
    while (current.length > maxChars) {
      const head = leadingCodePoints(current, maxChars);
      pieces.push(head);
      current = current.slice(head.length);
    }
  }
  if (current) pieces.push(current);
  return pieces;
};

const unitsOf = (text: string, maxChars: number): Unit[] => {
  const units: Unit[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/)) {
    let paragraphStarted = false;
    for (const line of paragraph.split('\n')) {
      const pieces = splitSentences(line.trim())
        .flatMap((sentence) => piecesOf(sentence.trim(), maxChars))
        .filter(Boolean);
      for (const [i, piece] of pieces.entries()) {
        units.push({ text: piece, separator: !paragraphStarted ? '\n\n' : i === 0 ? '\n' : ' ' });
        paragraphStarted = true;
      }
    }
  }
  return units;
};

const sizeOf = (units: Unit[], from: number, to: number) => {
  let size = units[from]!.text.length;
  for (let i = from + 1; i <= to; i += 1) size += units[i]!.separator.length + units[i]!.text.length;
  return size;
};

const join = (units: Unit[], from: number, to: number) => {
  let text = units[from]!.text;
  for (let i = from + 1; i <= to; i += 1) text += units[i]!.separator + units[i]!.text;
  return text;
};

/** The last unit of the chunk that starts at `start`. */
const chunkEnd = (units: Unit[], start: number, maxChars: number): number => {
  let end = start;
  let size = units[start]!.text.length;
  while (end + 1 < units.length) {
    const next = units[end + 1]!;
    if (size + next.separator.length + next.text.length > maxChars) break;
    end += 1;
    size += next.separator.length + next.text.length;
  }
  if (end + 1 >= units.length || units[end + 1]!.separator === '\n\n') return end;
  for (let p = end; p > start; p -= 1) {
    if (units[p]!.separator === '\n\n') return sizeOf(units, start, p - 1) >= maxChars / 2 ? p - 1 : end;
  }
  return end;
};

/** Where the next chunk starts: the last units of this one that fit in the overlap. */
const nextStart = (units: Unit[], start: number, end: number, overlapChars: number): number => {
  let from = end + 1;
  while (from - 1 > start && sizeOf(units, from - 1, end) <= overlapChars) from -= 1;
  return from;
};

const chunkHash = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export const chunkText = (
  text: string,
  options: { maxChars?: number; overlapChars?: number } = {},
): Chunk[] => {
  const maxChars = options.maxChars ?? CHUNK_MAX_CHARS;
  const overlapChars = options.overlapChars ?? CHUNK_OVERLAP_CHARS;
  const units = unitsOf(text, maxChars);
  const chunks: Chunk[] = [];
  let start = 0;
  while (start < units.length) {
    const end = chunkEnd(units, start, maxChars);
    const chunk = join(units, start, end);
    chunks.push({ text: chunk, hash: chunkHash(chunk) });
    if (end === units.length - 1) break;
    start = nextStart(units, start, end, overlapChars);
  }
  return chunks;
};
