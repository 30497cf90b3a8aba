import { avatarSvg } from '../domain/avatar.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { Bot, DeploymentMode, LlmProvider, Personality } from '../domain/types.ts';
import { ownerKeyAnswers } from './owner-llm-key.ts';
import type { BotRepository, OwnerKeyRepository } from './ports.ts';

/** What a self-hosted widget needs to render the bot (the HTTP adapter adds the avatar's URL). */
export interface BotConfigView {
  id: string;
  name: string;
  headline: string | null;
  personality: Personality;
  themeColor: string;
  suggestedQuestions: string[];
  loadingMessages: string[];
  isActive: boolean;
  deploymentMode: DeploymentMode;
  /** The owner's photo (SHA-256), or null for the initials: the HTTP adapter turns it into the image URL. */
  photoHash: string | null;
}

/** Served for an inactive bot too: the widget shows it as unavailable (isActive false). */
const botConfigView = (bot: Bot): BotConfigView => ({
  id: bot.id,
  name: bot.name,
  headline: bot.headline,
  personality: bot.personality,
  themeColor: bot.themeColor,
  suggestedQuestions: bot.suggestedQuestions,
  loadingMessages: bot.loadingMessages,
  isActive: bot.isActive,
  deploymentMode: bot.deploymentMode,
  photoHash: bot.photoHash,
});

export const makeGetBotConfig = () => async (bot: Bot): Promise<BotConfigView> => botConfigView(bot);

/**
 * The public avatar of an active bot. A switched-off bot is not found, as its public view and
 * page are: its SVG's title would name it.
 */
export const makeGetBotAvatar =
  (d: { bots: BotRepository }) =>
  async (botId: string): Promise<Result<{ svg: string }, { type: 'not_found' }>> => {
    const bot = await d.bots.findById(botId);
    return bot?.isActive ? ok({ svg: avatarSvg(bot) }) : err({ type: 'not_found' });
  };

/** An active bot as anyone may see it, and which provider's key a visitor must bring. */
export interface PublicBot {
  view: BotConfigView;
  llmProvider: LlmProvider;
  /** The owner's key answers a visitor who brings none. */
  ownerKeyAnswers: boolean;
  /** The sites allowed to frame the managed widget's chat (empty: any); not part of the public view's JSON. */
  embedOrigins: string[];
}

/**
 * The public view of an active bot, for the managed widget and the bot's public page:
 * the config view's fields and nothing private. A bot that cannot chat (inactive, or
 * unknown) is not found.
 */
export const makeGetPublicBot =
  (d: { bots: BotRepository; ownerKeys?: OwnerKeyRepository }) =>
  async (botId: string): Promise<Result<PublicBot, { type: 'bot_not_found' }>> => {
    const target = await d.bots.findChatTarget(botId);
    if (!target) return err({ type: 'bot_not_found' });
    const ownerKey = d.ownerKeys ? await d.ownerKeys.status(target.bot.userId) : null;
    return ok({ view: botConfigView(target.bot), llmProvider: target.provider, ownerKeyAnswers: ownerKeyAnswers(ownerKey, target.provider), embedOrigins: target.bot.embedOrigins });
  };
