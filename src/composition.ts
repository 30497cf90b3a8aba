// The composition root: the only place that wires adapters, use cases and pages together.
// main.ts runs what this builds; the integration tests build the service through here too.
import { createMessageCheck, createReplyCleaner, type ReplyContext } from '@careerbot/guardrails';
import { SCORER_MODEL } from '@careerbot/guardrails/model';
import type { Logger } from 'pino';
import { makeGetBotOverview, makeUpdateBotSettings } from './application/bot-settings.ts';
import { makeAuthenticateBotToken } from './application/authenticate-bot-token.ts';
import { makeListBotTokens, makeMintBotToken, makeRevokeBotToken } from './application/bot-tokens.ts';
import { makeCaptureLead } from './application/capture-lead.ts';
import { makeGetBotAvatar, makeGetBotConfig, makeGetPublicBot } from './application/get-bot-config.ts';
import type { Clock, LlmGateway, Mailer, PasswordHasher, Repositories, Transactor } from './application/ports.ts';
import { makeRetrieveKnowledge } from './application/retrieve-knowledge.ts';
import { makeKeepReportedRefusal } from './application/keep-reported-refusal.ts';
import { makeSaveConversation } from './application/save-conversation.ts';
import type { LlmProvider } from './domain/types.ts';
import {
  makeExportLeads,
  makeGetAccountSettings,
  makeGetConversation,
  makeListConversations,
  makeListLeads,
  makeListNotifications,
  makeListRefusedMessages,
  makeMarkAllNotificationsRead,
  makeMarkNotificationRead,
  makeUpdateAccountSettings,
} from './application/owner-lists.ts';
import {
  makeGetOwnerKey,
  makeOwnerKeyPayer,
  makeRemoveOwnerKey,
  makeSaveOwnerKey,
  makeUpdateOwnerKeySettings,
} from './application/owner-llm-key.ts';
import { makeRegisterUser } from './application/register-user.ts';
import { makeChangePassword, makeConfirmEmailChange, makeRequestEmailChange } from './application/account-changes.ts';
import { makeRequestPasswordReset, makeResetPassword } from './application/account-recovery.ts';
import { makeListSessions, makeRevokeOtherSessions, makeRevokeSession } from './application/account-sessions.ts';
import { makeGetRetention, makeSetRetention, makeSweepRetention } from './application/conversation-retention.ts';
import { makeDeleteAccount } from './application/delete-account.ts';
import { makeExportAccount } from './application/export-account.ts';
import { makeSendChatMessage, makeStreamChatMessage } from './application/send-chat-message.ts';
import type { EarlyStartOutcome } from './application/early-start.ts';
import { makeSignIn } from './application/sign-in.ts';
import { makeUpsertBot } from './application/upsert-bot.ts';
import { makeImportCv } from './application/import-cv.ts';
import { makeGetInsights } from './application/get-insights.ts';
import { PgInsights } from './adapters/persistence/pg-insights.ts';
import { PgRefusedMessageRepository } from './adapters/persistence/pg-refused-message-repository.ts';
import { makeGetBotPhoto, makeRemoveBotPhoto, makeSetBotPhoto } from './application/bot-photo.ts';
import { SharpImageProcessor } from './adapters/images/sharp-image-processor.ts';
import { PgBotPhotoStore } from './adapters/persistence/pg-bot-photo-store.ts';
import { WorkerCvReader } from './adapters/cv/worker-cv-reader.ts';
import { BcryptPasswordHasher, systemClock } from './adapters/bcrypt-password-hasher.ts';
import type { Config } from './adapters/config.ts';
import { buildApp, SESSION_LIFETIME_MS } from './adapters/http/build-app.ts';
import { pageViews } from './adapters/http/page-views.ts';
import { pageRoutes } from './adapters/pages/page-routes.tsx';
import { errorSummary } from './adapters/logger.ts';
import { AnthropicLlmGateway, AzureOpenAiLlmGateway, GoogleLlmGateway, OpenAiEmbeddingGateway, OpenAiLlmGateway } from '@careerbot/llm';
import { httpFetch } from '@careerbot/llm/http-fetch';
import { httpStreamFetch } from '@careerbot/llm/http-stream-fetch';
import { InFlightMailer } from './adapters/mail/in-flight-mailer.ts';
import { LogMailer } from './adapters/mail/log-mailer.ts';
import { httpMetrics, MeteredLlmGateway, MeteredMailer, metricsRoute, ServiceMetrics } from './adapters/metrics/metrics.ts';
import { NodemailerMailer } from './adapters/mail/nodemailer-mailer.ts';
import { isReady, migrationFiles, type Db, type Queryable } from './adapters/persistence/db.ts';
import { PgAccountArchive } from './adapters/persistence/pg-account-archive.ts';
import { PgAccountEraser } from './adapters/persistence/pg-account-eraser.ts';
import { PgAccountRepository, PgAccountTokenRepository } from './adapters/persistence/pg-account-repository.ts';
import { PgRetentionSweeper } from './adapters/persistence/pg-retention-sweeper.ts';
import { PgSessionDirectory } from './adapters/persistence/pg-session-directory.ts';
import { PgBotRepository } from './adapters/persistence/pg-bot-repository.ts';
import { PgChatAdmission } from './adapters/persistence/pg-chat-admission.ts';
import { PgBotTokenRepository } from './adapters/persistence/pg-bot-token-repository.ts';
import { PgConversationRepository } from './adapters/persistence/pg-conversation-repository.ts';
import { EmbeddingMemo, MemoizedEmbeddingCache } from './adapters/persistence/memoized-embedding-cache.ts';
import { PgEmbeddingCache } from './adapters/persistence/pg-embedding-cache.ts';
import { PgLeadRepository } from './adapters/persistence/pg-lead-repository.ts';
import { PgNotificationRepository } from './adapters/persistence/pg-notification-repository.ts';
import { PgRateLimiter } from './adapters/persistence/pg-rate-limiter.ts';
import { createPgSessionStore } from './adapters/persistence/pg-session-store.ts';
import { PgSignInThrottle } from './adapters/persistence/pg-sign-in-throttle.ts';
import { PgUserRepository } from './adapters/persistence/pg-user-repository.ts';
import { PgOwnerKeyRepository } from './adapters/persistence/pg-owner-key-repository.ts';
import { EnvelopeVault, parseMasterKey } from './adapters/crypto/envelope-vault.ts';
import { masterKeysFor } from './startup.ts';
import { isServiceUnavailable } from './adapters/persistence/service-unavailable.ts';

const pgRepositories = (q: Queryable): Repositories => ({
  users: new PgUserRepository(q),
  bots: new PgBotRepository(q),
  tokens: new PgBotTokenRepository(q),
  conversations: new PgConversationRepository(q),
  leads: new PgLeadRepository(q),
  notifications: new PgNotificationRepository(q),
  embeddings: new PgEmbeddingCache(q),
});

const llmGateways = (config: Config, metrics?: ServiceMetrics): Record<LlmProvider, LlmGateway> => {
  const gateways = bareLlmGateways(config);
  if (!metrics) return gateways;
  const metered = (provider: LlmProvider) => new MeteredLlmGateway(provider, gateways[provider], metrics, config.LLM_TIMEOUT_MS);
  return { anthropic: metered('anthropic'), openai: metered('openai'), google: metered('google'), azure: metered('azure') };
};

const bareLlmGateways = (config: Config): Record<LlmProvider, LlmGateway> => ({
  anthropic: new AnthropicLlmGateway({ baseURL: config.ANTHROPIC_BASE_URL, timeoutMs: config.LLM_TIMEOUT_MS, fetch: httpFetch, streamFetch: httpStreamFetch }),
  openai: new OpenAiLlmGateway({ baseURL: config.OPENAI_BASE_URL, timeoutMs: config.LLM_TIMEOUT_MS, fetch: httpFetch, streamFetch: httpStreamFetch }),
  google: new GoogleLlmGateway({ baseURL: config.GEMINI_BASE_URL, timeoutMs: config.LLM_TIMEOUT_MS }),
  azure: new AzureOpenAiLlmGateway({ timeoutMs: config.LLM_TIMEOUT_MS, allowedHosts: config.AZURE_OPENAI_ALLOWED_HOSTS, fetch: httpFetch, streamFetch: httpStreamFetch }),
});

/** How long shutdown waits for lead e-mails still being sent (SMTP's own timeouts are 10 s). */
const MAIL_DRAIN_MS = 10_000;

/** How often each instance runs the retention job, and how many conversations one batch deletes. */
const RETENTION_EVERY_MS = 10 * 60 * 1000;
const RETENTION_BATCH = 500;

/** The career context's limit (POST /api/bots): an imported CV is cut there. */
const CONTEXT_MAX_CHARS = 50_000;

/** Lead e-mails over SMTP when SMTP_URL is set, else into the log. */
const mailerFor = (config: Config, logger: Logger): Mailer =>
  config.SMTP_URL ? new NodemailerMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM }) : new LogMailer(logger);

export interface ServiceDeps {
  config: Config;
  db: Db;
  logger: Logger;
  sessionSecret: string;
  clock?: Clock;
  hasher?: PasswordHasher;
}

/** Adapters -> use cases -> app, over one database. Tests build the service through here too. */
export const createService = async (deps: ServiceDeps) => {
  const { config, db, logger } = deps;
  const clock = deps.clock ?? systemClock;
  const hasher = deps.hasher ?? new BcryptPasswordHasher();
  // One memo of embedding vectors per process, shared by every repository set, so a
  // context change (UpsertBot, inside its transaction) also clears it.
  const embeddingMemo = new EmbeddingMemo();
  const repositoriesOn = (q: Queryable): Repositories => ({
    ...pgRepositories(q),
    embeddings: new MemoizedEmbeddingCache(new PgEmbeddingCache(q), embeddingMemo),
  });
  const repos = repositoriesOn(db);
  const transactor: Transactor = { transaction: (work) => db.transaction((tx) => work(repositoriesOn(tx))) };
  const sessionStore = createPgSessionStore(db, (error) => logger.warn({ error: errorSummary(error) }, 'session store'));
  const expectedMigrations = await migrationFiles();
  const limiter = new PgRateLimiter(db);
  // Sign-in failures and registrations, counted per 15-minute window in PostgreSQL: the limits hold across instances.
  const attempts = new PgSignInThrottle(db);
  const embeddingGateway = new OpenAiEmbeddingGateway({
    baseURL: config.OPENAI_BASE_URL,
    timeoutMs: config.LLM_TIMEOUT_MS,
    model: config.EMBEDDING_MODEL,
    fetch: httpFetch,
  });
  const metrics = new ServiceMetrics(() => ({ total: db.pool.totalCount, idle: db.pool.idleCount, waiting: db.pool.waitingCount }));
  // Lead e-mails leave after the answer: shutdown waits for those still being sent.
  const mailer = new InFlightMailer(new MeteredMailer(mailerFor(config, logger), metrics));
  // The owner's provider key: sealed under a data key wrapped by KEY_ENCRYPTION_KEY.
  const vault = new EnvelopeVault((await masterKeysFor(config)).map((key) => parseMasterKey(key)!));
  const ownerKeys = new PgOwnerKeyRepository(db);
  const gateways = llmGateways(config, metrics);
  // CV uploads are parsed in worker threads, one document each, within time and heap limits.
  const photos = new PgBotPhotoStore(db);
  // The insights page's numbers; the messages the filter refused, kept for the owner and counted per day.
  const insights = new PgInsights(db);
  const refused = new PgRefusedMessageRepository(db);
  const cvReader = new WorkerCvReader({ timeoutMs: config.CV_PARSE_TIMEOUT_MS, maxHeapMb: 256, concurrency: 2 });

  // The message filter, with its scorer's model loaded once for the process, and the reply cleaner.
  const { checkVisitorMessage } = createMessageCheck(SCORER_MODEL);
  const replyCleaner = createReplyCleaner();
  const { sanitizeReply } = replyCleaner;
  const chatDeps = {
    admission: new PgChatAdmission(db),
    gateways,
    checkMessage: checkVisitorMessage,
    cleanReply: sanitizeReply,
    streamCleaner: (context: ReplyContext) => replyCleaner.stream(context),
    clock,
    ownerKey: makeOwnerKeyPayer({ ownerKeys, vault, notifications: repos.notifications, clock }),
    refused,
    onEarlyStart: (outcome: EarlyStartOutcome) => metrics.earlyStarts.inc({ outcome }),
  };
  const accounts = new PgAccountRepository(db);
  const links = new PgAccountTokenRepository(db);
  const sessionDirectory = new PgSessionDirectory(db, SESSION_LIFETIME_MS);
  const reportAccountMailFailure = (error: unknown) => logger.warn({ error: errorSummary(error) }, 'account e-mail not sent');
  const sweepRetention = makeSweepRetention({ sweeper: new PgRetentionSweeper(db), clock, batchSize: RETENTION_BATCH });
  // Every instance runs it; the batch lock lets one of them work at a time.
  const retentionTimer = setInterval(() => {
    sweepRetention().catch((error: unknown) => logger.warn({ error: errorSummary(error) }, 'retention job failed'));
  }, RETENTION_EVERY_MS).unref();

  const app = buildApp(
    {
      requestPasswordReset: makeRequestPasswordReset({ users: repos.users, links, throttle: attempts, mailer, clock, reportMailFailure: reportAccountMailFailure }),
      resetPassword: makeResetPassword({ links, accounts, sessions: sessionDirectory, hasher, clock }),
      confirmEmailChange: makeConfirmEmailChange({ links, accounts, sessions: sessionDirectory, clock }),
      changePassword: makeChangePassword({ accounts, links, sessions: sessionDirectory, hasher }),
      requestEmailChange: makeRequestEmailChange({ accounts, users: repos.users, links, hasher, mailer, clock, reportMailFailure: reportAccountMailFailure }),
      listSessions: makeListSessions({ sessions: sessionDirectory }),
      revokeSession: makeRevokeSession({ sessions: sessionDirectory }),
      revokeOtherSessions: makeRevokeOtherSessions({ sessions: sessionDirectory }),
      exportAccount: makeExportAccount({ archive: new PgAccountArchive(db), accounts, ownerKeys }),
      deleteAccount: makeDeleteAccount({ accounts, eraser: new PgAccountEraser(db), hasher, afterErase: (botId) => botId && embeddingMemo.forgetBot(botId) }),
      getRetention: makeGetRetention({ accounts }),
      setRetention: makeSetRetention({ accounts }),
      registerUser: makeRegisterUser({ users: repos.users, hasher, clock, throttle: attempts, perAddress: config.REGISTRATIONS_PER_ADDRESS }),
      signIn: makeSignIn({ users: repos.users, hasher, throttle: attempts, clock }),
      upsertBot: makeUpsertBot({ transactor, clock }),
      importCv: makeImportCv({ reader: cvReader, maxChars: CONTEXT_MAX_CHARS }),
      setBotPhoto: makeSetBotPhoto({ bots: repos.bots, photos, images: new SharpImageProcessor(), clock }),
      removeBotPhoto: makeRemoveBotPhoto({ bots: repos.bots, photos }),
      getBotPhoto: makeGetBotPhoto({ photos }),
      getInsights: makeGetInsights({ bots: repos.bots, insights, clock }),
      getBotOverview: makeGetBotOverview({ bots: repos.bots, users: repos.users }),
      updateBotSettings: makeUpdateBotSettings({ bots: repos.bots, users: repos.users, clock }),
      listConversations: makeListConversations({ bots: repos.bots, conversations: repos.conversations }),
      getConversation: makeGetConversation({ bots: repos.bots, conversations: repos.conversations }),
      listLeads: makeListLeads({ bots: repos.bots, leads: repos.leads }),
      listRefusedMessages: makeListRefusedMessages({ bots: repos.bots, refused }),
      exportLeads: makeExportLeads({ bots: repos.bots, leads: repos.leads }),
      listNotifications: makeListNotifications({ notifications: repos.notifications }),
      markNotificationRead: makeMarkNotificationRead({ notifications: repos.notifications, clock }),
      markAllNotificationsRead: makeMarkAllNotificationsRead({ notifications: repos.notifications, clock }),
      getAccountSettings: makeGetAccountSettings({ users: repos.users }),
      updateAccountSettings: makeUpdateAccountSettings({ users: repos.users }),
      sendChatMessage: makeSendChatMessage(chatDeps),
      streamChatMessage: makeStreamChatMessage(chatDeps),
      getOwnerKey: makeGetOwnerKey({ ownerKeys, clock }),
      saveOwnerKey: makeSaveOwnerKey({ ownerKeys, clock, users: repos.users, vault, gateways }),
      removeOwnerKey: makeRemoveOwnerKey({ ownerKeys }),
      updateOwnerKeySettings: makeUpdateOwnerKeySettings({ ownerKeys, clock }),
      mintBotToken: makeMintBotToken({ bots: repos.bots, tokens: repos.tokens, clock }),
      listBotTokens: makeListBotTokens({ bots: repos.bots, tokens: repos.tokens }),
      revokeBotToken: makeRevokeBotToken({ bots: repos.bots, tokens: repos.tokens, clock }),
      authenticateBotToken: makeAuthenticateBotToken({ tokens: repos.tokens, clock }),
      getBotConfig: makeGetBotConfig(),
      getBotAvatar: makeGetBotAvatar({ bots: repos.bots }),
      getPublicBot: makeGetPublicBot({ bots: repos.bots, ownerKeys }),
      retrieveKnowledge: makeRetrieveKnowledge({ limiter, gateway: embeddingGateway, cache: repos.embeddings, clock }),
      saveConversation: makeSaveConversation({ limiter, conversations: repos.conversations, transactor, clock }),
      keepReportedRefusal: makeKeepReportedRefusal({ limiter, refused, clock }),
      captureLead: makeCaptureLead({
        limiter,
        transactor,
        conversations: repos.conversations,
        users: repos.users,
        mailer,
        clock,
        reportMailFailure: (error) => logger.warn({ error: errorSummary(error) }, 'lead e-mail not sent'),
      }),
    },
    {
      logger,
      sessionStore,
      sessionSecret: deps.sessionSecret,
      sessionCookieName: config.SESSION_COOKIE_NAME,
      secureCookies: config.NODE_ENV === 'production',
      publicUrl: config.PUBLIC_URL,
      allowedOrigins: config.ALLOWED_ORIGINS,
      trustProxy: config.TRUST_PROXY,
      isReady: () => isReady(db, expectedMigrations),
      metrics: { count: httpMetrics(metrics), serve: metricsRoute(metrics, config.METRICS_TOKEN) },
      isServiceUnavailable,
      pages: ({ sessions, useCases }) => pageRoutes({ views: pageViews(useCases), sessions, publicUrl: config.PUBLIC_URL }),
    },
  );
  const close = async () => {
    clearInterval(retentionTimer);
    if (!(await mailer.drain(MAIL_DRAIN_MS))) logger.warn({ pending: mailer.pending }, 'lead e-mails still being sent at shutdown');
    await sessionStore.close();
  };
  return { app, close, metrics, sweepRetention };
};
