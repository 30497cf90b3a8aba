import { describe, expect, it } from 'vitest';
import { EXPORT_PAGE_SIZE, makeExportLeads } from '../../src/application/owner-lists.ts';
import { runtimeFixture } from '../support/runtime-fixture.ts';

describe('ExportLeads', () => {
  it('reads the leads a page at a time, only as the caller takes them', async () => {
    const f = await runtimeFixture();
    const total = EXPORT_PAGE_SIZE * 2 + 3;
    for (let i = 0; i < total; i++) {
      await f.repos.leads.insertOrFind({ botId: f.bot.id, email: `lead${i}@corp.example`, conversationId: null, contextSummary: null }, f.clock.now());
      f.clock.advance(1_000);
    }
    let pagesRead = 0;
    const list = f.repos.leads.list.bind(f.repos.leads);
    f.repos.leads.list = (botId, page) => {
      pagesRead++;
      return list(botId, page);
    };

    const result = await makeExportLeads({ bots: f.repos.bots, leads: f.repos.leads })(f.owner.id);
    if (!result.ok) throw new Error('export failed');
    expect(pagesRead).toBe(0);
    const pages = result.value[Symbol.asyncIterator]();
    const first = await pages.next();
    expect(first.done ? [] : first.value).toHaveLength(EXPORT_PAGE_SIZE);
    expect(pagesRead).toBe(1);

    const emails = first.done ? [] : first.value.map((lead) => lead.email);
    for (let page = await pages.next(); !page.done; page = await pages.next()) emails.push(...page.value.map((lead) => lead.email));
    expect(pagesRead).toBe(3);
    expect(emails).toEqual(Array.from({ length: total }, (_, i) => `lead${total - 1 - i}@corp.example`));
  });

  it('answers bot_not_found before the owner saved a bot', async () => {
    const f = await runtimeFixture();
    const stranger = await f.repos.users.create({ username: 'nobot', email: 'nobot@example.com', passwordHash: 'h' }, f.clock.now());
    const result = await makeExportLeads({ bots: f.repos.bots, leads: f.repos.leads })((stranger as { id: string }).id);
    expect(result).toEqual({ ok: false, error: { type: 'bot_not_found' } });
  });
});
