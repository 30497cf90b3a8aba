import type {
  Bot,
  BotStats,
  BotTokenInfo,
  ChatMessage,
  Conversation,
  DeploymentMode,
  Lead,
  LlmProvider,
  Notification,
  NotificationKind,
  Page,
  Personality,
  RateLimitOverrides,
  RefusedMessage,
  StoredMessage,
  User,
  UserCredentials,
} from '../domain/types.ts';
import type { PageCursor } from '../domain/pagination.ts';

// ---------------------------------------------------------------- time, crypto

export interface Clock {
  now(): Date;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string): Promise<boolean>;
  /** Burns the same time as verify() against a real hash; used for unknown accounts. */
  verifyDummy(password: string): Promise<false>;
}

// ---------------------------------------------------------------- repositories

export interface NewUser {
  username: string;
  email: string;
  passwordHash: string;
}

export interface UserRepository {
  emailExists(email: string): Promise<boolean>;
  usernameExists(username: string): Promise<boolean>;
  /** 'duplicate' when a unique constraint (email or username) refused the insert. */
  create(user: NewUser, now: Date): Promise<User | 'duplicate'>;
  findById(id: string): Promise<User | null>;
  /** Looks the account up by e-mail or by username (both are stored lower-cased). */
  findCredentials(emailOrUsername: string): Promise<UserCredentials | null>;
  setLlmChoice(userId: string, provider: LlmProvider, model: string): Promise<void>;
  setNotifyLeadsEmail(userId: string, value: boolean): Promise<User | null>;
}

export interface BotFields {
  name: string;
  headline: string | null;
  personality: Personality;
  contextText: string;
  suggestedQuestions: string[];
}

export interface BotSettingsPatch {
  isActive?: boolean;
  themeColor?: string;
  deploymentMode?: DeploymentMode;
  rateLimits?: Partial<RateLimitOverrides>;
  embedOrigins?: string[];
}

/** What the chat pipeline needs in one read: the bot and its owner's model choice. */
export interface ChatTarget {
  bot: Bot;
  provider: LlmProvider;
  model: string;
}

export interface BotRepository {
  /**
   * Inserts the user's bot or updates it, atomically: concurrent first saves give one
   * insert and one update. `loadingMessages` are only written on insert.
   * `updatedAt` strictly advances on every update.
   */
  upsertForUser(
    userId: string,
    fields: BotFields,
    loadingMessages: string[],
    now: Date,
  ): Promise<{ bot: Bot; created: boolean; contextChanged: boolean }>;
  findByUserId(userId: string): Promise<Bot | null>;
  findById(botId: string): Promise<Bot | null>;
  /** Active bot joined with an existing owner that has chosen a provider; else null. */
  findChatTarget(botId: string): Promise<ChatTarget | null>;
  updateSettings(botId: string, patch: BotSettingsPatch, now: Date): Promise<Bot>;
  stats(botId: string): Promise<BotStats>;
}

export interface NewBotToken {
  botId: string;
  name: string;
  tokenHash: string;
  lastFour: string;
  expiresAt: Date | null;
}

export interface BotTokenRepository {
  create(token: NewBotToken, now: Date): Promise<BotTokenInfo>;
  listForBot(botId: string): Promise<BotTokenInfo[]>;
  /** false when no such token belongs to that bot. Revoking twice is allowed. */
  revoke(botId: string, tokenId: string, now: Date): Promise<boolean>;
  /** A token that is neither revoked nor expired at `now`, with its bot (active or not), in one read. */
  findUsable(tokenHash: string, now: Date): Promise<{ tokenId: string; bot: Bot } | null>;
  /** Writes last_used_at at most once a minute per token. */
  touch(tokenId: string, now: Date): Promise<void>;
}

export interface PageRequest {
  limit: number;
  /** Rows strictly after this position (newest first by time, then id). */
  cursor: PageCursor | null;
}

export interface ConversationSummary extends Conversation {
  preview: string;
}

export interface LockedConversation {
  conversation: Conversation;
  created: boolean;
  /** Its last stored messages, as many as asked for (fewer when it has fewer), oldest first. */
  tail: ChatMessage[];
}

/** What a transcript save does besides storing messages: named by the use case, done by the repository with the save. */
export interface SaveEffects {
  /** Added to the bot's totals. */
  botTotals: { conversations: number; messages: number };
  /** A notification for the owner (the save that starts a conversation sends one). */
  notify: { userId: string; kind: NotificationKind; payload: Record<string, unknown> } | null;
}

export interface ConversationRepository {
  /**
   * Starts the (bot, session) conversation with these messages and carries out the effects,
   * in one atomic step, unless the session has a conversation already: then it changes
   * nothing and returns null. The caller chooses the id.
   */
  startWith(start: { id: string; botId: string; sessionId: string }, messages: ChatMessage[], now: Date, effects: SaveEffects): Promise<Conversation | null>;
  /**
   * Inserts (bot, sessionId) unless present, then locks the row for this transaction; returns
   * it with its last `tailLength` messages (none by default), read after the lock was taken.
   */
  startOrLock(botId: string, sessionId: string, now: Date, tailLength?: number): Promise<LockedConversation>;
  /**
   * Appends the messages after the stored ones and carries out the `effects` the use case
   * names, all in one statement. Returns the conversation as updated.
   */
  append(conversation: Conversation, messages: ChatMessage[], now: Date, effects?: SaveEffects): Promise<Conversation>;
  belongsToBot(conversationId: string, botId: string): Promise<boolean>;
  list(botId: string, page: PageRequest): Promise<Page<ConversationSummary>>;
  get(botId: string, conversationId: string): Promise<{ conversation: Conversation; messages: StoredMessage[] } | null>;
}

export interface NewLead {
  botId: string;
  email: string;
  conversationId: string | null;
  contextSummary: string | null;
}

export interface LeadRepository {
  /** Inserts unless (bot, conversationId, email) exists; then returns the original row. */
  insertOrFind(lead: NewLead, now: Date): Promise<{ lead: Lead; created: boolean }>;
  list(botId: string, page: PageRequest): Promise<Page<Lead>>;
  all(botId: string): Promise<Lead[]>;
}

export interface NotificationRepository {
  add(userId: string, kind: NotificationKind, payload: Record<string, unknown>, now: Date): Promise<Notification>;
  list(userId: string, page: PageRequest, unreadOnly: boolean): Promise<Page<Notification>>;
  markRead(userId: string, notificationId: string, now: Date): Promise<boolean>;
  markAllRead(userId: string, now: Date): Promise<number>;
  unreadCount(userId: string): Promise<number>;
}

export interface EmbeddingCache {
  /** Cached vectors for those chunk hashes, by hash. */
  get(botId: string, model: string, chunkHashes: string[]): Promise<Map<string, number[]>>;
  put(botId: string, model: string, entries: { chunkHash: string; embedding: number[] }[]): Promise<void>;
  invalidate(botId: string): Promise<void>;
}

export interface Repositories {
  users: UserRepository;
  bots: BotRepository;
  tokens: BotTokenRepository;
  conversations: ConversationRepository;
  leads: LeadRepository;
  notifications: NotificationRepository;
  embeddings: EmbeddingCache;
}

/** Runs `work` in one database transaction over repositories bound to it. */
export interface Transactor {
  transaction<T>(work: (tx: Repositories) => Promise<T>): Promise<T>;
}

// ---------------------------------------------------------------- limits

export type RateLimitScope = 'short' | 'long';

export interface RateLimits {
  /** Admissions per minute (scope `short`). */
  perMinute: number;
  /** Admissions per day (scope `long`). */
  perDay: number;
}

export type RateLimitDecision =
  | { allowed: true }
  | { allowed: false; scope: RateLimitScope; resetAt: number };

/**
 * Two fixed windows per bucket: a minute (`short`) and a UTC day (`long`).
 * A request is admitted only when both tiers have room, and then counts in both;
 * a rejected request consumes nothing. With N concurrent calls against a remaining
 * budget L, exactly min(N, L) are admitted.
 */
export interface RateLimiter {
  consume(bucket: string, limits: RateLimits, now: Date): Promise<RateLimitDecision>;
}

/**
 * Chat's hot path in one round trip: the chat target (as BotRepository.findChatTarget) and,
 * only when there is one, one admission from `bucket` (as RateLimiter.consume, with the
 * bot's overrides over `defaults`). No target consumes nothing.
 */
export interface ChatAdmission {
  admit(
    botId: string,
    bucket: string,
    defaults: RateLimits,
    now: Date,
  ): Promise<{ target: null } | { target: ChatTarget; decision: RateLimitDecision }>;
}

/**
 * Sign-in attempts per key in fixed 15-minute windows. An attempt is counted before the
 * password is checked, so concurrent guesses cannot all pass a check made before any of
 * them was recorded; a successful attempt is taken back, so only failures remain.
 */
export interface SignInThrottle {
  /** Counts one attempt on each key, atomically; returns each key's count including it. */
  begin(keys: string[], now: Date): Promise<Map<string, { count: number; resetAt: number }>>;
  /** The attempt begun at `now` succeeded: it no longer counts. */
  forgive(keys: string[], now: Date): Promise<void>;
}

// ---------------------------------------------------------------- providers

export type {
  EmbeddingErrorType,
  EmbeddingGateway,
  EmbeddingResponse,
  LlmErrorType,
  LlmGateway,
  LlmRequest,
  LlmResponse,
  LlmStreamResponse,
  LlmTextStream,
} from '@careerbot/llm';

// ---------------------------------------------------------------- mail

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Parts of `text` that must never reach a log (a reset link): a mailer that logs writes them redacted. */
  secrets?: string[];
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

// ---------------------------------------------------------------- the owner's provider key

/** A secret sealed by envelope encryption: opaque bytes, and which master key wrapped its data key. */
export interface SealedSecret {
  ciphertext: Uint8Array;
  iv: Uint8Array;
  authTag: Uint8Array;
  wrappedDataKey: Uint8Array;
  masterKeyId: string;
  masterKeyVersion: number;
}

/**
 * Seals and opens an account's secret. `owner` (the account id) is bound to both layers,
 * so a sealed secret copied onto another account does not open.
 */
export interface SecretVault {
  seal(owner: string, secret: string): SealedSecret;
  open(owner: string, sealed: SealedSecret): string;
}

/** What the owner and the pages may see of the stored key: never the key. */
export interface OwnerKeyStatus {
  provider: LlmProvider;
  azureEndpoint: string | null;
  lastFour: string;
  checked: boolean;
  enabled: boolean;
  pausedAt: Date | null;
  dailyCap: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface OwnerKeyRecord extends OwnerKeyStatus {
  sealed: SealedSecret;
}

export interface NewOwnerKey {
  provider: LlmProvider;
  azureEndpoint: string | null;
  lastFour: string;
  checked: boolean;
  sealed: SealedSecret;
}

export interface OwnerKeyRepository {
  /** Stores or replaces the account's key; a replaced key un-pauses, keeps `enabled` and the cap. */
  save(userId: string, key: NewOwnerKey, now: Date): Promise<OwnerKeyStatus>;
  remove(userId: string): Promise<boolean>;
  status(userId: string): Promise<OwnerKeyStatus | null>;
  /** The sealed key with its status: only the chat path reads it. */
  findForChat(userId: string): Promise<OwnerKeyRecord | null>;
  updateSettings(userId: string, patch: { enabled?: boolean; dailyCap?: number }, now: Date): Promise<OwnerKeyStatus | null>;
  /** Pauses answering with the key; true only for the call that paused it. */
  pause(userId: string, now: Date): Promise<boolean>;
  /**
   * Counts one answer on `day` if fewer than `cap` were counted, atomically (exact across
   * instances); returns the count including it, or null when the cap was already reached.
   */
  countAnswer(userId: string, day: string, cap: number): Promise<number | null>;
  usage(userId: string, today: string): Promise<{ today: number; last30Days: number }>;
}

// ---------------------------------------------------------------- account lifecycle (issue 24)

export type AccountTokenPurpose = 'password_reset' | 'email_change';

/** Single-use links: only the token's SHA-256 is stored, and a link is spent by deleting its row. */
export interface AccountTokenRepository {
  create(token: { tokenHash: string; userId: string; purpose: AccountTokenPurpose; newEmail: string | null; expiresAt: Date }, now: Date): Promise<void>;
  /** Deletes and returns the unexpired token with that hash and purpose, atomically: two uses, one winner. */
  spend(tokenHash: string, purpose: AccountTokenPurpose, now: Date): Promise<{ userId: string; newEmail: string | null } | null>;
  /** Forgets the user's other links of that purpose (a new password makes old reset links worthless). */
  deleteForUser(userId: string, purpose: AccountTokenPurpose): Promise<void>;
}

export interface AccountCredentials {
  passwordHash: string;
  username: string;
  email: string;
}

/** The account rows the lifecycle use cases change. */
export interface AccountRepository {
  credentialsOf(userId: string): Promise<AccountCredentials | null>;
  setPasswordHash(userId: string, passwordHash: string): Promise<void>;
  /** 'duplicate' when another account holds that address. */
  setEmail(userId: string, email: string): Promise<'ok' | 'duplicate'>;
  retentionDays(userId: string): Promise<number | null>;
  setRetentionDays(userId: string, days: number | null): Promise<void>;
}

export interface OwnerSession {
  /** Not the cookie's value, nor what the store keys by: an id for this list only. */
  id: string;
  current: boolean;
  createdAt: Date | null;
  lastSeenAt: Date;
  userAgent: string | null;
  address: string | null;
}

/** The session store, seen per owner. `currentSid` is the cookie's session id (or null). */
export interface SessionDirectory {
  list(userId: string, currentSid: string | null): Promise<OwnerSession[]>;
  /** false when the owner has no session with that id. */
  revoke(userId: string, sessionId: string): Promise<boolean>;
  /** Signs out every session of the owner except `keepSid` (all of them with null); returns how many. */
  revokeAllExcept(userId: string, keepSid: string | null): Promise<number>;
}

/** Erases an account and everything that names it, in one transaction. */
export interface AccountEraser {
  erase(userId: string): Promise<{ botId: string | null }>;
}

/** Deletes conversations past their owner's retention, one batch per call, one instance at a time. */
export interface RetentionSweeper {
  /** 'busy' when another instance holds the batch lock; else how many conversations were deleted. */
  sweepBatch(now: Date, batchSize: number): Promise<number | 'busy'>;
  /** The same for refused messages written before `before`, under the same lock. */
  sweepRefusedBatch(before: Date, batchSize: number): Promise<number | 'busy'>;
}

/** Everything an account holds, read page by page so an export of any size streams. */
export interface AccountArchive {
  account(userId: string): Promise<{ user: User; bot: Bot | null } | null>;
  tokens(botId: string): Promise<BotTokenInfo[]>;
  conversations(botId: string): AsyncIterable<Conversation[]>;
  messages(conversationId: string): AsyncIterable<StoredMessage[]>;
  leads(botId: string): AsyncIterable<Lead[]>;
  notifications(userId: string): AsyncIterable<Notification[]>;
  refusedMessages(botId: string): AsyncIterable<RefusedMessage[]>;
}

/** Why an uploaded CV cannot be read; each is said in words to the owner (4xx). */
export type CvUnreadable =
  | { type: 'empty_file' }
  | { type: 'unsupported_type' }
  | { type: 'too_many_pages'; pages: number; maxPages: number }
  | { type: 'encrypted_pdf' }
  | { type: 'pdf_with_scripts' }
  | { type: 'no_text_layer' }
  | { type: 'no_text' }
  | { type: 'archive_too_large' }
  | { type: 'unreadable_file' }
  | { type: 'took_too_long' };

export interface ReadCv {
  format: 'pdf' | 'docx' | 'markdown' | 'text' | 'linkedin';
  text: string;
}

/** Reads the text of an uploaded document, off the main thread and within limits; stores nothing. */
export interface CvReader {
  read(bytes: Uint8Array, options: { fileName: string | null; maxPages: number }): Promise<{ ok: true; value: ReadCv } | { ok: false; error: CvUnreadable }>;
}

/** Why an uploaded photo cannot be the avatar; each is said in words (4xx). */
export type PhotoUnusable = { type: 'not_an_image' } | { type: 'unsupported_image_type' } | { type: 'too_many_pixels' };

/** Decodes a photo and re-encodes it as the avatar: square, at most 512 px, without metadata. */
export interface ImageProcessor {
  toAvatar(bytes: Uint8Array): Promise<{ ok: true; value: Uint8Array } | { ok: false; error: PhotoUnusable }>;
}

/** The re-encoded photos, one per bot, named by the SHA-256 of their bytes. */
export interface BotPhotoStore {
  /** Stores the photo as the bot's avatar and returns its SHA-256 (hex). */
  save(botId: string, image: Uint8Array, now: Date): Promise<string>;
  remove(botId: string): Promise<void>;
  /** The photo of an active bot, when `sha256` is its current one. */
  find(botId: string, sha256: string): Promise<Uint8Array | null>;
}

/** The messages the filter refused: kept for the owner to read, and counted per UTC day and reason for the insights. */
export interface RefusedMessageRepository {
  /**
   * Keeps the refused message and counts it on its bot's (UTC day, reason), in one statement.
   * A bot deleted meanwhile keeps and counts nothing.
   */
  add(refusal: { botId: string; reason: string; content: string }, now: Date): Promise<void>;
  /**
   * The same for a refusal a self-hosted runtime reports under its own `reportId`: a report
   * already kept (a retry, or two at once) keeps and counts nothing more. True when kept now.
   */
  addReported(refusal: { botId: string; reason: string; content: string; reportId: string }, now: Date): Promise<boolean>;
  /** The bot's refused messages, newest first. */
  list(botId: string, page: PageRequest): Promise<Page<RefusedMessage>>;
}

export interface InsightsDay {
  /** YYYY-MM-DD, UTC */
  date: string;
  conversations: number;
  /** Messages of the conversations that started that day. */
  messages: number;
  leads: number;
}

export interface TopQuestion {
  question: string;
  count: number;
  /** The latest conversations that opened with it, newest first (at most 5). */
  conversationIds: string[];
}

/** The numbers of the insights page, for one bot since a UTC day. */
export interface InsightsReader {
  perDay(botId: string, since: Date): Promise<InsightsDay[]>;
  conversationsWithLead(botId: string, since: Date): Promise<number>;
  topQuestions(botId: string, since: Date, limit: number): Promise<TopQuestion[]>;
  refusals(botId: string, since: Date): Promise<{ reason: string; count: number }[]>;
}
