import { Router } from 'express';
import { z } from 'zod';
import type { BotOverview, makeGetBotOverview, makeUpdateBotSettings } from '../../application/bot-settings.ts';
import type { makeUpsertBot } from '../../application/upsert-bot.ts';
import { DEPLOYMENT_MODES, LLM_PROVIDERS, PERSONALITIES, type Bot } from '../../domain/types.ts';
import { ownerErrorReply, reply } from './http-errors.ts';
import { bodyRefusals, isoTimestamp, OWNER_RESPONSES, uuidString, type OperationDoc } from './operation-doc.ts';
import { avatarPath } from './avatar-path.ts';
import { currentUserId } from './owner-auth.ts';
import { botSettingsBody, botUpsertBody } from './schemas.ts';
import { jsonBody } from './validated.ts';

export interface BotRouteDeps {
  upsertBot: ReturnType<typeof makeUpsertBot>;
  getBotOverview: ReturnType<typeof makeGetBotOverview>;
  updateBotSettings: ReturnType<typeof makeUpdateBotSettings>;
}

/** contextText may be 50,000 code points of up to 4 bytes each. */
const OWNER_BODY_LIMIT = 1024 * 1024;

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

/** `image`: the avatar's URL path (the owner's photo, or the initials), as the widgets' config view says. */
export const overviewJson = (overview: BotOverview) => ({ ...overview, bot: botJson(overview.bot), image: avatarPath(overview.bot.id, overview.bot.photoHash) });

export const botSchema = z.object({
  id: uuidString,
  userId: uuidString,
  name: z.string(),
  headline: z.string().nullable(),
  personality: z.enum(PERSONALITIES),
  contextText: z.string(),
  suggestedQuestions: z.array(z.string()),
  loadingMessages: z.array(z.string()),
  isActive: z.boolean(),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
});

const overviewSchema = z.object({
  bot: botSchema,
  image: z.string().meta({ description: 'Path of the avatar: the owner’s photo, or the generated initials' }),
  settings: z.object({
    themeColor: z.string().regex(/^#[0-9a-fA-F]{6}$/).meta({ description: "#rrggbb" }),
    deploymentMode: z.enum(DEPLOYMENT_MODES),
    rateLimits: z.object({
      perMinute: z.number().int().meta({ description: 'Effective value (default 10)' }),
      perDay: z.number().int().meta({ description: 'Effective value (default 50)' }),
    }),
    embedOrigins: z.array(z.string()).meta({ description: 'Sites allowed to embed the managed widget; empty: any site' }),
  }),
  stats: z.object({ totalConversations: z.number().int(), totalMessages: z.number().int(), totalLeads: z.number().int() }),
  llm: z
    .object({
      provider: z.enum(LLM_PROVIDERS).nullable(),
      model: z.string().nullable().meta({ description: 'The model, or the Azure deployment name' }),
    })
    .meta({ description: 'The owner’s provider and model, which answer for the bot' }),
});

const { unauthorized, forbidden, unsupportedMediaType, botNotFound } = OWNER_RESPONSES;

export const botOperations: OperationDoc[] = [
  {
    method: 'get',
    path: '/api/bots',
    tag: 'Bot',
    summary: 'Read the bot, its settings and counters',
    security: 'session',
    responses: { 200: { description: 'The bot', schema: overviewSchema }, 401: unauthorized, 404: botNotFound },
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
      200: { description: 'Updated; updatedAt advanced', schema: z.object({ bot: botSchema }) },
      201: { description: 'Created', schema: z.object({ bot: botSchema }) },
      ...bodyRefusals('owner', '1 MiB'),
      401: unauthorized,
      403: forbidden,
      415: unsupportedMediaType,
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
      200: { description: 'The bot, as GET /api/bots', schema: overviewSchema },
      ...bodyRefusals('owner', '1 MiB'),
      401: unauthorized,
      403: forbidden,
      415: unsupportedMediaType,
      404: botNotFound,
    },
  },
];

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
