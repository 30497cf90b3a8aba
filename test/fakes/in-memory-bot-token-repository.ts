import { randomUUID } from 'node:crypto';
import type { BotRepository, BotTokenRepository, NewBotToken } from '../../src/application/ports.ts';
import { newestFirst } from '../../src/adapters/persistence/keyset.ts';
import type { Bot, BotTokenInfo } from '../../src/domain/types.ts';

const MINUTE_MS = 60_000;

/** Needs the bots fake: findUsable returns the token's bot, as the database join does. */
export class InMemoryBotTokenRepository implements BotTokenRepository {
  private readonly tokens: (BotTokenInfo & { tokenHash: string })[] = [];

  constructor(private readonly bots: BotRepository) {}

  async create(token: NewBotToken, now: Date): Promise<BotTokenInfo> {
    if (this.tokens.some((stored) => stored.tokenHash === token.tokenHash)) {
      throw new Error('duplicate token hash');
    }
    const stored = {
      id: randomUUID(),
      botId: token.botId,
      name: token.name,
      lastFour: token.lastFour,
      tokenHash: token.tokenHash,
      createdAt: new Date(now),
      expiresAt: token.expiresAt ? new Date(token.expiresAt) : null,
      lastUsedAt: null,
      revokedAt: null,
    };
    this.tokens.push(stored);
    return toInfo(stored);
  }

  async listForBot(botId: string): Promise<BotTokenInfo[]> {
    return this.tokens
      .filter((token) => token.botId === botId)
      .sort((a, b) => newestFirst({ at: a.createdAt, id: a.id }, { at: b.createdAt, id: b.id }))
      .map(toInfo);
  }

  async revoke(botId: string, tokenId: string, now: Date): Promise<boolean> {
    const token = this.tokens.find((stored) => stored.id === tokenId.toLowerCase() && stored.botId === botId);
    if (!token) return false;
    token.revokedAt ??= new Date(now);
    return true;
  }

  async findUsable(tokenHash: string, now: Date): Promise<{ tokenId: string; bot: Bot } | null> {
    const token = this.tokens.find(
      (stored) =>
        stored.tokenHash === tokenHash &&
        stored.revokedAt === null &&
        (stored.expiresAt === null || stored.expiresAt.getTime() > now.getTime()),
    );
    const bot = token ? await this.bots.findById(token.botId) : null;
    return token && bot ? { tokenId: token.id, bot } : null;
  }

  async touch(tokenId: string, now: Date): Promise<void> {
    const token = this.tokens.find((stored) => stored.id === tokenId);
    if (token && (token.lastUsedAt === null || token.lastUsedAt.getTime() < now.getTime() - MINUTE_MS)) {
      token.lastUsedAt = new Date(now);
    }
  }
}

const toInfo = ({ tokenHash: _tokenHash, ...info }: BotTokenInfo & { tokenHash: string }): BotTokenInfo => ({ ...info });
