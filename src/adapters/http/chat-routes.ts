import { Router } from 'express';
import { z } from 'zod';
import { CHAT_BODY_LIMIT, SSE_HEADERS, wantsEventStream, writeEventStream } from '@careerbot/chat-protocol';
import { BLOCK_REASONS } from '@careerbot/guardrails';
import type { ChatStreamEvent, makeSendChatMessage, makeStreamChatMessage } from '../../application/send-chat-message.ts';
import type { Response } from 'express';
import { chatErrorReply, PROTOCOL, reply } from './http-errors.ts';
import { bodyRefusals, errorBody, HEADERS, type OperationDoc } from './operation-doc.ts';
import { isJsonContentType } from './request-body.ts';
import { chatBody } from './schemas.ts';
import { jsonBody } from './validated.ts';


export const chatOperations: OperationDoc[] = [
  {
    method: 'post',
    path: '/api/chat/{botId}',
    tag: 'Chat',
    summary: 'Send a visitor message to a bot',
    description: `Checked in this order, the first failing step deciding: content type (415), body size over ${CHAT_BODY_LIMIT} bytes (413), JSON (400 invalid_json), message 1-8,000 code points after trimming (400 validation_failed), active bot (404), per-bot rate limit (429 rate_limit), message filter (400 blocked), who pays (the visitor's \`x-llm-api-key\` wins; without one, the owner's stored key if the owner switched it on and it is not paused, within its daily cap (429 daily_limit_reached); without either, 400 missing_llm_key), provider dispatch (Azure endpoint: 400 missing_llm_key), provider call, reply cleaning. The owner's provider and model answer; the caller cannot choose them. CORS: any origin, no credentials.`,
    security: 'llmKey',
    body: chatBody,
    headers: [
      { name: 'x-llm-azure-endpoint', required: false, description: 'Required when the owner’s provider is azure; must be on the allowed hosts' },
      { name: 'x-llm-azure-api-version', required: false, description: 'Azure only; default 2024-10-21' },
    ],
    responses: {
      200: {
        description:
          'The cleaned reply (never empty). With `Accept: text/event-stream`, once the provider wrote its first words, server-sent events instead: `event: delta` with `{"text"}` as the cleaned reply grows, then one `event: done` with `{"reply"}` (the whole cleaned reply, the deltas joined), or `event: error` with `{"error": "provider_unavailable"}` when the provider fails mid-answer; a comment line every 15 s of silence. Every failure before the first words keeps its JSON status and body.',
        schema: z.object({ reply: z.string().min(1) }),
        otherContent: { 'text/event-stream': z.string() },
      },
      ...bodyRefusals('code', '16,384 bytes', {
        description: 'Missing key, invalid JSON, validation failed, blocked by the message filter, or a key the provider rejected',
        bodies: [errorBody('missing_llm_key'), errorBody('blocked', { reason: z.enum(BLOCK_REASONS) }), errorBody('invalid_llm_key')],
      }),
      404: { description: 'Unknown or inactive bot', schema: errorBody('bot_not_found') },
      415: { description: 'Content-Type is not application/json', schema: errorBody('unsupported_media_type') },
      429: {
        description: 'The bot’s rate limit (short: per minute, long: per day), the provider’s, or the daily cap of messages answered with the owner’s key',
        schema: z.union([
          errorBody('rate_limit', {
            scope: z.enum(['short', 'long']),
            resetAt: z.number().int().meta({ description: 'Epoch milliseconds' }),
          }),
          errorBody('provider_rate_limit'),
          errorBody('daily_limit_reached', {
            resetAt: z.number().int().meta({ description: 'Epoch milliseconds: the next UTC midnight' }),
          }),
        ]),
        headers: HEADERS.retryAfter,
      },
      502: { description: 'Provider down, timed out, or answered something unusable', schema: errorBody('provider_unavailable') },
    },
  },
];
const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : '');

/**
 * Writes the events of a streamed reply. A visitor who leaves (the connection closes first)
 * aborts `leave`, and the events are left early, which aborts the provider call.
 */
const sendEvents = (res: Response, events: AsyncIterable<ChatStreamEvent>, leave: AbortController): Promise<void> => {
  res.writeHead(200, SSE_HEADERS);
  // The headers leave now, and in the same packet as the first words when those are ready in this
  // tick (they usually are: the events start once the provider wrote them). Each write is a syscall.
  res.socket?.cork();
  res.flushHeaders();
  process.nextTick(() => res.socket?.uncork());
  return writeEventStream(events, { write: (text) => res.write(text), end: () => res.end(), left: () => leave.signal.aborted });
};

/** Step 1 (content type), 3-5 (size, JSON, validation), then the use case (steps 6-13). */
export const chatRoutes = (d: {
  sendChatMessage: ReturnType<typeof makeSendChatMessage>;
  streamChatMessage: ReturnType<typeof makeStreamChatMessage>;
}): Router => {
  const router = Router();

  router.post(
    '/:botId',
    (req, res, next) => {
      if (!isJsonContentType(req)) return reply(res, PROTOCOL.unsupportedMediaType);
      next();
    },
    jsonBody({ schema: chatBody, limit: CHAT_BODY_LIMIT, style: 'code' }, async (req, res, body) => {
      const input = {
        botId: String(req.params.botId),
        message: body.message,
        apiKey: header(req.headers['x-llm-api-key']),
        azureEndpoint: header(req.headers['x-llm-azure-endpoint']) || undefined,
        azureApiVersion: header(req.headers['x-llm-azure-api-version']) || undefined,
      };
      if (wantsEventStream(req.headers.accept)) {
        const leave = new AbortController();
        res.on('close', () => {
          if (!res.writableFinished) leave.abort();
        });
        const streamed = await d.streamChatMessage(input, leave.signal);
        if (!streamed.ok) return reply(res, chatErrorReply(streamed.error, Date.now()));
        return sendEvents(res, streamed.value.events, leave);
      }
      const result = await d.sendChatMessage(input);
      if (!result.ok) return reply(res, chatErrorReply(result.error, Date.now()));
      res.json({ reply: result.value.reply });
    }),
  );

  return router;
};
