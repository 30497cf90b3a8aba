import type { BotFields, BotRepository, BotSettingsPatch, ChatTarget } from '../../application/ports.ts';
import { isUuid } from '../../domain/pagination.ts';
import type { Bot, BotStats, DeploymentMode, LlmProvider, Personality } from '../../domain/types.ts';
import type { Queryable } from './db.ts';

export interface BotRow {
  id: string;
  user_id: string;
  name: string;
  headline: string | null;
  personality: Personality;
  context_text: string;
  suggested_questions: string[];
  loading_messages: string[];
  is_active: boolean;
  theme_color: string;
  deployment_mode: DeploymentMode;
  rate_limit_per_minute: number | null;
  rate_limit_per_day: number | null;
  embed_origins: string[];
  photo_sha256: string | null;
  created_at: Date;
  updated_at: Date;
}

export const BOT_COLUMNS = `b.id, b.user_id, b.name, b.headline, b.personality, b.context_text, b.suggested_questions,
  b.loading_messages, b.is_active, b.theme_color, b.deployment_mode, b.rate_limit_per_minute,
  b.rate_limit_per_day, b.embed_origins, b.photo_sha256, b.created_at, b.updated_at`;

export const rowToBot = (row: BotRow): Bot => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  headline: row.headline,
  personality: row.personality,
  contextText: row.context_text,
  suggestedQuestions: row.suggested_questions,
  loadingMessages: row.loading_messages,
  isActive: row.is_active,
  themeColor: row.theme_color,
  deploymentMode: row.deployment_mode,
  rateLimits: { perMinute: row.rate_limit_per_minute, perDay: row.rate_limit_per_day },
  embedOrigins: row.embed_origins,
  photoHash: row.photo_sha256,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// One statement, so concurrent first saves give one insert and one update (the unique
// user_id decides). updated_at strictly advances even for two saves in one millisecond.
const UPSERT_BOT = `
  WITH previous AS (SELECT context_text FROM bots WHERE user_id = $1)
  INSERT INTO bots AS b (user_id, name, headline, personality, context_text, suggested_questions,
                         loading_messages, created_at, updated_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
  ON CONFLICT (user_id) DO UPDATE SET
    name = EXCLUDED.name,
    headline = EXCLUDED.headline,
    personality = EXCLUDED.personality,
    context_text = EXCLUDED.context_text,
    suggested_questions = EXCLUDED.suggested_questions,
    updated_at = GREATEST(EXCLUDED.updated_at, b.updated_at + interval '1 millisecond')
  RETURNING ${BOT_COLUMNS}, (b.xmax = 0) AS inserted,
    (SELECT context_text FROM previous) IS DISTINCT FROM b.context_text AS context_changed`;

const FIND_BY_USER = `SELECT ${BOT_COLUMNS} FROM bots b WHERE b.user_id = $1`;
const FIND_BY_ID = `SELECT ${BOT_COLUMNS} FROM bots b WHERE b.id = $1`;
/** What makes bot `b` a chat target: active, with an owner `u` who chose a provider and model. */
export const CHAT_TARGET_JOIN = 'JOIN users u ON u.id = b.user_id';
export const IS_CHAT_TARGET = 'b.is_active AND u.llm_provider IS NOT NULL AND u.llm_model IS NOT NULL';
export type ChatTargetRow = BotRow & { llm_provider: LlmProvider; llm_model: string };
export const rowToChatTarget = (row: ChatTargetRow): ChatTarget => ({
  bot: rowToBot(row),
  provider: row.llm_provider,
  model: row.llm_model,
});

/** The bot $1 when it is a chat target. */
const FIND_CHAT_TARGET = `
  SELECT ${BOT_COLUMNS}, u.llm_provider, u.llm_model
  FROM bots b ${CHAT_TARGET_JOIN}
  WHERE b.id = $1 AND ${IS_CHAT_TARGET}`;

const UPDATE_SETTINGS = `
  UPDATE bots b SET
    is_active = COALESCE($2, b.is_active),
    theme_color = COALESCE($3, b.theme_color),
    deployment_mode = COALESCE($4, b.deployment_mode),
    rate_limit_per_minute = CASE WHEN $5 THEN $6::integer ELSE b.rate_limit_per_minute END,
    rate_limit_per_day = CASE WHEN $7 THEN $8::integer ELSE b.rate_limit_per_day END,
    embed_origins = COALESCE($10::text[], b.embed_origins),
    updated_at = GREATEST($9, b.updated_at + interval '1 millisecond')
  WHERE b.id = $1
  RETURNING ${BOT_COLUMNS}`;

const STATS = `
  SELECT b.total_conversations, b.total_messages,
         (SELECT count(*) FROM leads l WHERE l.bot_id = b.id)::integer AS total_leads
  FROM bots b WHERE b.id = $1`;

export class PgBotRepository implements BotRepository {
  constructor(private readonly q: Queryable) {}

  async upsertForUser(userId: string, fields: BotFields, loadingMessages: string[], now: Date) {
    const { rows } = await this.q.query<BotRow & { inserted: boolean; context_changed: boolean }>(UPSERT_BOT, [
      userId,
      fields.name,
      fields.headline,
      fields.personality,
      fields.contextText,
      JSON.stringify(fields.suggestedQuestions),
      JSON.stringify(loadingMessages),
      now,
    ]);
    const row = rows[0]!;
    return { bot: rowToBot(row), created: row.inserted, contextChanged: row.context_changed };
  }

  async findByUserId(userId: string): Promise<Bot | null> {
    const { rows } = await this.q.query<BotRow>(FIND_BY_USER, [userId]);
    return rows[0] ? rowToBot(rows[0]) : null;
  }

  async findById(botId: string): Promise<Bot | null> {
    if (!isUuid(botId)) return null;
    const { rows } = await this.q.query<BotRow>(FIND_BY_ID, [botId]);
    return rows[0] ? rowToBot(rows[0]) : null;
  }

  async findChatTarget(botId: string): Promise<ChatTarget | null> {
    if (!isUuid(botId)) return null;
    const { rows } = await this.q.query<ChatTargetRow>(FIND_CHAT_TARGET, [botId]);
    return rows[0] ? rowToChatTarget(rows[0]) : null;
  }

  async updateSettings(botId: string, patch: BotSettingsPatch, now: Date): Promise<Bot> {
    const limits = patch.rateLimits ?? {};
    const { rows } = await this.q.query<BotRow>(UPDATE_SETTINGS, [
      botId,
      patch.isActive ?? null,
      patch.themeColor ?? null,
      patch.deploymentMode ?? null,
      'perMinute' in limits,
      limits.perMinute ?? null,
      'perDay' in limits,
      limits.perDay ?? null,
      now,
      patch.embedOrigins ?? null,
    ]);
    return rowToBot(rows[0]!);
  }

  async stats(botId: string): Promise<BotStats> {
    const { rows } = await this.q.query<{ total_conversations: number; total_messages: number; total_leads: number }>(
      STATS,
      [botId],
    );
    const row = rows[0];
    return {
      totalConversations: row?.total_conversations ?? 0,
      totalMessages: row?.total_messages ?? 0,
      totalLeads: row?.total_leads ?? 0,
    };
  }
}
