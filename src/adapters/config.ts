import { availableParallelism } from 'node:os';
import { z } from 'zod';

const DEFAULT_AZURE_HOSTS = '.openai.azure.com,.cognitiveservices.azure.com,.services.ai.azure.com';

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined)
  .pipe(z.url({ message: 'must be an absolute URL' }).optional());

const list = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );

const integer = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` })
    .default(fallback);

/** A whole number when set, undefined when unset or empty. */
const optionalInteger = (min: number, max: number) =>
  z
    .string()
    .trim()
    .optional()
    .transform((value) => (value ? Number(value) : undefined))
    .pipe(z.number({ message: 'must be a number' }).int({ message: 'must be a whole number' }).min(min).max(max).optional());

/** Express's `trust proxy`: true/false, a hop count, or addresses and subnets. */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value): boolean | number | string => {
    if (value === 'true') return true;
    if (value === 'false' || value === '') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value;
  });

const origin = z.string().transform((value, ctx) => {
  try {
    return new URL(value).origin;
  } catch {
    ctx.addIssue({ code: 'custom', message: `"${value}" is not an origin such as https://example.com` });
    return z.NEVER;
  }
});

/** 32 bytes: 64 hex digits, or base64 (standard or URL-safe). */
const MASTER_KEY_PATTERN = /^(?:[0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)$/;

export const configSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: integer(3000, 0, 65535),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    DATABASE_URL: optionalUrl,
    DATA_DIR: z.string().trim().min(1).default('./.data'),
    DB_POOL_MAX: integer(10, 1, 200),
    /** PostgreSQL cancels a statement running longer than this (statement_timeout): 503. */
    DB_STATEMENT_TIMEOUT_MS: integer(5_000, 100, 600_000),
    /** The service gives up on a database that does not answer (hung, frozen) after this long, and on waiting for a connection: 503. */
    DB_QUERY_TIMEOUT_MS: integer(6_000, 100, 600_000),
    REGISTRATIONS_PER_ADDRESS: integer(10, 1, 1_000_000),
    /** Worker processes under the cluster module: a number, or `auto` for one per core. */
    WEB_CONCURRENCY: z
      .string()
      .trim()
      .default('1')
      .transform((value) => (value === 'auto' ? availableParallelism() : Number(value)))
      .pipe(z.number({ message: "must be a number or 'auto'" }).int({ message: "must be a whole number or 'auto'" }).min(1).max(64)),
    SESSION_SECRET: z
      .string()
      .optional()
      .transform((value) => value || undefined)
      .pipe(z.string().min(32, { message: 'must be at least 32 characters' }).optional()),
    /** The master key that wraps the data keys of owners' provider keys: 32 bytes as 64 hex digits or base64. */
    KEY_ENCRYPTION_KEY: z
      .string()
      .optional()
      .transform((value) => value?.trim() || undefined)
      .pipe(z.string().regex(MASTER_KEY_PATTERN, { message: 'must be 32 bytes as 64 hex digits or base64 (openssl rand -base64 32)' }).optional()),
    /** Previous master keys, comma-separated, kept to open what they wrapped until the rotation command has run. */
    KEY_ENCRYPTION_KEY_PREVIOUS: list('').pipe(
      z.array(z.string().regex(MASTER_KEY_PATTERN, { message: 'each must be 32 bytes as 64 hex digits or base64' })),
    ),
    SESSION_COOKIE_NAME: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/, { message: 'may only contain letters, digits, dot, dash and underscore' })
      .default('careerbot.session-token'),
    PUBLIC_URL: optionalUrl,
    ALLOWED_ORIGINS: list('').pipe(z.array(origin)),
    TRUST_PROXY: trustProxy,
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    OPENAI_BASE_URL: optionalUrl,
    ANTHROPIC_BASE_URL: optionalUrl,
    GEMINI_BASE_URL: optionalUrl,
    LLM_TIMEOUT_MS: integer(30_000, 100, 600_000),
    /** How long one uploaded CV may take to parse (in its worker thread) before it is refused. */
    CV_PARSE_TIMEOUT_MS: integer(10_000, 50, 120_000),
    /** The backstop of a drain after SIGTERM: sockets still open then are cut. Unset: LLM_TIMEOUT_MS + 15 s. */
    SHUTDOWN_TIMEOUT_MS: optionalInteger(1_000, 900_000),
    AZURE_OPENAI_ALLOWED_HOSTS: list(DEFAULT_AZURE_HOSTS).pipe(
      z.array(z.string().min(1)).min(1, { message: 'must name at least one host suffix' }),
    ),
    EMBEDDING_MODEL: z.string().trim().min(1).default('text-embedding-3-small'),
    SMTP_URL: optionalUrl,
    MAIL_FROM: z.string().trim().default('Career Bot Platform <no-reply@localhost>'),
    /** Prometheus metrics on their own listener (off when unset), on loopback unless METRICS_HOST says otherwise. */
    METRICS_PORT: optionalInteger(0, 65535),
    METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),
    /** Also serve GET /metrics on the main port, to a bearer of this token (at least 24 characters). */
    METRICS_TOKEN: z
      .string()
      .optional()
      .transform((value) => value || undefined)
      .pipe(z.string().min(24, { message: 'must be at least 24 characters' }).optional()),
  })
  .superRefine((config, ctx) => {
    if (config.SHUTDOWN_TIMEOUT_MS !== undefined && config.SHUTDOWN_TIMEOUT_MS <= config.LLM_TIMEOUT_MS)
      ctx.addIssue({ code: 'custom', path: ['SHUTDOWN_TIMEOUT_MS'], message: 'must be longer than LLM_TIMEOUT_MS, so a chat in flight can finish' });
  })
  .transform(({ SHUTDOWN_TIMEOUT_MS, ...config }) => ({ ...config, SHUTDOWN_TIMEOUT_MS: SHUTDOWN_TIMEOUT_MS ?? config.LLM_TIMEOUT_MS + 15_000 }));

export type Config = z.infer<typeof configSchema>;

export type ConfigResult = { ok: true; config: Config } | { ok: false; message: string };

/** Parses the environment; on failure the message names every bad variable. */
export const parseConfig = (env: NodeJS.ProcessEnv): ConfigResult => {
  const parsed = configSchema.safeParse(env);
  const lines = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  // Checked on the raw environment so it is reported together with every other problem.
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    lines.push('  SESSION_SECRET: is required when NODE_ENV=production');
  }
  if (env.NODE_ENV === 'production' && !env.KEY_ENCRYPTION_KEY?.trim()) {
    lines.push('  KEY_ENCRYPTION_KEY: is required when NODE_ENV=production');
  }
  if (parsed.success && lines.length === 0) return { ok: true, config: parsed.data };
  return { ok: false, message: `Invalid configuration:\n${lines.join('\n')}` };
};
