import { Router } from 'express';
import type { BotOverview, makeGetBotOverview, makeUpdateBotSettings } from '../../application/bot-settings.ts';
import type { makeUpsertBot } from '../../application/upsert-bot.ts';
import type { Bot } from '../../domain/types.ts';
import { ownerErrorReply, reply } from './http-errors.ts';
import { currentUserId } from './owner-auth.ts';
import { botSettingsBody, botUpsertBody } from './schemas.ts';
import { jsonBody } from './validated.ts';

export interface BotRouteDeps {
  upsertBot: ReturnType<typeof makeUpsertBot>;
  getBotOverview: ReturnType<typeof makeGetBotOverview>;
  updateBotSettings: ReturnType<typeof makeUpdateBotSettings>;
}

/** contextText may be 50,000 code points of up to 4 bytes each. */
export const OWNER_BODY_LIMIT = 1024 * 1024;

export const botJson = (bot: Bot) => ({
  id: bot.id,
  userId: bot.userId,
  name: bot.name,
  headline: bot.headline,
  personality: bot.personality,
  contextText: bot.contextText,
  suggestedQuestions: bot.suggestedQuestions,
  loadingMessages: bot.loadingMessages,
  isActive: bot.isActive,
  createdAt: bot.createdAt.toISOString(),
  updatedAt: bot.updatedAt.toISOString(),
});

export const overviewJson = (overview: BotOverview) => ({ ...overview, bot: botJson(overview.bot) });

/** Mounted at /api/bots behind requireUser and the Origin check. */
export const botRoutes = (d: BotRouteDeps): Router => {
  const router = Router();

  router.get('/', async (req, res) => {
    const result = await d.getBotOverview(currentUserId(req));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.json(overviewJson(result.value));
  });

  router.post(
    '/',
    jsonBody({ schema: botUpsertBody, limit: OWNER_BODY_LIMIT, style: 'owner' }, async (req, res, body) => {
      const { bot, created } = await d.upsertBot(currentUserId(req), body);
      res.status(created ? 201 : 200).json({ bot: botJson(bot) });
    }),
  );

  router.patch(
    '/settings',
    jsonBody({ schema: botSettingsBody, limit: OWNER_BODY_LIMIT, style: 'owner' }, async (req, res, body) => {
      const result = await d.updateBotSettings(currentUserId(req), body);
      if (!result.ok) return reply(res, ownerErrorReply(result.error));
      res.json(overviewJson(result.value));
    }),
  );

  return router;
};
