import { Router } from 'express';
import type { makeSendChatMessage } from '../../application/send-chat-message.ts';
import { chatErrorReply, PROTOCOL, reply } from './http-errors.ts';
import { isJsonContentType } from './request-body.ts';
import { chatBody } from './schemas.ts';
import { jsonBody } from './validated.ts';

export const CHAT_BODY_LIMIT = 16_384;

const header = (value: string | string[] | undefined) => (typeof value === 'string' ? value.trim() : '');

/** Steps 1-2 (content type, key), 3-5 (size, JSON, validation), then the use case (steps 6-13). */
export const chatRoutes = (d: { sendChatMessage: ReturnType<typeof makeSendChatMessage> }): Router => {
  const router = Router();

  router.post(
    '/:botId',
    (req, res, next) => {
      if (!isJsonContentType(req)) return reply(res, PROTOCOL.unsupportedMediaType);
      if (!header(req.headers['x-llm-api-key'])) return reply(res, PROTOCOL.missingLlmKey);
      next();
    },
    jsonBody({ schema: chatBody, limit: CHAT_BODY_LIMIT, style: 'code' }, async (req, res, body) => {
      const result = await d.sendChatMessage({
        botId: String(req.params.botId),
        message: body.message,
        apiKey: header(req.headers['x-llm-api-key']),
        azureEndpoint: header(req.headers['x-llm-azure-endpoint']) || undefined,
        azureApiVersion: header(req.headers['x-llm-azure-api-version']) || undefined,
      });
      if (!result.ok) return reply(res, chatErrorReply(result.error, Date.now()));
      res.json({ reply: result.value.reply });
    }),
  );

  return router;
};
