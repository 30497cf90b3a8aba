/**
 * The guardrails: what the service lets through to a model and back. The only entry the
 * rest of the code may import (a lint rule says so): the visitor-message check, its block
 * reasons, and the reply sanitiser.
 *
 * Inside, each file by its job:
 * - `normalization.ts`: text normalisation, tokens, decoders of encodings;
 * - `lexicon.json` and `lexicon.ts`: the rules' word classes and glosses, as data;
 * - `message-rules.ts`: the scanner of a message and its decoded readings, and the rules;
 * - `features.ts` and `learned-scorer.ts`: the learned scorer's hashed n-grams and its model,
 *   `scorer-model.json`, which `npm run train:guardrails` rebuilds;
 * - `visitor-check.ts`: the rules and the scorer combined;
 * - `output-filter.ts`: the reply sanitiser;
 * - `tooling.ts`: the entry of the training and evaluation scripts, and of nothing else.
 */
export { BLOCK_REASONS, type BlockReason, type MessageVerdict } from './block-reasons.ts';
export { checkVisitorMessage } from './visitor-check.ts';
export { FALLBACK_REPLY, REMOVED, sanitizeReply, type ReplyContext } from './output-filter.ts';
