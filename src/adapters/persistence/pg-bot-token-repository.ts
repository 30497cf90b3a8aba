import type { BotTokenRepository, NewBotToken } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { Bot, BotTokenInfo } from '../../domain/types.ts';
import { prepared, type Queryable } from './db.ts';
import { BOT_COLUMNS, rowToBot, type BotRow } from './pg-bot-repository.ts';
import { inRequestOrder, StatementBatcher } from './statement-batcher.ts';

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

export const TOKEN_COLUMNS = 'id, bot_id, name, last_four, created_at, expires_at, last_used_at, revoked_at';

export const rowToBotTokenInfo = (row: BotTokenRow): BotTokenInfo => ({
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
// Every v1 request: the bot comes with the token, in one round trip, prepared once per
// connection; the look-ups that arrive together share the statement. $1 token hashes, $2 the
// times they were presented at, one element per request.
const FIND_USABLE_BATCH = prepared(
  'bot-token-find-usable-batch',
  `SELECT r.ord, t.id AS token_id, ${BOT_COLUMNS}
   FROM unnest($1::text[], $2::timestamptz[]) WITH ORDINALITY AS r(token_hash, presented_at, ord)
   JOIN bot_tokens t ON t.token_hash = r.token_hash
   JOIN bots b ON b.id = t.bot_id
   WHERE t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > r.presented_at)`,
);
const TOUCH = `
  UPDATE bot_tokens SET last_used_at = $2
  WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < $2::timestamptz - interval '1 minute')`;

type UsableToken = { tokenId: string; bot: Bot } | null;

export class PgBotTokenRepository implements BotTokenRepository {
  /** Look-ups that arrive together share one statement; built on first use (transactions never look one up). */
  private lookups?: StatementBatcher<{ tokenHash: string; now: Date }, UsableToken>;

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

  findUsable(tokenHash: string, now: Date): Promise<UsableToken> {
    this.lookups ??= new StatementBatcher('bot token look-up', (batch) => this.findBatch(batch));
    return this.lookups.submit({ tokenHash, now });
  }

  private async findBatch(batch: { tokenHash: string; now: Date }[]): Promise<UsableToken[]> {
    const { rows } = await this.q.query<BotRow & { token_id: string; ord: string }>(FIND_USABLE_BATCH, [
      batch.map((lookup) => lookup.tokenHash),
      batch.map((lookup) => lookup.now),
    ]);
    return inRequestOrder(batch, rows).map((row) => (row ? { tokenId: row.token_id, bot: rowToBot(row) } : null));
  }

  async touch(tokenId: string, now: Date): Promise<void> {
    await this.q.query(TOUCH, [tokenId, now]);
  }
}
