import { describe, expect, it } from 'vitest';
import type { BotRepository, UserRepository } from '../../src/application/ports.ts';

export interface AccountSubjects {
  users: UserRepository;
  bots: BotRepository;
}

const fields = {
  name: 'Ada',
  headline: null,
  personality: 'professional' as const,
  contextText: 'Context.',
  suggestedQuestions: ['Q1?'],
};
const t0 = new Date('2026-11-21T10:00:00.000Z');

let counter = 0;
const newUser = () => {
  counter += 1;
  const name = `contract${Date.now().toString(36)}${counter}`;
  return { username: name, email: `${name}@example.com`, passwordHash: 'hash' };
};

/** UserRepository and BotRepository: the same behaviour from the fake and from PostgreSQL. */
export const accountRepositoriesContract = (name: string, makeSubjects: () => Promise<AccountSubjects>) => {
  describe(`${name}: UserRepository`, () => {
    it('creates a user, finds it by id, e-mail or username, and refuses duplicates of either', async () => {
      const { users } = await makeSubjects();
      const input = newUser();
      const user = await users.create(input, t0);
      if (user === 'duplicate') throw new Error('unexpected duplicate');
      expect(user).toMatchObject({ username: input.username, email: input.email, llmProvider: null, notifyLeadsEmail: false });
      expect(await users.findById(user.id)).toEqual(user);
      expect(await users.findCredentials(input.email)).toEqual({ ...pickCredentials(user), passwordHash: 'hash' });
      expect((await users.findCredentials(input.username))?.id).toBe(user.id);
      expect(await users.emailExists(input.email)).toBe(true);
      expect(await users.usernameExists(input.username)).toBe(true);
      expect(await users.create({ ...input, username: `${input.username}x` }, t0)).toBe('duplicate');
      expect(await users.create({ ...input, email: `x${input.email}` }, t0)).toBe('duplicate');
      expect(await users.findById('not-a-uuid')).toBeNull();
      expect(await users.findCredentials('nobody')).toBeNull();
    });

    it('stores the LLM choice and the lead e-mail setting', async () => {
      const { users } = await makeSubjects();
      const user = (await users.create(newUser(), t0)) as { id: string };
      await users.setLlmChoice(user.id, 'azure', 'deployment-1');
      expect(await users.setNotifyLeadsEmail(user.id, true)).toMatchObject({
        llmProvider: 'azure',
        llmModel: 'deployment-1',
        notifyLeadsEmail: true,
      });
    });
  });

  describe(`${name}: BotRepository`, () => {
    const userWithBot = async (subjects: AccountSubjects) => {
      const user = (await subjects.users.create(newUser(), t0)) as { id: string };
      await subjects.users.setLlmChoice(user.id, 'openai', 'gpt-4o-mini');
      const saved = await subjects.bots.upsertForUser(user.id, fields, ['Thinking…'], t0);
      return { user, saved };
    };

    it('inserts once, then updates with updatedAt strictly advancing even at the same instant', async () => {
      const subjects = await makeSubjects();
      const { user, saved } = await userWithBot(subjects);
      expect(saved.created).toBe(true);
      expect(saved.bot).toMatchObject({ ...fields, userId: user.id, isActive: true, themeColor: '#4f46e5', deploymentMode: 'managed' });
      expect(saved.bot.loadingMessages).toEqual(['Thinking…']);
      const again = await subjects.bots.upsertForUser(user.id, { ...fields, name: 'Ada 2' }, ['ignored'], t0);
      expect(again).toMatchObject({ created: false, contextChanged: false, bot: { id: saved.bot.id, name: 'Ada 2' } });
      expect(again.bot.loadingMessages).toEqual(['Thinking…']);
      expect(again.bot.updatedAt.getTime()).toBeGreaterThan(saved.bot.updatedAt.getTime());
      const changed = await subjects.bots.upsertForUser(user.id, { ...fields, contextText: 'New.' }, [], t0);
      expect(changed.contextChanged).toBe(true);
      expect(await subjects.bots.findByUserId(user.id)).toEqual(changed.bot);
      expect(await subjects.bots.findById(saved.bot.id)).toEqual(changed.bot);
      expect(await subjects.bots.findById('not-a-uuid')).toBeNull();
    });

    it('finds a chat target only for an active bot with an owner provider', async () => {
      const subjects = await makeSubjects();
      const { saved } = await userWithBot(subjects);
      expect(await subjects.bots.findChatTarget(saved.bot.id)).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini' });
      await subjects.bots.updateSettings(saved.bot.id, { isActive: false }, t0);
      expect(await subjects.bots.findChatTarget(saved.bot.id)).toBeNull();
      expect(await subjects.bots.findChatTarget('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await subjects.bots.findChatTarget('nope')).toBeNull();
    });

    it('patches only the given settings; a null rate limit clears the override', async () => {
      const subjects = await makeSubjects();
      const { saved } = await userWithBot(subjects);
      const patched = await subjects.bots.updateSettings(
        saved.bot.id,
        { themeColor: '#112233', deploymentMode: 'self_hosted', rateLimits: { perMinute: 5, perDay: 500 } },
        t0,
      );
      expect(patched).toMatchObject({ isActive: true, themeColor: '#112233', deploymentMode: 'self_hosted', rateLimits: { perMinute: 5, perDay: 500 } });
      const cleared = await subjects.bots.updateSettings(saved.bot.id, { rateLimits: { perDay: null } }, t0);
      expect(cleared.rateLimits).toEqual({ perMinute: 5, perDay: null });
      expect(cleared.themeColor).toBe('#112233');
    });

  });
};

const pickCredentials = (user: { id: string; username: string; email: string }) => ({
  id: user.id,
  username: user.username,
  email: user.email,
});
