import { describe, expect, it } from 'vitest';
import { makeAuthenticateBotToken } from '../../src/application/authenticate-bot-token.ts';
import { makeListBotTokens, makeMintBotToken, makeRevokeBotToken } from '../../src/application/bot-tokens.ts';
import { hashBotToken } from '../../src/domain/bot-token.ts';
import { runtimeFixture, type RuntimeFixture } from '../support/runtime-fixture.ts';

const DAY_MS = 86_400_000;

const useCases = (f: RuntimeFixture) => {
  const deps = { bots: f.repos.bots, tokens: f.repos.tokens, clock: f.clock };
  return {
    mint: makeMintBotToken(deps),
    list: makeListBotTokens(deps),
    revoke: makeRevokeBotToken(deps),
    authenticate: makeAuthenticateBotToken(deps),
  };
};

const minted = async (f: RuntimeFixture, input: { name: string; expiresInDays?: number } = { name: 'Site' }) => {
  const result = await useCases(f).mint(f.owner.id, input);
  if (!result.ok) throw new Error('mint failed');
  return result.value;
};

describe('owner bot tokens', () => {
  it('mints a token shown once, keeping only its hash and last four characters', async () => {
    const f = await runtimeFixture();
    const { token, info } = await minted(f, { name: 'Portfolio', expiresInDays: 30 });
    expect(token).toMatch(/^cbt_[0-9a-f]{64}$/);
    expect(info).toEqual({
      id: expect.any(String),
      botId: f.bot.id,
      name: 'Portfolio',
      lastFour: token.slice(-4),
      createdAt: f.clock.now(),
      expiresAt: new Date(f.clock.now().getTime() + 30 * DAY_MS),
      lastUsedAt: null,
      revokedAt: null,
    });
    expect(await f.repos.tokens.findUsable(hashBotToken(token), f.clock.now())).toEqual({ tokenId: info.id, bot: f.bot });
    expect(JSON.stringify(await f.repos.tokens.listForBot(f.bot.id))).not.toContain(token.slice(4, -4));
  });

  it('mints a token without expiry when no days are given', async () => {
    const f = await runtimeFixture();
    expect((await minted(f)).info.expiresAt).toBeNull();
  });

  it('lists the bot’s tokens, revoked ones included', async () => {
    const f = await runtimeFixture();
    const first = await minted(f, { name: 'One' });
    f.clock.advance(1000);
    const second = await minted(f, { name: 'Two' });
    await useCases(f).revoke(f.owner.id, first.info.id);
    const listed = await useCases(f).list(f.owner.id);
    expect(listed.ok && listed.value.map((token) => [token.name, token.revokedAt])).toEqual([
      ['Two', null],
      ['One', f.clock.now()],
    ]);
    expect(second.info.id).not.toBe(first.info.id);
  });

  it('answers bot_not_found to every operation before the first bot save', async () => {
    const f = await runtimeFixture();
    const stranger = await f.repos.users.create({ username: 'bob', email: 'bob@example.com', passwordHash: 'h' }, f.clock.now());
    if (stranger === 'duplicate') throw new Error('unexpected');
    const { mint, list, revoke } = useCases(f);
    expect(await mint(stranger.id, { name: 'x' })).toEqual({ ok: false, error: { type: 'bot_not_found' } });
    expect(await list(stranger.id)).toEqual({ ok: false, error: { type: 'bot_not_found' } });
    expect(await revoke(stranger.id, crypto.randomUUID())).toEqual({ ok: false, error: { type: 'bot_not_found' } });
  });

  it('refuses to revoke an unknown token or another owner’s token', async () => {
    const f = await runtimeFixture();
    const other = await f.repos.users.create({ username: 'bob', email: 'bob@example.com', passwordHash: 'h' }, f.clock.now());
    if (other === 'duplicate') throw new Error('unexpected');
    await f.repos.bots.upsertForUser(
      other.id,
      { name: 'Bob', headline: null, personality: 'creative', contextText: 'Bob.', suggestedQuestions: [] },
      [],
      f.clock.now(),
    );
    const { token, info } = await minted(f);
    const { revoke, authenticate } = useCases(f);
    expect(await revoke(other.id, info.id)).toEqual({ ok: false, error: { type: 'token_not_found' } });
    expect(await revoke(f.owner.id, crypto.randomUUID())).toEqual({ ok: false, error: { type: 'token_not_found' } });
    expect((await authenticate(token)).ok).toBe(true);
  });
});

describe('bot token authentication', () => {
  it('resolves a valid token to its bot', async () => {
    const f = await runtimeFixture();
    const { token, info } = await minted(f);
    expect(await useCases(f).authenticate(token)).toEqual({ ok: true, value: { bot: f.bot, tokenId: info.id } });
  });

  it('answers missing_bot_token without a well-formed bot token', async () => {
    const f = await runtimeFixture();
    const { token } = await minted(f);
    // None presented, or something that is not shaped like a bot token: no token at all.
    for (const presented of [null, '', token.toUpperCase(), token.slice(0, -2), token.slice(4), 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789']) {
      expect(await useCases(f).authenticate(presented)).toEqual({ ok: false, error: { type: 'missing_bot_token' } });
    }
  });

  it('answers invalid_bot_token for an unknown, a revoked and an expired token', async () => {
    const f = await runtimeFixture();
    const { authenticate, revoke } = useCases(f);
    expect(await authenticate(`cbt_${'a'.repeat(64)}`)).toEqual({ ok: false, error: { type: 'invalid_bot_token' } });

    const revoked = await minted(f);
    expect((await authenticate(revoked.token)).ok).toBe(true);
    await revoke(f.owner.id, revoked.info.id);
    expect(await authenticate(revoked.token)).toEqual({ ok: false, error: { type: 'invalid_bot_token' } });

    const expiring = await minted(f, { name: 'Short', expiresInDays: 1 });
    f.clock.advance(DAY_MS - 1);
    expect((await authenticate(expiring.token)).ok).toBe(true);
    f.clock.advance(1);
    expect(await authenticate(expiring.token)).toEqual({ ok: false, error: { type: 'invalid_bot_token' } });
  });

  it('resolves the token of an inactive bot: each endpoint decides what it gets', async () => {
    const f = await runtimeFixture();
    const { token } = await minted(f);
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false }, f.clock.now());
    const result = await useCases(f).authenticate(token);
    expect(result.ok && result.value.bot.isActive).toBe(false);
  });

  it('records the last use at most once a minute', async () => {
    const f = await runtimeFixture();
    const { token, info } = await minted(f);
    const lastUsedAt = async () => (await f.repos.tokens.listForBot(f.bot.id)).find((t) => t.id === info.id)!.lastUsedAt;
    const start = f.clock.now();
    await useCases(f).authenticate(token);
    expect(await lastUsedAt()).toEqual(start);
    f.clock.advance(30_000);
    await useCases(f).authenticate(token);
    expect(await lastUsedAt()).toEqual(start);
    f.clock.advance(31_000);
    await useCases(f).authenticate(token);
    expect(await lastUsedAt()).toEqual(f.clock.now());
  });
});
