import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LeadRepository, NewLead } from '../../src/application/ports.ts';
import { keysetPaginationContract } from './keyset-pagination.contract.ts';

export interface LeadRepositoryFixture {
  subject: LeadRepository;
  /** Two bots with no leads yet. */
  botId: string;
  otherBotId: string;
  /** Two conversations of `botId`. */
  conversationIds: [string, string];
}

const NOW = new Date('2025-03-01T10:00:00.000Z');
const later = (ms: number) => new Date(NOW.getTime() + ms);

export const leadRepositoryContract = (makeSubject: () => Promise<LeadRepositoryFixture>) => {
  describe('LeadRepository contract', () => {
    it('captures a lead', async () => {
      const { subject, botId, conversationIds } = await makeSubject();
      const input: NewLead = { botId, email: 'ada@example.com', conversationId: conversationIds[0], contextSummary: 'Hiring' };
      expect(await subject.insertOrFind(input, NOW)).toEqual({
        created: true,
        lead: { id: expect.any(String), ...input, capturedAt: NOW },
      });
    });

    it('returns the original row for the same (bot, conversation, email)', async () => {
      const { subject, botId, conversationIds } = await makeSubject();
      const input: NewLead = { botId, email: 'ada@example.com', conversationId: conversationIds[0], contextSummary: 'First' };
      const original = await subject.insertOrFind(input, NOW);
      const again = await subject.insertOrFind({ ...input, contextSummary: 'Second' }, later(1000));
      expect(again).toEqual({ created: false, lead: original.lead });
      expect(await subject.all(botId)).toEqual([original.lead]);
    });

    it('counts a missing conversation as one value', async () => {
      const { subject, botId } = await makeSubject();
      const input: NewLead = { botId, email: 'ada@example.com', conversationId: null, contextSummary: null };
      const original = await subject.insertOrFind(input, NOW);
      expect(original.created).toBe(true);
      expect(await subject.insertOrFind(input, later(1000))).toEqual({ created: false, lead: original.lead });
    });

    it('keeps leads apart by bot, conversation and email', async () => {
      const { subject, botId, otherBotId, conversationIds } = await makeSubject();
      const base: NewLead = { botId, email: 'ada@example.com', conversationId: conversationIds[0], contextSummary: null };
      const variants: NewLead[] = [
        base,
        { ...base, conversationId: conversationIds[1] },
        { ...base, conversationId: null },
        { ...base, email: 'grace@example.com' },
        { ...base, botId: otherBotId, conversationId: null },
      ];
      const results = [];
      for (const [i, variant] of variants.entries()) results.push(await subject.insertOrFind(variant, later(i * 1000)));
      expect(results.every((result) => result.created)).toBe(true);
      expect(new Set(results.map((result) => result.lead.id)).size).toBe(variants.length);
      expect((await subject.all(botId)).map((lead) => lead.id)).toEqual(results.slice(0, 4).map((r) => r.lead.id).reverse());
    });

    it('gives one row and one created: true to concurrent identical captures', async () => {
      const { subject, botId, conversationIds } = await makeSubject();
      for (const conversationId of [conversationIds[0], null]) {
        const input: NewLead = { botId, email: 'ada@example.com', conversationId, contextSummary: null };
        const results = await Promise.all(Array.from({ length: 10 }, () => subject.insertOrFind(input, NOW)));
        expect(results.filter((result) => result.created)).toHaveLength(1);
        expect(new Set(results.map((result) => result.lead.id)).size).toBe(1);
      }
      expect(await subject.all(botId)).toHaveLength(2);
    });

    it('lists all of a bot’s leads newest first', async () => {
      const { subject, botId, otherBotId } = await makeSubject();
      const capture = async (email: string, at: Date, bot = botId) =>
        (await subject.insertOrFind({ botId: bot, email, conversationId: null, contextSummary: null }, at)).lead;
      const older = await capture('a@example.com', NOW);
      const newest = await capture('b@example.com', later(2000));
      const middle = await capture('c@example.com', later(1000));
      await capture('d@example.com', later(3000), otherBotId);
      expect(await subject.all(botId)).toEqual([newest, middle, older]);
      expect(await subject.list(botId, { limit: 10, cursor: null })).toEqual({ items: [newest, middle, older], nextCursor: null });
    });

    keysetPaginationContract(async () => {
      const { subject, botId } = await makeSubject();
      return {
        insertAt: async (at) =>
          (await subject.insertOrFind({ botId, email: `${randomUUID()}@example.com`, conversationId: null, contextSummary: null }, at))
            .lead.id,
        page: (request) => subject.list(botId, request),
      };
    });
  });
};
