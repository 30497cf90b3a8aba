import type { ChatTarget, LlmGateway, LlmRequest, LlmStreamResponse, RateLimitDecision } from './ports.ts';
import { forgetFromFront } from './recently-seen.ts';

/** How long a bot's last admission is trusted to start a call before the next one answers. */
const REMEMBERED_MS = 60_000;
/** After any refusal of a bot (its rate limit), no call of it starts early for a whole window. */
const QUIET_AFTER_REFUSAL_MS = 60_000;
/** At most this many early calls of one bot at once: the most a burst past its limit can waste. */
const MAX_EARLY_PER_BOT = 4;
/** Each remembered target holds its bot's context (up to 50,000 characters): a hard bound beside the minute's. */
const MAX_BOTS = 1_000;

export type EarlyStartOutcome = 'adopted' | 'discarded';

interface Remembered {
  target: ChatTarget;
  seenAt: number;
  refusedAt: number;
  inFlight: number;
}

/**
 * What the last admission of each bot said in this process: the target a streamed chat's provider
 * call may start for while the next admission is on its way to the database. Only bots admitted in
 * the last minute are kept, least recently seen first, so the oldest leave from the front.
 */
export class RecentChatTargets {
  private readonly bots = new Map<string, Remembered>();

  constructor(private readonly now: () => number) {}

  /** The target to start a call for early, or null when the bot is unknown here, stale, refusing or busy. */
  guess(botId: string): ChatTarget | null {
    const seen = this.bots.get(botId);
    if (!seen) return null;
    const now = this.now();
    if (now - seen.seenAt > REMEMBERED_MS || now - seen.refusedAt < QUIET_AFTER_REFUSAL_MS) return null;
    if (seen.inFlight >= MAX_EARLY_PER_BOT) return null;
    return seen.target;
  }

  /** Records an admission's answer: no target forgets the bot, a refusal quiets it. */
  learn(botId: string, admission: { target: null } | { target: ChatTarget; decision: RateLimitDecision }): void {
    if (!admission.target) {
      this.bots.delete(botId);
      return;
    }
    const now = this.now();
    // Updated in place: an early call's `began` counter holds on to this entry.
    let seen = this.bots.get(botId);
    if (seen) {
      this.bots.delete(botId); // re-inserted below, so the map's order is least recently seen first
    } else {
      // Stale bots and, past MAX_BOTS, the least recently seen: never one with an early call in flight.
      forgetFromFront(this.bots, { stale: (bot) => now - bot.seenAt > REMEMBERED_MS, max: MAX_BOTS, pinned: (bot) => bot.inFlight > 0 });
      seen = { target: admission.target, seenAt: now, refusedAt: -Infinity, inFlight: 0 };
    }
    seen.target = admission.target;
    seen.seenAt = now;
    if (!admission.decision.allowed) seen.refusedAt = now;
    this.bots.set(botId, seen);
  }

  /** Counts an early call of the bot until `settled` runs. */
  began(botId: string): () => void {
    const seen = this.bots.get(botId);
    if (!seen) return () => {};
    seen.inFlight++;
    return () => {
      seen.inFlight--;
    };
  }
}

/**
 * A provider call started before the admission answered, for the bot's last known target: the
 * admission's round trip then overlaps the provider's time to its first words instead of adding
 * to it. It is adopted only when every step lets the message through and the call those steps
 * would make is this one, field for field; otherwise it is aborted, and no word of it reaches
 * anyone.
 */
export class EarlyCall {
  private readonly controller = new AbortController();
  private readonly answer: Promise<LlmStreamResponse>;
  private settled = false;

  constructor(
    private readonly gateway: LlmGateway,
    private readonly request: LlmRequest,
    visitorLeft: AbortSignal,
    private readonly done: (outcome: EarlyStartOutcome) => void,
  ) {
    if (visitorLeft.aborted) this.controller.abort();
    else visitorLeft.addEventListener('abort', () => this.controller.abort(), { once: true });
    this.answer = gateway.stream(request, this.controller.signal);
  }

  /** This call's answer, when it is the call the steps decided on; null (and this call aborted) when not. */
  adopt(gateway: LlmGateway, request: LlmRequest): Promise<LlmStreamResponse> | null {
    if (this.settled) return null;
    if (gateway !== this.gateway || !sameRequest(request, this.request)) {
      this.discard();
      return null;
    }
    this.settled = true;
    this.done('adopted');
    return this.answer;
  }

  /** Aborts the call unless it was adopted; its stream, if it opened, is closed unread. */
  discard(): void {
    if (this.settled) return;
    this.settled = true;
    this.controller.abort();
    this.done('discarded');
    void this.answer.then((answer) => {
      if (answer.ok) void answer.stream.rest[Symbol.asyncIterator]().return?.();
    });
  }
}

const sameRequest = (a: LlmRequest, b: LlmRequest): boolean =>
  a.model === b.model &&
  a.apiKey === b.apiKey &&
  a.system === b.system &&
  a.message === b.message &&
  a.maxTokens === b.maxTokens &&
  a.temperature === b.temperature &&
  a.azureEndpoint === b.azureEndpoint &&
  a.azureApiVersion === b.azureApiVersion &&
  a.payer === b.payer;
