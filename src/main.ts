import cluster from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createMessageCheck } from '@careerbot/guardrails';
import { SCORER_MODEL } from '@careerbot/guardrails/model';
import type { Logger } from 'pino';
import { makeGetBotOverview, makeUpdateBotSettings } from './application/bot-settings.ts';
import { makeAuthenticateBotToken } from './application/authenticate-bot-token.ts';
import { makeListBotTokens, makeMintBotToken, makeRevokeBotToken } from './application/bot-tokens.ts';
import { makeCaptureLead } from './application/capture-lead.ts';
import { makeGetBotAvatar, makeGetBotConfig, makeGetPublicBot } from './application/get-bot-config.ts';
import type { Clock, LlmGateway, Mailer, PasswordHasher, Repositories, Transactor } from './application/ports.ts';
import { makeRetrieveKnowledge } from './application/retrieve-knowledge.ts';
import { makeSaveConversation } from './application/save-conversation.ts';
import type { LlmProvider } from './domain/types.ts';
import {
  makeExportLeads,
  makeGetAccountSettings,
  makeGetConversation,
  makeListConversations,
  makeListLeads,
  makeListNotifications,
  makeMarkAllNotificationsRead,
  makeMarkNotificationRead,
  makeUpdateAccountSettings,
} from './application/owner-lists.ts';
import { makeRegisterUser } from './application/register-user.ts';
import { makeSendChatMessage } from './application/send-chat-message.ts';
import { makeSignIn } from './application/sign-in.ts';
import { makeUpsertBot } from './application/upsert-bot.ts';
import { BcryptPasswordHasher, systemClock } from './adapters/bcrypt-password-hasher.ts';
import { parseConfig, type Config } from './adapters/config.ts';
import { buildApp } from './adapters/http/build-app.ts';
import { createLogger, errorSummary } from './adapters/logger.ts';
import { AnthropicLlmGateway } from './adapters/llm/anthropic-llm-gateway.ts';
import { AzureOpenAiLlmGateway } from './adapters/llm/azure-openai-llm-gateway.ts';
import { GoogleLlmGateway } from './adapters/llm/google-llm-gateway.ts';
import { OpenAiEmbeddingGateway } from './adapters/llm/openai-embedding-gateway.ts';
import { OpenAiLlmGateway } from './adapters/llm/openai-llm-gateway.ts';
import { InFlightMailer } from './adapters/mail/in-flight-mailer.ts';
import { LogMailer } from './adapters/mail/log-mailer.ts';
import {
  clusterMetrics,
  MeteredLlmGateway,
  MeteredMailer,
  offerToPrimary,
  ServiceMetrics,
  startMetricsServer,
  type MetricsSource,
} from './adapters/metrics/metrics.ts';
import { NodemailerMailer } from './adapters/mail/nodemailer-mailer.ts';
import { Db, isReady, migrate, migrationFiles, type Queryable } from './adapters/persistence/db.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './adapters/persistence/embedded-postgres.ts';
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

export const pgRepositories = (q: Queryable): Repositories => ({
  users: new PgUserRepository(q),
  bots: new PgBotRepository(q),
  tokens: new PgBotTokenRepository(q),
  conversations: new PgConversationRepository(q),
  leads: new PgLeadRepository(q),
  notifications: new PgNotificationRepository(q),
  embeddings: new PgEmbeddingCache(q),
});

export const llmGateways = (config: Config, metrics?: ServiceMetrics): Record<LlmProvider, LlmGateway> => {
  const gateways = bareLlmGateways(config);
  if (!metrics) return gateways;
  const metered = (provider: LlmProvider) => new MeteredLlmGateway(provider, gateways[provider], metrics, config.LLM_TIMEOUT_MS);
  return { anthropic: metered('anthropic'), openai: metered('openai'), google: metered('google'), azure: metered('azure') };
};

const bareLlmGateways = (config: Config): Record<LlmProvider, LlmGateway> => ({
  anthropic: new AnthropicLlmGateway({ baseURL: config.ANTHROPIC_BASE_URL, timeoutMs: config.LLM_TIMEOUT_MS }),
  openai: new OpenAiLlmGateway({ baseURL: config.OPENAI_BASE_URL, timeoutMs: config.LLM_TIMEOUT_MS }),
  google: new GoogleLlmGateway({ baseURL: config.GEMINI_BASE_URL, timeoutMs: config.LLM_TIMEOUT_MS }),
  azure: new AzureOpenAiLlmGateway({ timeoutMs: config.LLM_TIMEOUT_MS, allowedHosts: config.AZURE_OPENAI_ALLOWED_HOSTS }),
});

/** How long shutdown waits for lead e-mails still being sent (SMTP's own timeouts are 10 s). */
const MAIL_DRAIN_MS = 10_000;

/** Lead e-mails over SMTP when SMTP_URL is set, else into the log. */
export const mailerFor = (config: Config, logger: Logger): Mailer =>
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
  });
  const metrics = new ServiceMetrics(() => ({ total: db.pool.totalCount, idle: db.pool.idleCount, waiting: db.pool.waitingCount }));
  // Lead e-mails leave after the answer: shutdown waits for those still being sent.
  const mailer = new InFlightMailer(new MeteredMailer(mailerFor(config, logger), metrics));
  const { checkVisitorMessage } = createMessageCheck(SCORER_MODEL);

  const app = buildApp(
    {
      registerUser: makeRegisterUser({ users: repos.users, hasher, clock, throttle: attempts, perAddress: config.REGISTRATIONS_PER_ADDRESS }),
      signIn: makeSignIn({ users: repos.users, hasher, throttle: attempts, clock }),
      upsertBot: makeUpsertBot({ transactor, clock }),
      getBotOverview: makeGetBotOverview({ bots: repos.bots, users: repos.users }),
      updateBotSettings: makeUpdateBotSettings({ bots: repos.bots, users: repos.users, clock }),
      listConversations: makeListConversations({ bots: repos.bots, conversations: repos.conversations }),
      getConversation: makeGetConversation({ bots: repos.bots, conversations: repos.conversations }),
      listLeads: makeListLeads({ bots: repos.bots, leads: repos.leads }),
      exportLeads: makeExportLeads({ bots: repos.bots, leads: repos.leads }),
      listNotifications: makeListNotifications({ notifications: repos.notifications }),
      markNotificationRead: makeMarkNotificationRead({ notifications: repos.notifications, clock }),
      markAllNotificationsRead: makeMarkAllNotificationsRead({ notifications: repos.notifications, clock }),
      getAccountSettings: makeGetAccountSettings({ users: repos.users }),
      updateAccountSettings: makeUpdateAccountSettings({ users: repos.users }),
      sendChatMessage: makeSendChatMessage({
        admission: new PgChatAdmission(db),
        gateways: llmGateways(config, metrics),
        clock,
        checkMessage: checkVisitorMessage,
      }),
      mintBotToken: makeMintBotToken({ bots: repos.bots, tokens: repos.tokens, clock }),
      listBotTokens: makeListBotTokens({ bots: repos.bots, tokens: repos.tokens }),
      revokeBotToken: makeRevokeBotToken({ bots: repos.bots, tokens: repos.tokens, clock }),
      authenticateBotToken: makeAuthenticateBotToken({ tokens: repos.tokens, clock }),
      getBotConfig: makeGetBotConfig(),
      getBotAvatar: makeGetBotAvatar({ bots: repos.bots }),
      getPublicBot: makeGetPublicBot({ bots: repos.bots }),
      retrieveKnowledge: makeRetrieveKnowledge({ limiter, gateway: embeddingGateway, cache: repos.embeddings, clock }),
      saveConversation: makeSaveConversation({ limiter, conversations: repos.conversations, transactor, clock }),
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
      metrics,
      metricsToken: config.METRICS_TOKEN,
    },
  );
  const close = async () => {
    if (!(await mailer.drain(MAIL_DRAIN_MS))) logger.warn({ pending: mailer.pending }, 'lead e-mails still being sent at shutdown');
    await sessionStore.close();
  };
  return { app, close, metrics };
};

// ---------------------------------------------------------------- running it

const EMBEDDED_DATABASE = 'careerbot';

/** In development the session secret is generated once and kept in DATA_DIR. */
const developmentSessionSecret = async (dataDir: string) => {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(32).toString('hex');
  await mkdir(dataDir, { recursive: true });
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
};

const ensureDatabase = async (serverUrl: string, name: string) => {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** DATABASE_URL, else an embedded PostgreSQL with its data in DATA_DIR. */
export const openDatabase = async (config: Config, logger: Logger) => {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: null };
  const embedded = await startEmbeddedPostgres({
    dataDir: config.DATA_DIR,
    persistent: true,
    ownSignalHandling: true,
    onLog: (line) => logger.debug({ postgres: line }),
  });
  logger.info({ dataDir: path.resolve(config.DATA_DIR), databaseDir: embedded.databaseDir }, 'embedded PostgreSQL started');
  return { url: await ensureDatabase(embedded.url, EMBEDDED_DATABASE), embedded };
};

const SHUTDOWN_GRACE_MS = 10_000;

/** The database (embedded or DATABASE_URL's), migrated. */
const openMigratedDatabase = async (config: Config, logger: Logger) => {
  const database = await openDatabase(config, logger);
  const applied = await migrate(database.url);
  if (applied.length > 0) logger.info({ applied }, 'migrations applied');
  return database;
};

const closeServer = async (server: Server | null) => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
};

const listenForMetrics = async (source: MetricsSource, config: Config, logger: Logger) => {
  const server = await startMetricsServer(source, config.METRICS_PORT!, config.METRICS_HOST);
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.METRICS_PORT;
  logger.info({ port, host: config.METRICS_HOST, url: `http://${config.METRICS_HOST}:${port}/metrics` }, 'metrics listening');
  return server;
};

/** Last of a shutdown: the embedded PostgreSQL if we started it, then exit code 0. */
const finalStop = async (embedded: EmbeddedPostgres | null, logger: Logger) => {
  await embedded?.stop().catch((error) => logger.error({ error: errorSummary(error) }, 'stopping embedded PostgreSQL'));
  logger.info('stopped');
  process.exit(0);
};

/** SIGINT (Ctrl-C) and SIGTERM (a supervisor) both stop the process cleanly. */
const onStopSignals = (shutdown: (signal: string) => Promise<void>) => {
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
};

/**
 * WEB_CONCURRENCY > 1: this primary opens the database (starting the embedded PostgreSQL
 * once, here), migrates, settles the session secret, and forks the workers, which share
 * the port. A worker that dies is replaced. SIGTERM or SIGINT stops every worker (each
 * drains its requests), then the database, then this process, with exit code 0.
 */
const runPrimary = async (config: Config, logger: Logger) => {
  let embedded: EmbeddedPostgres | null = null;
  let metricsServer: Server | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, workers: Object.keys(cluster.workers ?? {}).length }, 'shutting down the workers');
    const workers = Object.values(cluster.workers ?? {}).filter((worker) => worker !== undefined);
    await Promise.all(
      workers.map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.isDead()) return resolve();
            const force = setTimeout(() => worker.process.kill('SIGKILL'), SHUTDOWN_GRACE_MS + 5_000);
            worker.once('exit', () => (clearTimeout(force), resolve()));
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    await closeServer(metricsServer);
    await finalStop(embedded, logger);
  };
  onStopSignals(shutdown);

  try {
    const database = await openMigratedDatabase(config, logger);
    embedded = database.embedded;
    const sessionSecret = config.SESSION_SECRET ?? (await developmentSessionSecret(config.DATA_DIR));
    // The workers find the database and the secret in their environment.
    const workerEnv = { DATABASE_URL: database.url, SESSION_SECRET: sessionSecret };
    const fork = () => cluster.fork(workerEnv);
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      logger.error({ workerPid: worker.process.pid, code, signal }, 'worker died; starting another');
      fork();
    });
    for (let i = 0; i < config.WEB_CONCURRENCY; i++) fork();
    if (config.METRICS_PORT !== undefined) metricsServer = await listenForMetrics(clusterMetrics(), config, logger);
    logger.info({ workers: config.WEB_CONCURRENCY }, 'workers started');
  } catch (error) {
    logger.fatal({ error: errorSummary(error), stack: (error as Error)?.stack }, 'start-up failed');
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }
};

const run = async () => {
  const parsed = parseConfig(process.env);
  if (!parsed.ok) {
    console.error(parsed.message);
    process.exit(1);
  }
  const config = parsed.config;
  const logger = createLogger(config.LOG_LEVEL);
  if (config.WEB_CONCURRENCY > 1 && cluster.isPrimary) return runPrimary(config, logger);
  let embedded: EmbeddedPostgres | null = null;
  let db: Db | null = null;
  let server: Server | null = null;
  let metricsServer: Server | null = null;
  let close = async () => {};

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => server?.closeAllConnections(), SHUTDOWN_GRACE_MS);
    force.unref();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    clearTimeout(force);
    await closeServer(metricsServer);
    await close().catch(() => undefined);
    await db?.close().catch(() => undefined);
    await finalStop(embedded, logger);
  };
  onStopSignals(shutdown);

  try {
    const database = await openMigratedDatabase(config, logger);
    embedded = database.embedded;
    db = new Db({
      connectionString: database.url,
      max: config.DB_POOL_MAX,
      onError: (error) => logger.warn({ error: errorSummary(error) }, 'idle database connection lost'),
    });
    const sessionSecret = config.SESSION_SECRET ?? (await developmentSessionSecret(config.DATA_DIR));
    const service = await createService({ config, db, logger, sessionSecret });
    close = service.close;
    // A cluster worker offers its metrics to the primary, which serves the sum.
    if (cluster.isWorker) offerToPrimary(service.metrics);
    else if (config.METRICS_PORT !== undefined) metricsServer = await listenForMetrics(service.metrics, config, logger);
    server = service.app.listen(config.PORT, config.HOST);
    await new Promise<void>((resolve, reject) => {
      server!.once('listening', resolve);
      server!.once('error', reject);
    });
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    logger.info({ port, host: config.HOST, url: `http://localhost:${port}` }, 'listening');
  } catch (error) {
    logger.fatal({ error: errorSummary(error), stack: (error as Error)?.stack }, 'start-up failed');
    await db?.close().catch(() => undefined);
    await embedded?.stop().catch(() => undefined);
    process.exit(1);
  }
};

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  void run();
}
