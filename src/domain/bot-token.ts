import { createHash, randomBytes } from 'node:crypto';

/**
 * A bot token is `cbt_` followed by 64 lower-case hex characters (32 random bytes).
 * Only its SHA-256 is stored; the owner sees the token once, when it is minted.
 */
const BOT_TOKEN_PREFIX = 'cbt_';

const BOT_TOKEN = /^cbt_[0-9a-f]{64}$/;

export const newBotToken = (): string => `${BOT_TOKEN_PREFIX}${randomBytes(32).toString('hex')}`;

export const isBotToken = (value: string): boolean => BOT_TOKEN.test(value);

/** Hex SHA-256 of the whole token, prefix included. */
export const hashBotToken = (token: string): string => createHash('sha256').update(token, 'utf8').digest('hex');

/** What the owner's token list shows to tell tokens apart. */
export const lastFourOf = (token: string): string => token.slice(-4);
