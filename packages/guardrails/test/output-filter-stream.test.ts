import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, instructionsPart } from '@careerbot/prompt';
import { createReplyCleaner, REMOVED, type ReplyContext } from '../src/index.ts';
import { mulberry32 as random } from '../scripts/support/random.ts';

/**
 * The streaming cleaner's property: whatever the reply and wherever it is cut into chunks, the
 * deltas joined equal `done.reply`, which equals `sanitizeReply` of the whole reply; so the stream
 * never sends a character the whole-reply cleaner would remove.
 */
const contextText = 'Ana Silva built the payments ledger at Monzo.\nPublic contact: ana@silva.dev or +44 20 7946 0958.';
const systemPrompt = buildSystemPrompt({
  name: 'Ana Silva',
  headline: 'Backend engineer',
  personality: 'professional',
  contextText,
});
const callerKey = 'sk-caller-visitor-own-key-0123456789';
const context: ReplyContext = { systemPrompt, contextText, callerKey };
const cleaner = createReplyCleaner();


const promptSentences = instructionsPart(systemPrompt, contextText)
  .split(/(?<=[.!?])\s+|\n/)
  .filter((sentence) => sentence.split(/\s+/).length >= 9);

const FRAGMENTS: readonly string[] = [
  'She led the ledger migration.',
  'Her team shipped weekly',
  'She knows PostgreSQL well!',
  'Ask me anything about her projects?',
  '- **Go** and TypeScript',
  '1. Payments at [Monzo](https://monzo.com)',
  '`SELECT 1`',
  '```\ncode block\n```',
  callerKey,
  'sk-abcdefghijklmnopqrstuvwxyz012345',
  'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-0123456789',
  'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q',
  `cbt_${'0123456789abcdef'.repeat(4)}`,
  'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  'Authorization: Bearer',
  'Bearer 9f8e7d6c5b4a3921',
  '0123456789abcdef0123456789abcdef',
  'the subscription key is',
  'commit 4f2a9c0e1b7d3a5f8e6c2b1a0d9f8e7c6b5a4d3e',
  'ana@silva.dev',
  'secret.person@example.com',
  'john@',
  'example.org',
  '+44 20 7946 0958',
  '+1 415 555 0199',
  '415 555 0199',
  '2019-2023',
  '4111 1111 1111 1111',
  '4111-1111-1111-1112',
  'Error: connect ECONNREFUSED 127.0.0.1:5432',
  '    at handler (/app/src/chat.js:12:3)',
  'at Monzo she grew',
  'Traceback (most recent call last):',
  '  File "/srv/app/main.py", line 3, in <module>',
  'ZeroDivisionError: division by zero',
  'the ECONNRESET bug was fixed',
  'node:internal',
  REMOVED,
  'e.g.',
  '1990.',
  ...promptSentences,
];
const SEPARATORS = [' ', ' ', ' ', '  ', '\n', '\n\n', '\n\n\n', '. ', '.', ', ', '', '\t', ' . '];

function generateReply(next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const parts: string[] = [];
  const count = 1 + Math.floor(next() * 14);
  for (let i = 0; i < count; i += 1) parts.push(pick(FRAGMENTS), pick(SEPARATORS));
  return parts.join('');
}

/** Cuts the reply at the given boundaries (positions in UTF-16 units). */
function chunksAt(reply: string, cuts: number[]): string[] {
  const sorted = [...new Set(cuts)].filter((cut) => cut > 0 && cut < reply.length).sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const cut of sorted) {
    chunks.push(reply.slice(start, cut));
    start = cut;
  }
  chunks.push(reply.slice(start));
  return chunks;
}

function streamed(chunks: string[]) {
  const stream = cleaner.stream(context);
  let joined = '';
  let maxHeldBack = 0;
  for (const chunk of chunks) {
    joined += stream.push(chunk);
    maxHeldBack = Math.max(maxHeldBack, stream.heldBack);
  }
  const done = stream.end();
  return { joined: joined + done.delta, reply: done.reply, maxHeldBack };
}

function expectProperty(reply: string, chunks: string[]) {
  const result = streamed(chunks);
  const whole = cleaner.sanitizeReply(reply, context);
  expect({ reply, chunks, streamed: result.joined }).toEqual({ reply, chunks, streamed: result.reply });
  expect({ reply, chunks, done: result.reply }).toEqual({ reply, chunks, done: whole });
  return result;
}

describe('the streaming reply cleaner', () => {
  it('over 3000 generated replies cut into random chunks and into single characters, sends exactly the whole-reply cleaning', () => {
    const next = random(22);
    for (let i = 0; i < 3000; i += 1) {
      const reply = generateReply(next);
      const cuts = Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * reply.length));
      expectProperty(reply, chunksAt(reply, cuts));
      expectProperty(reply, [...reply]);
    }
  });

  it('cut in two at every boundary, a reply with a split key, a split e-mail and a split prompt passage stays clean', () => {
    const reply = [
      'She led the ledger migration. Her key was',
      'sk-abcdefghijklmnopqrstuvwxyz012345 and you can mail secret.person@example.com today.',
      `Also: ${promptSentences[0]} The end is near.`,
      `Your key ${callerKey} is yours.`,
      'Bearer\n9f8e7d6c5b4a3921 and the subscription key is 0123456789abcdef0123456789abcdef!',
    ].join('\n');
    for (let cut = 1; cut < reply.length; cut += 1) {
      const { joined } = expectProperty(reply, [reply.slice(0, cut), reply.slice(cut)]);
      for (const secret of ['sk-abcdef', 'secret.person', 'example.com', callerKey, '9f8e7d6c', '0123456789abcdef0123']) {
        expect(joined).not.toContain(secret);
      }
    }
  });

  it('sends words before the reply ends, sentence by sentence', () => {
    const stream = cleaner.stream(context);
    const first = stream.push('She led the ledger migration at Monzo. Then she ');
    expect(first).toBe('She led the ledger migration at Monzo.');
    expect(stream.push('built the fraud models. ')).toBe(' Then she built the fraud models.');
    expect(stream.end()).toEqual({ delta: '', reply: 'She led the ledger migration at Monzo. Then she built the fraud models.' });
  });

  it('holds back a sentence that mentions an internal error until the sentence is whole', () => {
    const stream = cleaner.stream(context);
    expect(stream.push('She knows Postgres well. She once saw ')).toBe('She knows Postgres well.');
    expect(stream.push('ECONNRESET in production. She fixed it quickly and calmly.')).toBe('');
    expect(stream.end().reply).toBe(`She knows Postgres well. ${REMOVED} She fixed it quickly and calmly.`);
  });

  it('measures what it holds back over typical replies (characters and milliseconds)', () => {
    const next = random(7);
    const prose = FRAGMENTS.slice(0, 8);
    let heldTotal = 0;
    let heldMax = 0;
    let pushes = 0;
    const started = performance.now();
    for (let i = 0; i < 300; i += 1) {
      const reply = Array.from({ length: 30 }, () => prose[Math.floor(next() * prose.length)]).join(' ');
      const stream = cleaner.stream(context);
      for (let at = 0; at < reply.length; at += 4) {
        stream.push(reply.slice(at, at + 4));
        heldTotal += stream.heldBack;
        heldMax = Math.max(heldMax, stream.heldBack);
        pushes += 1;
      }
      stream.end();
    }
    const msPerPush = (performance.now() - started) / pushes;
    // At 4 characters a chunk (about one token), a provider writing 50 tokens a second.
    const heldMs = ((heldTotal / pushes) / 4) * 20;
    console.log(
      `streaming cleaner: holds back ${(heldTotal / pushes).toFixed(1)} characters on average (max ${heldMax}),` +
        ` about ${heldMs.toFixed(0)} ms at 50 tokens/s; ${(msPerPush * 1000).toFixed(1)} µs of work per chunk`,
    );
    expect(heldTotal / pushes).toBeLessThan(80);
  });
});
