/**
 * The visitor-message check: the rules first, where they are sure; then the learned scorer, which
 * catches what the rules miss when it finds a window of the message attack-like enough.
 */
import type { MessageVerdict } from './block-reasons.ts';
import { LEARNED_SCORER, type WindowScores } from './learned-scorer.ts';
import { readMessage, ruleVerdict, type MessageReading } from './message-rules.ts';

/** The scorer's verdict on a message, and the score it came from. */
export function modelVerdict(reading: MessageReading, scorer = LEARNED_SCORER): { verdict: MessageVerdict; score: WindowScores } {
  const score = scorer.score(reading.texts);
  return { verdict: score.attack >= scorer.threshold ? { blocked: true, reason: score.reason } : { blocked: false }, score };
}

/** Decides whether a visitor's message is an attack on the bot, and which kind. */
export function checkVisitorMessage(message: string): MessageVerdict {
  const reading = readMessage(message);
  const rules = ruleVerdict(reading);
  return rules.blocked ? rules : modelVerdict(reading).verdict;
}
