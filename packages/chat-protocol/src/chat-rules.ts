/** A chat request's body, in bytes, however its Content-Length reads. */
export const CHAT_BODY_LIMIT = 16_384;
export const CHAT_MAX_OUTPUT_TOKENS = 800;
export const CHAT_TEMPERATURE = 0.3;
