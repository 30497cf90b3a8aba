import { randomUUID } from 'node:crypto';
import type { BotRepository, PageRequest, RefusedMessageRepository } from '../../src/application/ports.ts';
import { newestFirst, toPage } from '../../src/adapters/persistence/keyset.ts';
import type { Page, RefusedMessage } from '../../src/domain/types.ts';

const position = (m: RefusedMessage) => ({ at: m.createdAt, id: m.id });

export class InMemoryRefusedMessageRepository implements RefusedMessageRepository {
  readonly messages: RefusedMessage[] = [];
  /** Per bot, UTC day and reason, as bot_refusals_daily counts them. */
  readonly daily = new Map<string, number>();
  private readonly reportIds = new Set<string>();

  constructor(private readonly bots: Pick<BotRepository, 'findById'>) {}

  async add(refusal: { botId: string; reason: string; content: string }, now: Date): Promise<void> {
    if (!(await this.bots.findById(refusal.botId))) return;
    this.messages.push({ id: randomUUID(), ...refusal, createdAt: new Date(now) });
    const key = `${refusal.botId}|${now.toISOString().slice(0, 10)}|${refusal.reason}`;
    this.daily.set(key, (this.daily.get(key) ?? 0) + 1);
  }

  async addReported(refusal: { botId: string; reason: string; content: string; reportId: string }, now: Date): Promise<boolean> {
    // Taken before the first await, as the unique index does: a concurrent twin finds it.
    const key = `${refusal.botId}|${refusal.reportId}`;
    if (this.reportIds.has(key)) return false;
    this.reportIds.add(key);
    if (!(await this.bots.findById(refusal.botId))) {
      this.reportIds.delete(key);
      return false;
    }
    const { reportId: _reportId, ...kept } = refusal;
    await this.add(kept, now);
    return true;
  }

  async list(botId: string, page: PageRequest): Promise<Page<RefusedMessage>> {
    const rows = this.messages
      .filter((m) => m.botId === botId && (!page.cursor || newestFirst(position(m), page.cursor) > 0))
      .sort((a, b) => newestFirst(position(a), position(b)))
      .map((m) => ({ ...m }));
    return toPage(rows.slice(0, page.limit + 1), page.limit, position);
  }
}
