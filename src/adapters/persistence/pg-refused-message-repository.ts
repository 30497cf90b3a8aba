import type { PageRequest, RefusedMessageRepository } from '../../application/ports.ts';
import type { Page, RefusedMessage } from '../../domain/types.ts';
import type { Queryable } from './db.ts';
import { afterCursor, cursorParams, toPage } from './keyset.ts';

interface RefusedMessageRow {
  id: string;
  bot_id: string;
  reason: string;
  content: string;
  created_at: Date;
}

export const REFUSED_MESSAGE_COLUMNS = 'id, bot_id, reason, content, created_at';

export const rowToRefusedMessage = (row: RefusedMessageRow): RefusedMessage => ({
  id: row.id,
  botId: row.bot_id,
  reason: row.reason,
  content: row.content,
  createdAt: row.created_at,
});

// The bot row is share-locked first, as conversation_start does: an account deleted meanwhile
// leaves no bot to find (nothing is written, rather than a foreign-key error), and one deleted
// after waits for this statement. Then the message, then the day's counter (sql/011), which counts
// only a message kept: a runtime's report already kept under its id ($5) adds no row (ON CONFLICT on
// sql/015's partial unique index, which also makes a concurrent twin wait, then do nothing). The
// platform's own refusals carry no id (NULL), so theirs never conflict.
const ADD = `
  WITH bot AS (SELECT id FROM bots WHERE id = $1 FOR KEY SHARE),
  kept AS (
    INSERT INTO refused_messages (bot_id, reason, content, created_at, report_id)
    SELECT id, $3, $4, $2, $5 FROM bot
    ON CONFLICT (bot_id, report_id) WHERE report_id IS NOT NULL DO NOTHING
    RETURNING bot_id
  )
  INSERT INTO bot_refusals_daily AS d (bot_id, day, reason, count)
  SELECT bot_id, ($2::timestamptz AT TIME ZONE 'UTC')::date, $3, 1 FROM kept
  ON CONFLICT (bot_id, day, reason) DO UPDATE SET count = d.count + 1`;
const LIST = `
  SELECT ${REFUSED_MESSAGE_COLUMNS} FROM refused_messages
  WHERE bot_id = $1 AND ${afterCursor('created_at', 'id', 2)}
  ORDER BY created_at DESC, id DESC
  LIMIT $4`;

export class PgRefusedMessageRepository implements RefusedMessageRepository {
  constructor(private readonly q: Queryable) {}

  async add(refusal: { botId: string; reason: string; content: string }, now: Date): Promise<void> {
    await this.q.query(ADD, [refusal.botId, now, refusal.reason, refusal.content, null]);
  }

  async addReported(refusal: { botId: string; reason: string; content: string; reportId: string }, now: Date): Promise<boolean> {
    const { rowCount } = await this.q.query(ADD, [refusal.botId, now, refusal.reason, refusal.content, refusal.reportId]);
    return rowCount === 1;
  }

  async list(botId: string, page: PageRequest): Promise<Page<RefusedMessage>> {
    const { rows } = await this.q.query<RefusedMessageRow>(LIST, [botId, ...cursorParams(page.cursor), page.limit + 1]);
    return toPage(rows.map(rowToRefusedMessage), page.limit, (m) => ({ at: m.createdAt, id: m.id }));
  }
}
