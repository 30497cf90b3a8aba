import { err, ok, type Result } from '../domain/result.ts';
import type { LlmProvider } from '../domain/types.ts';
import { forgetFromFront } from './recently-seen.ts';
import type { ChatTarget, Clock, LlmGateway, NotificationRepository, OwnerKeyRecord, OwnerKeyRepository, OwnerKeyStatus, SecretVault, UserRepository } from './ports.ts';

export const DEFAULT_OWNER_KEY_DAILY_CAP = 100;

/** The UTC day of `now`, as the usage rows count it. */
export const utcDay = (now: Date) => now.toISOString().slice(0, 10);
const nextUtcMidnight = (now: Date) => Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);

export type OwnerKeyError =
  | { type: 'no_provider' }
  | { type: 'missing_azure_endpoint' }
  | { type: 'key_refused' }
  | { type: 'no_owner_key' };

export interface OwnerKeyOverview {
  key: OwnerKeyStatus | null;
  usage: { today: number; last30Days: number };
}

type GetDeps = { ownerKeys: OwnerKeyRepository; clock: Clock };

const overviewOf = async (d: GetDeps, userId: string, key: OwnerKeyStatus | null): Promise<OwnerKeyOverview> => ({
  key,
  usage: await d.ownerKeys.usage(userId, utcDay(d.clock.now())),
});

export const makeGetOwnerKey = (d: GetDeps) => async (userId: string) => overviewOf(d, userId, await d.ownerKeys.status(userId));

/**
 * Stores (or replaces) the owner's key for the provider their bot answers with, sealed. One
 * cheap provider call checks it first: a refusal (401, 403) keeps nothing; a provider that
 * cannot be reached does not block the save, and the key is kept as not checked.
 */
export const makeSaveOwnerKey =
  (d: GetDeps & { users: UserRepository; vault: SecretVault; gateways: Record<LlmProvider, LlmGateway> }) =>
  async (userId: string, input: { apiKey: string; azureEndpoint?: string | undefined }): Promise<Result<OwnerKeyOverview, OwnerKeyError>> => {
    const user = await d.users.findById(userId);
    if (!user?.llmProvider || !user.llmModel) return err({ type: 'no_provider' });
    const azureEndpoint = user.llmProvider === 'azure' ? input.azureEndpoint?.trim() || null : null;
    if (user.llmProvider === 'azure' && !azureEndpoint) return err({ type: 'missing_azure_endpoint' });
    const check = await d.gateways[user.llmProvider].complete({
      model: user.llmModel,
      apiKey: input.apiKey,
      system: 'Reply with OK.',
      message: 'OK?',
      maxTokens: 1,
      temperature: 0,
      azureEndpoint: azureEndpoint ?? undefined,
      payer: 'owner',
    });
    if (!check.ok && check.error === 'invalid_llm_key') return err({ type: 'key_refused' });
    if (!check.ok && check.error === 'missing_llm_key') return err({ type: 'missing_azure_endpoint' });
    const saved = await d.ownerKeys.save(
      userId,
      { provider: user.llmProvider, azureEndpoint, lastFour: input.apiKey.slice(-4), checked: check.ok, sealed: d.vault.seal(userId, input.apiKey) },
      d.clock.now(),
    );
    return ok(await overviewOf(d, userId, saved));
  };

export const makeRemoveOwnerKey = (d: { ownerKeys: OwnerKeyRepository }) => async (userId: string) => {
  await d.ownerKeys.remove(userId);
};

export const makeUpdateOwnerKeySettings =
  (d: GetDeps) =>
  async (userId: string, patch: { enabled?: boolean | undefined; dailyCap?: number | undefined }): Promise<Result<OwnerKeyOverview, OwnerKeyError>> => {
    const updated = await d.ownerKeys.updateSettings(userId, { enabled: patch.enabled, dailyCap: patch.dailyCap }, d.clock.now());
    return updated ? ok(await overviewOf(d, userId, updated)) : err({ type: 'no_owner_key' });
  };

/** Whether a visitor of this bot may chat without a key: the owner's key would answer now. */
export const ownerKeyAnswers = (key: OwnerKeyStatus | null, provider: LlmProvider) =>
  !!key && key.enabled && !key.pausedAt && key.provider === provider;

/** The key a provider call is made with, and who pays for it. */
export interface ChatKey {
  apiKey: string;
  azureEndpoint: string | undefined;
  payer: 'owner' | 'visitor';
}

export type OwnerPaymentError = { type: 'missing_llm_key' } | { type: 'owner_key_daily_cap'; resetAt: number };

/** How long an owner's last payment is trusted to start a streamed call before the next one is counted. */
const PAID_LATELY_MS = 60_000;
const MAX_REMEMBERED_PAYMENTS = 10_000;

interface LastPayment {
  record: OwnerKeyRecord;
  day: string;
  answered: number;
  at: number;
}

/**
 * Chat's second payer, for a visitor who brings no key: the owner's key, if switched on, not
 * paused and for the bot's provider, within its daily cap. The key is opened here, on the
 * path that calls the provider, and lives only as long as that call.
 */
export const makeOwnerKeyPayer = (d: { ownerKeys: OwnerKeyRepository; vault: SecretVault; notifications: NotificationRepository; clock: Clock }) => {
  // Each account's last payment here, its key still sealed: what a streamed call may start with early.
  // Oldest first (each payment re-inserts its account), so the stale leave from the front.
  const lastPayments = new Map<string, LastPayment>();
  const remember = (userId: string, payment: LastPayment) => {
    forgetFromFront(lastPayments, { stale: (last) => payment.at - last.at > PAID_LATELY_MS, max: MAX_REMEMBERED_PAYMENTS });
    lastPayments.set(userId, payment);
  };
  return {
    pay: async (target: ChatTarget, now: Date): Promise<Result<ChatKey, OwnerPaymentError>> => {
      const userId = target.bot.userId;
      lastPayments.delete(userId);
      const key = await d.ownerKeys.findForChat(userId);
      if (!key || !ownerKeyAnswers(key, target.provider)) return err({ type: 'missing_llm_key' });
      const answered = await d.ownerKeys.countAnswer(userId, utcDay(now), key.dailyCap);
      if (answered === null) return err({ type: 'owner_key_daily_cap', resetAt: nextUtcMidnight(now) });
      // Exactly one answer takes the last place of the day: it tells the owner.
      if (answered === key.dailyCap) await d.notifications.add(userId, 'owner_key_cap_reached', { cap: key.dailyCap }, d.clock.now());
      remember(userId, { record: key, day: utcDay(now), answered, at: now.getTime() });
      return ok(openedKey(d.vault, userId, key));
    },
    /**
     * The key the last payment for this bot's owner was made with, while it is recent, of the same
     * day and far from the cap: a call may start with it before `pay` counts the answer. Null otherwise.
     */
    paidLately: (target: ChatTarget, now: Date): ChatKey | null => {
      const userId = target.bot.userId;
      const last = lastPayments.get(userId);
      if (!last || now.getTime() - last.at > PAID_LATELY_MS || last.day !== utcDay(now)) return null;
      if (last.answered + 1 >= last.record.dailyCap || !ownerKeyAnswers(last.record, target.provider)) return null;
      return openedKey(d.vault, userId, last.record);
    },
    /** The provider refused the owner's key (revoked, out of credit): pause it and tell the owner once. */
    refused: async (target: ChatTarget) => {
      lastPayments.delete(target.bot.userId);
      const now = d.clock.now();
      if (await d.ownerKeys.pause(target.bot.userId, now)) {
        await d.notifications.add(target.bot.userId, 'owner_key_refused', { provider: target.provider }, now);
      }
    },
  };
};

const openedKey = (vault: SecretVault, userId: string, key: OwnerKeyRecord): ChatKey => ({
  apiKey: vault.open(userId, key.sealed),
  azureEndpoint: key.azureEndpoint ?? undefined,
  payer: 'owner',
});

export type OwnerKeyPayer = ReturnType<typeof makeOwnerKeyPayer>;
