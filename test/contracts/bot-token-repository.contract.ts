import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BotRepository, BotTokenRepository, NewBotToken } from '../../src/application/ports.ts';

export interface BotTokenRepositoryFixture {
  subject: BotTokenRepository;
  /** Two bots with no tokens yet. */
  botId: string;
  otherBotId: string;
  /** The same store's bots: a usable token brings its bot exactly as this reads it. */
  bots: BotRepository;
}

const NOW = new Date('2025-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);
const MINUTE_MS = 60_000;

const newToken = (botId: string, overrides: Partial<NewBotToken> = {}): NewBotToken => {
  const hash = randomBytes(32).toString('hex');
  return { botId, name: 'Widget', tokenHash: hash, lastFour: hash.slice(-4), expiresAt: null, ...overrides };
};

export const botTokenRepositoryContract = (makeSubject: () => Promise<BotTokenRepositoryFixture>) => {
  describe('BotTokenRepository contract', () => {
    it('creates a token and returns its info', async () => {
      const { subject, botId, bots } = await makeSubject();
      const expiresAt = later(30 * 86_400_000);
      const token = newToken(botId, { name: 'Portfolio site', lastFour: 'beef', expiresAt });
      const info = await subject.create(token, NOW);
      expect(info).toEqual({
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        botId,
        name: 'Portfolio site',
        lastFour: 'beef',
        createdAt: NOW,
        expiresAt,
        lastUsedAt: null,
        revokedAt: null,
      });
      expect(await subject.findUsable(token.tokenHash, NOW)).toEqual({ tokenId: info.id, bot: await bots.findById(botId) });
    });

    it('brings the token’s bot as it is now, inactive included', async () => {
      const { subject, botId, bots } = await makeSubject();
      const token = newToken(botId);
      const info = await subject.create(token, NOW);
      const changed = await bots.updateSettings(botId, { isActive: false, themeColor: '#123456' }, later(1000));
      expect(await subject.findUsable(token.tokenHash, later(2000))).toEqual({ tokenId: info.id, bot: changed });
      expect(changed).toMatchObject({ isActive: false, themeColor: '#123456' });
    });

    it('lists a bot’s tokens newest first, and only that bot’s', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      const first = await subject.create(newToken(botId), NOW);
      const third = await subject.create(newToken(botId), later(2000));
      const second = await subject.create(newToken(botId), later(1000));
      await subject.create(newToken(otherBotId), later(3000));
      expect(await subject.listForBot(botId)).toEqual([third, second, first]);
    });

    it('revokes once: revoking again is still true and keeps the first time', async () => {
      const { subject, botId } = await makeSubject();
      const token = newToken(botId);
      const info = await subject.create(token, NOW);
      expect(await subject.revoke(botId, info.id, later(1000))).toBe(true);
      expect(await subject.revoke(botId, info.id, later(5000))).toBe(true);
      expect(await subject.listForBot(botId)).toEqual([{ ...info, revokedAt: later(1000) }]);
      expect(await subject.findUsable(token.tokenHash, later(6000))).toBeNull();
    });

    it('refuses to revoke an unknown id, another bot’s token or a non-UUID id', async () => {
      const { subject, botId, otherBotId, bots } = await makeSubject();
      const otherToken = newToken(otherBotId);
      const other = await subject.create(otherToken, NOW);
      expect(await subject.revoke(botId, randomUUID(), NOW)).toBe(false);
      expect(await subject.revoke(botId, other.id, NOW)).toBe(false);
      expect(await subject.revoke(botId, 'not-a-uuid', NOW)).toBe(false);
      expect(await subject.revoke(botId, "' OR 1=1 --", NOW)).toBe(false);
      expect(await subject.findUsable(otherToken.tokenHash, NOW)).toEqual({ tokenId: other.id, bot: await bots.findById(otherBotId) });
    });

    it('finds a usable token only before it expires', async () => {
      const { subject, botId, bots } = await makeSubject();
      const expiresAt = later(60_000);
      const token = newToken(botId, { expiresAt });
      const info = await subject.create(token, NOW);
      expect(await subject.findUsable(token.tokenHash, new Date(expiresAt.getTime() - 1))).toEqual({
        tokenId: info.id,
        bot: await bots.findById(botId),
      });
      expect(await subject.findUsable(token.tokenHash, expiresAt)).toBeNull();
      expect(await subject.findUsable(token.tokenHash, later(120_000))).toBeNull();
      expect(await subject.findUsable(randomBytes(32).toString('hex'), NOW)).toBeNull();
    });

    it('writes lastUsedAt at most once a minute', async () => {
      const { subject, botId } = await makeSubject();
      const info = await subject.create(newToken(botId), NOW);
      const untouched = await subject.create(newToken(botId), NOW);
      const lastUsedAt = async () => (await subject.listForBot(botId)).find((token) => token.id === info.id)!.lastUsedAt;

      await subject.touch(info.id, later(1000));
      expect(await lastUsedAt()).toEqual(later(1000));
      await subject.touch(info.id, later(30_000));
      expect(await lastUsedAt()).toEqual(later(1000));
      await subject.touch(info.id, later(1000 + MINUTE_MS));
      expect(await lastUsedAt()).toEqual(later(1000));
      await subject.touch(info.id, later(1001 + MINUTE_MS));
      expect(await lastUsedAt()).toEqual(later(1001 + MINUTE_MS));
      expect((await subject.listForBot(botId)).find((token) => token.id === untouched.id)!.lastUsedAt).toBeNull();
    });
  });
};
