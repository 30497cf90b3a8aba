import { describe, expect, it } from 'vitest';
import { makeGetBotOverview, makeUpdateBotSettings } from '../../src/application/bot-settings.ts';
import { makeRegisterUser } from '../../src/application/register-user.ts';
import { makeSignIn, SIGN_IN_LIMITS } from '../../src/application/sign-in.ts';
import { makeUpsertBot } from '../../src/application/upsert-bot.ts';
import { DEFAULT_LOADING_MESSAGES } from '../../src/domain/bot-rules.ts';
import { fixedClock } from '../fakes/clock.ts';
import { FakePasswordHasher } from '../fakes/fake-password-hasher.ts';
import { inMemoryRepositories } from '../fakes/in-memory-repositories.ts';
import { InMemorySignInThrottle } from '../fakes/in-memory-sign-in-throttle.ts';

const REGISTRATIONS_PER_ADDRESS = 5;

const setup = () => {
  const repos = inMemoryRepositories();
  const hasher = new FakePasswordHasher();
  const clock = fixedClock();
  const throttle = new InMemorySignInThrottle();
  return {
    ...repos,
    hasher,
    clock,
    register: makeRegisterUser({ users: repos.users, hasher, clock, throttle, perAddress: REGISTRATIONS_PER_ADDRESS }),
    signIn: makeSignIn({ users: repos.users, hasher, throttle, clock }),
    upsertBot: makeUpsertBot({ transactor: repos.transactor, clock }),
    overview: makeGetBotOverview({ bots: repos.bots, users: repos.users }),
    updateSettings: makeUpdateBotSettings({ bots: repos.bots, users: repos.users, clock }),
  };
};

const ada = { username: 'ada', email: 'ada@example.com', password: 'analytical', clientAddress: '192.0.2.9' };
const botInput = {
  name: 'Ada',
  headline: null,
  personality: 'professional' as const,
  contextText: 'Wrote the first program.',
  suggestedQuestions: [],
  llmProvider: 'openai' as const,
  llmModel: null,
};

describe('RegisterUser', () => {
  it('stores only the hash of the password', async () => {
    const s = setup();
    const result = await s.register(ada);
    expect(result.ok).toBe(true);
    const stored = [...s.users.rows.values()][0]!;
    expect(stored.passwordHash).toBe('hashed:analytical');
  });

  it('checks the e-mail first, then the username', async () => {
    const s = setup();
    await s.register(ada);
    expect(await s.register(ada)).toEqual({ ok: false, error: { type: 'email_taken' } });
    expect(await s.register({ ...ada, email: 'other@example.com' })).toEqual({ ok: false, error: { type: 'username_taken' } });
  });

  it('reports a duplicate found only at insert (a race past the pre-check) as account_exists', async () => {
    const s = setup();
    const racing = makeRegisterUser({
      users: Object.assign(Object.create(s.users), { emailExists: async () => false, usernameExists: async () => false }),
      hasher: s.hasher,
      clock: s.clock,
      throttle: new InMemorySignInThrottle(),
      perAddress: REGISTRATIONS_PER_ADDRESS,
    });
    await s.register(ada);
    expect(await racing(ada)).toEqual({ ok: false, error: { type: 'account_exists' } });
  });

  it('refuses registrations past the per-address limit until the window ends, before hashing anything', async () => {
    const s = setup();
    const person = (i: number, clientAddress = '198.51.100.7') => ({ username: `user${i}`, email: `user${i}@example.com`, password: 'long enough', clientAddress });
    for (let i = 0; i < REGISTRATIONS_PER_ADDRESS; i++) expect((await s.register(person(i))).ok).toBe(true);
    const hashed = s.users.rows.size;
    expect(await s.register(person(99))).toEqual({ ok: false, error: { type: 'throttled', retryAfterSeconds: 15 * 60 } });
    expect(s.users.rows.size).toBe(hashed);
    expect((await s.register(person(98, '198.51.100.8'))).ok).toBe(true);
    s.clock.advance(15 * 60_000);
    expect((await s.register(person(99))).ok).toBe(true);
  });
});

describe('SignIn', () => {
  const signInAs = (identifier: string, password: string) => ({ identifier, password, clientAddress: '192.0.2.1' });

  it('accepts the e-mail or the username, case-insensitively', async () => {
    const s = setup();
    await s.register(ada);
    expect((await s.signIn(signInAs(' ADA@example.com ', 'analytical'))).ok).toBe(true);
    expect((await s.signIn(signInAs('Ada', 'analytical'))).ok).toBe(true);
  });

  it('spends a dummy comparison on an unknown account, like a wrong password spends a real one', async () => {
    const s = setup();
    await s.register(ada);
    expect(await s.signIn(signInAs('ghost@example.com', 'analytical'))).toEqual({ ok: false, error: { type: 'invalid_credentials' } });
    expect(await s.signIn(signInAs('ada', 'wrong'))).toEqual({ ok: false, error: { type: 'invalid_credentials' } });
    expect(s.hasher.comparisons).toEqual(['dummy', 'real']);
  });

  it('refuses a password over 72 bytes without comparing it', async () => {
    const s = setup();
    await s.register({ ...ada, password: 'x'.repeat(72) });
    expect((await s.signIn(signInAs('ada', 'x'.repeat(80)))).ok).toBe(false);
    expect(s.hasher.comparisons).toEqual(['dummy']);
  });

  it('counts an attempt before checking it, so 15 concurrent guesses give 10 checks and 5 refusals', async () => {
    const s = setup();
    await s.register(ada);
    const results = await Promise.all(Array.from({ length: 15 }, () => s.signIn(signInAs('ada', 'wrong'))));
    expect(results.filter((r) => !r.ok && r.error.type === 'invalid_credentials')).toHaveLength(10);
    expect(results.filter((r) => !r.ok && r.error.type === 'throttled')).toHaveLength(5);
    expect(s.hasher.comparisons).toHaveLength(10);
  });

  it('throttles an account and address after 10 failures until the window ends, even with the right password', async () => {
    const s = setup();
    await s.register(ada);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccountAndAddress; i++) await s.signIn(signInAs('ada', 'wrong'));
    const throttled = await s.signIn(signInAs('ada', 'analytical'));
    expect(throttled).toEqual({ ok: false, error: { type: 'throttled', retryAfterSeconds: 15 * 60 } });
    expect((await s.signIn({ ...signInAs('ada', 'analytical'), clientAddress: '192.0.2.2' })).ok).toBe(true);
    s.clock.advance(15 * 60_000);
    expect((await s.signIn(signInAs('ada', 'analytical'))).ok).toBe(true);
  });

  it('caps failures on one account across all addresses', async () => {
    const s = setup();
    await s.register(ada);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++) {
      expect(await s.signIn({ ...signInAs('ada', 'wrong'), clientAddress: `203.0.113.${i}` })).toEqual({ ok: false, error: { type: 'invalid_credentials' } });
    }
    const fromNewAddress = await s.signIn({ ...signInAs('ADA@example.com', 'analytical'), clientAddress: '203.0.113.250' });
    expect(fromNewAddress).toEqual({ ok: false, error: { type: 'throttled', retryAfterSeconds: 15 * 60 } });
    expect((await s.signIn({ ...signInAs('someone-else', 'wrong'), clientAddress: '203.0.113.251' })).ok).toBe(false);
    s.clock.advance(15 * 60_000);
    expect((await s.signIn({ ...signInAs('ada', 'analytical'), clientAddress: '203.0.113.250' })).ok).toBe(true);
  });
});

describe('UpsertBot', () => {
  it('creates then updates, sets the loading messages once, and records the default model on the user', async () => {
    const s = setup();
    const user = await s.register(ada);
    if (!user.ok) throw new Error('register failed');
    const first = await s.upsertBot(user.value.id, botInput);
    expect(first.created).toBe(true);
    expect(first.bot.loadingMessages).toEqual(DEFAULT_LOADING_MESSAGES);
    expect(await s.users.findById(user.value.id)).toMatchObject({ llmProvider: 'openai', llmModel: 'gpt-4o-mini' });
    const second = await s.upsertBot(user.value.id, { ...botInput, llmProvider: 'google', name: 'Ada L.' });
    expect(second).toMatchObject({ created: false, bot: { id: first.bot.id, name: 'Ada L.' } });
    expect(second.bot.updatedAt.getTime()).toBeGreaterThan(first.bot.updatedAt.getTime());
    expect(await s.users.findById(user.value.id)).toMatchObject({ llmProvider: 'google', llmModel: 'gemini-2.5-flash' });
  });

  it('drops cached embeddings when the context changes, and keeps them otherwise', async () => {
    const s = setup();
    const user = await s.register(ada);
    if (!user.ok) throw new Error('register failed');
    const { bot } = await s.upsertBot(user.value.id, botInput);
    const cached = () => s.embeddings.get(bot.id, 'm', ['h']);
    await s.embeddings.put(bot.id, 'm', [{ chunkHash: 'h', embedding: [1] }]);
    await s.upsertBot(user.value.id, { ...botInput, name: 'Renamed' });
    expect((await cached()).size).toBe(1);
    await s.upsertBot(user.value.id, { ...botInput, contextText: 'Something new.' });
    expect((await cached()).size).toBe(0);
  });
});

describe('bot overview and settings', () => {
  it('shows effective rate limits: defaults until overridden, and defaults again after null', async () => {
    const s = setup();
    const user = await s.register(ada);
    if (!user.ok) throw new Error('register failed');
    expect(await s.overview(user.value.id)).toEqual({ ok: false, error: { type: 'bot_not_found' } });
    await s.upsertBot(user.value.id, botInput);
    const initial = await s.overview(user.value.id);
    expect(initial.ok && initial.value.settings.rateLimits).toEqual({ perMinute: 10, perDay: 50 });
    const changed = await s.updateSettings(user.value.id, { rateLimits: { perMinute: 2 } });
    expect(changed.ok && changed.value.settings.rateLimits).toEqual({ perMinute: 2, perDay: 50 });
    const reset = await s.updateSettings(user.value.id, { rateLimits: { perMinute: null } });
    expect(reset.ok && reset.value.settings.rateLimits).toEqual({ perMinute: 10, perDay: 50 });
  });
});
