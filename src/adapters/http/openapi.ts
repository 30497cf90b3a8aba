import { z } from 'zod';
import { BLOCK_REASONS } from '@careerbot/guardrails';
import { DEPLOYMENT_MODES, LLM_PROVIDERS, NOTIFICATION_KINDS, PERSONALITIES } from '../../domain/types.ts';
import { CHAT_BODY_LIMIT } from './chat-routes.ts';
import { botTokenBody, conversationBody, knowledgeBody, leadBody } from './runtime-schemas.ts';
import {
  accountSettingsBody,
  botSettingsBody,
  botUpsertBody,
  chatBody,
  credentialsBody,
  notificationsQuery,
  pageQuery,
  registerBody,
  signOutBody,
} from './schemas.ts';

// The API reference: every served operation with the zod schema its route validates
// with (the same objects), plus response shapes. /api/openapi.json and /api/docs are
// generated from this list; a test checks it against the routes actually served.

type Security = 'none' | 'session' | 'botToken' | 'llmKey' | 'metricsToken';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface OperationDoc {
  method: 'get' | 'post' | 'patch' | 'delete';
  path: string;
  tag: string;
  summary: string;
  description?: string;
  security: Security;
  body?: z.ZodType;
  /** Content types the body may come in; JSON by default. */
  bodyContentTypes?: string[];
  query?: z.ZodObject;
  headers?: { name: string; required: boolean; description: string }[];
  responses: Record<number, ResponseDoc>;
}

// ---------------------------------------------------------------- response shapes

const iso = z.string().meta({ format: 'date-time', description: 'ISO 8601 with milliseconds and Z' });
const uuid = z.string().meta({ format: 'uuid' });

const botConfigViewSchema = z.object({
  id: uuid,
  name: z.string(),
  headline: z.string().nullable(),
  personality: z.enum(PERSONALITIES),
  themeColor: z.string(),
  image: z.string().meta({ description: 'Path of the public SVG avatar' }),
  suggestedQuestions: z.array(z.string()),
  loadingMessages: z.array(z.string()),
  isActive: z.boolean(),
  deploymentMode: z.enum(DEPLOYMENT_MODES),
});
const publicBotViewSchema = botConfigViewSchema.extend({
  llmProvider: z.enum(LLM_PROVIDERS).meta({ description: 'The provider whose key a visitor brings (x-llm-api-key)' }),
});
const error = (code: string, extra: z.ZodRawShape = {}) => z.object({ error: z.literal(code), ...extra });
const details = z.object({
  fieldErrors: z.record(z.string(), z.array(z.string())),
  formErrors: z.array(z.string()),
});
const ownerValidation = error('Validation failed', { details });
const codeValidation = error('validation_failed', { details });

const bot = z.object({
  id: uuid,
  userId: uuid,
  name: z.string(),
  headline: z.string().nullable(),
  personality: z.enum(PERSONALITIES),
  contextText: z.string(),
  suggestedQuestions: z.array(z.string()),
  loadingMessages: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: iso,
  updatedAt: iso,
});

const botOverview = z.object({
  bot,
  settings: z.object({
    themeColor: z.string().meta({ description: '#rrggbb' }),
    deploymentMode: z.enum(DEPLOYMENT_MODES),
    rateLimits: z.object({
      perMinute: z.number().int().meta({ description: 'Effective value (default 10)' }),
      perDay: z.number().int().meta({ description: 'Effective value (default 50)' }),
    }),
  }),
  stats: z.object({ totalConversations: z.number().int(), totalMessages: z.number().int(), totalLeads: z.number().int() }),
  llm: z.object({
    provider: z.enum(LLM_PROVIDERS).nullable(),
    model: z.string().nullable().meta({ description: 'The model, or the Azure deployment name' }),
  }).meta({ description: 'The owner’s provider and model, which answer for the bot' }),
});

const page = (item: z.ZodType) =>
  z.object({ items: z.array(item), nextCursor: z.string().nullable().meta({ description: 'null on the last page' }) });

const conversationFields = {
  id: uuid,
  sessionId: uuid,
  messageCount: z.number().int(),
  startedAt: iso,
  lastMessageAt: iso,
};
const lead = z.object({
  id: uuid,
  email: z.string(),
  capturedAt: iso,
  conversationId: uuid.nullable(),
  contextSummary: z.string().nullable(),
});
const notification = z.object({
  id: uuid,
  kind: z.enum(NOTIFICATION_KINDS),
  payload: z.record(z.string(), z.unknown()),
  createdAt: iso,
  readAt: iso.nullable(),
});

const tokenInfo = z.object({
  id: uuid,
  name: z.string(),
  lastFour: z.string().meta({ description: 'The last four characters of the token' }),
  createdAt: iso,
  expiresAt: iso.nullable(),
  lastUsedAt: iso.nullable().meta({ description: 'Written at most once a minute' }),
  revokedAt: iso.nullable(),
});

const botTokenRejected: ResponseDoc = {
  description: 'No or malformed bearer token (missing_bot_token); unknown, revoked or expired token (invalid_bot_token)',
  schema: z.object({ error: z.enum(['missing_bot_token', 'invalid_bot_token']) }),
  headers: { 'WWW-Authenticate': 'Bearer' },
};
const v1Common: Record<number, ResponseDoc> = {
  400: { description: 'Invalid JSON, or validation failed', schema: z.union([error('invalid_json'), codeValidation]) },
  401: botTokenRejected,
  404: { description: 'The bot is inactive', schema: error('bot_not_found') },
  413: { description: 'Body over 512 KiB', schema: error('request_too_large') },
  429: {
    description: 'The endpoint’s rate limit for this bot (short: per minute, long: per day)',
    schema: error('rate_limited', { scope: z.enum(['short', 'long']), resetAt: z.number().int().meta({ description: 'Epoch milliseconds' }) }),
    headers: { 'Retry-After': 'Seconds until the next request is admitted' },
  },
};
const V1_ORDER =
  'Checked in this order: token (401), body size (413), JSON (400 invalid_json), validation (400 validation_failed), inactive bot (404 bot_not_found), rate limit (429 rate_limited), then the work. CORS: any origin, no credentials.';

const unauthorized: ResponseDoc = { description: 'No valid session cookie', schema: error('Unauthorized') };
const forbidden: ResponseDoc = {
  description: 'Origin header names another origin (cookie-authenticated changes only)',
  schema: error('Forbidden'),
};
const botNotFound: ResponseDoc = { description: 'The user has not saved a bot yet', schema: error('Bot not found') };
const notFound: ResponseDoc = { description: 'Unknown id, another user’s id, or not a UUID', schema: error('Not found') };
const validationFailed: ResponseDoc = { description: 'Validation failed', schema: ownerValidation };
const retryAfter = { 'Retry-After': 'Seconds until a request can succeed (whole seconds, rounded up)' };

// ---------------------------------------------------------------- operations

export const OPERATIONS: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/auth/register',
    tag: 'Accounts',
    summary: 'Register an account',
    description:
      'Creates a user. The user is not signed in afterwards. `username` is trimmed and lower-cased, 3-30 of a-z 0-9 _ -, starting with a letter or digit; `email` is trimmed, lower-cased, at most 254 characters; `password` is 8 to 72 bytes. The e-mail is checked before the username.',
    security: 'none',
    body: registerBody,
    responses: {
      201: { description: 'Created', schema: z.object({ user: z.object({ id: uuid, username: z.string(), email: z.string() }) }) },
      400: { description: 'Invalid JSON body, or validation failed', schema: z.union([error('Invalid JSON body'), ownerValidation]) },
      409: {
        description: 'E-mail taken (checked first), username taken, or a concurrent registration won the race',
        schema: z.object({
          error: z.enum([
            'A user with this email already exists',
            'A user with this username already exists',
            'Email or username already exists',
          ]),
        }),
      },
      429: {
        description: 'Too many registrations from this client address in the current 15-minute window (REGISTRATIONS_PER_ADDRESS, default 10)',
        headers: retryAfter,
        schema: error('TooManyRequests'),
      },
    },
  },
  {
    method: 'get',
    path: '/api/auth/csrf',
    tag: 'Sign-in',
    summary: 'Get a CSRF token',
    description: 'Sets the `careerbot.csrf-token` cookie (double-submit); send the token back in sign-in and sign-out bodies.',
    security: 'none',
    responses: { 200: { description: 'The token', schema: z.object({ csrfToken: z.string() }) } },
  },
  {
    method: 'get',
    path: '/api/auth/providers',
    tag: 'Sign-in',
    summary: 'List sign-in providers (Auth.js shape)',
    security: 'none',
    responses: {
      200: {
        description: 'The credentials provider',
        schema: z.object({
          credentials: z.object({
            id: z.literal('credentials'),
            name: z.string(),
            type: z.literal('credentials'),
            signinUrl: z.string(),
            callbackUrl: z.string(),
          }),
        }),
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/callback/credentials',
    tag: 'Sign-in',
    summary: 'Sign in with e-mail (or username) and password',
    description:
      'The Auth.js credentials flow. JSON or form-encoded. Answers JSON `{ url }` for JSON requests and `json=true`, else redirects (302) to `callbackUrl` (same-origin only, else `/`). Sets the `careerbot.session-token` cookie (httpOnly, SameSite=Lax, 30-day rolling; Secure in production) and a fresh session id. Throttled after 10 failures per account and client address, or 100 per address, in 15 minutes.',
    security: 'none',
    body: credentialsBody,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'Signed in', schema: z.object({ url: z.string().meta({ description: 'Absolute' }) }) },
      302: { description: 'Signed in (form), or failed: redirect to /login?error=CredentialsSignin' },
      401: { description: 'Wrong credentials', schema: error('CredentialsSignin', { url: z.string() }) },
      403: { description: 'Missing or wrong CSRF token, or a foreign Origin', schema: z.object({ error: z.enum(['MissingCSRF', 'Forbidden']) }) },
      429: { description: 'Too many failed sign-ins', schema: error('TooManyRequests'), headers: retryAfter },
    },
  },
  {
    method: 'get',
    path: '/api/auth/session',
    tag: 'Sign-in',
    summary: 'The current session',
    security: 'none',
    responses: {
      200: {
        description: '`{}` when not signed in',
        schema: z.union([
          z.object({ user: z.object({ id: uuid, name: z.string(), email: z.string() }), expires: iso }),
          z.object({}),
        ]),
      },
    },
  },
  {
    method: 'post',
    path: '/api/auth/signout',
    tag: 'Sign-in',
    summary: 'Sign out',
    description: 'Destroys the session in the store: the cookie stops working at once. Needs the CSRF token.',
    security: 'none',
    body: signOutBody,
    bodyContentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    responses: {
      200: { description: 'Signed out', schema: z.object({ url: z.string() }) },
      302: { description: 'Signed out (form): redirect to callbackUrl' },
      403: { description: 'Missing CSRF token or foreign Origin', schema: z.object({ error: z.enum(['MissingCSRF', 'Forbidden']) }) },
    },
  },
  {
    method: 'get',
    path: '/api/bots',
    tag: 'Bot',
    summary: 'Read the bot, its settings and counters',
    security: 'session',
    responses: { 200: { description: 'The bot', schema: botOverview }, 401: unauthorized, 404: botNotFound },
  },
  {
    method: 'post',
    path: '/api/bots',
    tag: 'Bot',
    summary: 'Create or update the bot',
    description:
      'Upserts the signed-in user’s single bot in one transaction and records the provider and model on the user. `llmModel` defaults to claude-haiku-4-5, gpt-4o-mini or gemini-2.5-flash; for azure it is the deployment name and required. Lengths count Unicode code points; strings are trimmed. Key-like fields (`apiKey`, `llmApiKey`, `api_key`, `key`, `x-llm-api-key`) are refused; other unknown fields are ignored.',
    security: 'session',
    body: botUpsertBody,
    responses: {
      200: { description: 'Updated; updatedAt advanced', schema: z.object({ bot }) },
      201: { description: 'Created', schema: z.object({ bot }) },
      400: { description: 'Invalid JSON body, or validation failed', schema: z.union([error('Invalid JSON body'), ownerValidation]) },
      401: unauthorized,
      403: forbidden,
    },
  },
  {
    method: 'patch',
    path: '/api/bots/settings',
    tag: 'Bot',
    summary: 'Change the bot’s settings',
    description: 'Any of the fields; omitted ones stay. A rate limit of null restores the default. Applies at once.',
    security: 'session',
    body: botSettingsBody,
    responses: {
      200: { description: 'The bot, as GET /api/bots', schema: botOverview },
      400: { description: 'Invalid JSON body, or validation failed', schema: z.union([error('Invalid JSON body'), ownerValidation]) },
      401: unauthorized,
      403: forbidden,
      404: botNotFound,
    },
  },
  {
    method: 'post',
    path: '/api/chat/{botId}',
    tag: 'Chat',
    summary: 'Send a visitor message to a bot',
    description: `Checked in this order, the first failing step deciding: content type (415), key header (400 missing_llm_key), body size over ${CHAT_BODY_LIMIT} bytes (413), JSON (400 invalid_json), message 1-8,000 code points after trimming (400 validation_failed), active bot (404), per-bot rate limit (429 rate_limit), message filter (400 blocked), provider dispatch (Azure endpoint: 400 missing_llm_key), provider call, reply cleaning. The owner's provider and model answer; the caller cannot choose them. CORS: any origin, no credentials.`,
    security: 'llmKey',
    body: chatBody,
    headers: [
      { name: 'x-llm-azure-endpoint', required: false, description: 'Required when the owner’s provider is azure; must be on the allowed hosts' },
      { name: 'x-llm-azure-api-version', required: false, description: 'Azure only; default 2024-10-21' },
    ],
    responses: {
      200: { description: 'The cleaned reply (never empty)', schema: z.object({ reply: z.string() }) },
      400: {
        description: 'Missing key, invalid JSON, validation failed, blocked by the message filter, or a key the provider rejected',
        schema: z.union([
          error('missing_llm_key'),
          error('invalid_json'),
          codeValidation,
          error('blocked', { reason: z.enum(BLOCK_REASONS) }),
          error('invalid_llm_key'),
        ]),
      },
      404: { description: 'Unknown or inactive bot', schema: error('bot_not_found') },
      413: { description: 'Body over 16,384 bytes', schema: error('request_too_large') },
      415: { description: 'Content-Type is not application/json', schema: error('unsupported_media_type') },
      429: {
        description: 'The bot’s rate limit (short: per minute, long: per day), or the provider’s',
        schema: z.union([
          error('rate_limit', { scope: z.enum(['short', 'long']), resetAt: z.number().int().meta({ description: 'Epoch milliseconds' }) }),
          error('provider_rate_limit'),
        ]),
        headers: retryAfter,
      },
      502: { description: 'Provider down, timed out, or answered something unusable', schema: error('provider_unavailable') },
    },
  },
  {
    method: 'get',
    path: '/api/bots/conversations',
    tag: 'Dashboard',
    summary: 'List conversations, newest first',
    security: 'session',
    query: pageQuery,
    responses: {
      200: { description: 'One page', schema: page(z.object({ ...conversationFields, preview: z.string() })) },
      400: validationFailed,
      401: unauthorized,
      404: botNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/bots/conversations/{id}',
    tag: 'Dashboard',
    summary: 'One transcript',
    security: 'session',
    responses: {
      200: {
        description: 'The conversation and its messages, oldest first',
        schema: z.object({
          conversation: z.object(conversationFields),
          messages: z.array(z.object({ role: z.enum(['user', 'assistant']), content: z.string(), createdAt: iso })),
        }),
      },
      401: unauthorized,
      404: { description: 'No bot yet, or an unknown, foreign or non-UUID id', schema: z.object({ error: z.enum(['Bot not found', 'Not found']) }) },
    },
  },
  {
    method: 'get',
    path: '/api/bots/leads',
    tag: 'Dashboard',
    summary: 'List leads, newest first',
    security: 'session',
    query: pageQuery,
    responses: { 200: { description: 'One page', schema: page(lead) }, 400: validationFailed, 401: unauthorized, 404: botNotFound },
  },
  {
    method: 'get',
    path: '/api/bots/leads.csv',
    tag: 'Dashboard',
    summary: 'Export every lead as CSV',
    description:
      'RFC 4180, UTF-8 with a byte-order mark, CRLF line ends, header `id,email,capturedAt,conversationId,contextSummary`. A cell starting with = + - @, tab or carriage return is prefixed with a single quote.',
    security: 'session',
    responses: {
      200: { description: 'The CSV file', contentType: 'text/csv; charset=utf-8', schema: z.string() },
      401: unauthorized,
      404: botNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/notifications',
    tag: 'Dashboard',
    summary: 'List notifications, newest first',
    description: '`unreadCount` counts all the user’s unread notifications, whatever the page.',
    security: 'session',
    query: notificationsQuery,
    responses: {
      200: {
        description: 'One page',
        schema: z.object({ items: z.array(notification), nextCursor: z.string().nullable(), unreadCount: z.number().int() }),
      },
      400: validationFailed,
      401: unauthorized,
    },
  },
  {
    method: 'post',
    path: '/api/notifications/{id}/read',
    tag: 'Dashboard',
    summary: 'Mark one notification read',
    security: 'session',
    responses: {
      200: { description: 'Marked (again is fine)', schema: z.object({ unreadCount: z.number().int() }) },
      401: unauthorized,
      403: forbidden,
      404: notFound,
    },
  },
  {
    method: 'post',
    path: '/api/notifications/read-all',
    tag: 'Dashboard',
    summary: 'Mark every notification read',
    security: 'session',
    responses: {
      200: { description: 'How many changed', schema: z.object({ updated: z.number().int(), unreadCount: z.literal(0) }) },
      401: unauthorized,
      403: forbidden,
    },
  },
  {
    method: 'get',
    path: '/api/account/settings',
    tag: 'Dashboard',
    summary: 'Account settings',
    security: 'session',
    responses: { 200: { description: 'Settings', schema: z.object({ notifyLeadsEmail: z.boolean() }) }, 401: unauthorized },
  },
  {
    method: 'patch',
    path: '/api/account/settings',
    tag: 'Dashboard',
    summary: 'Change account settings',
    description: '`notifyLeadsEmail`: e-mail the account address when a new lead is captured (best effort).',
    security: 'session',
    body: accountSettingsBody,
    responses: {
      200: { description: 'Settings', schema: z.object({ notifyLeadsEmail: z.boolean() }) },
      400: { description: 'Invalid JSON body, or validation failed', schema: z.union([error('Invalid JSON body'), ownerValidation]) },
      401: unauthorized,
      403: forbidden,
    },
  },
  {
    method: 'post',
    path: '/api/bots/tokens',
    tag: 'Bot tokens',
    summary: 'Mint a bot token',
    description: 'The token (`cbt_` + 64 hex) is shown this once; only its SHA-256 is stored. Give it to the widget as `dashboard.token`.',
    security: 'session',
    body: botTokenBody,
    responses: {
      201: { description: 'Minted', schema: z.object({ token: z.string(), tokenInfo }) },
      400: { description: 'Invalid JSON body, or validation failed', schema: z.union([error('Invalid JSON body'), ownerValidation]) },
      401: unauthorized,
      403: forbidden,
      404: botNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/bots/tokens',
    tag: 'Bot tokens',
    summary: 'List the bot’s tokens',
    security: 'session',
    responses: { 200: { description: 'Newest first', schema: z.object({ tokens: z.array(tokenInfo) }) }, 401: unauthorized, 404: botNotFound },
  },
  {
    method: 'delete',
    path: '/api/bots/tokens/{id}',
    tag: 'Bot tokens',
    summary: 'Revoke a token',
    description: 'Takes effect on the token’s next request. Revoking twice is fine.',
    security: 'session',
    responses: {
      204: { description: 'Revoked' },
      401: unauthorized,
      403: forbidden,
      404: { description: 'No bot yet, or an unknown, foreign or non-UUID id', schema: z.object({ error: z.enum(['Bot not found', 'Not found']) }) },
    },
  },
  {
    method: 'get',
    path: '/api/v1/bot/config',
    tag: 'Runtime API (v1)',
    summary: 'The bot’s configuration view',
    description: `Served for inactive bots too (isActive false). Supports ETag / If-None-Match (304). ${V1_ORDER}`,
    security: 'botToken',
    responses: {
      200: {
        description: 'The view',
        headers: { ETag: 'Changes whenever a field of the view changes' },
        schema: botConfigViewSchema,
      },
      304: { description: 'Not modified (If-None-Match matched)' },
      401: botTokenRejected,
    },
  },
  {
    method: 'post',
    path: '/api/v1/bot/knowledge',
    tag: 'Runtime API (v1)',
    summary: 'Knowledge for a query: the whole context, or the best chunks',
    description: `Without embeddingApiKey: { mode: 'full_context', context }. With it: { mode: 'retrieval', chunks } (at most 5, best first; chunk embeddings are cached, so later queries embed only the query). Limits: 30 a minute, 1,000 a day per bot. ${V1_ORDER}`,
    security: 'botToken',
    body: knowledgeBody,
    responses: {
      200: {
        description: 'Knowledge',
        schema: z.union([
          z.object({ mode: z.literal('full_context'), context: z.string() }),
          z.object({ mode: z.literal('retrieval'), chunks: z.array(z.string()) }),
        ]),
      },
      ...v1Common,
      400: {
        description: 'Invalid JSON, validation failed, or the embeddings provider rejected the key',
        schema: z.union([error('invalid_json'), codeValidation, error('invalid_embedding_key')]),
      },
      429: {
        description: 'This endpoint’s rate limit (rate_limited), or the embeddings provider’s (provider_rate_limit)',
        schema: z.union([
          error('rate_limited', { scope: z.enum(['short', 'long']), resetAt: z.number().int() }),
          error('provider_rate_limit'),
        ]),
        headers: retryAfter,
      },
      502: { description: 'The embeddings provider failed', schema: error('provider_unavailable') },
    },
  },
  {
    method: 'post',
    path: '/api/v1/bot/conversations',
    tag: 'Runtime API (v1)',
    summary: 'Save a chat session’s transcript',
    description: `Upsert on (bot, sessionId). Retry-safe: when the stored transcript ends with the first k messages sent (largest k), only the rest is appended, so resending the whole history or retrying a save adds no duplicates. A conversation keeps at most 2,000 messages. The first save emits a conversation_started notification. Default limits: 10 a minute, 50 a day per bot (owner-adjustable). ${V1_ORDER}`,
    security: 'botToken',
    body: conversationBody,
    responses: {
      200: { description: 'Saved into an existing conversation', schema: z.object({ conversationId: uuid }) },
      201: { description: 'First save of this session', schema: z.object({ conversationId: uuid }) },
      ...v1Common,
      422: { description: 'Would pass 2,000 messages; nothing was appended', schema: error('conversation_full') },
    },
  },
  {
    method: 'post',
    path: '/api/v1/bot/leads',
    tag: 'Runtime API (v1)',
    summary: 'Capture a recruiter lead',
    description: `Deduplicated on (bot, conversationId, email), a missing conversationId counting as one value. A new lead emits a lead_captured notification and, when the owner asked for it, a best-effort e-mail. Default limits: 10 a minute, 50 a day per bot (owner-adjustable). ${V1_ORDER}`,
    security: 'botToken',
    body: leadBody,
    responses: {
      200: {
        description: 'Already captured: the original lead',
        schema: z.object({ lead: z.object({ id: uuid, email: z.string(), capturedAt: iso }), deduped: z.literal(true) }),
      },
      201: {
        description: 'New lead',
        schema: z.object({ lead: z.object({ id: uuid, email: z.string(), capturedAt: iso }), deduped: z.literal(false) }),
      },
      ...v1Common,
    },
  },
  {
    method: 'get',
    path: '/api/bots/{botId}/public',
    tag: 'Runtime API (v1)',
    summary: 'The public view of an active bot (managed widget, public page)',
    description:
      'No authentication; CORS: any origin. The config view’s fields and the provider whose key a visitor brings; nothing private (no context, owner, model or counters). `Cache-Control: public, max-age=60`; strong ETag, If-None-Match answers 304.',
    security: 'none',
    responses: {
      200: { description: 'The view', headers: { ETag: 'Changes whenever a field of the view changes' }, schema: publicBotViewSchema },
      304: { description: 'Not modified (If-None-Match matched)' },
      404: { description: 'Unknown, inactive or non-UUID bot', schema: error('bot_not_found') },
    },
  },
  {
    method: 'get',
    path: '/api/avatars/{file}',
    tag: 'Runtime API (v1)',
    summary: 'The bot’s generated SVG avatar (public)',
    description: '`file` is `<botId>.svg`, as in the config view’s `image`. No authentication; CORS: any origin.',
    security: 'none',
    responses: {
      200: { description: 'SVG with the bot’s initials', contentType: 'image/svg+xml', schema: z.string() },
      404: { description: 'Unknown bot', schema: error('not_found') },
    },
  },
  {
    method: 'get',
    path: '/metrics',
    tag: 'Operations',
    summary: 'Prometheus metrics (for a bearer of METRICS_TOKEN)',
    description:
      'Requests by route template and status with latency histograms, provider calls by provider and outcome, rate-limit refusals, blocked messages by category, the database pool and lead e-mails. Served here only with `Authorization: Bearer <METRICS_TOKEN>`; anyone else gets the ordinary 404. `METRICS_PORT` serves the same on its own loopback listener.',
    security: 'metricsToken',
    responses: {
      200: { description: 'The Prometheus text format', contentType: 'text/plain; version=0.0.4; charset=utf-8', schema: z.string() },
      404: { description: 'No METRICS_TOKEN configured, or not its bearer', schema: error('not_found') },
    },
  },
  {
    method: 'get',
    path: '/healthz',
    tag: 'Operations',
    summary: 'Process up',
    security: 'none',
    responses: { 200: { description: 'Up', schema: z.object({ status: z.literal('ok') }) } },
  },
  {
    method: 'get',
    path: '/readyz',
    tag: 'Operations',
    summary: 'Database reachable and migrations applied',
    security: 'none',
    responses: {
      200: { description: 'Ready', schema: z.object({ status: z.literal('ready') }) },
      503: { description: 'Not ready', schema: error('service_unavailable'), headers: retryAfter },
    },
  },
];

export const DOCS_OPERATIONS: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/openapi.json',
    tag: 'Operations',
    summary: 'This document (OpenAPI 3.1)',
    security: 'none',
    responses: { 200: { description: 'The OpenAPI document' } },
  },
  {
    method: 'get',
    path: '/api/docs',
    tag: 'Operations',
    summary: 'A readable reference generated from the OpenAPI document',
    security: 'none',
    responses: { 200: { description: 'HTML', contentType: 'text/html; charset=utf-8' } },
  },
];

// ---------------------------------------------------------------- generation

/** The JSON Schema of what a client sends (io: input), as OpenAPI 3.1 embeds it. */
export const requestJsonSchema = (schema: z.ZodType) => {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return jsonSchema;
};

const responseJsonSchema = (schema: z.ZodType) => {
  const { $schema: _dialect, ...jsonSchema } = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return jsonSchema;
};

const SECURITY: Record<Exclude<Security, 'none'>, object> = {
  session: { type: 'apiKey', in: 'cookie', name: 'careerbot.session-token', description: 'Session cookie from sign-in' },
  botToken: { type: 'http', scheme: 'bearer', description: 'Bot token: cbt_ followed by 64 lowercase hex characters' },
  llmKey: { type: 'apiKey', in: 'header', name: 'x-llm-api-key', description: 'The caller’s own LLM provider key; never stored' },
  metricsToken: { type: 'http', scheme: 'bearer', description: 'The operator’s METRICS_TOKEN' },
};

const COMMON_RESPONSES: Record<number, ResponseDoc> = {
  500: { description: 'Unexpected failure (no details are given)', schema: error('internal_error') },
  503: { description: 'Database unreachable; retry later', schema: error('service_unavailable'), headers: retryAfter },
};

const parameters = (operation: OperationDoc) => {
  const pathParams = [...operation.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const queryShape = operation.query ? (requestJsonSchema(operation.query) as { properties?: Record<string, object> }) : {};
  const queryParams = Object.entries(queryShape.properties ?? {}).map(([name, schema]) => ({
    name,
    in: 'query',
    required: false,
    schema,
    ...('description' in schema ? { description: (schema as { description: string }).description } : {}),
  }));
  const headers = (operation.headers ?? []).map((header) => ({
    name: header.name,
    in: 'header',
    required: header.required,
    description: header.description,
    schema: { type: 'string' },
  }));
  return [...pathParams, ...queryParams, ...headers];
};

/** Every answer an operation documents, its own and the API-wide 500 and 503. */
export const documentedResponses = (operation: OperationDoc): Record<number, ResponseDoc> => ({
  ...operation.responses,
  ...(operation.path.startsWith('/api') ? COMMON_RESPONSES : {}),
});

const responses = (operation: OperationDoc) =>
  Object.fromEntries(
    Object.entries(documentedResponses(operation)).map(
      ([status, doc]) => [
        status,
        {
          description: doc.description,
          ...(doc.headers && {
            headers: Object.fromEntries(
              Object.entries(doc.headers).map(([name, description]) => [name, { description, schema: { type: 'integer' } }]),
            ),
          }),
          ...(doc.schema && {
            content: { [doc.contentType ?? 'application/json']: { schema: responseJsonSchema(doc.schema) } },
          }),
        },
      ],
    ),
  );

export const buildOpenApiDocument = (operations: OperationDoc[]) => {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = {
      tags: [operation.tag],
      summary: operation.summary,
      ...(operation.description && { description: operation.description }),
      operationId: `${operation.method}${operation.path.replace(/[^A-Za-z0-9]+(\w)?/g, (_m, c: string = '') => c.toUpperCase())}`,
      security: operation.security === 'none' ? [] : [{ [operation.security]: [] }],
      parameters: parameters(operation),
      ...(operation.body && {
        requestBody: {
          required: true,
          content: Object.fromEntries(
            (operation.bodyContentTypes ?? ['application/json']).map((type) => [type, { schema: requestJsonSchema(operation.body!) }]),
          ),
        },
      }),
      responses: responses(operation),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Career Bot Platform API',
      version: '1.0.0',
      description:
        'Accounts and sign-in (Auth.js credentials shapes), the owner’s bot and dashboard (session cookie), visitor chat (the caller’s own LLM key), and the bot runtime API for self-hosted widgets (`/api/v1/bot/*`, bot token). Timestamps are ISO 8601 with milliseconds and Z. Lists are cursor-paginated newest first: pass `nextCursor` back as `cursor` until it is null.',
    },
    tags: [...new Set(operations.map((operation) => operation.tag))].map((name) => ({ name })),
    paths,
    components: { securitySchemes: SECURITY },
  };
};

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
