import { Router } from 'express';
import { z } from 'zod';
import type { makeListBotTokens, makeMintBotToken, makeRevokeBotToken } from '../../application/bot-tokens.ts';
import type { BotTokenInfo } from '../../domain/types.ts';
import { botTokenErrorReply, reply } from './http-errors.ts';
import { bodyRefusals, isoTimestamp, OWNER_RESPONSES, uuidString, type OperationDoc } from './operation-doc.ts';
import { currentUserId } from './owner-auth.ts';
import { botTokenBody } from './runtime-schemas.ts';
import { jsonBody } from './validated.ts';

export interface TokenRouteDeps {
  mintBotToken: ReturnType<typeof makeMintBotToken>;
  listBotTokens: ReturnType<typeof makeListBotTokens>;
  revokeBotToken: ReturnType<typeof makeRevokeBotToken>;
}

const TOKEN_BODY_LIMIT = 16_384;

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export const tokenInfoJson = (info: BotTokenInfo) => ({
  id: info.id,
  name: info.name,
  lastFour: info.lastFour,
  createdAt: info.createdAt.toISOString(),
  expiresAt: iso(info.expiresAt),
  lastUsedAt: iso(info.lastUsedAt),
  revokedAt: iso(info.revokedAt),
});

export const tokenInfoSchema = z.object({
  id: uuidString,
  name: z.string(),
  lastFour: z.string().length(4).meta({ description: 'The last four characters of the token' }),
  createdAt: isoTimestamp,
  expiresAt: isoTimestamp.nullable(),
  lastUsedAt: isoTimestamp.nullable().meta({ description: 'Written at most once a minute' }),
  revokedAt: isoTimestamp.nullable(),
});

const { unauthorized, forbidden, unsupportedMediaType, botNotFound, botOrIdNotFound } = OWNER_RESPONSES;

export const tokenOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/bots/tokens',
    tag: 'Bot tokens',
    summary: 'Mint a bot token',
    description: 'The token (`cbt_` + 64 hex) is shown this once; only its SHA-256 is stored. Give it to the widget as `dashboard.token`.',
    security: 'session',
    body: botTokenBody,
    responses: {
      201: { description: 'Minted', schema: z.object({ token: z.string().regex(/^cbt_[0-9a-f]{64}$/), tokenInfo: tokenInfoSchema }) },
      ...bodyRefusals('owner', '16 KiB'),
      401: unauthorized,
      403: forbidden,
      415: unsupportedMediaType,
      404: botNotFound,
    },
  },
  {
    method: 'get',
    path: '/api/bots/tokens',
    tag: 'Bot tokens',
    summary: 'List the bot’s tokens',
    security: 'session',
    responses: {
      200: { description: 'Newest first', schema: z.object({ tokens: z.array(tokenInfoSchema) }) },
      401: unauthorized,
      404: botNotFound,
    },
  },
  {
    method: 'delete',
    path: '/api/bots/tokens/{id}',
    tag: 'Bot tokens',
    summary: 'Revoke a token',
    description: 'Takes effect on the token’s next request. Revoking twice is fine.',
    security: 'session',
    responses: { 204: { description: 'Revoked' }, 401: unauthorized, 403: forbidden, 404: botOrIdNotFound, 415: unsupportedMediaType },
  },
];

/** Mounted at /api/bots/tokens behind the session, requireUser and the Origin check. */
export const tokenRoutes = (d: TokenRouteDeps): Router => {
  const router = Router();

  router.post(
    '/',
    jsonBody({ schema: botTokenBody, limit: TOKEN_BODY_LIMIT, style: 'owner' }, async (req, res, body) => {
      const result = await d.mintBotToken(currentUserId(req), body);
      if (!result.ok) return reply(res, botTokenErrorReply(result.error));
      res
        .status(201)
        .set('Cache-Control', 'no-store')
        .json({ token: result.value.token, tokenInfo: tokenInfoJson(result.value.info) });
    }),
  );

  router.get('/', async (req, res) => {
    const result = await d.listBotTokens(currentUserId(req));
    if (!result.ok) return reply(res, botTokenErrorReply(result.error));
    res.json({ tokens: result.value.map(tokenInfoJson) });
  });

  router.delete('/:id', async (req, res) => {
    const result = await d.revokeBotToken(currentUserId(req), String(req.params.id));
    if (!result.ok) return reply(res, botTokenErrorReply(result.error));
    res.status(204).end();
  });

  return router;
};
