import { effectiveRateLimits } from '../domain/bot-rules.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot, BotStats, DeploymentMode, LlmProvider } from '../domain/types.ts';
import type { BotRepository, BotSettingsPatch, Clock, UserRepository } from './ports.ts';

export interface BotOverview {
  bot: Bot;
  settings: {
    themeColor: string;
    deploymentMode: DeploymentMode;
    rateLimits: { perMinute: number; perDay: number };
    embedOrigins: string[];
  };
  stats: BotStats;
  /** The owner's provider and model, which answer for the bot (the editor shows them). */
  llm: { provider: LlmProvider | null; model: string | null };
}

export type BotOverviewError = { type: 'bot_not_found' };

type OverviewPorts = { bots: BotRepository; users: UserRepository };

const overviewOf = async (d: OverviewPorts, bot: Bot): Promise<BotOverview> => {
  const [stats, owner] = await Promise.all([d.bots.stats(bot.id), d.users.findById(bot.userId)]);
  return {
    bot,
    settings: { themeColor: bot.themeColor, deploymentMode: bot.deploymentMode, rateLimits: effectiveRateLimits(bot), embedOrigins: bot.embedOrigins },
    stats,
    llm: { provider: owner?.llmProvider ?? null, model: owner?.llmModel ?? null },
  };
};

export const makeGetBotOverview =
  (d: OverviewPorts) =>
  async (userId: string): Promise<Result<BotOverview, BotOverviewError>> => {
    const bot = await d.bots.findByUserId(userId);
    return bot ? ok(await overviewOf(d, bot)) : err({ type: 'bot_not_found' });
  };

export const makeUpdateBotSettings =
  (d: OverviewPorts & { clock: Clock }) =>
  async (userId: string, patch: BotSettingsPatch): Promise<Result<BotOverview, BotOverviewError>> => {
    const bot = await d.bots.findByUserId(userId);
    if (!bot) return err({ type: 'bot_not_found' });
    return ok(await overviewOf(d, await d.bots.updateSettings(bot.id, patch, d.clock.now())));
  };
