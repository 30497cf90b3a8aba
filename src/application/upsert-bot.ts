import { DEFAULT_MODELS } from '@careerbot/llm/models';
import { DEFAULT_LOADING_MESSAGES } from '../domain/bot-rules.ts';
import type { Bot, LlmProvider } from '../domain/types.ts';
import type { BotFields, Clock, Transactor } from './ports.ts';

export interface UpsertBotInput extends BotFields {
  llmProvider: LlmProvider;
  /** Provider model id, or the Azure deployment name (required for azure). */
  llmModel: string | null;
}

export const makeUpsertBot =
  (d: { transactor: Transactor; clock: Clock }) =>
  async (userId: string, input: UpsertBotInput): Promise<{ bot: Bot; created: boolean }> => {
    const model = input.llmModel ?? (input.llmProvider === 'azure' ? null : DEFAULT_MODELS[input.llmProvider]);
    if (model === null) throw new Error('an Azure bot needs its deployment name; the request schema requires it');
    const { name, headline, personality, contextText, suggestedQuestions } = input;
    return d.transactor.transaction(async (tx) => {
      await tx.users.setLlmChoice(userId, input.llmProvider, model);
      const saved = await tx.bots.upsertForUser(
        userId,
        { name, headline, personality, contextText, suggestedQuestions },
        DEFAULT_LOADING_MESSAGES,
        d.clock.now(),
      );
      if (saved.contextChanged && !saved.created) await tx.embeddings.invalidate(saved.bot.id);
      return { bot: saved.bot, created: saved.created };
    });
  };
