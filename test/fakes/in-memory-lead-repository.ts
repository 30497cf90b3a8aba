import { randomUUID } from 'node:crypto';
import type { LeadRepository, NewLead, PageRequest } from '../../src/application/ports.ts';
import { newestFirst, toPage } from '../../src/adapters/persistence/keyset.ts';
import type { Lead, Page } from '../../src/domain/types.ts';

const position = (lead: Lead) => ({ at: lead.capturedAt, id: lead.id });

export class InMemoryLeadRepository implements LeadRepository {
  private readonly leads: Lead[] = [];

  async insertOrFind(lead: NewLead, now: Date): Promise<{ lead: Lead; created: boolean }> {
    // Unique per (bot, conversation, email), a missing conversation counting as one value.
    const existing = this.leads.find(
      (stored) => stored.botId === lead.botId && stored.conversationId === lead.conversationId && stored.email === lead.email,
    );
    if (existing) return { lead: { ...existing }, created: false };
    const stored: Lead = {
      id: randomUUID(),
      botId: lead.botId,
      email: lead.email,
      conversationId: lead.conversationId,
      contextSummary: lead.contextSummary,
      capturedAt: new Date(now),
    };
    this.leads.push(stored);
    return { lead: { ...stored }, created: true };
  }

  async list(botId: string, page: PageRequest): Promise<Page<Lead>> {
    const rows = this.sorted(botId).filter((lead) => !page.cursor || newestFirst(position(lead), page.cursor) > 0);
    return toPage(rows.slice(0, page.limit + 1), page.limit, position);
  }

  async all(botId: string): Promise<Lead[]> {
    return this.sorted(botId);
  }

  private sorted(botId: string): Lead[] {
    return this.leads
      .filter((lead) => lead.botId === botId)
      .sort((a, b) => newestFirst(position(a), position(b)))
      .map((lead) => ({ ...lead }));
  }
}
