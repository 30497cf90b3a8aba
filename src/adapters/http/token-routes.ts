import { Router } from 'express';
import type { makeListBotTokens, makeMintBotToken, makeRevokeBotToken } from '../../application/bot-tokens.ts';
import type { BotTokenInfo } from '../../domain/types.ts';
import { botTokenErrorReply, reply } from './http-errors.ts';
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
