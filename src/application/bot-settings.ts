import { effectiveRateLimits } from '../domain/bot-rules.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot, BotStats, DeploymentMode } from '../domain/types.ts';
import type { BotRepository, BotSettingsPatch, Clock } from './ports.ts';

export interface BotOverview {
  bot: Bot;
  settings: {
    themeColor: string;
    deploymentMode: DeploymentMode;
    rateLimits: { perMinute: number; perDay: number };
  };
  stats: BotStats;
}

export type BotOverviewError = { type: 'bot_not_found' };

const overviewOf = async (bots: BotRepository, bot: Bot): Promise<BotOverview> => ({
  bot,
  settings: { themeColor: bot.themeColor, deploymentMode: bot.deploymentMode, rateLimits: effectiveRateLimits(bot) },
  stats: await bots.stats(bot.id),
});

export const makeGetBotOverview =
  (d: { bots: BotRepository }) =>
  async (userId: string): Promise<Result<BotOverview, BotOverviewError>> => {
    const bot = await d.bots.findByUserId(userId);
    return bot ? ok(await overviewOf(d.bots, bot)) : err({ type: 'bot_not_found' });
  };

export const makeUpdateBotSettings =
  (d: { bots: BotRepository; clock: Clock }) =>
  async (userId: string, patch: BotSettingsPatch): Promise<Result<BotOverview, BotOverviewError>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    return ok(await overviewOf(d.bots, await d.bots.updateSettings(bot.id, patch, d.clock.now())));
  };
