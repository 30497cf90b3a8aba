/**
 * The guardrails: what the service lets through to a model and back. The only entry the rest of
 * the code may import (a lint rule says so): the visitor-message check, created with the scorer's
 * model (`@careerbot/guardrails/model` ships it), its block reasons, and the reply cleaner (`createReplyCleaner`).
 * See the package's README for its files.
 */
export { BLOCK_REASONS, type BlockReason, type MessageVerdict } from './block-reasons.ts';
export type { ScorerModel } from './learned-scorer.ts';
export { createMessageCheck, type MessageCheck } from './message-check.ts';
export { createReplyCleaner, FALLBACK_REPLY, REMOVED, type ReplyCleaner, type ReplyContext, type StreamingReplyCleaner } from './output-filter.ts';
