import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerToken, hashBotToken, isBotToken, lastFourOf, newBotToken } from '../../src/domain/bot-token.ts';

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

describe('bearer parsing', () => {
  it.each([
    [`Bearer ${TOKEN}`],
    [`bearer ${TOKEN}`],
    [`BEARER ${TOKEN}`],
    [`BeArEr ${TOKEN}`],
    [`  Bearer   ${TOKEN}  `],
    [`Bearer\t${TOKEN}`],
  ])('takes the token from %j (the scheme is case-insensitive)', (header) => {
    expect(bearerToken(header)).toBe(TOKEN);
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['the scheme alone', 'Bearer'],
    ['the token alone', TOKEN],
    ['another scheme', `Basic ${TOKEN}`],
    ['upper-case hex', `Bearer cbt_${'0123456789ABCDEF'.repeat(4)}`],
    ['a short token', `Bearer ${TOKEN.slice(0, -2)}`],
    ['a token without its prefix', `Bearer ${TOKEN.slice(4)}`],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
    ['an OpenAI key', 'Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123456789'],
  ])('finds no token in %s', (_label, header) => {
    expect(bearerToken(header)).toBeNull();
  });
});
