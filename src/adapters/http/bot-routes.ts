import { Router } from 'express';
import type { BotOverview, makeGetBotOverview, makeUpdateBotSettings } from '../../application/bot-settings.ts';
import type { makeUpsertBot } from '../../application/upsert-bot.ts';
import type { Bot } from '../../domain/types.ts';
import { ownerErrorReply, reply, validationReply } from './http-errors.ts';
import { currentUserId } from './owner-auth.ts';
import { readJsonOrReply } from './request-body.ts';
import { botSettingsBody, botUpsertBody } from './schemas.ts';

export interface BotRouteDeps {
  upsertBot: ReturnType<typeof makeUpsertBot>;
  getBotOverview: ReturnType<typeof makeGetBotOverview>;
  updateBotSettings: ReturnType<typeof makeUpdateBotSettings>;
}

/** contextText may be 50,000 code points of up to 4 bytes each. */
export const OWNER_BODY_LIMIT = 1024 * 1024;

const OWNER_BODY_ERRORS = {
  limit: OWNER_BODY_LIMIT,
  invalidJson: { error: 'Invalid JSON body' },
  tooLarge: { error: 'Request body too large' },
};

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

const overviewJson = (overview: BotOverview) => ({ ...overview, bot: botJson(overview.bot) });

/** Mounted at /api/bots behind requireUser and the Origin check. */
export const botRoutes = (d: BotRouteDeps): Router => {
  const router = Router();

  router.get('/', async (req, res) => {
    const result = await d.getBotOverview(currentUserId(req));
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.json(overviewJson(result.value));
  });

  router.post('/', async (req, res) => {
    const body = await readJsonOrReply(req, res, OWNER_BODY_ERRORS);
    if (!body) return;
    const parsed = botUpsertBody.safeParse(body.value);
    if (!parsed.success) {
      return reply(res, validationReply(parsed.error));
    }
    const { bot, created } = await d.upsertBot(currentUserId(req), parsed.data);
    res.status(created ? 201 : 200).json({ bot: botJson(bot) });
  });

  router.patch('/settings', async (req, res) => {
    const body = await readJsonOrReply(req, res, OWNER_BODY_ERRORS);
    if (!body) return;
    const parsed = botSettingsBody.safeParse(body.value);
    if (!parsed.success) {
      return reply(res, validationReply(parsed.error));
    }
    const result = await d.updateBotSettings(currentUserId(req), parsed.data);
    if (!result.ok) return reply(res, ownerErrorReply(result.error));
    res.json(overviewJson(result.value));
  });

  return router;
};
