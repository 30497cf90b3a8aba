import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { makeCaptureLead } from '../../src/application/capture-lead.ts';
import { OWNER_EMAIL, runtimeFixture } from '../support/runtime-fixture.ts';

const setup = async (options: { notify?: boolean } = {}) => {
  const f = await runtimeFixture();
  if (options.notify ?? true) await f.repos.users.setNotifyLeadsEmail(f.owner.id, true);
  const mailFailures: unknown[] = [];
  const capture = makeCaptureLead({
    limiter: f.limiter,
    transactor: f.repos.transactor,
    conversations: f.repos.conversations,
    users: f.repos.users,
    mailer: f.mailer,
    clock: f.clock,
    reportMailFailure: (error) => mailFailures.push(error),
  });
  const notifications = async () => (await f.repos.notifications.list(f.owner.id, { limit: 100, cursor: null }, false)).items;
  const conversation = async (botId = f.bot.id) => (await f.repos.conversations.startOrLock(botId, randomUUID(), f.clock.now())).conversation.id;
  return { ...f, capture, notifications, conversation, mailFailures };
};

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CaptureLead', () => {
  it('captures a new lead with a lead_captured notification and an e-mail to the owner', async () => {
    const f = await setup();
    const conversationId = await f.conversation();
    const result = await f.capture({ bot: f.bot, email: 'recruiter@corp.example', conversationId, contextSummary: 'Hiring' });
    if (!result.ok) throw new Error('capture failed');
    expect(result.value).toEqual({
      deduped: false,
      lead: {
        id: expect.any(String),
        botId: f.bot.id,
        email: 'recruiter@corp.example',
        conversationId,
        contextSummary: 'Hiring',
        capturedAt: f.clock.now(),
      },
    });
    expect((await f.notifications()).map((n) => [n.kind, n.payload])).toEqual([
      ['lead_captured', { botId: f.bot.id, leadId: result.value.lead.id, email: 'recruiter@corp.example', conversationId }],
    ]);
    await settle();
    expect(f.mailer.sent).toEqual([
      {
        to: OWNER_EMAIL,
        subject: 'New lead for Ada Lovelace: recruiter@corp.example',
        text: expect.stringContaining('E-mail: recruiter@corp.example'),
      },
    ]);
    expect(f.mailer.sent[0]!.text).toContain('Context: Hiring');
  });

  it('returns the original lead for a duplicate, without a second notification or e-mail', async () => {
    const f = await setup();
    const original = await f.capture({ bot: f.bot, email: 'r@corp.example', conversationId: null, contextSummary: 'First' });
    f.clock.advance(5_000);
    const again = await f.capture({ bot: f.bot, email: 'r@corp.example', conversationId: null, contextSummary: 'Second' });
    expect(original.ok && again).toEqual({ ok: true, value: { deduped: true, lead: original.ok && original.value.lead } });
    await settle();
    expect(await f.notifications()).toHaveLength(1);
    expect(f.mailer.sent).toHaveLength(1);
  });

  it('keeps leads of different conversations apart', async () => {
    const f = await setup();
    const one = await f.capture({ bot: f.bot, email: 'r@corp.example', conversationId: await f.conversation(), contextSummary: null });
    const two = await f.capture({ bot: f.bot, email: 'r@corp.example', conversationId: null, contextSummary: null });
    expect(one.ok && two.ok && [one.value.deduped, two.value.deduped]).toEqual([false, false]);
    expect(await f.repos.bots.stats(f.bot.id)).toMatchObject({ totalLeads: 2 });
  });

  it('sends no e-mail when the owner has not asked for them', async () => {
    const f = await setup({ notify: false });
    expect((await f.capture({ bot: f.bot, email: 'r@corp.example', conversationId: null, contextSummary: null })).ok).toBe(true);
    await settle();
    expect(f.mailer.sent).toEqual([]);
    expect(await f.notifications()).toHaveLength(1);
  });

  it('still captures the lead when the e-mail fails, and reports the failure', async () => {
    const f = await setup();
    f.mailer.failure = new Error('SMTP down');
    const result = await f.capture({ bot: f.bot, email: 'r@corp.example', conversationId: null, contextSummary: null });
    expect(result.ok && result.value.deduped).toBe(false);
    await settle();
    expect(f.mailFailures).toEqual([f.mailer.failure]);
    expect(await f.repos.leads.all(f.bot.id)).toHaveLength(1);
  });

  it('refuses a conversation that is not one of this bot’s, before anything else', async () => {
    const f = await setup();
    const other = await f.conversation(randomUUID());
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false }, f.clock.now());
    for (const conversationId of [other, randomUUID()]) {
      expect(await f.capture({ bot: await f.currentBot(), email: 'r@corp.example', conversationId, contextSummary: null })).toEqual({
        ok: false,
        error: { type: 'unknown_conversation' },
      });
    }
    expect(await f.repos.leads.all(f.bot.id)).toEqual([]);
  });

  it('answers bot_not_found for an inactive bot', async () => {
    const f = await setup();
    await f.repos.bots.updateSettings(f.bot.id, { isActive: false }, f.clock.now());
    expect(await f.capture({ bot: await f.currentBot(), email: 'r@corp.example', conversationId: null, contextSummary: null })).toEqual({
      ok: false,
      error: { type: 'bot_not_found' },
    });
    expect(await f.repos.leads.all(f.bot.id)).toEqual([]);
  });

  it('applies the owner’s limits in a bucket apart from conversations', async () => {
    const f = await setup();
    await f.repos.bots.updateSettings(f.bot.id, { rateLimits: { perMinute: 1 } }, f.clock.now());
    const bot = await f.currentBot();
    expect(await f.limiter.consume(`v1:conversations:${bot.id}`, { perMinute: 1, perDay: 50 }, f.clock.now())).toEqual({ allowed: true });
    expect((await f.capture({ bot, email: 'a@corp.example', conversationId: null, contextSummary: null })).ok).toBe(true);
    expect(await f.capture({ bot, email: 'b@corp.example', conversationId: null, contextSummary: null })).toMatchObject({
      ok: false,
      error: { type: 'rate_limited', scope: 'short' },
    });
    expect(await f.repos.leads.all(bot.id)).toHaveLength(1);
  });
});
