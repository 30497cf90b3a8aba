import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashBotToken, isBotToken, lastFourOf, newBotToken } from '../../src/domain/bot-token.ts';

const TOKEN = `cbt_${'0123456789abcdef'.repeat(4)}`;

describe('bot token format', () => {
  it('mints cbt_ + 64 lower-case hex characters, different every time', () => {
    const tokens = Array.from({ length: 50 }, newBotToken);
    for (const token of tokens) expect(token).toMatch(/^cbt_[0-9a-f]{64}$/);
    expect(new Set(tokens).size).toBe(50);
  });

  it('stores the hex SHA-256 of the whole token and shows its last four characters', () => {
    expect(hashBotToken(TOKEN)).toBe(createHash('sha256').update(TOKEN).digest('hex'));
    expect(hashBotToken(TOKEN)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashBotToken(TOKEN)).not.toBe(hashBotToken(TOKEN.replace(/f$/, 'e')));
    expect(lastFourOf(TOKEN)).toBe('cdef');
  });

  it.each([
    ['lower-case hex', TOKEN, true],
    ['upper-case hex', TOKEN.toUpperCase().replace('CBT_', 'cbt_'), false],
    ['another prefix', TOKEN.replace('cbt_', 'cbx_'), false],
    ['63 hex characters', TOKEN.slice(0, -1), false],
    ['65 hex characters', `${TOKEN}0`, false],
    ['a non-hex character', TOKEN.replace(/0/, 'g'), false],
  ])('recognises a token with %s: %s', (_label, token, expected) => {
    expect(isBotToken(token)).toBe(expected);
  });
});
