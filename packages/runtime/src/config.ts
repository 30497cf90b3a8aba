import { z } from 'zod';

// The runtime's environment, checked at start-up: one message names every bad variable, and no
// message ever repeats a value (the key and the token are among them).

const PROVIDERS = ['anthropic', 'openai', 'google', 'azure'] as const;
export type Provider = (typeof PROVIDERS)[number];

const BOT_TOKEN = /^cbt_[0-9a-f]{64}$/;

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);

const url = z.string({ message: 'is required' }).trim().pipe(z.url({ message: 'must be an absolute URL such as https://careerbot.example.com' }));

const optionalUrl = optionalText.pipe(z.url({ message: 'must be an absolute URL' }).optional());

const integer = (fallback: number, min: number, max: number) =>
  z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(min, { message: `must be at least ${min}` })
    .max(max, { message: `must be at most ${max}` })
    .default(fallback);

const origins = z
  .string()
  .default('')
  .transform((value, ctx) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)
      .map((item) => {
        try {
          const parsed = new URL(item);
          if (parsed.origin === 'null') throw new Error('opaque origin');
          return parsed.origin;
        } catch {
          ctx.addIssue({ code: 'custom', message: 'each entry must be an origin such as https://example.com' });
          return z.NEVER;
        }
      }),
  );

/** How many proxies in front of the runtime append to X-Forwarded-For: 0 (the default) trusts none. */
const trustProxy = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx) => {
    if (value === 'false' || value === '' || value === '0') return 0;
    if (value === 'true') return 1;
    if (/^\d{1,2}$/.test(value)) return Number(value);
    ctx.addIssue({ code: 'custom', message: 'must be true, false, or the number of proxies in front of the runtime' });
    return z.NEVER;
  });

export const runtimeConfigSchema = z
  .object({
    CAREERBOT_URL: url.transform((value) => value.replace(/\/+$/, '')),
    CAREERBOT_TOKEN: z.string({ message: 'is required' }).trim().regex(BOT_TOKEN, { message: 'must be a bot token minted in the dashboard (cbt_ and 64 hex digits)' }),
    LLM_PROVIDER: z.enum(PROVIDERS, { message: `must be one of ${PROVIDERS.join(', ')}` }),
    LLM_MODEL: optionalText,
    LLM_API_KEY: z.string({ message: 'is required' }).trim().min(1, { message: 'is required' }),
    AZURE_OPENAI_ENDPOINT: optionalUrl,
    EMBEDDING_API_KEY: optionalText,
    ALLOWED_ORIGINS: origins,
    PORT: integer(8787, 0, 65535),
    HOST: z.string().trim().min(1).default('0.0.0.0'),
    OPENAI_BASE_URL: optionalUrl,
    ANTHROPIC_BASE_URL: optionalUrl,
    GEMINI_BASE_URL: optionalUrl,
    MESSAGES_PER_MINUTE_PER_VISITOR: integer(10, 1, 1_000_000),
    MESSAGES_PER_DAY: integer(1_000, 1, 10_000_000),
    TRUST_PROXY: trustProxy,
    LLM_TIMEOUT_MS: integer(30_000, 100, 600_000),
    /** How long the platform's config and knowledge are used before they are revalidated. */
    CACHE_SECONDS: integer(30, 1, 86_400),
    /** Transcript saves and leads kept for the platform while it cannot be reached. */
    QUEUE_LIMIT: integer(1_000, 1, 100_000),
    LOG_LEVEL: z.enum(['error', 'warn', 'info', 'silent'], { message: 'must be error, warn, info or silent' }).default('info'),
  })
  .superRefine((config, ctx) => {
    if (config.LLM_PROVIDER !== 'azure') return;
    if (!config.AZURE_OPENAI_ENDPOINT) ctx.addIssue({ code: 'custom', path: ['AZURE_OPENAI_ENDPOINT'], message: 'is required when LLM_PROVIDER is azure' });
    if (!config.LLM_MODEL) ctx.addIssue({ code: 'custom', path: ['LLM_MODEL'], message: 'is required when LLM_PROVIDER is azure: the name of your deployment' });
  });

export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export type RuntimeConfigResult = { ok: true; config: RuntimeConfig } | { ok: false; message: string };

/** Parses the environment; on failure the message names every bad variable, never its value. */
export const parseRuntimeConfig = (env: Record<string, string | undefined>): RuntimeConfigResult => {
  const parsed = runtimeConfigSchema.safeParse(env, { reportInput: false });
  if (parsed.success) return { ok: true, config: parsed.data };
  const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
  return { ok: false, message: ['careerbot-runtime: invalid configuration:', ...lines].join('\n') };
};
