import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RateLimits } from '../../src/application/ports.ts';
import { Db, type Queryable } from '../../src/adapters/persistence/db.ts';
import { ServiceUnavailableError } from '../../src/adapters/persistence/service-unavailable.ts';
import { PgBotRepository } from '../../src/adapters/persistence/pg-bot-repository.ts';
import { PgBotTokenRepository } from '../../src/adapters/persistence/pg-bot-token-repository.ts';
import { PgChatAdmission } from '../../src/adapters/persistence/pg-chat-admission.ts';
import { PgConversationRepository } from '../../src/adapters/persistence/pg-conversation-repository.ts';
import { PgUserRepository } from '../../src/adapters/persistence/pg-user-repository.ts';
import { counting, failingFirst } from '../support/queryables.ts';
import { useTwoInstanceDatabase } from '../support/test-database.ts';

// Two app instances: two pools on one database.
const shared = useTwoInstanceDatabase();

const NOW = new Date('2026-11-21T10:00:30.000Z');
const MINUTE_END = Date.parse('2026-11-21T10:01:00.000Z');
const DEFAULTS: RateLimits = { perMinute: 4, perDay: 50 };

const newBot = async (options: { active?: boolean; provider?: boolean } = {}) => {
  const users = new PgUserRepository(shared.database.db);
  const bots = new PgBotRepository(shared.database.db);
  const name = `batch${randomUUID().slice(0, 8)}`;
  const user = (await users.create({ username: name, email: `${name}@example.com`, passwordHash: 'h' }, NOW)) as { id: string };
  if (options.provider !== false) await users.setLlmChoice(user.id, 'anthropic', 'claude-test');
  const { bot } = await bots.upsertForUser(
    user.id,
    { name: 'Ada', headline: null, personality: 'professional', contextText: 'Context.', suggestedQuestions: [] },
    [],
    NOW,
  );
  if (options.active === false) await bots.updateSettings(bot.id, { isActive: false }, NOW);
  return bot.id;
};

const outcome = (admission: Awaited<ReturnType<PgChatAdmission['admit']>>) =>
  !admission.target ? 'no target' : admission.decision.allowed ? 'allowed' : `refused ${admission.decision.scope}`;

describe('PgChatAdmission batches concurrent admissions', () => {
  it('sends the requests that arrive together as one statement, each with the outcome it would get alone', async () => {
    const [busy, other, inactive, ownerless] = await Promise.all([
      newBot(),
      newBot(),
      newBot({ active: false }),
      newBot({ provider: false }),
    ]);
    const { q, counts } = counting(shared.database.db);
    const admission = new PgChatAdmission(q, { maxInFlight: 1, maxBatch: 64 });

    const requests = [busy, other, busy, inactive, busy, 'not-a-uuid', busy, ownerless, busy, randomUUID(), busy, other];
    const outcomes = (await Promise.all(requests.map((botId) => admission.admit(botId, `chat:${botId}`, DEFAULTS, NOW)))).map(
      outcome,
    );

    // The busy bot's first four (its per-minute limit), in arrival order; the rest refused.
    expect(outcomes).toEqual([
      'allowed',
      'allowed',
      'allowed',
      'no target',
      'allowed',
      'no target',
      'allowed',
      'no target',
      'refused short',
      'no target',
      'refused short',
      'allowed',
    ]);
    // Refusals included: the batch's statement alone decided every request.
    expect([...counts]).toEqual([['chat-admission-batch', 1]]);
    const { rows } = await shared.database.db.query<{ bucket: string; short_count: number }>(
      'SELECT bucket, short_count FROM rate_limit_buckets WHERE bucket = ANY($1) ORDER BY short_count',
      [[`chat:${busy}`, `chat:${other}`, `chat:${inactive}`, `chat:${ownerless}`]],
    );
    expect(rows).toEqual([
      { bucket: `chat:${other}`, short_count: 2 },
      { bucket: `chat:${busy}`, short_count: 4 },
    ]);
  });

  it('gives refused requests the tier and the time it reopens', async () => {
    const botId = await newBot();
    const admission = new PgChatAdmission(shared.database.db);
    const results = await Promise.all(Array.from({ length: 6 }, () => admission.admit(botId, `chat:${botId}`, DEFAULTS, NOW)));
    expect(results.filter((result) => result.target && !result.decision.allowed).map((result) => result.target && result.decision)).toEqual([
      { allowed: false, scope: 'short', resetAt: MINUTE_END },
      { allowed: false, scope: 'short', resetAt: MINUTE_END },
    ]);
  });

  it('admits exactly min(N, L) across two instances with batches on the wire at once', async () => {
    const botId = await newBot();
    const limits: RateLimits = { perMinute: 1_000, perDay: 37 };
    const instances = [new PgChatAdmission(shared.database.db, { maxInFlight: 3, maxBatch: 7 }), new PgChatAdmission(shared.secondPool, { maxInFlight: 3, maxBatch: 7 })];
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => instances[i % 2]!.admit(botId, `chat:${botId}`, limits, NOW)),
    );
    expect(results.map(outcome).filter((value) => value === 'allowed')).toHaveLength(37);
    expect(results.map(outcome).filter((value) => value === 'refused long')).toHaveLength(63);
  });

  it('never deadlocks when two instances batch the same buckets in opposite orders', async () => {
    // Taken in arrival order instead, about one round in three deadlocks.
    const ROUNDS = 30;
    const bots = await Promise.all(Array.from({ length: 6 }, () => newBot()));
    const limits: RateLimits = { perMinute: 1_000, perDay: 100_000 };
    const instances = [new PgChatAdmission(shared.database.db), new PgChatAdmission(shared.secondPool)];
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all(
        instances.flatMap((instance, which) =>
          (which === 0 ? bots : [...bots].reverse()).flatMap((botId) =>
            [0, 1, 2].map(() => instance.admit(botId, `chat:${botId}`, limits, NOW)),
          ),
        ),
      );
      expect(results.map(outcome).every((value) => value === 'allowed')).toBe(true);
    }
    const { rows } = await shared.database.db.query<{ total: string }>(
      'SELECT sum(short_count) AS total FROM rate_limit_buckets WHERE bucket = ANY($1)',
      [bots.map((botId) => `chat:${botId}`)],
    );
    expect(Number(rows[0]!.total)).toBe(ROUNDS * 2 * 6 * 3);
  });

  it('fails every request of a batch whose statement fails, and goes on with the next batch', async () => {
    const botId = await newBot();
    const admission = new PgChatAdmission(failingFirst(shared.database.db));
    const first = await Promise.allSettled([0, 1, 2].map(() => admission.admit(botId, `chat:${botId}`, DEFAULTS, NOW)));
    expect(first.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(outcome(await admission.admit(botId, `chat:${botId}`, DEFAULTS, NOW))).toBe('allowed');
  });

  it('fails a request as unavailable when no batch can take it in time, as a pool checkout would', async () => {
    const botId = await newBot();
    const hanging: Queryable = { query: () => new Promise(() => undefined) } as unknown as Queryable;
    const admission = new PgChatAdmission(hanging, { maxInFlight: 1, queueTimeoutMs: 100 });
    void admission.admit(botId, `chat:${botId}`, DEFAULTS, NOW); // its batch never comes back
    await new Promise((resolve) => setImmediate(resolve));
    const started = Date.now();
    await expect(admission.admit(botId, `chat:${botId}`, DEFAULTS, NOW)).rejects.toBeInstanceOf(ServiceUnavailableError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('PgBotTokenRepository batches concurrent look-ups', () => {
  it('answers the look-ups that arrive together in one statement, each as it would alone', async () => {
    const [botA, botB] = await Promise.all([newBot(), newBot()]);
    const setUp = new PgBotTokenRepository(shared.database.db);
    const hash = () => randomUUID().replaceAll('-', '').repeat(2);
    const [live, other, revoked, expired, unknown] = [hash(), hash(), hash(), hash(), hash()];
    const token = (botId: string, tokenHash: string, expiresAt: Date | null = null) =>
      setUp.create({ botId, name: 'site', tokenHash, lastFour: tokenHash.slice(-4), expiresAt }, NOW);
    await Promise.all([token(botA, live), token(botB, other), token(botA, expired, new Date(NOW.getTime() - 1))]);
    const toRevoke = await token(botB, revoked);
    await setUp.revoke(botB, toRevoke.id, NOW);

    const { q, counts } = counting(shared.database.db);
    const tokens = new PgBotTokenRepository(q);
    const found = await Promise.all([live, other, revoked, expired, unknown, live].map((h) => tokens.findUsable(h, NOW)));
    expect(found.map((f) => f?.bot.id ?? null)).toEqual([botA, botB, null, null, null, botA]);
    expect(counts.get('bot-token-find-usable-batch')).toBe(1);
  });
});

describe('PgConversationRepository batches first saves', () => {
  const message = (content: string) => ({ role: 'user' as const, content });
  const effects = (messages: number) => ({ botTotals: { conversations: 1, messages }, notify: null });
  const stats = (botId: string) => new PgBotRepository(shared.database.db).stats(botId);

  it('starts the first saves that arrive together in one statement, each as it would alone', async () => {
    const [botA, botB] = await Promise.all([newBot(), newBot()]);
    const { q, counts } = counting(shared.database.db);
    const conversations = new PgConversationRepository(q);
    const repeated = randomUUID();
    const requests = [
      { botId: botA, sessionId: randomUUID(), messages: ['a1', 'a2'] },
      { botId: botA, sessionId: repeated, messages: ['b1'] },
      { botId: randomUUID(), sessionId: randomUUID(), messages: ['no such bot'] },
      { botId: botB, sessionId: randomUUID(), messages: ['c1', 'c2', 'c3'] },
      { botId: botA, sessionId: repeated, messages: ['b1', 'b2'] },
    ];
    const started = await Promise.all(
      requests.map(({ botId, sessionId, messages }, index) =>
        conversations.startWith({ id: randomUUID(), botId, sessionId }, messages.map(message), new Date(NOW.getTime() + index), effects(messages.length)),
      ),
    );

    // Arrival order decides within a batch: the repeated session's first save starts it.
    expect(started.map((conversation) => conversation?.messageCount ?? null)).toEqual([2, 1, null, 3, null]);
    expect(counts.get('conversation-start-batch')).toBe(1);
    const stored = await Promise.all(started.map((conversation) => conversation && conversations.get(conversation.botId, conversation.id)));
    expect(stored.map((found) => found?.messages.map((m) => m.content) ?? null)).toEqual([['a1', 'a2'], ['b1'], null, ['c1', 'c2', 'c3'], null]);
    expect(stored[3]?.conversation.startedAt).toEqual(new Date(NOW.getTime() + 3));
    expect(await stats(botA)).toMatchObject({ totalConversations: 2, totalMessages: 3 });
    expect(await stats(botB)).toMatchObject({ totalConversations: 1, totalMessages: 3 });
  });

  it('fails only the save whose data PostgreSQL refuses; the others in its batch start', async () => {
    const botId = await newBot();
    const conversations = new PgConversationRepository(shared.database.db);
    const results = await Promise.allSettled(
      ['first', 'nul\u0000byte', 'third'].map((content) =>
        conversations.startWith({ id: randomUUID(), botId, sessionId: randomUUID() }, [message(content)], NOW, effects(1)),
      ),
    );
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await stats(botId)).toMatchObject({ totalConversations: 2, totalMessages: 2 });
  });

  it('never deadlocks when two instances start the same sessions in opposite orders', async () => {
    const ROUNDS = 20;
    const bots = await Promise.all(Array.from({ length: 4 }, () => newBot()));
    const instances = [new PgConversationRepository(shared.database.db), new PgConversationRepository(shared.secondPool)];
    for (let round = 0; round < ROUNDS; round++) {
      const sessions = bots.flatMap((botId) => [0, 1, 2].map(() => ({ botId, sessionId: randomUUID() })));
      const results = await Promise.all(
        instances.flatMap((instance, which) =>
          (which === 0 ? sessions : [...sessions].reverse()).map(({ botId, sessionId }) =>
            instance.startWith({ id: randomUUID(), botId, sessionId }, [message('hi')], NOW, effects(1)),
          ),
        ),
      );
      expect(results.filter((result) => result !== null)).toHaveLength(sessions.length);
    }
    const totals = await Promise.all(bots.map(stats));
    expect(totals.map((total) => [total.totalConversations, total.totalMessages])).toEqual(bots.map(() => [ROUNDS * 3, ROUNDS * 3]));
  });
});

describe('Db', () => {
  it('answers a query after the pool has closed as unavailable, not as a failure of its own', async () => {
    const db = new Db({ connectionString: shared.database.url });
    await db.close();
    await expect(db.query('SELECT 1')).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
