import type { Delivery, Outbox } from './outbox.ts';
import type { PlatformAnswer, PlatformClient } from './platform-client.ts';
import type { RuntimeLogger } from './logger.ts';

export type TranscriptMessage = { role: 'user' | 'assistant'; content: string };

/** v1 keeps at most this many messages per save; it coalesces overlapping saves. */
const MESSAGES_PER_SAVE = 200;
/** Sessions whose conversation id is remembered (for their leads), oldest forgotten first. */
const SESSIONS_REMEMBERED = 10_000;

export type LeadOutcome = { kind: 'answered'; status: number; body: unknown } | { kind: 'queued' } | { kind: 'gone' } | { kind: 'full' };

const conversationKey = (sessionId: string) => `conversation:${sessionId}`;

const asDelivery = (answer: PlatformAnswer): Delivery =>
  answer.kind === 'unavailable' ? { kind: 'retry', afterMs: answer.retryAfterMs } : answer.kind === 'refused' ? { kind: 'dropped' } : { kind: 'delivered' };

/**
 * Transcript saves and leads on their way to the platform. Each is tried at once; while the
 * platform cannot take it, it waits in the outbox. A session's conversation id, learnt from its
 * first save, goes with its leads.
 */
export class Deliveries {
  private readonly conversations = new Map<string, string>();

  constructor(
    private readonly platform: PlatformClient,
    private readonly outbox: Outbox,
    private readonly log: RuntimeLogger,
  ) {}

  /** Saves the session's transcript; its conversation id, or undefined while the platform cannot be reached. */
  async saveTranscript(sessionId: string, messages: TranscriptMessage[]): Promise<string | undefined> {
    const send = async (): Promise<Delivery> => {
      const answer = await this.platform.saveConversation({ sessionId, messages: messages.slice(-MESSAGES_PER_SAVE) });
      if (answer.kind === 'ok') this.remember(sessionId, answer.body);
      if (answer.kind === 'refused') this.log('warn', 'the platform refused a transcript', { status: answer.status });
      return asDelivery(answer);
    };
    const key = conversationKey(sessionId);
    if (!this.outbox.has(key)) {
      const first = await send();
      if (first.kind !== 'retry') return this.conversations.get(sessionId);
      if (!this.outbox.add(key, send, first.afterMs)) this.log('error', 'the queue is full: a transcript was not kept', { queued: this.outbox.size });
      return undefined;
    }
    // An earlier save of this session still waits: this one, holding it, takes its place.
    this.outbox.add(key, send);
    return undefined;
  }

  /** Forwards a lead with its session's conversation id, after that session's transcript. */
  async captureLead(lead: { sessionId: string; email: string; contextSummary: string | null }): Promise<LeadOutcome> {
    const send = () => this.platform.captureLead({ email: lead.email, conversationId: this.conversations.get(lead.sessionId) ?? null, contextSummary: lead.contextSummary });
    const queued = async (): Promise<Delivery> => {
      if (this.outbox.has(conversationKey(lead.sessionId))) return { kind: 'retry' };
      const answer = await send();
      if (answer.kind === 'refused') this.log('warn', 'the platform refused a lead', { status: answer.status });
      return asDelivery(answer);
    };
    const key = `lead:${lead.sessionId}:${lead.email}`;
    if (!this.outbox.has(conversationKey(lead.sessionId)) && !this.outbox.has(key)) {
      const answer = await send();
      if (answer.kind === 'refused' && answer.status === 401) return { kind: 'gone' };
      if (answer.kind === 'ok' || answer.kind === 'refused') return { kind: 'answered', status: answer.status, body: answer.body };
    }
    return this.outbox.add(key, queued) ? { kind: 'queued' } : { kind: 'full' };
  }

  /**
   * Reports a message the filter refused, so the owner sees it on the dashboard as the platform's
   * own refusals. Best effort and never in the visitor's way: it goes through the outbox (its
   * retries, and the last attempt at SIGTERM), but only while the outbox is less than half full,
   * so that refusals can never take the room transcripts and leads need.
   */
  reportRefusal(refusal: { reason: string; content: string }): void {
    if (this.outbox.size >= this.outbox.limit / 2) {
      this.log('warn', 'a refused message was not reported: the queue is busy', { queued: this.outbox.size });
      return;
    }
    const body = { id: crypto.randomUUID(), ...refusal };
    this.outbox.add(`refusal:${body.id}`, async () => {
      const answer = await this.platform.reportRefusal(body);
      if (answer.kind === 'refused') this.log('warn', 'the platform refused a refused message', { status: answer.status });
      return asDelivery(answer);
    });
  }

  private remember(sessionId: string, body: unknown): void {
    const id = (body as { conversationId?: unknown } | null)?.conversationId;
    if (typeof id !== 'string') return;
    this.conversations.delete(sessionId);
    this.conversations.set(sessionId, id);
    if (this.conversations.size > SESSIONS_REMEMBERED) this.conversations.delete(this.conversations.keys().next().value!);
  }
}
