import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CHUNK_MAX_CHARS, CHUNK_OVERLAP_CHARS, chunkText } from '../../src/domain/chunking.ts';

/** A paragraph of `count` numbered sentences of about 60 characters, distinct per paragraph. */
const paragraph = (label: string, count: number) =>
  Array.from({ length: count }, (_, i) => `Sentence ${i + 1} of paragraph ${label} says something about a career.`).join(' ');

const sentencesOf = (text: string) => text.split(/(?<=\.)\s+/).filter(Boolean);

describe('chunking the context', () => {
  it('keeps a short context as one chunk', () => {
    const chunks = chunkText('  Ada wrote the first algorithm.\n\nShe worked with Babbage.  ');
    expect(chunks.map((chunk) => chunk.text)).toEqual(['Ada wrote the first algorithm.\n\nShe worked with Babbage.']);
  });

  it('gives nothing for a blank context', () => {
    expect(chunkText(' \n\n \n')).toEqual([]);
  });

  it('cuts at paragraph boundaries when that keeps chunks at least half full', () => {
    const paragraphs = ['A', 'B', 'C', 'D'].map((label) => paragraph(label, 10)); // about 700 characters each
    const chunks = chunkText(paragraphs.join('\n\n'));
    expect(chunks[0]!.text).toBe(paragraphs[0]);
    for (const chunk of chunks) {
      const body = chunk.text.split('\n\n').at(-1)!;
      expect(paragraphs.some((p) => p.endsWith(body))).toBe(true); // every chunk ends where a paragraph ends
    }
  });

  it('cuts long paragraphs between sentences, never inside one, within the size limit', () => {
    const text = [paragraph('A', 40), paragraph('B', 25)].join('\n\n');
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(3);
    const sentences = new Set(sentencesOf(text.replace(/\n\n/g, ' ')));
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      for (const sentence of sentencesOf(chunk.text.replace(/\n\n/g, ' '))) expect(sentences.has(sentence)).toBe(true);
    }
  });

  it('ends a sentence after its closing quotes and brackets, and survives runs of them with no sentence at all', () => {
    const sentence = (i: number) => `Sentence ${i} ends with a quote "like this${'.'}" `;
    const text = Array.from({ length: 60 }, (_, i) => sentence(i)).join('').trim();
    for (const chunk of chunkText(text)) {
      expect(chunk.text.startsWith('Sentence')).toBe(true);
      expect(chunk.text.endsWith('."')).toBe(true);
    }
    for (const run of [']'.repeat(50_000), "'".repeat(50_000), `.${')'.repeat(49_999)}`]) {
      expect(chunkText(run).map((chunk) => chunk.text.length).every((length) => length <= CHUNK_MAX_CHARS)).toBe(true);
    }
  });

  it('repeats the end of each chunk at the start of the next, up to the overlap size', () => {
    const chunks = chunkText(paragraph('A', 60));
    for (let i = 1; i < chunks.length; i += 1) {
      const previous = sentencesOf(chunks[i - 1]!.text);
      const current = sentencesOf(chunks[i]!.text);
      const shared = previous.filter((sentence) => current.includes(sentence));
      expect(shared.length).toBeGreaterThan(0);
      expect(current.slice(0, shared.length)).toEqual(previous.slice(-shared.length));
      expect(shared.join(' ').length).toBeLessThanOrEqual(CHUNK_OVERLAP_CHARS);
    }
  });

  it('covers every sentence of the context', () => {
    const text = ['A', 'B', 'C'].map((label) => paragraph(label, 23)).join('\n\n');
    const covered = new Set(chunkText(text).flatMap((chunk) => sentencesOf(chunk.text.replace(/\n\n/g, ' '))));
    for (const sentence of sentencesOf(text.replace(/\n\n/g, ' '))) expect(covered.has(sentence)).toBe(true);
  });

  it('treats line breaks as boundaries, keeping lists intact', () => {
    const list = Array.from({ length: 40 }, (_, i) => `- Project ${i + 1}: built a distributed system in Rust`).join('\n');
    const chunks = chunkText(list);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      for (const line of chunk.text.split('\n')) expect(line).toMatch(/^- Project \d+: built a distributed system in Rust$/);
    }
  });

  it('cuts a sentence longer than a chunk between words, and a huge word anywhere but inside a character', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const emoji = '😀'.repeat(1_500);
    const chunks = chunkText(`${words}\n\n${emoji}`);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
      expect(chunk.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
    const wordsSeen = new Set(chunks.flatMap((chunk) => chunk.text.split(/\s+/)));
    for (let i = 0; i < 400; i += 1) expect(wordsSeen.has(`word${i}`)).toBe(true);
    expect(chunks.map((chunk) => chunk.text).join('')).toContain('😀'.repeat(400));
  });

  it('hashes each chunk as the SHA-256 of its text, the same on every run', () => {
    const text = ['A', 'B', 'C'].map((label) => paragraph(label, 12)).join('\n\n');
    const chunks = chunkText(text);
    expect(chunkText(text)).toEqual(chunks);
    for (const chunk of chunks) expect(chunk.hash).toBe(createHash('sha256').update(chunk.text).digest('hex'));
  });

  it('keeps the hashes of untouched chunks when one paragraph changes', () => {
    const paragraphs = ['A', 'B', 'C', 'D', 'E'].map((label) => paragraph(label, 10));
    const before = chunkText(paragraphs.join('\n\n'));
    const after = chunkText([...paragraphs.slice(0, 4), paragraph('Z', 10)].join('\n\n'));
    const unchanged = after.filter((chunk) => before.some((old) => old.hash === chunk.hash));
    expect(unchanged.length).toBeGreaterThanOrEqual(before.length - 2);
    expect(after.some((chunk) => chunk.text.includes('paragraph Z'))).toBe(true);
    expect(after.some((chunk) => chunk.text.includes('paragraph E'))).toBe(false);
  });

  it('handles a 50,000-character context', () => {
    let text = '';
    for (let i = 0; text.length < 50_000; i += 1) text += `${paragraph(String(i), 8)}\n\n`;
    text = text.slice(0, 50_000);
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(50);
    expect(chunks.length).toBeLessThan(120);
    for (const chunk of chunks) expect(chunk.text.length).toBeLessThanOrEqual(CHUNK_MAX_CHARS);
  });
});
