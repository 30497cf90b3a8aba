/**
 * The guardrails: what the service lets through to a model and back. The only entry the
 * rest of the code may import (a lint rule says so): the visitor-message check, its block
 * reasons, and the reply sanitiser.
 *
 * Inside: `normalization.ts` (text normalisation, tokens, decoders of encodings),
 * `message-rules.ts` (the lexicon, the scanner and the rules of the visitor-message check),
 * `output-filter.ts` (the reply sanitiser) and `arena.ts` (reusable buffers for the scanner).
 */
export { BLOCK_REASONS, checkVisitorMessage, type BlockReason, type MessageVerdict } from './message-rules.ts';
export { FALLBACK_REPLY, REMOVED, sanitizeReply, type ReplyContext } from './output-filter.ts';
