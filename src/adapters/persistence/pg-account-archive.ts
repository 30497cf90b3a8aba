import type { AccountArchive } from '../../application/ports.ts';
import type { Bot, BotTokenInfo, Conversation, Lead, Notification, RefusedMessage, StoredMessage, User } from '../../domain/types.ts';
import type { QueryResultRow } from 'pg';
import type { Queryable } from './db.ts';
import { BOT_COLUMNS, rowToBot } from './pg-bot-repository.ts';
import { rowToBotTokenInfo, TOKEN_COLUMNS } from './pg-bot-token-repository.ts';
import { CONVERSATION_COLUMNS, rowToConversation, rowToStoredMessage } from './pg-conversation-repository.ts';
import { LEAD_COLUMNS, rowToLead } from './pg-lead-repository.ts';
import { NOTIFICATION_COLUMNS, rowToNotification } from './pg-notification-repository.ts';
import { REFUSED_MESSAGE_COLUMNS, rowToRefusedMessage } from './pg-refused-message-repository.ts';
import { rowToUser, USER_COLUMNS } from './pg-user-repository.ts';

/** Rows per read: an export holds at most this many rows of one kind in memory. */
const PAGE = 500;

const USER = `SELECT ${USER_COLUMNS} FROM users WHERE id = $1`;
const BOT = `SELECT ${BOT_COLUMNS} FROM bots b WHERE b.user_id = $1`;
const TOKENS = `SELECT ${TOKEN_COLUMNS} FROM bot_tokens WHERE bot_id = $1 ORDER BY created_at, id`;
// Keyset pages: each read starts after the last row of the one before.
const CONVERSATIONS = `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE bot_id = $1 AND id > $2 ORDER BY id LIMIT ${PAGE}`;
const MESSAGES = `SELECT position, role, content, created_at FROM conversation_messages WHERE conversation_id = $1 AND position > $2 ORDER BY position LIMIT ${PAGE}`;
const LEADS = `SELECT ${LEAD_COLUMNS} FROM leads WHERE bot_id = $1 AND id > $2 ORDER BY id LIMIT ${PAGE}`;
const NOTIFICATIONS = `SELECT ${NOTIFICATION_COLUMNS} FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id LIMIT ${PAGE}`;
const REFUSED = `SELECT ${REFUSED_MESSAGE_COLUMNS} FROM refused_messages WHERE bot_id = $1 AND id > $2 ORDER BY id LIMIT ${PAGE}`;
type RowOf<F> = F extends (row: infer R) => unknown ? R : never;

const BEFORE_ANY_UUID = '00000000-0000-0000-0000-000000000000';

export class PgAccountArchive implements AccountArchive {
  constructor(private readonly q: Queryable) {}

  async account(userId: string): Promise<{ user: User; bot: Bot | null } | null> {
    const [user, bot] = await Promise.all([this.q.query(USER, [userId]), this.q.query(BOT, [userId])]);
    if (!user.rows[0]) return null;
    return { user: rowToUser(user.rows[0] as Parameters<typeof rowToUser>[0]), bot: bot.rows[0] ? rowToBot(bot.rows[0] as Parameters<typeof rowToBot>[0]) : null };
  }

  async tokens(botId: string): Promise<BotTokenInfo[]> {
    return (await this.q.query(TOKENS, [botId])).rows.map((row) => rowToBotTokenInfo(row as Parameters<typeof rowToBotTokenInfo>[0]));
  }

  conversations(botId: string): AsyncIterable<Conversation[]> {
    return this.pages(CONVERSATIONS, botId, BEFORE_ANY_UUID, (row) => row.id, rowToConversation);
  }

  messages(conversationId: string): AsyncIterable<StoredMessage[]> {
    return this.pages(MESSAGES, conversationId, -1, (row: RowOf<typeof rowToStoredMessage> & { position: number }) => row.position, rowToStoredMessage);
  }

  leads(botId: string): AsyncIterable<Lead[]> {
    return this.pages(LEADS, botId, BEFORE_ANY_UUID, (row) => row.id, rowToLead);
  }

  notifications(userId: string): AsyncIterable<Notification[]> {
    return this.pages(NOTIFICATIONS, userId, BEFORE_ANY_UUID, (row) => row.id, rowToNotification);
  }

  refusedMessages(botId: string): AsyncIterable<RefusedMessage[]> {
    return this.pages(REFUSED, botId, BEFORE_ANY_UUID, (row) => row.id, rowToRefusedMessage);
  }

  private async *pages<R extends QueryResultRow, K, T>(sql: string, owner: string, first: K, keyOf: (row: R) => K, map: (row: R) => T) {
    let after = first;
    for (;;) {
      const { rows } = await this.q.query<R>(sql, [owner, after]);
      if (rows.length > 0) yield rows.map(map);
      if (rows.length < PAGE) return;
      after = keyOf(rows[rows.length - 1]!);
    }
  }
}
