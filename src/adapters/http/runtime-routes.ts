import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import type { makeAuthenticateBotToken } from '../../application/authenticate-bot-token.ts';
import type { makeCaptureLead } from '../../application/capture-lead.ts';
import type { makeGetBotAvatar, makeGetBotConfig, makeGetPublicBot, PublicBot } from '../../application/get-bot-config.ts';
import type { makeRetrieveKnowledge } from '../../application/retrieve-knowledge.ts';
import type { makeKeepReportedRefusal } from '../../application/keep-reported-refusal.ts';
import type { makeSaveConversation } from '../../application/save-conversation.ts';
import { DEPLOYMENT_MODES, LLM_PROVIDERS, PERSONALITIES, type Lead } from '../../domain/types.ts';
import { currentBot, requireBotToken } from './bot-token-auth.ts';
import { avatarPath } from './avatar-path.ts';
import { avatarErrorReply, publicBotErrorReply, reply, runtimeErrorReply } from './http-errors.ts';
import { bodyRefusals, errorBody, errorOneOf, HEADERS, isoTimestamp, uuidString, type OperationDoc, type ResponseDoc } from './operation-doc.ts';
import { conversationBody, knowledgeBody, leadBody, refusedMessageBody } from './runtime-schemas.ts';
import { jsonBody } from './validated.ts';

export interface RuntimeRouteDeps {
  getPublicBot: ReturnType<typeof makeGetPublicBot>;
  authenticateBotToken: ReturnType<typeof makeAuthenticateBotToken>;
  getBotConfig: ReturnType<typeof makeGetBotConfig>;
  getBotAvatar: ReturnType<typeof makeGetBotAvatar>;
  retrieveKnowledge: ReturnType<typeof makeRetrieveKnowledge>;
  saveConversation: ReturnType<typeof makeSaveConversation>;
  captureLead: ReturnType<typeof makeCaptureLead>;
  keepReportedRefusal: ReturnType<typeof makeKeepReportedRefusal>;
}

const RUNTIME_BODY_LIMIT = 512 * 1024;


/** The config view as the API shows it: with the URL path of the bot's avatar as `image`. */
export const withAvatarUrl = <View extends { id: string; photoHash: string | null }>({ photoHash, ...view }: View) => ({
  ...view,
  image: avatarPath(view.id, photoHash),
});

/** v1 checks 2-4, after the token: body size (413), JSON (400 invalid_json), validation (400 validation_failed). */
const V1_BODY = { limit: RUNTIME_BODY_LIMIT, style: 'code' } as const;

/** Strong validator of the config view's JSON: any change of any field changes it. */
const etagOf = (json: string) => `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;

/** If-None-Match holds this ETag (weak comparison, as RFC 9110 asks for GET), or `*`. */
export const matchesEtag = (header: string | undefined, etag: string) =>
  header !== undefined &&
  header.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });

/** JSON with a strong ETag of its bytes; 304 when the client already holds them. */
const sendWithEtag = (req: Request, res: Response, view: unknown) => {
  // The JSON the validator is computed from, serialised once.
  const json = JSON.stringify(view);
  const etag = etagOf(json);
  res.set('ETag', etag);
  if (matchesEtag(req.headers['if-none-match'], etag)) {
    res.status(304).end();
    return;
  }
  res.type('json').send(json);
};

const leadJson = (lead: Lead) => ({ id: lead.id, email: lead.email, capturedAt: lead.capturedAt.toISOString() });

const configViewSchema = z.object({
  id: uuidString,
  name: z.string(),
  headline: z.string().nullable(),
  personality: z.enum(PERSONALITIES),
  themeColor: z.string().regex(/^#[0-9a-fA-F]{6}$/),
  image: z.string().meta({ description: 'Path of the public SVG avatar' }),
  suggestedQuestions: z.array(z.string()),
  loadingMessages: z.array(z.string()),
  isActive: z.boolean(),
  deploymentMode: z.enum(DEPLOYMENT_MODES),
});
const publicViewSchema = configViewSchema.extend({
  llmProvider: z.enum(LLM_PROVIDERS).meta({ description: 'The provider whose key a visitor brings (x-llm-api-key)' }),
  ownerKeyAnswers: z.boolean().meta({ description: 'The owner’s key answers a visitor who brings none: no key needs to be asked for' }),
});
const leadCapturedSchema = (deduped: boolean) =>
  z.object({ lead: z.object({ id: uuidString, email: z.email(), capturedAt: isoTimestamp }), deduped: z.literal(deduped) });

const tokenRefused: ResponseDoc = {
  description: 'No or malformed bearer token (missing_bot_token); unknown, revoked or expired token (invalid_bot_token)',
  schema: errorOneOf(['missing_bot_token', 'invalid_bot_token']),
  headers: HEADERS.wwwAuthenticate,
};
const limited = errorBody('rate_limited', {
  scope: z.enum(['short', 'long']),
  resetAt: z.number().int().meta({ description: 'Epoch milliseconds' }),
});
const v1Common: Record<number, ResponseDoc> = {
  ...bodyRefusals('code', '512 KiB'),
  401: tokenRefused,
  404: { description: 'The bot is inactive', schema: errorBody('bot_not_found') },
  429: {
    description: 'The endpoint’s rate limit for this bot (short: per minute, long: per day)',
    schema: limited,
    headers: HEADERS.retryAfter,
  },
};
const V1_ORDER =
  'Checked in this order: token (401), body size (413), JSON (400 invalid_json), validation (400 validation_failed), inactive bot (404 bot_not_found), rate limit (429 rate_limited), then the work. CORS: any origin, no credentials.';
const notModified: ResponseDoc = { description: 'Not modified (If-None-Match matched)', headers: HEADERS.etag };

export const runtimeOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/v1/bot/config',
    tag: 'Runtime API (v1)',
    summary: 'The bot’s configuration view',
    description: `Served for inactive bots too (isActive false). Supports ETag / If-None-Match (304). ${V1_ORDER}`,
    security: 'botToken',
    responses: {
      200: { description: 'The view', headers: HEADERS.etag, schema: configViewSchema },
      304: notModified,
      401: tokenRefused,
    },
  },
  {
    method: 'post',
    path: '/api/v1/bot/knowledge',
    tag: 'Runtime API (v1)',
    summary: 'Knowledge for a query: the whole context, or the best chunks',
    description: `Without embeddingApiKey: { mode: 'full_context', context }, with a strong ETag: If-None-Match answers 304, so a runtime revalidates its copy without receiving it again. With it: { mode: 'retrieval', chunks } (at most 5, best first; chunk embeddings are cached, so later queries embed only the query). Limits: 30 a minute, 1,000 a day per bot (a 304 counts too). ${V1_ORDER}`,
    security: 'botToken',
    body: knowledgeBody,
    responses: {
      200: {
        description: 'Knowledge (full_context with an ETag)',
        headers: HEADERS.etag,
        schema: z.union([
          z.object({ mode: z.literal('full_context'), context: z.string() }),
          z.object({ mode: z.literal('retrieval'), chunks: z.array(z.string()).max(5) }),
        ]),
      },
      304: notModified,
      ...v1Common,
      ...bodyRefusals('code', '512 KiB', {
        description: 'Invalid JSON, validation failed, or the embeddings provider rejected the key',
        bodies: [errorBody('invalid_embedding_key')],
      }),
      429: {
        description: 'This endpoint’s rate limit (rate_limited), or the embeddings provider’s (provider_rate_limit)',
        schema: z.union([limited, errorBody('provider_rate_limit')]),
        headers: HEADERS.retryAfter,
      },
      502: { description: 'The embeddings provider failed', schema: errorBody('provider_unavailable') },
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
      200: { description: 'Saved into an existing conversation', schema: z.object({ conversationId: uuidString }) },
      201: { description: 'First save of this session', schema: z.object({ conversationId: uuidString }) },
      ...v1Common,
      422: { description: 'Would pass 2,000 messages; nothing was appended', schema: errorBody('conversation_full') },
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
      200: { description: 'Already captured: the original lead', schema: leadCapturedSchema(true) },
      201: { description: 'New lead', schema: leadCapturedSchema(false) },
      ...v1Common,
    },
  },
  {
    method: 'post',
    path: '/api/v1/bot/refused-messages',
    tag: 'Runtime API (v1)',
    summary: 'Report a message the runtime’s filter refused',
    description: `A self-hosted runtime refuses a visitor's message with its own filter; reported here, the message is kept for the owner for 30 days and counted per day and reason, as the platform's own chat keeps its refusals (the dashboard's refused messages and insights). Kept once per id: a report sent again, or twice at once, adds nothing. Default limits: 10 a minute, 50 a day per bot (owner-adjustable). ${V1_ORDER}`,
    security: 'botToken',
    body: refusedMessageBody,
    responses: {
      200: { description: 'Already kept under this id', schema: z.object({ id: uuidString }) },
      201: { description: 'Kept', schema: z.object({ id: uuidString }) },
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
      200: { description: 'The view', headers: HEADERS.etag, schema: publicViewSchema },
      304: notModified,
      404: { description: 'Unknown, inactive or non-UUID bot', schema: errorBody('bot_not_found') },
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
      404: { description: 'Unknown or inactive bot', schema: errorBody('not_found') },
    },
  },
];

/**
 * Mounted at /api/v1/bot behind publicCors. The token check is per route, so a path or
 * method that does not exist is a 404 with or without a token: no PUT, PATCH or DELETE.
 */
export const runtimeRoutes = (d: RuntimeRouteDeps): Router => {
  const router = Router();
  const requireToken = requireBotToken(d.authenticateBotToken);

  router.get('/config', requireToken, async (req, res) => {
    res.set({ 'Cache-Control': 'private, no-cache', Vary: 'Authorization' });
    sendWithEtag(req, res, withAvatarUrl(await d.getBotConfig(currentBot(res))));
  });

  router.post(
    '/knowledge',
    requireToken,
    jsonBody({ schema: knowledgeBody, ...V1_BODY }, async (req, res, body) => {
      const result = await d.retrieveKnowledge({ bot: currentBot(res), ...body });
      if (!result.ok) return reply(res, runtimeErrorReply(result.error, Date.now()));
      if (result.value.mode === 'full_context') return sendWithEtag(req, res, result.value);
      res.json(result.value);
    }),
  );

  router.post(
    '/conversations',
    requireToken,
    jsonBody({ schema: conversationBody, ...V1_BODY }, async (_req, res, body) => {
      const result = await d.saveConversation({ bot: currentBot(res), ...body });
      if (!result.ok) return reply(res, runtimeErrorReply(result.error, Date.now()));
      res.status(result.value.created ? 201 : 200).json({ conversationId: result.value.conversationId });
    }),
  );

  router.post(
    '/leads',
    requireToken,
    jsonBody({ schema: leadBody, ...V1_BODY }, async (_req, res, body) => {
      const result = await d.captureLead({ bot: currentBot(res), ...body });
      if (!result.ok) return reply(res, runtimeErrorReply(result.error, Date.now()));
      const { lead, deduped } = result.value;
      res.status(deduped ? 200 : 201).json({ lead: leadJson(lead), deduped });
    }),
  );

  router.post(
    '/refused-messages',
    requireToken,
    jsonBody({ schema: refusedMessageBody, ...V1_BODY }, async (_req, res, body) => {
      const result = await d.keepReportedRefusal({ bot: currentBot(res), ...body });
      if (!result.ok) return reply(res, runtimeErrorReply(result.error, Date.now()));
      res.status(result.value.kept ? 201 : 200).json({ id: body.id });
    }),
  );

  return router;
};

const AVATAR_FILE = /^(.+)\.svg$/;

/**
 * Mounted at /api/avatars behind publicCors. The SVG is served with a policy that lets it
 * run nothing and load nothing, even when opened directly.
 */
export const avatarRoutes = (d: Pick<RuntimeRouteDeps, 'getBotAvatar'>): Router => {
  const router = Router();

  router.get('/:file', async (req, res) => {
    const botId = AVATAR_FILE.exec(String(req.params.file))?.[1];
    if (!botId) return reply(res, avatarErrorReply({ type: 'not_found' }));
    const result = await d.getBotAvatar(botId);
    if (!result.ok) return reply(res, avatarErrorReply(result.error));
    res
      .set({
        'Content-Type': 'image/svg+xml; charset=utf-8',
        'Content-Security-Policy': "default-src 'none'; sandbox",
        'X-Content-Type-Options': 'nosniff',
        'Cross-Origin-Resource-Policy': 'cross-origin',
        'Cache-Control': 'public, max-age=300',
      })
      .send(result.value.svg);
  });

  return router;
};

/** GET /api/bots/{botId}/public's body: the view, and which provider's key a visitor must bring. */
export const publicBotJson = (bot: PublicBot) => ({ ...withAvatarUrl(bot.view), llmProvider: bot.llmProvider, ownerKeyAnswers: bot.ownerKeyAnswers });

/**
 * Mounted at /api/bots/:botId/public behind publicCors, before the owner routes: the
 * read-only view of an active bot that the managed widget and the bot's public page render.
 * Shared caches may keep it a minute.
 */
export const publicBotRoutes = (d: { getPublicBot: ReturnType<typeof makeGetPublicBot> }): Router => {
  const router = Router({ mergeParams: true });
  router.get('/', async (req, res) => {
    const result = await d.getPublicBot(String((req.params as { botId?: string }).botId));
    if (!result.ok) return reply(res, publicBotErrorReply(result.error));
    res.set('Cache-Control', 'public, max-age=60, must-revalidate');
    // Which provider's key a visitor must bring: the public page and the managed widget ask for it.
    sendWithEtag(req, res, publicBotJson(result.value));
  });
  return router;
};
