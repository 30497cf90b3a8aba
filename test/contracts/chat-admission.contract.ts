import { describe, expect, it } from 'vitest';
import type { BotRepository, ChatAdmission, UserRepository } from '../../src/application/ports.ts';

export interface ChatAdmissionSubjects {
  admission: ChatAdmission;
  users: UserRepository;
  bots: BotRepository;
}

const now = new Date('2026-11-21T10:00:30.000Z');
const defaults = { perMinute: 3, perDay: 5 };
let counter = 0;

const botOf = async ({ users, bots }: ChatAdmissionSubjects, provider: 'openai' | null = 'openai') => {
  counter += 1;
  const name = `admit${Date.now().toString(36)}${counter}`;
  const user = (await users.create({ username: name, email: `${name}@example.com`, passwordHash: 'h' }, now)) as { id: string };
  if (provider) await users.setLlmChoice(user.id, provider, 'gpt-4o-mini');
  const { bot } = await bots.upsertForUser(
    user.id,
    { name: 'Ada', headline: null, personality: 'professional', contextText: 'Context.', suggestedQuestions: [] },
    [],
    now,
  );
  return bot.id;
};

/** How many admissions in a row `bucket` grants right now (it spends them). */
const drain = async (subjects: ChatAdmissionSubjects, botId: string, bucket: string, at = now) => {
  let granted = 0;
  for (let i = 0; i < 20; i++) {
    const result = await subjects.admission.admit(botId, bucket, defaults, at);
    if (!result.target || !result.decision.allowed) break;
    granted++;
  }
  return granted;
};

export const chatAdmissionContract = (name: string, makeSubjects: () => Promise<ChatAdmissionSubjects>) => {
  describe(`${name}: ChatAdmission`, () => {
    it('returns the target with its provider and model, and admits up to the default limit', async () => {
      const subjects = await makeSubjects();
      const botId = await botOf(subjects);
      const first = await subjects.admission.admit(botId, `chat:${botId}`, defaults, now);
      expect(first).toMatchObject({ target: { bot: { id: botId }, provider: 'openai', model: 'gpt-4o-mini' }, decision: { allowed: true } });
      expect(await drain(subjects, botId, `chat:${botId}`)).toBe(2);
      const refused = await subjects.admission.admit(botId, `chat:${botId}`, defaults, now);
      expect(refused).toMatchObject({
        target: { bot: { id: botId } },
        decision: { allowed: false, scope: 'short', resetAt: Date.parse('2026-11-21T10:01:00.000Z') },
      });
    });

    it('finds no target for an unknown, malformed or inactive bot, or an owner without a provider, and consumes nothing', async () => {
      const subjects = await makeSubjects();
      const inactive = await botOf(subjects);
      await subjects.bots.updateSettings(inactive, { isActive: false }, now);
      const noProvider = await botOf(subjects, null);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', inactive, noProvider]) {
        expect(await subjects.admission.admit(id, 'chat:shared', defaults, now)).toEqual({ target: null });
      }
      const real = await botOf(subjects);
      expect(await drain(subjects, real, 'chat:shared')).toBe(3);
    });

    it("uses the bot's overrides over the defaults, and a changed override at once", async () => {
      const subjects = await makeSubjects();
      const botId = await botOf(subjects);
      await subjects.bots.updateSettings(botId, { rateLimits: { perMinute: 5 } }, now);
      expect(await drain(subjects, botId, `chat:${botId}`)).toBe(5); // the day default (5) also ends here
      const refused = await subjects.admission.admit(botId, `chat:${botId}`, defaults, now);
      expect(refused).toMatchObject({ decision: { allowed: false, scope: 'long', resetAt: Date.parse('2026-11-22T00:00:00.000Z') } });
      await subjects.bots.updateSettings(botId, { rateLimits: { perMinute: 7, perDay: 7 } }, now);
      expect(await drain(subjects, botId, `chat:${botId}`)).toBe(2);
    });
  });
};
