import type { ConversationRepository, ConversationSummary, PageRequest } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { ChatMessage, ChatRole, Conversation, Page, StoredMessage } from '../../domain/types.ts';
import type { Queryable } from './db.ts';
import { afterCursor, cursorParams, toPage } from './keyset.ts';

const PREVIEW_LENGTH = 120;

interface ConversationRow {
  id: string;
  bot_id: string;
  session_id: string;
  message_count: number;
  started_at: Date;
  last_message_at: Date;
}

interface MessageRow {
  role: ChatRole;
  content: string;
  created_at: Date;
}

const CONVERSATION_COLUMNS = 'id, bot_id, session_id, message_count, started_at, last_message_at';

const rowToConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  botId: row.bot_id,
  sessionId: row.session_id,
  messageCount: row.message_count,
  startedAt: row.started_at,
  lastMessageAt: row.last_message_at,
});

const rowToStoredMessage = (row: MessageRow): StoredMessage => ({
  role: row.role,
  content: row.content,
  createdAt: row.created_at,
});

const INSERT_CONVERSATION = `
  INSERT INTO conversations (bot_id, session_id, started_at, last_message_at) VALUES ($1, $2, $3, $3)
  ON CONFLICT (bot_id, session_id) DO NOTHING
  RETURNING ${CONVERSATION_COLUMNS}`;
const LOCK_CONVERSATION = `
  SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE bot_id = $1 AND session_id = $2 FOR UPDATE`;
const TAIL = `
  SELECT role, content FROM (
    SELECT position, role, content FROM conversation_messages
    WHERE conversation_id = $1 ORDER BY position DESC LIMIT $2
  ) AS last_messages
  ORDER BY position`;
// Positions continue from the stored count, which the UPDATE reads under its row lock.
const APPEND = `
  WITH updated AS (
    UPDATE conversations SET message_count = message_count + cardinality($2::text[]), last_message_at = $4
    WHERE id = $1
    RETURNING ${CONVERSATION_COLUMNS}
  ), inserted AS (
    INSERT INTO conversation_messages (conversation_id, position, role, content, created_at)
    SELECT updated.id, updated.message_count - cardinality($2::text[]) + m.ordinality - 1, m.role, m.content, $4
    FROM updated, unnest($2::text[], $3::text[]) WITH ORDINALITY AS m(role, content, ordinality)
  )
  SELECT ${CONVERSATION_COLUMNS} FROM updated`;
const BELONGS_TO_BOT = 'SELECT 1 FROM conversations WHERE id = $1 AND bot_id = $2';
const LIST = `
  SELECT ${CONVERSATION_COLUMNS},
    COALESCE((
      SELECT left(m.content, ${PREVIEW_LENGTH}) FROM conversation_messages m
      WHERE m.conversation_id = c.id AND m.role = 'user' ORDER BY m.position LIMIT 1
    ), '') AS preview
  FROM conversations c
  WHERE bot_id = $1 AND ${afterCursor('started_at', 'id', 2)}
  ORDER BY started_at DESC, id DESC
  LIMIT $4`;
const FIND = `SELECT ${CONVERSATION_COLUMNS} FROM conversations WHERE id = $1 AND bot_id = $2`;
const MESSAGES = 'SELECT role, content, created_at FROM conversation_messages WHERE conversation_id = $1 ORDER BY position';

export class PgConversationRepository implements ConversationRepository {
  constructor(private readonly q: Queryable) {}

  async startOrLock(botId: string, sessionId: string, now: Date): Promise<{ conversation: Conversation; created: boolean }> {
    // The row is either ours (inserted, so locked) or already there: then lock it. A row
    // deleted between the two statements leaves neither, so start over.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const inserted = await this.q.query<ConversationRow>(INSERT_CONVERSATION, [botId, sessionId, now]);
      if (inserted.rows[0]) return { conversation: rowToConversation(inserted.rows[0]), created: true };
      const locked = await this.q.query<ConversationRow>(LOCK_CONVERSATION, [botId, sessionId]);
      if (locked.rows[0]) return { conversation: rowToConversation(locked.rows[0]), created: false };
    }
    throw new Error(`conversation ${sessionId} of bot ${botId} could be neither inserted nor found`);
  }

  async tail(conversationId: string, count: number): Promise<ChatMessage[]> {
    if (count <= 0) return [];
    const { rows } = await this.q.query<{ role: ChatRole; content: string }>(TAIL, [conversationId, count]);
    return rows.map((row) => ({ role: row.role, content: row.content }));
  }

  async append(conversation: Conversation, messages: ChatMessage[], now: Date): Promise<Conversation> {
    if (messages.length === 0) return conversation;
    const { rows } = await this.q.query<ConversationRow>(APPEND, [
      conversation.id,
      messages.map((message) => message.role),
      messages.map((message) => message.content),
      now,
    ]);
    if (!rows[0]) throw new Error(`conversation ${conversation.id} does not exist`);
    return rowToConversation(rows[0]);
  }

  async belongsToBot(conversationId: string, botId: string): Promise<boolean> {
    if (!isUuid(conversationId) || !isUuid(botId)) return false;
    return (await this.q.query(BELONGS_TO_BOT, [conversationId, botId])).rowCount! > 0;
  }

  async list(botId: string, page: PageRequest): Promise<Page<ConversationSummary>> {
    const { rows } = await this.q.query<ConversationRow & { preview: string }>(LIST, [
      botId,
      ...cursorParams(page.cursor),
      page.limit + 1,
    ]);
    const summaries = rows.map((row) => ({ ...rowToConversation(row), preview: row.preview }));
    return toPage(summaries, page.limit, (summary) => ({ at: summary.startedAt, id: summary.id }));
  }

  async get(botId: string, conversationId: string): Promise<{ conversation: Conversation; messages: StoredMessage[] } | null> {
    if (!isUuid(botId) || !isUuid(conversationId)) return null;
    const found = await this.q.query<ConversationRow>(FIND, [conversationId, botId]);
    if (!found.rows[0]) return null;
    const { rows } = await this.q.query<MessageRow>(MESSAGES, [conversationId]);
    return { conversation: rowToConversation(found.rows[0]), messages: rows.map(rowToStoredMessage) };
  }
}
