import type { BotTokenRepository, NewBotToken } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { Bot, BotTokenInfo } from '../../domain/types.ts';
import { prepared, type Queryable } from './db.ts';
import { BOT_COLUMNS, rowToBot, type BotRow } from './pg-bot-repository.ts';

interface BotTokenRow {
  id: string;
  bot_id: string;
  name: string;
  last_four: string;
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const TOKEN_COLUMNS = 'id, bot_id, name, last_four, created_at, expires_at, last_used_at, revoked_at';

const rowToBotTokenInfo = (row: BotTokenRow): BotTokenInfo => ({
  id: row.id,
  botId: row.bot_id,
  name: row.name,
  lastFour: row.last_four,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  lastUsedAt: row.last_used_at,
  revokedAt: row.revoked_at,
});

const INSERT_TOKEN = `
  INSERT INTO bot_tokens (bot_id, name, token_hash, last_four, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6)
  RETURNING ${TOKEN_COLUMNS}`;
const LIST_FOR_BOT = `SELECT ${TOKEN_COLUMNS} FROM bot_tokens WHERE bot_id = $1 ORDER BY created_at DESC, id DESC`;
// COALESCE keeps the first revocation time when revoked twice.
const REVOKE = 'UPDATE bot_tokens SET revoked_at = COALESCE(revoked_at, $3) WHERE bot_id = $1 AND id = $2';
// Every v1 request: the bot comes with the token, in one round trip, prepared once per connection.
const FIND_USABLE = prepared(
  'bot-token-find-usable',
  `SELECT t.id AS token_id, ${BOT_COLUMNS}
   FROM bot_tokens t JOIN bots b ON b.id = t.bot_id
   WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > $2)`,
);
const TOUCH = `
  UPDATE bot_tokens SET last_used_at = $2
  WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`;

export class PgBotTokenRepository implements BotTokenRepository {
  constructor(private readonly q: Queryable) {}

  async create(token: NewBotToken, now: Date): Promise<BotTokenInfo> {
    const { rows } = await this.q.query<BotTokenRow>(INSERT_TOKEN, [
      token.botId,
      token.name,
      token.tokenHash,
      token.lastFour,
      now,
      token.expiresAt,
    ]);
    return rowToBotTokenInfo(rows[0]!);
  }

  async listForBot(botId: string): Promise<BotTokenInfo[]> {
    const { rows } = await this.q.query<BotTokenRow>(LIST_FOR_BOT, [botId]);
    return rows.map(rowToBotTokenInfo);
  }

  async revoke(botId: string, tokenId: string, now: Date): Promise<boolean> {
    if (!isUuid(botId) || !isUuid(tokenId)) return false;
    return (await this.q.query(REVOKE, [botId, tokenId, now])).rowCount! > 0;
  }

  async findUsable(tokenHash: string, now: Date): Promise<{ tokenId: string; bot: Bot } | null> {
    const { rows } = await this.q.query<BotRow & { token_id: string }>(FIND_USABLE, [tokenHash, now]);
    return rows[0] ? { tokenId: rows[0].token_id, bot: rowToBot(rows[0]) } : null;
  }

  async touch(tokenId: string, now: Date): Promise<void> {
    await this.q.query(TOUCH, [tokenId, now]);
  }
}
