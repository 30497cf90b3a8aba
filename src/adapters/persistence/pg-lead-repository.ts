import type { LeadRepository, NewLead, PageRequest } from '../../application/ports.ts';
import type { Lead, Page } from '../../domain/types.ts';
import type { Queryable } from './db.ts';
import { afterCursor, cursorParams, toPage } from './keyset.ts';

interface LeadRow {
  id: string;
  bot_id: string;
  email: string;
  conversation_id: string | null;
  context_summary: string | null;
  captured_at: Date;
}

export const LEAD_COLUMNS = 'id, bot_id, email, conversation_id, context_summary, captured_at';

export const rowToLead = (row: LeadRow): Lead => ({
  id: row.id,
  botId: row.bot_id,
  email: row.email,
  conversationId: row.conversation_id,
  contextSummary: row.context_summary,
  capturedAt: row.captured_at,
});

// The unique index leads_dedupe_key is NULLS NOT DISTINCT: no conversation is one value.
const INSERT_LEAD = `
  INSERT INTO leads (bot_id, conversation_id, email, context_summary, captured_at) VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT (bot_id, conversation_id, email) DO NOTHING
  RETURNING ${LEAD_COLUMNS}`;
const FIND_LEAD = `
  SELECT ${LEAD_COLUMNS} FROM leads
  WHERE bot_id = $1 AND conversation_id IS NOT DISTINCT FROM $2::uuid AND email = $3`;
const LIST = `
  SELECT ${LEAD_COLUMNS} FROM leads
  WHERE bot_id = $1 AND ${afterCursor('captured_at', 'id', 2)}
  ORDER BY captured_at DESC, id DESC
  LIMIT $4`;
const ALL = `SELECT ${LEAD_COLUMNS} FROM leads WHERE bot_id = $1 ORDER BY captured_at DESC, id DESC`;

export class PgLeadRepository implements LeadRepository {
  constructor(private readonly q: Queryable) {}

  async insertOrFind(lead: NewLead, now: Date): Promise<{ lead: Lead; created: boolean }> {
    // A conflicting insert waits for the other transaction; once it commits, the row is
    // visible to the next statement. Only a row deleted in between leaves neither: start over.
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const inserted = await this.q.query<LeadRow>(INSERT_LEAD, [
        lead.botId,
        lead.conversationId,
        lead.email,
        lead.contextSummary,
        now,
      ]);
      if (inserted.rows[0]) return { lead: rowToLead(inserted.rows[0]), created: true };
      const found = await this.q.query<LeadRow>(FIND_LEAD, [lead.botId, lead.conversationId, lead.email]);
      if (found.rows[0]) return { lead: rowToLead(found.rows[0]), created: false };
    }
    throw new Error(`lead ${lead.email} of bot ${lead.botId} could be neither inserted nor found`);
  }

  async list(botId: string, page: PageRequest): Promise<Page<Lead>> {
    const { rows } = await this.q.query<LeadRow>(LIST, [botId, ...cursorParams(page.cursor), page.limit + 1]);
    return toPage(rows.map(rowToLead), page.limit, (lead) => ({ at: lead.capturedAt, id: lead.id }));
  }

  async all(botId: string): Promise<Lead[]> {
    const { rows } = await this.q.query<LeadRow>(ALL, [botId]);
    return rows.map(rowToLead);
  }
}
