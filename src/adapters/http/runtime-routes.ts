import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { makeAuthenticateBotToken } from '../../application/authenticate-bot-token.ts';
import type { makeCaptureLead } from '../../application/capture-lead.ts';
import type { makeGetBotAvatar, makeGetBotConfig, makeGetPublicBot } from '../../application/get-bot-config.ts';
import type { makeRetrieveKnowledge } from '../../application/retrieve-knowledge.ts';
import type { makeSaveConversation } from '../../application/save-conversation.ts';
import type { Lead } from '../../domain/types.ts';
import { currentBot, requireBotToken } from './bot-token-auth.ts';
import { avatarErrorReply, publicBotErrorReply, reply, runtimeErrorReply } from './http-errors.ts';
import { conversationBody, knowledgeBody, leadBody } from './runtime-schemas.ts';
import { jsonBody } from './validated.ts';

export interface RuntimeRouteDeps {
  getPublicBot: ReturnType<typeof makeGetPublicBot>;
  authenticateBotToken: ReturnType<typeof makeAuthenticateBotToken>;
  getBotConfig: ReturnType<typeof makeGetBotConfig>;
  getBotAvatar: ReturnType<typeof makeGetBotAvatar>;
  retrieveKnowledge: ReturnType<typeof makeRetrieveKnowledge>;
  saveConversation: ReturnType<typeof makeSaveConversation>;
  captureLead: ReturnType<typeof makeCaptureLead>;
}

export const RUNTIME_BODY_LIMIT = 512 * 1024;

/** Where the avatar route below serves a bot's picture. */
export const avatarPath = (botId: string) => `/api/avatars/${botId}.svg`;

/** The config view as the API shows it: with the URL path of the bot's avatar as `image`. */
export const withAvatarUrl = <View extends { id: string }>(view: View) => ({ ...view, image: avatarPath(view.id) });

/** v1 checks 2-4, after the token: body size (413), JSON (400 invalid_json), validation (400 validation_failed). */
const V1_BODY = { limit: RUNTIME_BODY_LIMIT, style: 'code' } as const;

/** Strong validator of the config view's JSON: any change of any field changes it. */
const etagOf = (json: string) => `"${createHash('sha256').update(json).digest('base64url').slice(0, 27)}"`;

/** If-None-Match holds this ETag (weak comparison, as RFC 9110 asks for GET), or `*`. */
const matchesEtag = (header: string | undefined, etag: string) =>
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
    jsonBody({ schema: knowledgeBody, ...V1_BODY }, async (_req, res, body) => {
      const result = await d.retrieveKnowledge({ bot: currentBot(res), ...body });
      if (!result.ok) return reply(res, runtimeErrorReply(result.error, Date.now()));
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
    sendWithEtag(req, res, { ...withAvatarUrl(result.value.view), llmProvider: result.value.llmProvider });
  });
  return router;
};
