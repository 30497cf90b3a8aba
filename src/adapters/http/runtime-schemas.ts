import { z } from 'zod';
import { boundedText, emailAddress, OBJECT_EXPECTED, transcriptMessage, trimInvisible, uuidText } from '@careerbot/chat-protocol';
import { BLOCK_REASONS } from '@careerbot/guardrails';
import { CHAT_MESSAGE_MAX_CHARS } from '../../domain/bot-rules.ts';

// Request bodies of the bot runtime API (/api/v1/bot/*) and of the owner's token routes.
// The OpenAPI document is generated from these same objects.

const uuid = uuidText();

export const knowledgeBody = z.object(
  {
    query: boundedText(1, 2_000),
    embeddingApiKey: z
      .string({ error: 'Expected a string or null' })
      .overwrite(trimInvisible)
      .max(1_000, { message: 'Must be at most 1000 characters' })
      .nullable()
      .optional()
      .transform((value) => value || undefined)
      .meta({
        description: 'Your own OpenAI key for embeddings. Absent, null or blank: the whole context is returned (full_context).',
      }),
  },
  OBJECT_EXPECTED,
);

export const conversationBody = z.object(
  {
    sessionId: uuid,
    messages: z
      .array(transcriptMessage, { error: 'Expected an array of messages' })
      .min(1, { message: 'At least 1 message' })
      .max(200, { message: 'At most 200 messages' }),
  },
  OBJECT_EXPECTED,
);

export const leadBody = z.object(
  {
    email: emailAddress,
    conversationId: uuid
      .nullable()
      .optional()
      .transform((value) => value ?? null)
      .meta({ description: 'A conversation of this bot, as returned by a conversation save' }),
    contextSummary: boundedText(0, 2_000)
      .nullable()
      .optional()
      .transform((value) => value || null),
  },
  OBJECT_EXPECTED,
);

export const refusedMessageBody = z.object(
  {
    id: uuid.meta({ description: 'The runtime’s id for this refusal: a report sent again under the same id is kept once' }),
    reason: z.enum(BLOCK_REASONS, { error: `Expected one of ${BLOCK_REASONS.join(', ')}` }),
    content: boundedText(1, CHAT_MESSAGE_MAX_CHARS).meta({ description: 'The visitor’s message as they wrote it' }),
  },
  OBJECT_EXPECTED,
);

export const botTokenBody = z.object(
  {
    name: boundedText(1, 80),
    expiresInDays: z
      .number({ error: 'Expected a whole number or null' })
      .int({ message: 'Expected a whole number' })
      .min(1, { message: 'Must be at least 1' })
      .max(365, { message: 'Must be at most 365' })
      .nullable()
      .optional()
      .meta({ description: 'Days until the token stops working; no expiry when absent or null' }),
  },
  OBJECT_EXPECTED,
);
