import type { ConversationRepository, ConversationSummary, LockedConversation, PageRequest, SaveEffects } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { ChatMessage, ChatRole, Conversation, Page, StoredMessage } from '../../domain/types.ts';
import { prepared, type Queryable } from './db.ts';
import { afterCursor, cursorParams, toPage } from './keyset.ts';
import { StatementBatcher, type Batching } from './statement-batcher.ts';

const PREVIEW_LENGTH = 120;

interface ConversationRow {
  id: string;
  bot_id: string;
  session_id: string;
  message_count: number;
  started_at: Date;
  last_message_at: Date;
}

interface LockedRow extends ConversationRow {
  created: boolean;
  /** The tail, oldest first (null when empty), and the position of its last message. */
  tail_roles: ChatRole[] | null;
  tail_contents: string[] | null;
  tail_end: number | null;
}

interface MessageRow {
  role: ChatRole;
  content: string;
  created_at: Date;
}

export const CONVERSATION_COLUMNS = 'id, bot_id, session_id, message_count, started_at, last_message_at';

export const rowToConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  botId: row.bot_id,
  sessionId: row.session_id,
  messageCount: row.message_count,
  startedAt: row.started_at,
  lastMessageAt: row.last_message_at,
});

export const rowToStoredMessage = (row: MessageRow): StoredMessage => ({
  role: row.role,
  content: row.content,
  createdAt: row.created_at,
});

/**
 * The named effects of a save, as the last CTEs of its statement: add to the totals of the
 * bot of the `source` row, and insert the notification when one is given. Parameters: `now`
 * at $nowParam, then the totals and the notification from $first (see effectParams).
 */
const effectCtes = (source: string, nowParam: number, first: number) => `counted AS (
    UPDATE bots AS b SET
      total_conversations = b.total_conversations + $${first}::int,
      total_messages = b.total_messages + $${first + 1}::int
    FROM ${source} WHERE b.id = ${source}.bot_id AND ($${first}::int <> 0 OR $${first + 1}::int <> 0)
  ), notified AS (
    INSERT INTO notifications (user_id, kind, payload, created_at)
    SELECT $${first + 2}::uuid, $${first + 3}::text, $${first + 4}::jsonb, $${nowParam} FROM ${source} WHERE $${first + 2}::uuid IS NOT NULL
  )`;

// Every save runs the next two statements, prepared once per connection.
//
// ON CONFLICT DO UPDATE (a no-op update) locks and returns the row even when another
// transaction inserted it after this statement began, so one statement both starts and
// locks. The tail comes with it; see startOrLock for when it has to be read again.
// $1 bot, $2 session, $3 now, $4 how many of the last messages.
const START_OR_LOCK = prepared(
  'conversation-start-or-lock',
  `WITH locked AS (
    INSERT INTO conversations AS c (bot_id, session_id, started_at, last_message_at) VALUES ($1, $2, $3, $3)
    ON CONFLICT (bot_id, session_id) DO UPDATE SET message_count = c.message_count
    RETURNING ${CONVERSATION_COLUMNS}, (c.xmax = 0) AS created
  )
  SELECT locked.*, tail.*
  FROM locked, LATERAL (
    SELECT array_agg(role ORDER BY position) AS tail_roles, array_agg(content ORDER BY position) AS tail_contents,
      max(position) AS tail_end
    FROM (
      SELECT position, role, content FROM conversation_messages
      WHERE conversation_id = locked.id ORDER BY position DESC LIMIT LEAST(locked.message_count, $4::int)
    ) AS last_messages
  ) AS tail`,
);
const TAIL = `
  SELECT role, content FROM (
    SELECT position, role, content FROM conversation_messages
    WHERE conversation_id = $1 ORDER BY position DESC LIMIT $2
  ) AS last_messages
  ORDER BY position`;
// One statement for the whole save: the messages (positions continue from the stored count,
// which the UPDATE reads under its row lock), and the effects the use case named: the bot's
// totals and the owner's notification. Nothing happens when the conversation is gone.
// $1 conversation, $2 roles, $3 contents, $4 now, $5 conversations and $6 messages to add to
// the bot's totals, $7 the user to notify (or null), $8 the kind, $9 the payload.
const APPEND = prepared(
  'conversation-append',
  `WITH updated AS (
    UPDATE conversations SET
      message_count = message_count + cardinality($2::text[]),
      last_message_at = CASE WHEN cardinality($2::text[]) > 0 THEN $4 ELSE last_message_at END
    WHERE id = $1
    RETURNING ${CONVERSATION_COLUMNS}
  ), inserted AS (
    INSERT INTO conversation_messages (conversation_id, position, role, content, created_at)
    SELECT updated.id, updated.message_count - cardinality($2::text[]) + m.ordinality - 1, m.role, m.content, $4
    FROM updated, unnest($2::text[], $3::text[]) WITH ORDINALITY AS m(role, content, ordinality)
  ), ${effectCtes('updated', 4, 5)}
  SELECT ${CONVERSATION_COLUMNS} FROM updated`,
);
// Sessions' first saves, as many as arrive together in one statement: conversation_start
// (sql/007) starts each conversation with its messages and the named effects, or does nothing
// for a session that has a conversation already (then the caller locks it). Arrays, one
// element per request: $1 ids, $2 bots, $3 sessions, $4 times, $5 message counts, $6 and $7
// totals, $8-$10 notifications; then one element per message: $11 the request's ordinal,
// $12 position, $13 role, $14 content.
const START_BATCH = prepared(
  'conversation-start-batch',
  `SELECT started FROM conversation_start($1::uuid[], $2::uuid[], $3::uuid[], $4::timestamptz[], $5::int[], $6::int[], $7::int[],
     $8::uuid[], $9::text[], $10::jsonb[], $11::int[], $12::int[], $13::text[], $14::text[])`,
);
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

/** The effects as statement parameters: the totals to add, then the notification (or nulls). */
const effectParams = (effects: SaveEffects) => [
  effects.botTotals.conversations,
  effects.botTotals.messages,
  effects.notify?.userId ?? null,
  effects.notify?.kind ?? null,
  effects.notify ? JSON.stringify(effects.notify.payload) : null,
];

const NO_EFFECTS: SaveEffects = { botTotals: { conversations: 0, messages: 0 }, notify: null };
const hasEffects = (effects: SaveEffects) => effects.notify !== null || effects.botTotals.conversations !== 0 || effects.botTotals.messages !== 0;

/** A session's first save, as the batch takes it. */
interface Start {
  start: { id: string; botId: string; sessionId: string };
  messages: ChatMessage[];
  now: Date;
  effects: SaveEffects;
}

/** The parameters of START_BATCH for a batch of first saves. */
function startBatchParams(batch: Start[]): unknown[] {
  const messages = batch.flatMap(({ messages }, index) =>
    messages.map((message, position) => ({ request: index + 1, position, message })),
  );
  return [
    batch.map(({ start }) => start.id),
    batch.map(({ start }) => start.botId),
    batch.map(({ start }) => start.sessionId),
    batch.map(({ now }) => now),
    batch.map(({ messages }) => messages.length),
    batch.map(({ effects }) => effects.botTotals.conversations),
    batch.map(({ effects }) => effects.botTotals.messages),
    batch.map(({ effects }) => effects.notify?.userId ?? null),
    batch.map(({ effects }) => effects.notify?.kind ?? null),
    batch.map(({ effects }) => (effects.notify ? JSON.stringify(effects.notify.payload) : null)),
    messages.map((m) => m.request),
    messages.map((m) => m.position),
    messages.map((m) => m.message.role),
    messages.map((m) => m.message.content),
  ];
}

export class PgConversationRepository implements ConversationRepository {
  /** First saves that arrive together share one statement; built on first use (transactions never start one). */
  private starts?: StatementBatcher<Start, Conversation | null>;

  constructor(
    private readonly q: Queryable,
    private readonly batching: Partial<Batching> = {},
  ) {}

  async startOrLock(botId: string, sessionId: string, now: Date, tailLength = 0): Promise<LockedConversation> {
    const row = (await this.q.query<LockedRow>(START_OR_LOCK, [botId, sessionId, now, tailLength])).rows[0]!;
    const conversation = rowToConversation(row);
    const roles = row.tail_roles ?? [];
    const tail = roles.map((role, i) => ({ role, content: row.tail_contents![i]! }));
    // The statement's snapshot predates the lock: when it waited for a transaction that then
    // appended and committed, the row is current but those messages are not in the tail.
    // Positions run 0 … messageCount - 1, so a stale tail shows; read it again, now locked.
    const wanted = Math.min(conversation.messageCount, tailLength);
    const current = tail.length === wanted && (wanted === 0 || row.tail_end === conversation.messageCount - 1);
    return { conversation, created: row.created, tail: current ? tail : await this.tail(conversation.id, wanted) };
  }

  async append(conversation: Conversation, messages: ChatMessage[], now: Date, effects: SaveEffects = NO_EFFECTS): Promise<Conversation> {
    if (messages.length === 0 && !hasEffects(effects)) return conversation;
    const { rows } = await this.q.query<ConversationRow>(APPEND, [
      conversation.id,
      messages.map((message) => message.role),
      messages.map((message) => message.content),
      now,
      ...effectParams(effects),
    ]);
    if (!rows[0]) throw new Error(`conversation ${conversation.id} does not exist`);
    return rowToConversation(rows[0]);
  }

  startWith(
    start: { id: string; botId: string; sessionId: string },
    messages: ChatMessage[],
    now: Date,
    effects: SaveEffects,
  ): Promise<Conversation | null> {
    this.starts ??= new StatementBatcher('conversation start', (batch) => this.startBatch(batch), this.batching);
    return this.starts.submit({ start, messages, now, effects });
  }

  private async startBatch(batch: Start[]): Promise<(Conversation | null)[]> {
    const { rows } = await this.q.query<{ started: boolean }>(START_BATCH, startBatchParams(batch));
    return batch.map(({ start, messages, now }, index) =>
      rows[index]?.started
        ? { id: start.id, botId: start.botId, sessionId: start.sessionId, messageCount: messages.length, startedAt: now, lastMessageAt: now }
        : null,
    );
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

  private async tail(conversationId: string, count: number): Promise<ChatMessage[]> {
    if (count <= 0) return [];
    const { rows } = await this.q.query<{ role: ChatRole; content: string }>(TAIL, [conversationId, count]);
    return rows.map((row) => ({ role: row.role, content: row.content }));
  }
}
