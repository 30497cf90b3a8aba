/**
 * The guardrails as the training and evaluation scripts see them: each half of the check on its
 * own, and the scorer's pieces. The service does not import this file (a lint rule says so).
 */
import type { MessageVerdict } from './block-reasons.ts';
import { readMessage, ruleVerdict } from './message-rules.ts';
import { LEARNED_SCORER, type LearnedScorer } from './learned-scorer.ts';
import { checkVisitorMessage, modelVerdict, vetoes } from './visitor-check.ts';

export { BUCKETS, FeatureReader } from './features.ts';
export { CLASSES, LearnedScorer, type ScorerClass, type ScorerModel } from './learned-scorer.ts';

/** The texts the scorer reads for a message: normalised, then each decoded reading. */
export function readingsOf(message: string): string[] {
  return readMessage(message).texts;
}

export interface SplitVerdicts {
  rules: MessageVerdict;
  model: MessageVerdict;
  combined: MessageVerdict;
  /** 1 - P(benign) of the most attack-like window. */
  attack: number;
}

/** Each decider on its own, for timing: each reads the message as the check does. */
export const DECIDERS: Record<'rules' | 'model' | 'combined', (message: string) => MessageVerdict> = {
  rules: (message) => ruleVerdict(readMessage(message)),
  model: (message) => modelVerdict(readMessage(message)).verdict,
  combined: checkVisitorMessage,
};

/** The rules alone, the scorer alone, and both as checkVisitorMessage combines them. */
export function verdictsOf(message: string, scorer: LearnedScorer = LEARNED_SCORER): SplitVerdicts {
  const reading = readMessage(message);
  const rules = ruleVerdict(reading);
  const { verdict: model, score } = modelVerdict(reading, scorer);
  const combined = rules.blocked ? (vetoes(reading, scorer) ? { blocked: false as const } : rules) : model;
  return { rules, model, combined, attack: score.attack };
}
