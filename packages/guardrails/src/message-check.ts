/**
 * The visitor-message check: the rules first; then the learned scorer, which catches what the rules
 * miss when it finds a window of the message attack-like enough. A rule's match always stands.
 */
import type { MessageVerdict } from './block-reasons.ts';
import { LearnedScorer, type ScorerModel, type WindowScores } from './learned-scorer.ts';
import { MessageReader, type MessageReading } from './message-reader.ts';
import { ruleVerdict } from './rules/index.ts';

export interface MessageCheck {
  /** Decides whether a visitor's message is an attack on the bot, and which kind. */
  checkVisitorMessage(message: string): MessageVerdict;
}

/**
 * A check that reads with its own reader (whose memory it reuses from message to message) and scores
 * with the given model. Create one per program, or per worker, and keep it.
 */
export function createMessageCheck(model: ScorerModel): MessageCheck {
  const reader = new MessageReader();
  const scorer = new LearnedScorer(model);
  return { checkVisitorMessage: (message) => checkWith(reader, scorer, message) };
}

/** The check, given its reader and scorer. */
export function checkWith(reader: MessageReader, scorer: LearnedScorer, message: string): MessageVerdict {
  const reading = reader.read(message);
  const rules = ruleVerdict(reading.scans);
  if (rules.blocked) return rules;
  return modelVerdict(reading, scorer).verdict;
}

/** The scorer's verdict on a message, and the score it came from. */
export function modelVerdict(reading: MessageReading, scorer: LearnedScorer): { verdict: MessageVerdict; score: WindowScores } {
  const score = scorer.score(reading.texts);
  return { verdict: score.attack >= scorer.threshold ? { blocked: true, reason: score.reason } : { blocked: false }, score };
}
