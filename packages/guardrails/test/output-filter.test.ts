import { describe, expect, it } from 'vitest';
import { createReplyCleaner, FALLBACK_REPLY, REMOVED } from '../src/index.ts';

const { sanitizeReply } = createReplyCleaner();
import { SYSTEM_PROMPT_RULES, buildSystemPrompt } from '@careerbot/prompt';

const contextText = [
  'Ana Silva is a backend engineer who built the payments ledger at Monzo (2019-2023).',
  'Public contact: ana@silva.dev or +44 20 7946 0958.',
].join('\n');
const systemPrompt = buildSystemPrompt({
  name: 'Ana Silva',
  headline: 'Backend engineer building payments and ledgers at fintech scale',
  personality: 'professional',
  contextText,
});
const callerKey = 'sk-caller-visitor-own-key-0123456789';
const sanitize = (reply: string) => sanitizeReply(reply, { systemPrompt, contextText, callerKey });

describe('sanitizeReply: key-shaped strings', () => {
  it.each([
    ['an OpenAI key', 'sk-abcdefghijklmnopqrstuvwxyz012345'],
    ['an OpenAI project key', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz_0123456789'],
    ['an Anthropic key', 'sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx-0123456789'],
    ['a Google key', 'AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q'],
    ['a bot token', `cbt_${'0123456789abcdef'.repeat(4)}`],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
  ])('removes %s', (_name, key) => {
    expect(sanitize(`Sure, it is ${key} if you need it.`)).toBe(`Sure, it is ${REMOVED} if you need it.`);
  });

  it('removes a bearer token with the word Bearer', () => {
    expect(sanitize('Send the header Authorization: Bearer 9f8e7d6c5b4a3921 with each call.')).toBe(
      `Send the header Authorization: ${REMOVED} with each call.`,
    );
  });

  it('keeps the word bearer in ordinary prose', () => {
    const reply = 'She was the bearer of good news when the migration finished early.';
    expect(sanitize(reply)).toBe(reply);
  });

  it('keeps "sk-learn", which is a library and not a key', () => {
    const reply = 'She has used sk-learn and PyTorch for the fraud models.';
    expect(sanitize(reply)).toBe(reply);
  });

  it("removes the caller's own key verbatim, whatever its shape", () => {
    const key = 'vendor-key:Zx9!custom';
    const reply = `Your key ${key} is not needed to chat with me about her projects.`;
    expect(sanitizeReply(reply, { systemPrompt, contextText, callerKey: key })).toBe(
      `Your key ${REMOVED} is not needed to chat with me about her projects.`,
    );
  });
});

describe('sanitizeReply: 32-hex strings', () => {
  const hex = '0123456789abcdef0123456789abcdef';

  it('removes a 32-hex string next to the word key (an Azure key)', () => {
    expect(sanitize(`The Azure subscription key is ${hex}, by the way.`)).toBe(
      `The Azure subscription key is ${REMOVED}, by the way.`,
    );
  });

  it('keeps a 32-hex string with no such word nearby', () => {
    const reply = `The reproducible build she set up always produces digest ${hex} for the same input.`;
    expect(sanitize(reply)).toBe(reply);
  });

  it('keeps a commit hash', () => {
    const reply = 'She fixed the rounding bug in commit 4f2a9c0e1b7d3a5f8e6c2b1a0d9f8e7c6b5a4d3e last spring.';
    expect(sanitize(reply)).toBe(reply);
  });
});

describe('sanitizeReply: personal data', () => {
  it('keeps an e-mail address that appears in the context', () => {
    const reply = 'You can reach her at ana@silva.dev.';
    expect(sanitize(reply)).toBe(reply);
  });

  it('removes an e-mail address that the context does not contain', () => {
    expect(sanitize('Her private address is ana.silva.private@gmail.com, but use the public one.')).toBe(
      `Her private address is ${REMOVED}, but use the public one.`,
    );
  });

  it('keeps a phone number that appears in the context, however it is spaced', () => {
    const reply = 'Her public number is +44 (20) 7946-0958.';
    expect(sanitize(reply)).toBe(reply);
  });

  it('removes a phone number that the context does not contain', () => {
    expect(sanitize('Her mobile is 07700 900123 if you need it.')).toBe(`Her mobile is ${REMOVED} if you need it.`);
  });

  it('keeps years, date ranges and dates', () => {
    const reply = 'She was at Monzo 2019-2023 and is available from 2024-10-21.';
    expect(sanitize(reply)).toBe(reply);
  });

  it('removes a card number that passes the Luhn check', () => {
    expect(sanitize('She paid with 4111 1111 1111 1111 at the conference.')).toBe(
      `She paid with ${REMOVED} at the conference.`,
    );
  });

  it('keeps a long number that fails the Luhn check', () => {
    const reply = 'Her ORCID-style reference is 1234 5678 9012 3456 in the paper.';
    expect(sanitize(reply)).toBe(reply);
  });
});

describe('sanitizeReply: stack traces and internal errors', () => {
  it('removes a Node.js stack trace and keeps the rest', () => {
    const reply = [
      'She knows PostgreSQL well.',
      'Error: connect ECONNREFUSED 127.0.0.1:5432',
      '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
      '    at handler (/app/src/chat.js:12:3)',
      'She tuned its vacuum settings at Monzo.',
    ].join('\n');
    expect(sanitize(reply)).toBe(`She knows PostgreSQL well.\n${REMOVED}\nShe tuned its vacuum settings at Monzo.`);
  });

  it('removes a Python traceback', () => {
    const reply = [
      'Here is what I know about her Python work.',
      'Traceback (most recent call last):',
      '  File "/srv/app/main.py", line 3, in <module>',
      'ZeroDivisionError: division by zero',
    ].join('\n');
    expect(sanitize(reply)).toBe(`Here is what I know about her Python work.\n${REMOVED}`);
  });

  it('removes TypeError lines', () => {
    expect(sanitize("She writes TypeScript daily.\nTypeError: Cannot read properties of undefined (reading 'x')")).toBe(
      `She writes TypeScript daily.\n${REMOVED}`,
    );
  });
});

describe('sanitizeReply: echoes of the system prompt', () => {
  it('removes a sentence that repeats one of the fixed rules', () => {
    const rule = SYSTEM_PROMPT_RULES[2] as string;
    expect(sanitize(`${rule} Anyway, she led the ledger rewrite.`)).toBe(`${REMOVED} Anyway, she led the ledger rewrite.`);
  });

  it('removes a long verbatim run of the instructions', () => {
    const run = 'Treat it as follows: only answer questions about the owner\'s career, experience, skills, projects.';
    expect(sanitize(`${run} She is great.`)).not.toContain("owner's career, experience, skills");
  });

  it("keeps replies that repeat the owner's context", () => {
    const reply = 'Ana Silva is a backend engineer who built the payments ledger at Monzo (2019-2023).';
    expect(sanitize(reply)).toBe(reply);
  });

  it('keeps the headline, which is public', () => {
    const reply = 'In short, she is a backend engineer building payments and ledgers at fintech scale.';
    expect(sanitize(reply)).toBe(reply);
  });
});

describe('sanitizeReply: never empty', () => {
  it.each([
    ['an empty reply', ''],
    ['a whitespace-only reply', '  \n\t '],
    ['a reply that is only a key', 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123'],
    ['a reply that is only an echo of the rules', SYSTEM_PROMPT_RULES.join(' ')],
    ['a reply with almost nothing left', 'Sure: sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123'],
  ])('returns the fallback for %s', (_name, reply) => {
    expect(sanitize(reply)).toBe(FALLBACK_REPLY);
  });

  it('is a polite, non-empty sentence', () => {
    expect(FALLBACK_REPLY.trim().length).toBeGreaterThan(20);
  });

  it('returns a clean reply unchanged', () => {
    const reply = 'She has eight years of backend experience, mostly Go and PostgreSQL.';
    expect(sanitize(reply)).toBe(reply);
  });

  it('tidies the whitespace left by a removal', () => {
    expect(sanitize('Her key   sk-abcdefghijklmnopqrstuvwxyz012345 , is private, but her Go skills are not.')).toBe(
      `Her key ${REMOVED}, is private, but her Go skills are not.`,
    );
  });
});
