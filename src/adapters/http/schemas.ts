import { z } from 'zod';
import { CHAT_MESSAGE_MAX_CHARS, MAX_RATE_LIMITS, RATE_LIMIT_WORDS } from '../../domain/bot-rules.ts';
import { decodeCursor } from '../../domain/pagination.ts';
import { MAX_EMBED_ORIGINS, parseEmbedOrigin } from '../../domain/embed-origins.ts';
import { DEPLOYMENT_MODES, LLM_PROVIDERS, PERSONALITIES } from '../../domain/types.ts';
import {
  boundedText,
  emailAddress,
  hasVisibleCharacter,
  OBJECT_EXPECTED,
  trimInvisible,
  trimmedString,
  validationDetails,
} from '@careerbot/chat-protocol';

// The zod schemas that validate requests. The OpenAPI document is generated from these
// same objects, so what is documented is what is enforced.

export { boundedText, emailAddress, hasVisibleCharacter, OBJECT_EXPECTED, trimInvisible, trimmedString, validationDetails };

// ---------------------------------------------------------------- accounts

export const registerBody = z.object(
  {
    username: trimmedString()
      .toLowerCase()
      .regex(/^[a-z0-9][a-z0-9_-]{2,29}$/, {
        message: 'Must be 3-30 characters of a-z, 0-9, _ or -, starting with a letter or digit',
      })
      .meta({
        // What is accepted before trimming and lower-casing.
        pattern: '^\\s*[A-Za-z0-9][A-Za-z0-9_-]{2,29}\\s*$',
        description: 'Trimmed and lower-cased, then 3-30 characters of a-z, 0-9, _ or -, starting with a letter or digit',
      }),
    email: emailAddress,
    password: z
      .string({ error: 'Expected a string' })
      .refine((value) => Buffer.byteLength(value, 'utf8') >= 8, { message: 'Must be at least 8 characters', abort: true })
      .refine((value) => Buffer.byteLength(value, 'utf8') <= 72, { message: 'Must be at most 72 bytes' })
      .meta({
        minLength: 8,
        maxLength: 72,
        description: '8 to 72 bytes (UTF-8), not characters; longer passwords are refused, not truncated',
      }),
  },
  OBJECT_EXPECTED,
);

export const credentialsBody = z.object({
  csrfToken: z.string().optional(),
  email: z.string().optional().meta({ description: 'An e-mail address or a username' }),
  password: z.string().optional(),
  callbackUrl: z.string().optional().meta({ description: 'Same-origin path to go to after sign-in' }),
  json: z.union([z.boolean(), z.string()]).optional(),
});

export const signOutBody = z.object({
  csrfToken: z.string().optional(),
  callbackUrl: z.string().optional(),
  json: z.union([z.boolean(), z.string()]).optional(),
});

// ---------------------------------------------------------------- bots

/** Fields that look like an LLM key: refused, so a key can never be stored with the bot. */
const KEY_LIKE_FIELDS = ['apiKey', 'llmApiKey', 'api_key', 'key', 'x-llm-api-key'] as const;

const optionalText = (max: number) =>
  z
    .union([boundedText(0, max), z.null()])
    .optional()
    .transform((value) => (value ? value : null));

export const botUpsertBody = z
  .looseObject(
    {
      name: boundedText(1, 100),
      headline: optionalText(120),
      personality: z.enum(PERSONALITIES),
      contextText: boundedText(1, 50_000),
      suggestedQuestions: z.array(boundedText(1, 200)).max(6, { message: 'At most 6 questions' }),
      llmProvider: z.enum(LLM_PROVIDERS),
      llmModel: optionalText(60).meta({
        description: 'Provider model id, or the Azure deployment name (required for azure). Defaults per provider.',
      }),
    },
    OBJECT_EXPECTED,
  )
  .superRefine((body, ctx) => {
    for (const field of KEY_LIKE_FIELDS) {
      if (field in body) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'LLM keys must not be sent with the bot' });
      }
    }
    if (body.llmProvider === 'azure' && !body.llmModel) {
      ctx.addIssue({ code: 'custom', path: ['llmModel'], message: 'Required for azure: the deployment name' });
    }
  })
  .transform(({ name, headline, personality, contextText, suggestedQuestions, llmProvider, llmModel }) => ({
    name,
    headline,
    personality,
    contextText,
    suggestedQuestions,
    llmProvider,
    llmModel,
  }))
  .meta({
    // The refinements above, as JSON Schema states them: no key-like field, and azure names its deployment.
    propertyNames: { not: { enum: [...KEY_LIKE_FIELDS] } },
    if: { properties: { llmProvider: { const: 'azure' } }, required: ['llmProvider'] },
    then: { required: ['llmModel'], properties: { llmModel: { type: 'string', pattern: '\\S' } } },
  });

const rateLimit = (max: number) =>
  z
    .number({ error: 'Expected a whole number or null' })
    .int({ message: RATE_LIMIT_WORDS.whole })
    .min(1, { message: RATE_LIMIT_WORDS.atLeastOne })
    .max(max, { message: RATE_LIMIT_WORDS.atMost(max) })
    .nullable()
    .optional();

/** The sites allowed to embed the chat: origins, normalised and without repeats. */
const embedOrigins = z
  .array(z.string({ error: 'Expected a string' }).max(300, { message: 'Must be at most 300 characters' }), { error: 'Expected a list of origins' })
  .max(MAX_EMBED_ORIGINS, { message: `At most ${MAX_EMBED_ORIGINS} sites` })
  .transform((values, ctx) => {
    const origins: string[] = [];
    values.forEach((value, index) => {
      const parsed = parseEmbedOrigin(value.trim());
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `Site ${index + 1} ${parsed.reason}` });
      else if (!origins.includes(parsed.origin)) origins.push(parsed.origin);
    });
    return origins;
  })
  .optional()
  .meta({
    description: `Origins allowed to embed the managed widget (the embed page's CSP frame-ancestors), at most ${MAX_EMBED_ORIGINS}: https://host[:port], or http://localhost[:port]. An empty list allows any site.`,
  });

export const botSettingsBody = z.object(
  {
    isActive: z.boolean().optional(),
    themeColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, { message: 'Must be a colour like #4f46e5' })
      .transform((value) => value.toLowerCase())
      .optional(),
    deploymentMode: z.enum(DEPLOYMENT_MODES).optional(),
    rateLimits: z
      .object(
        {
          perMinute: rateLimit(MAX_RATE_LIMITS.perMinute).meta({ description: 'Requests per minute; null restores the default (10)' }),
          perDay: rateLimit(MAX_RATE_LIMITS.perDay).meta({ description: 'Requests per day; null restores the default (50)' }),
        },
        { error: 'Expected an object' },
      )
      .nullable()
      .optional()
      // decisions §6: null stands for the default, here both of them.
      .transform((limits) => (limits === null ? { perMinute: null, perDay: null } : limits))
      .meta({ description: 'Per-bot limits; null restores both defaults' }),
    embedOrigins,
  },
  OBJECT_EXPECTED,
);

// ---------------------------------------------------------------- chat

export const chatBody = z.object({ message: boundedText(1, CHAT_MESSAGE_MAX_CHARS) }, OBJECT_EXPECTED);

// ---------------------------------------------------------------- owner lists

export const pageQuery = z.object({
  limit: z.coerce
    .number({ error: 'Expected a whole number' })
    .int({ message: 'Expected a whole number' })
    .min(1, { message: 'Must be at least 1' })
    .max(100, { message: 'Must be at most 100' })
    .default(20)
    .meta({ description: 'Items per page, 1-100 (default 20)' }),
  cursor: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value === '') return null;
      const cursor = decodeCursor(value);
      if (!cursor) ctx.addIssue({ code: 'custom', message: 'Invalid cursor' });
      return cursor;
    })
    .meta({ description: "The previous page's nextCursor" }),
});

export const notificationsQuery = pageQuery.extend({
  unread: z
    .enum(['true', 'false'], { error: "Expected 'true' or 'false'" })
    .optional()
    .transform((value) => value === 'true')
    .meta({ description: 'true: unread notifications only' }),
});

export const accountSettingsBody = z.object(
  { notifyLeadsEmail: z.boolean({ error: 'Expected true or false' }).optional() },
  OBJECT_EXPECTED,
);
