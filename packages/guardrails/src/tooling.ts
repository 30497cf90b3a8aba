/**
 * The guardrails as the training and evaluation scripts see them: each half of the check on its
 * own, and the scorer's pieces. The service does not import this file (a lint rule says so).
 */
import type { MessageVerdict } from './block-reasons.ts';
import type { LearnedScorer } from './learned-scorer.ts';
import { checkWith, modelVerdict, reasonOf, reviewRuleMatch, ruleFindings } from './message-check.ts';
export { scoredTexts } from './message-check.ts';
import { MessageReader } from './message-reader.ts';
import { ruleVerdict } from './rules/index.ts';

export { BUCKETS, FeatureReader } from './features.ts';
export { CLASSES, LearnedScorer, type ScorerClass, type ScorerModel } from './learned-scorer.ts';
export { MessageReader } from './message-reader.ts';
export { SCORER_MODEL } from './scorer-model.ts';

export interface SplitVerdicts {
  rules: MessageVerdict;
  model: MessageVerdict;
  combined: MessageVerdict;
  /** 1 - P(benign) of the most attack-like window. */
  attack: number;
  /**
   * The highest review the scorer gives a passage a rule matched (1 when one could not be located),
   * or null when no rule matched: the message stays blocked by the rules under any lower veto.
   * Every passage is reviewed here, also those a job document does not address to the bot.
   */
  review: number | null;
}

export interface SplitCheck {
  /** The rules alone, the scorer alone, and both as the check combines them. */
  verdictsOf(message: string): SplitVerdicts;
  /** Each decider on its own, for timing: each reads the message as the check does. */
  deciders: Record<'rules' | 'model' | 'combined', (message: string) => MessageVerdict>;
}

/** The check taken apart, over one reader of its own and the given scorer. */
export function createSplitCheck(scorer: LearnedScorer): SplitCheck {
  const reader = new MessageReader();
  return {
    verdictsOf(message) {
      const reading = reader.read(message);
      const rules = ruleVerdict(reading);
      const finding = reviewRuleMatch(reading, reader, scorer);
      const combined = finding !== null && !finding.overruled ? { blocked: true as const, reason: reasonOf(finding, message, reading) } : undefined;
      let review: number | null = null;
      if (rules.blocked) for (const f of ruleFindings(reading, reader, scorer, false)) review = Math.max(review ?? 0, f.review);
      const { verdict: model, score } = modelVerdict(reading, scorer);
      return { rules, model, combined: combined ?? model, attack: score.attack, review };
    },
    deciders: {
      rules: (message) => ruleVerdict(reader.read(message)),
      model: (message) => modelVerdict(reader.read(message), scorer).verdict,
      combined: (message) => checkWith(reader, scorer, message),
    },
  };
}
