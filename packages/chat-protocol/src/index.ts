/**
 * What the platform's chat and the self-hosted runtime say alike on the wire: the text rules of
 * request bodies, the chat's limits and error bodies, and a streamed reply's events as SSE.
 */
export { CHAT_BODY_LIMIT, CHAT_MAX_OUTPUT_TOKENS, CHAT_TEMPERATURE } from './chat-rules.ts';
export { chatErrorReply, limitReply, providerRateLimitReply, retryAfterSeconds, type ChatError, type ErrorReply } from './chat-errors.ts';
export {
  cleanedEvents,
  SSE_HEADERS,
  SSE_HEARTBEAT_MS,
  sseFrame,
  wantsEventStream,
  writeEventStream,
  type ChatStreamEvent,
} from './chat-events.ts';
export {
  boundedText,
  emailAddress,
  hasVisibleCharacter,
  OBJECT_EXPECTED,
  transcriptMessage,
  trimInvisible,
  trimmedString,
  uuidText,
  validationDetails,
} from './text-fields.ts';
export { LONE_SURROGATE_MESSAGE, parseJsonText, type ParsedJson } from './json-text.ts';
